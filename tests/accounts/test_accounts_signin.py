"""Sign-in, sign-out, the axes lockout and password reset by email."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def sign_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_home_needs_sign_in(client):
    response = client.get(reverse("home"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_login_page_renders_with_labels(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<label for="id_username">' in html
    assert '<label for="id_password">' in html
    assert "csrfmiddlewaretoken" in html


def test_sign_in_then_sign_out(client):
    user = UserFactory(username="ada")

    response = sign_in(client, "ada", DEFAULT_PASSWORD)

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    home = client.get(reverse("home"))
    assert home.status_code == 200
    assert user.public_name in home.content.decode()

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("login")
    assert client.get(reverse("home")).status_code == 302


def test_sign_out_by_get_is_refused(client):
    # Django 5 signs out by POST only, so a link in an email or an <img> cannot sign you out.
    client.force_login(UserFactory())

    assert client.get(reverse("logout")).status_code == 405
    assert client.get(reverse("home")).status_code == 200


def test_wrong_password_shows_the_form_again(client):
    UserFactory(username="ada")

    response = sign_in(client, "ada", "not-the-password")

    assert response.status_code == 200
    assert "Please enter a correct" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_five_bad_passwords_lock_the_account_out(client):
    UserFactory(username="ada")

    for _ in range(4):
        assert sign_in(client, "ada", "wrong").status_code == 200

    fifth = sign_in(client, "ada", "wrong")
    assert fifth.status_code == 429
    # Locked out: even the right password is refused, with the lockout page.
    response = sign_in(client, "ada", DEFAULT_PASSWORD)
    assert response.status_code == 429
    assert "Too many sign-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_lockout_is_per_user_name(client):
    UserFactory(username="ada")
    UserFactory(username="bob")
    for _ in range(5):
        sign_in(client, "ada", "wrong")

    assert sign_in(client, "bob", DEFAULT_PASSWORD).status_code == 302


def test_password_reset_sends_a_working_link(client):
    UserFactory(username="ada", email="ada@example.com")

    response = client.post(reverse("password_reset"), {"email": "ada@example.com"})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.com"]
    assert "Red Captain" in message.subject
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", message.body).group(1)

    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert form_page.context["validlink"] is True
    set_password_url = form_page.redirect_chain[-1][0]
    response = client.post(
        set_password_url,
        {"new_password1": "a-brand-new-password-77", "new_password2": "a-brand-new-password-77"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")

    assert sign_in(client, "ada", DEFAULT_PASSWORD).status_code == 200  # the old one no longer works
    assert sign_in(client, "ada", "a-brand-new-password-77").status_code == 302


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_nothing(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302  # same answer as for a real address: no account discovery
    assert mail.outbox == []


def test_staff_reach_the_admin_and_players_do_not(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get("/admin/campaign/campaign/").status_code == 200

    client.force_login(UserFactory())
    assert client.get("/admin/campaign/campaign/").status_code == 302


def test_sign_in_and_sign_out_need_the_csrf_token():
    UserFactory(username="ada")
    client = Client(enforce_csrf_checks=True)

    assert client.post(reverse("login"), {"username": "ada", "password": DEFAULT_PASSWORD}).status_code == 403
    page = client.get(reverse("login"))
    token = page.context["csrf_token"]
    signed_in = client.post(
        reverse("login"), {"username": "ada", "password": DEFAULT_PASSWORD, "csrfmiddlewaretoken": str(token)}
    )
    assert signed_in.status_code == 302
    assert client.post(reverse("logout")).status_code == 403
