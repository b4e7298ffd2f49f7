"""Starting a campaign in the app: the service (the creator is the umpire, a unique address from the name, the
settings checked as the settings page checks them, the calendar started or held, the audit) and the "New campaign"
page (any signed-in user, bad input shown on the form with a 4xx, never a 500)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from battles import engine_io
from campaign import captains, services
from campaign.models import AuditEntry, Campaign, EncounterControl, Membership, Role
from campaign.services import campaign_create
from campaign.settings_service import SETTINGS
from campaign.views import CampaignCreateForm
from strategic_map import calendar, map_rules, mapdata
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db


# The page's tests need rules that can fight a campaign's battles on offer: Sky Galleons (the default) and a
# throwaway ruleset with a campaign bridge (tests/campaign/conftest.py); the registered duel has none.
def form_data(**changes: object) -> dict[str, object]:
    """The page's form as a browser posts it untouched (the rules' defaults), with ``changes``."""
    form = CampaignCreateForm()
    data: dict[str, object] = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else value
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.rule("SGC-START-09")
def test_a_campaign_is_created_with_its_settings_and_its_creator_as_umpire():
    organiser = UserFactory(username="organiser")
    now = timezone.now()

    campaign = campaign_create(
        name="  The   Meroe Station ",
        description="Pirates of the Astusapes.",
        created_by=organiser,
        campaign_settings={
            "hours_per_day": 12,
            "order_deadline_hours": 10,
            "starting_advance": 25_000,
            "encounter_control": "umpire",
        },
        now=now,
    )

    campaign.refresh_from_db()
    assert (campaign.name, campaign.slug) == ("The Meroe Station", "the-meroe-station")
    assert (campaign.hours_per_day, campaign.order_deadline_hours) == (12, 10)
    assert campaign.encounter_control == EncounterControl.UMPIRE
    assert Membership.objects.get(campaign=campaign, user=organiser).role == Role.UMPIRE
    # The calendar runs: day 1 ticks a campaign day from now, orders due 10 hours into it.
    assert (campaign.day, campaign.paused, campaign.next_tick_at) == (0, False, now + timedelta(hours=12))
    assert calendar.order_deadline(campaign) == now + timedelta(hours=10)
    # The map reads the reference numbers until the umpire edits them.
    assert map_rules.territory_numbers(campaign)["Astusapes"].move_through == (
        mapdata.mars_map().territories["Astusapes"].move_through
    )
    audit = AuditEntry.objects.get(campaign=campaign)
    assert (audit.action, audit.actor) == ("campaign created", organiser)
    assert audit.data["starting_advance"] == 25_000
    assert audit.data["merchant_cargo_fraction"] == "0.200"
    assert audit.data["paused"] is False

    # The advance chosen is what a player's new captain gets.
    player = UserFactory(username="player")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    assert captains.captain_found(campaign=campaign, user=player, name="Jack").balance == 25_000


def test_a_held_calendar_waits_for_the_umpire():
    campaign = campaign_create(name="Held", created_by=UserFactory(), hold_calendar=True)

    assert campaign.paused
    assert campaign.next_tick_at is None
    assert calendar.next_tick_at(campaign) is None


def test_the_address_is_unique_and_never_the_new_campaign_page():
    creator = UserFactory()
    CampaignFactory(slug="syrtis")

    assert campaign_create(name="Syrtis", created_by=creator).slug == "syrtis-2"
    assert campaign_create(name="New", created_by=creator).slug == "new-2"
    assert campaign_create(name="£££", created_by=creator).slug == "campaign"
    with pytest.raises(ValidationError, match="address"):
        campaign_create(name="Again", created_by=creator, slug="syrtis")


def test_an_address_taken_a_moment_before_the_insert_gives_the_next_one(monkeypatch):
    creator = UserFactory()
    CampaignFactory(slug="syrtis")
    answers = iter(["syrtis", "syrtis-2"])  # as if another organiser took "syrtis" after the address was chosen
    monkeypatch.setattr(services, "_unique_campaign_slug", lambda name: next(answers))

    campaign = campaign_create(name="Syrtis", created_by=creator)

    assert campaign.slug == "syrtis-2"
    assert Membership.objects.get(campaign=campaign).user == creator


@pytest.mark.parametrize(
    ("chosen", "field"),
    [
        ({"hours_per_day": 0}, "hours_per_day"),
        ({"hours_per_day": 12, "order_deadline_hours": 20}, "order_deadline_hours"),
        ({"winner_by": "goal"}, "money_goal"),
        ({"merchant_cargo_fraction": Decimal("1.5")}, "merchant_cargo_fraction"),
        ({"encounter_control": "the dog"}, "encounter_control"),
        ({"tactical_options": [1, 2]}, "tactical_options"),
        ({"day": 9}, "settings"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_created(chosen, field):
    creator = UserFactory()

    with pytest.raises(ValidationError) as refused:
        campaign_create(name="Bad", created_by=creator, campaign_settings=chosen)

    assert field in refused.value.message_dict
    assert not Campaign.objects.exists()
    assert not Membership.objects.exists()


def test_a_campaign_needs_a_name():
    with pytest.raises(ValidationError, match="name"):
        campaign_create(name="   ", created_by=UserFactory())


@pytest.mark.usefixtures("duel_rulesets")
def test_the_form_offers_every_setting_of_the_settings_page():
    form = CampaignCreateForm()

    # The tactical options as a field each, the rules' own (test_campaign_rules.py): the default rules' (Sky
    # Galleons), or the rules chosen; never a standalone ruleset's (the registered duel has no campaign bridge).
    assert set(SETTINGS) - {"tactical_options"} <= set(form.fields)
    default = engine_io.ruleset_for(django_settings.DEFAULT_RULESET)
    assert form.tactical is default
    tactical = {name for name in form.fields if name.startswith("tactical_option_")}
    assert tactical == {f"tactical_option_{spec.key}" for spec in default.options}
    assert "duel" not in dict(form.fields["tactical_ruleset"].choices)
    bridged = CampaignCreateForm(initial={"tactical_ruleset": "bridged_duel"})
    assert {"tactical_option_secret_plots", "tactical_option_long_range", "tactical_option_gunnery"} <= set(
        bridged.fields
    )
    for each in (form, bridged):
        assert "reason" not in each.fields
        shown = {field.name for _, fields in each.sections() for field in fields}
        assert shown == set(each.fields)


@pytest.mark.usefixtures("duel_rulesets")
def test_any_signed_in_user_creates_a_campaign_from_the_home_page(client):
    organiser = UserFactory(username="organiser")
    assert not organiser.is_staff
    client.force_login(organiser)
    home = client.get(reverse("home")).content.decode()
    assert reverse("campaign_new") in home
    assert client.get(reverse("campaign_new")).status_code == 200

    response = client.post(
        reverse("campaign_new"),
        form_data(name="Raiders of Meroe", hours_per_day=48, order_deadline_hours=40, starting_advance=20_000),
    )

    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.slug])
    assert (campaign.name, campaign.hours_per_day, campaign.starting_advance) == ("Raiders of Meroe", 48, 20_000)
    assert campaign.paused  # the form holds the calendar unless told not to
    assert Membership.objects.get(campaign=campaign).user == organiser
    page = client.get(response["Location"]).content.decode()
    assert "you are its umpire" in page
    assert reverse("campaign_desk", args=[campaign.slug]) in page
    assert reverse("invitation_create", args=[campaign.slug]) in page


@pytest.mark.usefixtures("duel_rulesets")
def test_the_form_starts_the_calendar_when_asked(client):
    client.force_login(UserFactory())
    data = form_data(name="At once")
    del data["hold_calendar"]

    assert client.post(reverse("campaign_new"), data).status_code == 302

    campaign = Campaign.objects.get()
    assert not campaign.paused
    assert campaign.next_tick_at is not None


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"name": "  "}, "This field is required"),
        ({"hours_per_day": "0"}, "greater than or equal to 1"),
        ({"hours_per_day": "ten"}, "Enter a whole number"),
        ({"hours_per_day": "2147483647", "order_deadline_hours": "1"}, "A campaign day lasts from an hour to 8,760"),
        ({"auction_days": "29"}, "An auction runs from 1 to 28 campaign days."),
        ({"trek_days_per_roll": "0"}, "An epic trek rolls once every 1 to 28 campaign days."),
        ({"encounter_battle_turns": "99"}, "expected to take from 1 to 40 turns."),
        ({"hours_per_day": "12", "order_deadline_hours": "20"}, "Orders are due within the day"),
        ({"winner_by": "goal"}, "A money goal is needed"),
        ({"merchant_cargo_fraction": "2"}, "less than or equal to 1"),
        ({"encounter_control": "dog"}, "Select a valid choice"),
    ],
)
@pytest.mark.usefixtures("duel_rulesets")
def test_bad_input_is_shown_on_the_form_with_a_422(client, changes, words):
    client.force_login(UserFactory())

    response = client.post(reverse("campaign_new"), form_data(**{"name": "Bad", **changes}))

    assert response.status_code == 422
    page = response.content.decode()
    assert words in page
    assert "Constraint" not in page  # the model's constraint names are for programmers
    assert not Campaign.objects.exists()


def test_signing_in_comes_first(client):
    response = client.get(reverse("campaign_new"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client.post(reverse("campaign_new"), form_data(name="Anon")).status_code == 302
    assert not Campaign.objects.exists()
