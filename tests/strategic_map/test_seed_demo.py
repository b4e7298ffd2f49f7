"""manage.py seed_demo creates the demo campaign once, and prints the logins and the invitation link."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign, Invitation, Membership, Role
from strategic_map.demo import DEMO_CAMPAIGN_SLUG, DEMO_PASSWORD

pytestmark = pytest.mark.django_db


def seed(*args):
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts():
    return (
        User.objects.count(),
        Campaign.objects.count(),
        Membership.objects.count(),
        Invitation.objects.count(),
    )


def test_seed_demo_creates_the_campaign_and_prints_the_logins():
    output = seed()

    campaign = Campaign.objects.get(slug=DEMO_CAMPAIGN_SLUG)
    roles = dict(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
    assert roles == {"umpire": Role.UMPIRE, "alice": Role.PLAYER, "bob": Role.PLAYER, "carol": Role.PLAYER}
    for username in roles:
        assert User.objects.get(username=username).check_password(DEMO_PASSWORD)
        assert username in output
    assert DEMO_PASSWORD in output
    invitation = Invitation.objects.get(campaign=campaign)
    assert invitation.is_open()
    assert reverse("campaign_join", kwargs={"token": invitation.token}) in output


def test_seed_demo_prints_links_on_the_address_it_is_given(settings):
    settings.SITE_URL = "http://127.0.0.1:8000"

    output = seed("--base-url", "http://localhost:8123/")

    links = [word for word in output.split() if word.startswith("http")]
    assert len(links) == 3  # the campaign, the sign-in page, the invitation
    assert all(link.startswith("http://localhost:8123/") for link in links)
    assert "http://localhost:8123" + reverse("login") in links
    assert ":8000" not in output


@pytest.mark.parametrize(
    ("given", "printed"),
    [
        ("http://0.0.0.0:8001", "http://127.0.0.1:8001"),
        ("http://[::]:8002", "http://[::1]:8002"),
        ("https://club.example", "https://club.example"),
    ],
)
def test_seed_demo_links_name_an_address_a_browser_can_open(given, printed):
    output = seed("--base-url", given)

    assert f"Sign in at {printed}{reverse('login')} as:" in output
    assert "0.0.0.0" not in output
    assert "[::]" not in output


def test_seed_demo_without_a_base_url_prints_the_site_url(settings):
    settings.SITE_URL = "http://127.0.0.1:8000"

    output = seed()

    assert "Sign in at http://127.0.0.1:8000" + reverse("login") in output


@pytest.mark.parametrize("bad", ["127.0.0.1:8000", "ftp://127.0.0.1", "http://127.0.0.1:99999", "http://x/campaigns/"])
def test_seed_demo_refuses_a_malformed_base_url_before_writing_anything(bad):
    with pytest.raises(CommandError, match="--base-url"):
        seed("--base-url", bad)
    assert counts() == (0, 0, 0, 0)


def test_seed_demo_is_idempotent_and_keeps_changed_passwords():
    seed()
    before = counts()
    alice = User.objects.get(username="alice")
    alice.set_password("alice-changed-it-1")
    alice.save()

    output = seed()

    assert counts() == before
    assert "Nothing new to create." in output
    alice.refresh_from_db()
    assert alice.check_password("alice-changed-it-1")


def test_seed_demo_can_put_the_demo_passwords_back():
    seed()
    alice = User.objects.get(username="alice")
    alice.set_password("alice-changed-it-1")
    alice.save()

    seed("--reset-passwords")

    alice.refresh_from_db()
    assert alice.check_password(DEMO_PASSWORD)


def test_seed_demo_replaces_a_closed_invitation_link():
    seed()
    Invitation.objects.update(revoked=True)

    seed()

    assert Invitation.objects.filter(revoked=False).count() == 1


def test_seed_demo_refuses_to_run_in_production(settings):
    settings.PRODUCTION = True

    with pytest.raises(CommandError, match="development"):
        seed()
    assert counts() == (0, 0, 0, 0)


@pytest.mark.django_db
def test_the_demo_campaign_is_in_motion_on_day_0():
    """Alice at sea with a prize in tow, Bob's orders given from Parhoon, Carol on a trek, a prize at auction."""
    from campaign import ledger
    from campaign.models import Auction, CampaignShip, Captain, CaptainStatus, ShipStatus
    from strategic_map.demo import demo_seed
    from strategic_map.models import EpicTrek, TrekStatus, Voyage, VoyageStatus

    seeded = demo_seed()
    again = demo_seed()

    campaign = seeded.campaign
    captains = {c.name: c for c in Captain.objects.filter(campaign=campaign)}
    assert sorted(captains) == ["Alice Fairweather", "Catherine Vane", "Robert Drummond"]
    assert captains["Alice Fairweather"].status == CaptainStatus.AT_SEA
    assert captains["Robert Drummond"].status == CaptainStatus.AT_SEA
    assert captains["Catherine Vane"].status == CaptainStatus.TREKKING
    under_way = {v.ship.name: v for v in Voyage.objects.filter(campaign=campaign, status=VoyageStatus.UNDER_WAY)}
    assert sorted(under_way) == ["Dart", "Gull"]
    assert under_way["Gull"].plan
    assert under_way["Dart"].plan
    assert CampaignShip.objects.get(campaign=campaign, name="Red Jenny").towed_by == under_way["Dart"].ship
    assert CampaignShip.objects.get(campaign=campaign, name="Kestrel").status == ShipStatus.LOST
    assert EpicTrek.objects.get(campaign=campaign).status == TrekStatus.UNDER_WAY
    assert Auction.objects.filter(campaign=campaign, status="open").count() == 2  # the Warm Winds and her cargo
    assert again.created == 0
    assert ledger.check_campaign(campaign) == 3
