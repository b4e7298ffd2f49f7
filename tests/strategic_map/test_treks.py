"""Epic treks as services, API and page: a trek starts once per encounter, advances one logged roll a week of
campaign days (idempotent), walks the player's route or the shortest way home, and ends SAFE (fame), CAPTURED or
LOST; nobody but the captain's player and the umpire sees it (404)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from campaign import captains, settings_service
from campaign.models import AuditEntry, CampaignRoll, CaptainStatus, ChronicleEntry, ChronicleKind, Role, TrekLosses
from strategic_map import trek_rules, treks
from strategic_map.mapdata import mars_map
from strategic_map.models import CampaignMapRules, Encounter, EpicTrek, TrekRoll, TrekStatus
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

MARS = mars_map()
SEED = "ab" * 32


def axial(label: str) -> tuple[int, int]:
    hex_ = MARS.hex_by_label(label)
    return hex_.q, hex_.r


# Next to Parhoon (0812), in friendly hills.
NEAR_PARHOON = axial("0811")
# Neutral mountains, far from any friendly city.
WILDS = axial("0409")


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", seed=SEED)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob, "jack": jack, "mary": mary}


def table_of(code: str) -> dict[str, dict[str, list[str]]]:
    """A whole trek table saying the same thing everywhere: the umpire's edit makes the outcome certain."""
    reference = MARS.epic_trek_table.table
    return {allegiance: {row: [code] * 6 for row in rows} for allegiance, rows in reference.items()}


def set_table(campaign, code: str) -> None:
    CampaignMapRules.objects.update_or_create(campaign=campaign, defaults={"trek_table": table_of(code)})


def start(captain, where=WILDS, party=8, day=0, encounter_id=None):
    q, r = where
    return treks.trek_start(
        captain_id=captain.pk, cause="crash_landing", q=q, r=r, party=party, day=day, encounter_id=encounter_id
    )


# --- starting -------------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-01", "SGC-TREK-02")
def test_a_trek_starts_once_per_encounter_and_the_captain_is_trekking(club):
    encounter = Encounter.objects.create(
        campaign=club["campaign"], day=0, q=WILDS[0], r=WILDS[1], territory="Neutral West", result="Pirates"
    )
    trek = start(club["jack"], encounter_id=encounter.pk)
    again = start(club["jack"], party=3, encounter_id=encounter.pk)
    assert again.pk == trek.pk
    assert (again.party, again.party_start, again.rolls, again.status) == (8, 8, 0, TrekStatus.UNDER_WAY)
    club["jack"].refresh_from_db()
    assert (club["jack"].status, club["jack"].city) == (CaptainStatus.TREKKING, "")
    # A captain already walking keeps the trek he is on.
    assert start(club["jack"]).pk == trek.pk
    assert EpicTrek.objects.count() == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"cause": "boredom"}, "cause"), ({"party": 0}, "party"), ({"q": 99, "r": 99}, "q")],
)
def test_a_trek_start_refuses_nonsense(club, kwargs, field):
    values = {"cause": "over_the_side", "q": WILDS[0], "r": WILDS[1], "party": 4} | kwargs
    with pytest.raises(ValidationError) as refused:
        treks.trek_start(captain_id=club["jack"].pk, day=0, **values)
    assert field in refused.value.message_dict


# --- advancing ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-03", "SGC-TREK-21")
def test_the_first_roll_is_the_landing_hex_on_the_next_day_and_a_day_rolls_once(club):
    campaign = club["campaign"]
    trek = start(club["jack"], day=3)
    # The landing day itself is spent crash-landing: no roll for day 3.
    assert treks.treks_advance(campaign_id=campaign.pk, day=3) == 0
    assert treks.treks_advance(campaign_id=campaign.pk, day=4) == 1
    assert treks.treks_advance(campaign_id=campaign.pk, day=4) == 0
    trek.refresh_from_db()
    (roll,) = TrekRoll.objects.filter(trek=trek)
    assert (roll.q, roll.r, roll.day, roll.seq) == (*WILDS, 4, 1)
    assert roll.note.startswith("The landing hex. 0409 (mountains, neutral): rolled ")
    assert trek.weeks == trek.rolls == 1
    # The die is logged with the captain and the hex in its purpose, on the campaign day.
    logged = CampaignRoll.objects.get(pk=roll.roll_id)
    assert "Captain Jack" in logged.purpose
    assert "0409" in logged.purpose
    assert (logged.day, logged.captain_id) == (4, club["jack"].pk)
    assert str(trek_rules.table_code(MARS.epic_trek_table, MARS.hex_at(*WILDS), logged.result)) == roll.result


@pytest.mark.rule("SGC-TREK-13", "SGC-TREK-21")
def test_lost_rolls_again_for_the_same_hex_and_every_roll_is_a_week(club):
    campaign = club["campaign"]
    set_table(campaign, "L")
    trek = start(club["jack"])
    for day in (1, 8, 15):  # a roll is a week: the landing day's, then every seventh day
        treks.treks_advance(campaign_id=campaign.pk, day=day)
    trek.refresh_from_db()
    assert [(r.q, r.r, r.result) for r in trek.trek_rolls.all()] == [(*WILDS, "L")] * 3
    assert (trek.q, trek.r, trek.weeks, trek.party) == (*WILDS, 3, 8)
    assert "Lost: the same hex again" in trek.trek_rolls.last().note


@pytest.mark.rule("SGC-TREK-18", "SGC-TREK-28")
def test_after_passage_the_party_walks_its_route_or_else_the_shortest_way_home(club):
    campaign = club["campaign"]
    set_table(campaign, "P")
    trek = start(club["jack"])
    here = Hex(*WILDS)
    first = hexgrid.neighbour(here, 1)
    second = hexgrid.neighbour(first, 1)
    treks.trek_route_set(trek_id=trek.pk, user=club["alice"], route=[first.to_json(), second.to_json()])
    treks.treks_advance(campaign_id=campaign.pk, day=1)  # the landing hex
    treks.treks_advance(campaign_id=campaign.pk, day=8)  # a week on: into the first hex chosen
    trek.refresh_from_db()
    assert (trek.q, trek.r, trek.route) == (first.q, first.r, [second.to_json()])
    assert trek.trek_rolls.last().note.startswith(f"Into {MARS.hex_at(first.q, first.r).label}")
    treks.treks_advance(campaign_id=campaign.pk, day=15)
    treks.treks_advance(campaign_id=campaign.pk, day=22)  # no route left: the shortest way home
    trek.refresh_from_db()
    expected = trek_rules.way_home(MARS, second).path[0]
    assert (trek.q, trek.r, trek.route) == (expected.q, expected.r, [])
    assert "No route chosen: the shortest way home" in trek.trek_rolls.last().note


@pytest.mark.rule("SGC-TREK-10", "SGC-TREK-21", "SGC-TREK-27")
def test_reaching_a_friendly_city_ends_the_trek_safe_with_its_weeks_as_fame(club):
    campaign = club["campaign"]
    set_table(campaign, "P")
    trek = start(club["jack"], where=NEAR_PARHOON, party=5)
    for day in (1, 8, 15):
        treks.treks_advance(campaign_id=campaign.pk, day=day)
    trek.refresh_from_db()
    assert (trek.status, trek.end_city, trek.weeks, trek.ended_day) == (TrekStatus.SAFE, "Parhoon", 2, 8)
    jack = club["jack"]
    jack.refresh_from_db()
    assert (jack.status, jack.city, jack.fame_weeks) == (CaptainStatus.ASHORE, "parhoon", 2)
    entry = ChronicleEntry.objects.get(kind=ChronicleKind.TREK_SURVIVED)
    assert entry.text == "Captain Jack comes safe to Parhoon with 4 of his men after an epic trek of 2 weeks."
    assert "0811" not in entry.text  # the chronicle is public: no hexes


@pytest.mark.rule("SGC-TREK-15", "SGC-TREK-16")
def test_found_ends_the_trek_safely_where_the_finders_take_the_party(club):
    campaign = club["campaign"]
    set_table(campaign, "F")
    trek = start(club["jack"], where=axial("1510"))  # the spice canal, neutral
    treks.treks_advance(campaign_id=campaign.pk, day=1)
    trek.refresh_from_db()
    assert (trek.status, trek.end_city, (trek.q, trek.r)) == (TrekStatus.SAFE, "Alclyon", axial("1605"))
    club["jack"].refresh_from_db()
    assert (club["jack"].city, club["jack"].fame_weeks) == ("alclyon", 1)


@pytest.mark.rule("SGC-TREK-20")
def test_captured_ends_the_captains_sailing(club):
    campaign = club["campaign"]
    set_table(campaign, "C")
    trek = start(club["jack"])
    treks.treks_advance(campaign_id=campaign.pk, day=1)
    trek.refresh_from_db()
    club["jack"].refresh_from_db()
    assert (trek.status, club["jack"].status, club["jack"].fame_weeks) == (
        TrekStatus.CAPTURED,
        CaptainStatus.CAPTURED,
        0,
    )
    assert ChronicleEntry.objects.filter(kind=ChronicleKind.CAPTAIN_LOST, text__contains="taken captive").exists()
    # An ended trek rolls no more.
    assert treks.treks_advance(campaign_id=campaign.pk, day=2) == 0


@pytest.mark.rule("SGC-TREK-26", "SGC-TREK-19")
def test_the_whole_party_lost_is_the_captains_end_too(club):
    campaign = club["campaign"]
    set_table(campaign, "A:6")  # every man's die is 6 or less
    trek = start(club["jack"], party=5)
    treks.treks_advance(campaign_id=campaign.pk, day=1)
    trek.refresh_from_db()
    club["jack"].refresh_from_db()
    assert (trek.status, trek.party, club["jack"].status) == (TrekStatus.PERISHED, 0, CaptainStatus.LOST)
    roll = trek.trek_rolls.get()
    assert (roll.losses, roll.party_after) == (5, 0)
    # One table die and one loss die per man, each logged.
    assert CampaignRoll.objects.filter(captain=club["jack"], purpose__contains="lost on 6 or less").count() == 5


@pytest.mark.rule("SGC-TREK-24", "SGC-TREK-25", "SGC-TREK-22")
@pytest.mark.parametrize(("reading", "fixed"), [(TrekLosses.PER_SIX, 4), (TrekLosses.WORKED_EXAMPLE, 2)])
def test_losses_follow_the_campaigns_reading(club, reading, fixed):
    campaign = club["campaign"]
    campaign.trek_losses = reading
    campaign.save(update_fields=["trek_losses"])
    set_table(campaign, "A:2")
    trek = start(club["jack"], party=15)
    treks.treks_advance(campaign_id=campaign.pk, day=1)
    roll = TrekRoll.objects.get(trek=trek)
    dice = list(CampaignRoll.objects.filter(purpose__contains="lost on 2 or less").values_list("result", flat=True))
    assert len(dice) == 3  # the three men beyond the two full sixes
    assert roll.losses == fixed + sum(1 for die in dice if die <= 2)
    assert roll.party_after == 15 - roll.losses


def test_advancing_costs_a_bounded_number_of_queries_per_trek(club):
    campaign = club["campaign"]
    set_table(campaign, "L")
    start(club["jack"])
    with CaptureQueriesContext(connection) as one:
        assert treks.treks_advance(campaign_id=campaign.pk, day=1) == 1
    others = []
    for n in range(3):
        user = UserFactory(username=f"extra{n}")
        MembershipFactory(campaign=campaign, user=user, role=Role.PLAYER)
        others.append(captains.captain_found(campaign=campaign, user=user, name=f"Extra {n}"))
        start(others[-1], day=1)
    with CaptureQueriesContext(connection) as four:
        assert treks.treks_advance(campaign_id=campaign.pk, day=8) == 4  # Jack's second week, their first
    per_trek = len(one.captured_queries)
    assert per_trek <= 20
    assert len(four.captured_queries) <= 4 * per_trek


# --- the route ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-28")
def test_a_route_must_be_walkable_and_only_the_captains_player_chooses_it(club):
    trek = start(club["jack"])
    here = Hex(*WILDS)
    far = hexgrid.neighbour(hexgrid.neighbour(here, 2), 2)
    with pytest.raises(ValidationError, match="not next to the party's hex"):
        treks.trek_route_set(trek_id=trek.pk, user=club["alice"], route=[far.to_json()])
    with pytest.raises(ValidationError, match=r"each \[q, r\]"):
        treks.trek_route_set(trek_id=trek.pk, user=club["alice"], route=[[1, 2, 3]])
    with pytest.raises(PermissionDenied):
        treks.trek_route_set(trek_id=trek.pk, user=club["bob"], route=[])
    with pytest.raises(PermissionDenied):
        treks.trek_route_home(trek_id=trek.pk, user=club["umpire"])
    home = treks.trek_route_home(trek_id=trek.pk, user=club["alice"])
    assert home.route == [h.to_json() for h in trek_rules.way_home(MARS, here).path]
    trek.status = TrekStatus.SAFE
    trek.save()
    with pytest.raises(ValidationError, match="The trek is over"):
        treks.trek_route_home(trek_id=trek.pk, user=club["alice"])


# --- the API --------------------------------------------------------------------------------------------------------


def test_the_api_shows_a_player_his_own_treks_and_the_umpire_all(client, club):
    jack_trek, mary_trek = start(club["jack"]), start(club["mary"], where=NEAR_PARHOON)
    treks.treks_advance(campaign_id=club["campaign"].pk, day=1)
    client.force_login(club["alice"])
    listed = client.get(reverse("api_trek_list", args=["syrtis"])).json()
    assert [t["id"] for t in listed] == [jack_trek.pk]
    detail = client.get(reverse("api_trek_detail", args=[jack_trek.pk])).json()
    (roll,) = detail["rolls"]
    assert (roll["hex"], roll["row"], roll["allegiance"], roll["party_after"]) == ("0409", "mountains", "neutral", 8)
    assert 1 <= roll["die"] <= 6
    assert roll["words"]
    assert detail["way_home"]["city"] == trek_rules.way_home(MARS, Hex(*WILDS)).city
    assert "seed" not in str(detail)
    client.force_login(club["umpire"])
    listed = client.get(reverse("api_trek_list", args=["syrtis"])).json()
    assert {t["id"] for t in listed} == {jack_trek.pk, mary_trek.pk}


def test_another_players_trek_answers_404_everywhere(client, club):
    mary_trek = start(club["mary"])
    client.force_login(club["alice"])
    assert client.get(reverse("api_trek_detail", args=[mary_trek.pk])).status_code == 404
    assert client.get(reverse("api_trek_detail", args=[mary_trek.pk + 99])).status_code == 404
    route = client.patch(reverse("api_trek_route", args=[mary_trek.pk]), {"route": []}, content_type="application/json")
    assert route.status_code == 404
    assert client.post(reverse("api_trek_home", args=[mary_trek.pk])).status_code == 404
    assert client.get(reverse("trek_detail", args=["syrtis", mary_trek.pk])).status_code == 404
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("api_trek_list", args=["syrtis"])).status_code == 404
    assert client.get(reverse("api_trek_detail", args=[mary_trek.pk])).status_code == 404


def test_the_api_sets_a_route_or_the_way_home_and_refuses_bad_ones_with_400(client, club):
    trek = start(club["jack"])
    here = Hex(*WILDS)
    step = hexgrid.neighbour(here, 3)
    client.force_login(club["alice"])
    url = reverse("api_trek_route", args=[trek.pk])
    ok = client.patch(url, {"route": [step.to_json()]}, content_type="application/json")
    assert (ok.status_code, ok.json()["route"]) == (200, [step.to_json()])
    far = hexgrid.neighbour(step, 3)
    for body in ({"route": [far.to_json()]}, {"route": [[1]]}, {"route": "north"}, {}, {"route": [[0, -9]]}):
        refused = client.patch(url, body, content_type="application/json")
        assert refused.status_code == 400, body
    assert "not next to the party's hex" in str(
        client.patch(url, {"route": [far.to_json()]}, content_type="application/json").json()
    )
    home = client.post(reverse("api_trek_home", args=[trek.pk]))
    assert home.status_code == 200
    assert home.json()["route"] == [h.to_json() for h in trek_rules.way_home(MARS, here).path]
    client.force_login(club["umpire"])
    assert client.post(reverse("api_trek_home", args=[trek.pk])).status_code == 403


# --- the pages ------------------------------------------------------------------------------------------------------


def test_the_captains_page_links_his_trek_and_the_trek_page_shows_the_way(client, club):
    trek = start(club["jack"])
    treks.treks_advance(campaign_id=club["campaign"].pk, day=1)
    client.force_login(club["alice"])
    page = client.get(reverse("captain_detail", args=[club["jack"].pk])).content.decode()
    url = reverse("trek_detail", args=["syrtis", trek.pk])
    assert url in page
    page = client.get(url).content.decode()
    assert "The epic trek of Captain Jack" in page
    assert "Week 1" in page
    assert "The landing hex" in page
    assert page.count('class="trek-hex trek-hex--') >= 7
    assert "Shortest way home" in page
    step = hexgrid.neighbour(Hex(*WILDS), 0)
    posted = client.post(reverse("trek_step", args=["syrtis", trek.pk]), {"q": step.q, "r": step.r})
    assert posted.status_code == 302
    trek.refresh_from_db()
    assert trek.route == [step.to_json()]
    htmx = client.post(reverse("trek_home", args=["syrtis", trek.pk]), HTTP_HX_REQUEST="true")
    assert htmx.headers["HX-Redirect"] == url
    trek.refresh_from_db()
    assert len(trek.route) == len(trek_rules.way_home(MARS, Hex(*WILDS)).path)
    # The umpire reads the trek but does not choose the way.
    client.force_login(club["umpire"])
    page = client.get(url).content.decode()
    assert "The epic trek of Captain Jack" in page
    assert "Shortest way home" not in page


# --- a roll is a week ------------------------------------------------------------------------------------------------


def rolled_days(trek: EpicTrek) -> list[int]:
    return list(TrekRoll.objects.filter(trek=trek).order_by("seq").values_list("day", flat=True))


@pytest.mark.rule("SGC-TREK-03", "SGC-TREK-12", "SGC-TREK-21")
def test_a_trek_rolls_on_its_first_day_then_every_seventh_day_and_not_between(club):
    """The rules count a trek's rolls as its weeks (SGC-TREK-21): the landing hex's roll on the day after it set out
    (SGC-TREK-03), then one a week of campaign days."""
    campaign = club["campaign"]
    set_table(campaign, "L")
    trek = start(club["jack"], day=2)
    advanced = {day: treks.treks_advance(campaign_id=campaign.pk, day=day) for day in range(1, 18)}
    assert [day for day, n in advanced.items() if n] == [3, 10, 17]
    assert rolled_days(trek) == [3, 10, 17]
    trek.refresh_from_db()
    assert trek.weeks == trek.rolls == 3


@pytest.mark.rule("SGC-TREK-21")
def test_a_house_rule_of_two_days_rolls_every_second_day_and_says_so(client, club):
    campaign = club["campaign"]
    set_table(campaign, "L")
    settings_service.campaign_update_settings(
        campaign_id=campaign.pk, umpire=club["umpire"], changes={"trek_days_per_roll": 2}, reason="A short campaign"
    )
    audit = AuditEntry.objects.get(action="settings changed")
    assert audit.data == {"before": {"trek_days_per_roll": 7}, "after": {"trek_days_per_roll": 2}}
    trek = start(club["jack"])
    for day in range(1, 7):
        treks.treks_advance(campaign_id=campaign.pk, day=day)
    assert rolled_days(trek) == [1, 3, 5]
    trek.refresh_from_db()
    assert trek.weeks == 3  # still counted in rolls: his fame weeks, whatever the days between

    client.force_login(club["alice"])
    rule = "House rule: an epic trek rolls every 2 days instead of weekly."
    page = client.get(reverse("trek_detail", args=["syrtis", trek.pk])).content.decode()
    assert rule in page
    assert "The next roll comes at the end of <strong>day 7</strong>." in page
    assert rule in client.get(reverse("campaign_standings", args=["syrtis"])).content.decode()


def test_the_trek_page_tells_the_next_weekly_roll_and_no_house_rule_as_written(client, club):
    trek = start(club["jack"], day=4)
    client.force_login(club["alice"])
    url = reverse("trek_detail", args=["syrtis", trek.pk])
    assert "The next roll comes at the end of <strong>day 5</strong>." in client.get(url).content.decode()
    treks.treks_advance(campaign_id=club["campaign"].pk, day=5)
    page = client.get(url).content.decode()
    assert "The next roll comes at the end of <strong>day 12</strong>." in page
    assert "House rule" not in page
    assert "House rule" not in client.get(reverse("campaign_standings", args=["syrtis"])).content.decode()


# --- a day run twice at once (real row locks) ----------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.rule("SGC-TREK-21")
def test_the_same_day_run_twice_at_once_rolls_each_trek_once():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="race", seed=SEED)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    walkers = []
    for n in range(3):
        player = UserFactory(username=f"walker{n}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        walkers.append(captains.captain_found(campaign=campaign, user=player, name=f"Walker {n}"))
        start(walkers[-1], party=7)
    runners = 4
    gate = threading.Barrier(runners)

    def run(_: int) -> int:
        gate.wait()
        try:
            return treks.treks_advance(campaign_id=campaign.pk, day=1)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=runners) as pool:
        advanced = list(pool.map(run, range(runners)))
    assert sum(advanced) == 3
    assert TrekRoll.objects.filter(trek__campaign=campaign, day=1).count() == 3
    assert list(EpicTrek.objects.filter(campaign=campaign).values_list("rolls", flat=True)) == [1, 1, 1]
    # One table die per trek (and the loss dice of any that rolled a loss), never a second table die.
    table_dice = CampaignRoll.objects.filter(campaign=campaign, purpose__contains="trek table")
    assert table_dice.count() == 3


@pytest.mark.rule("SGC-TREK-25")
def test_the_umpire_chooses_the_loss_reading_in_the_campaigns_settings(club):
    campaign = settings_service.campaign_update_settings(
        campaign_id=club["campaign"].pk,
        umpire=club["umpire"],
        changes={"trek_losses": TrekLosses.WORKED_EXAMPLE},
        reason="Our club plays the worked example",
    )
    assert campaign.trek_losses == TrekLosses.WORKED_EXAMPLE
    assert AuditEntry.objects.get(action="settings changed").data["after"] == {"trek_losses": "worked_example"}
    with pytest.raises(ValidationError):
        settings_service.campaign_update_settings(
            campaign_id=campaign.pk, umpire=club["umpire"], changes={"trek_losses": "half"}, reason="typo"
        )
