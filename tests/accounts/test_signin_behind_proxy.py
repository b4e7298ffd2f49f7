"""The sign-in lockout behind the TLS proxy README asks for: every request reaches Django from the proxy's
address, so the lockout must key on the client's address the proxy appended to X-Forwarded-For, and only that
one (a client can write anything to the left of it)."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.client_address import client_address
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"
ALICE = "198.51.100.7"
BOB = "203.0.113.9"


def through_proxy(client_address: str, forwarded: str = "") -> Client:
    """A browser at ``client_address`` behind the one proxy: the proxy connects from its own address and
    appends the address it was connected from to whatever X-Forwarded-For the browser sent."""
    chain = f"{forwarded}, {client_address}" if forwarded else client_address
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=chain, HTTP_X_FORWARDED_PROTO="https")


def sign_in(client: Client, password: str) -> int:
    return client.post(reverse("login"), {"username": "ada", "password": password}).status_code


@pytest.fixture
def one_proxy(settings):
    settings.AXES_IPWARE_PROXY_COUNT = 1


def test_a_locked_out_address_does_not_lock_the_user_out_elsewhere(one_proxy):
    UserFactory(username="ada")
    alice = through_proxy(ALICE)

    assert [sign_in(alice, "wrong") for _ in range(5)] == [200, 200, 200, 200, 429]
    assert sign_in(alice, DEFAULT_PASSWORD) == 429  # locked out at her address
    assert sign_in(through_proxy(BOB), DEFAULT_PASSWORD) == 302  # not at Bob's


def test_a_forged_forwarded_for_does_not_get_round_the_lockout(one_proxy):
    UserFactory(username="ada")

    # Each try claims a fresh address at the left of the header; the proxy appends the real one.
    codes = [sign_in(through_proxy(ALICE, forwarded=f"192.0.2.{n}"), "wrong") for n in range(5)]

    assert codes == [200, 200, 200, 200, 429]
    assert sign_in(through_proxy(ALICE, forwarded="192.0.2.99"), DEFAULT_PASSWORD) == 429
    assert sign_in(through_proxy(ALICE), DEFAULT_PASSWORD) == 429
    assert sign_in(through_proxy(BOB, forwarded=ALICE), DEFAULT_PASSWORD) == 302  # nor can Bob be framed as Alice


def test_without_a_proxy_the_forwarded_for_header_is_ignored(settings):
    settings.AXES_IPWARE_PROXY_COUNT = 0
    UserFactory(username="ada")
    for n in range(5):
        sign_in(Client(REMOTE_ADDR=ALICE, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}"), "wrong")

    assert sign_in(Client(REMOTE_ADDR=ALICE, HTTP_X_FORWARDED_FOR="192.0.2.99"), DEFAULT_PASSWORD) == 429
    assert sign_in(Client(REMOTE_ADDR=BOB), DEFAULT_PASSWORD) == 302


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (1, "192.0.2.1, 198.51.100.7", "198.51.100.7"),  # the one the proxy appended
        (2, "192.0.2.1, 198.51.100.7, 10.0.0.2", "198.51.100.7"),  # the outer proxy's, before the inner's
        (2, "198.51.100.7", PROXY),  # fewer entries than proxies: not through them all
        (1, "", PROXY),
        (1, "192.0.2.1, not-an-address", PROXY),
        (1, " 2001:db8::7 ", "2001:db8::7"),
    ],
)
def test_the_client_address_is_the_one_the_outermost_proxy_appended(settings, rf, count, forwarded, expected):
    settings.AXES_IPWARE_PROXY_COUNT = count
    request = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == expected
