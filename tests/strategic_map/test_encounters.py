"""Encounters on campaign (strategic_map/encounters.py, encounter_battle.py, encounter_selectors.py): the ships
met drawn with logged dice, one encounter for a captain's squadron, the battle opened with the player's ships
entering with their campaign record, and the fog of war over the reports."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles import services as battle_services
from battles.models import Battle, BattleShip, BattleStatus, Controller
from campaign import captains, locks
from campaign.dice import die_for
from campaign.models import (
    Campaign,
    CampaignRoll,
    CampaignShip,
    Captain,
    CaptainStatus,
    EncounterControl,
    Role,
    ShipStatus,
)
from galleons.record import ShipRecord, ship_record_from_class
from strategic_map import encounter_battle, mapdata
from strategic_map.encounters import encounters_draw
from strategic_map.models import DayKind, Encounter, EncounterShip, Voyage, VoyageDay
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

DAY = 3


def seed_for(wanted: list[tuple[int, int]]) -> str:
    """A campaign seed whose rolls 1, 2... come up as ``wanted`` [(sides, result), ...]: the dice are the real
    ones (campaign/dice.die_for), the test only picks the campaign whose dice fall that way."""
    for n in itertools.count():
        seed = f"{n:064x}"
        if all(die_for(seed, seq, sides) == result for seq, (sides, result) in enumerate(wanted, start=1)):
            return seed
    raise AssertionError("unreachable")


@pytest.fixture
def club() -> dict[str, Any]:
    umpire = UserFactory(username="hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob, carol = UserFactory(username="alice"), UserFactory(username="bob"), UserFactory(username="carol")
    for player in (alice, bob, carol):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack Fairweather")
    robert = captains.captain_found(campaign=campaign, user=bob, name="Robert Drummond")
    return {
        "campaign": campaign,
        "umpire": umpire,
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "jack": jack,
        "robert": robert,
    }


def ship(campaign: Campaign, captain: Captain | None, class_id: str, name: str, **fields: Any) -> CampaignShip:
    record = ship_record_from_class(class_id, name=name, crew_quality=fields.pop("crew_quality", "green"))
    return CampaignShip.objects.create(
        campaign=campaign,
        captain=captain,
        name=name,
        class_id=class_id,
        record=record.to_json(),
        original_price=10_000,
        status=fields.pop("status", ShipStatus.AT_SEA),
        **fields,
    )


def at_sea(
    campaign: Campaign, vessel: CampaignShip, *, q: int = 5, r: int = 3, territory: str = "Neutral West"
) -> VoyageDay:
    """A voyage under way and its day ``DAY``, ending at (q, r) in ``territory`` (built directly: the tick is
    another part's)."""
    assert vessel.captain is not None
    voyage = Voyage.objects.create(
        campaign=campaign, captain=vessel.captain, ship=vessel, start_city="Parhoon", started_day=1, q=q, r=r
    )
    return VoyageDay.objects.create(
        campaign=campaign,
        voyage=voyage,
        day=DAY,
        kind=DayKind.PATROL,
        from_q=q,
        from_r=r,
        to_q=q,
        to_r=r,
        territory=territory,
        encounter_number=3,
    )


@pytest.fixture
def draw(django_capture_on_commit_callbacks: Any) -> Callable[..., list[Encounter]]:
    """Draw as the tick does, inside a transaction, running the queued battle openings (Celery is eager)."""

    def run(campaign: Campaign, hits: list[VoyageDay]) -> list[Encounter]:
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            found = encounters_draw(campaign=locks.campaign(campaign.pk), day=DAY, hits=hits)
        for encounter in found:
            encounter.refresh_from_db()  # the battle was opened after the commit
        return found

    return run


def with_seed(campaign: Campaign, wanted: list[tuple[int, int]]) -> None:
    campaign.seed = seed_for(wanted)
    Campaign.objects.filter(pk=campaign.pk).update(seed=campaign.seed)


# --- the draw ------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-ENC-15", "SGC-ENC-17", "SGC-ENCT-04", "SGC-ETYPE-01", "SGC-ETYPE-02", "SGC-ETYPE-03")
def test_two_high_martian_pirates_are_drawn_with_logged_dice_and_the_ship_goes_into_battle(club, draw):
    campaign, jack = club["campaign"], club["jack"]
    # Table 4 (two High Martian Pirates, Neutral West); each: the class die (2 classes), the boarding die.
    with_seed(campaign, [(6, 4), (2, 1), (6, 2), (2, 2), (6, 5)])
    gull = ship(campaign, jack, "clearsight", "Gull")
    hit = at_sea(campaign, gull)
    (encounter,) = draw(campaign, [hit])
    assert encounter.result == "Two High Martian Pirates"
    assert encounter.table_roll.result == 4
    ships = list(encounter.ships.order_by("pk"))
    assert [(s.class_id, s.name) for s in ships] == [("clearsight", "Clearsight"), ("small_bird", "Small Bird")]
    assert [(s.crew_quality, s.boarding_quality, s.high_martian) for s in ships] == [
        ("green", "trained", True),
        ("green", "crack", True),
    ]
    purposes = list(CampaignRoll.objects.filter(campaign=campaign).order_by("seq").values_list("purpose", flat=True))
    assert purposes[0].startswith("Encounter table, Neutral West, day 3")
    assert len(purposes) == 5 + 3  # the draw's five dice, then the battle's set-up: wind and 2D6
    hit.refresh_from_db()
    gull.refresh_from_db()
    jack.refresh_from_db()
    assert hit.encounter == encounter
    assert gull.status == ShipStatus.IN_BATTLE
    assert jack.status == CaptainStatus.IN_BATTLE
    assert list(encounter.voyages.all()) == [hit.voyage]


@pytest.mark.rule("SGC-ENCT-10", "SGC-ETYPE-04", "SGC-ETYPE-05", "SGC-ETYPE-13", "SGC-ETYPE-14")
def test_a_pirate_with_a_prize_in_tow_brings_the_prize_astern_of_her_tower(club, draw):
    campaign = club["campaign"]
    with_seed(campaign, [(6, 4), (4, 3)])  # Neutral Northeast 4: Pirate Ship with Prize Ship in tow; Bloodrunner
    hit = at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"), territory="Neutral Northeast")
    (encounter,) = draw(campaign, [hit])
    pirate, prize = encounter.ships.order_by("pk")
    assert (pirate.class_id, pirate.crew_quality, pirate.towed_by) == ("bloodrunner", "trained", "")
    assert (prize.class_id, prize.category, prize.crew_quality, prize.towed_by) == (
        "warm_winds",
        "Prize Ship in Tow",
        "green",
        "Bloodrunner",
    )
    assert prize.draw_roll is None  # a pool of one class needs no die
    document = encounter.battle.scenario
    assert {"rule": "noncombatant", "ship": "Warm Winds"} in document["special_rules"]
    theirs = {s["name"]: s for s in document["sides"][1]["ships"]}
    assert theirs["Warm Winds"]["role"] == "merchant"
    tower, towed = theirs["Bloodrunner"]["position"], theirs["Warm Winds"]["position"]
    assert (towed[0] - tower[0], towed[1]) == (1, tower[1])


@pytest.mark.rule("SGC-ENC-05", "SGC-ENC-06")
def test_a_captains_ships_in_one_hex_meet_one_encounter_and_other_captains_their_own(club, draw):
    campaign, jack, robert = club["campaign"], club["jack"], club["robert"]
    gull, kite = ship(campaign, jack, "clearsight", "Gull"), ship(campaign, jack, "bloodrunner", "Kite")
    apart = ship(campaign, jack, "small_bird", "Wren")
    other = ship(campaign, robert, "clearsight", "Drummond's Gull")
    hits = [at_sea(campaign, gull), at_sea(campaign, kite), at_sea(campaign, apart, q=6), at_sea(campaign, other)]
    encounters = draw(campaign, hits)
    assert len(encounters) == 3
    squadron = Encounter.objects.get(voyage_days=hits[0])
    assert {d.pk for d in squadron.voyage_days.all()} == {hits[0].pk, hits[1].pk}
    assert squadron.voyages.count() == 2
    linked = set(
        BattleShip.objects.filter(battle=squadron.battle, campaign_ship__isnull=False).values_list("name", flat=True)
    )
    assert linked == {"Gull", "Kite"}
    # Drawn again (the tick re-run after a crash): nothing new.
    assert draw(campaign, hits) == []
    assert Encounter.objects.filter(campaign=campaign).count() == 3


def test_the_draw_takes_the_same_number_of_queries_for_2_or_20_hits(club):
    campaign = club["campaign"]

    def queries(hits: list[VoyageDay]) -> int:
        with CaptureQueriesContext(connection) as seen, transaction.atomic():
            assert len(encounters_draw(campaign=locks.campaign(campaign.pk), day=DAY, hits=hits)) == len(hits)
        return len(seen)

    few = [at_sea(campaign, ship(campaign, club["jack"], "clearsight", f"Gull {n}"), q=n) for n in range(2)]
    many = [at_sea(campaign, ship(campaign, club["robert"], "clearsight", f"Wren {n}"), q=n) for n in range(20)]
    assert queries(few) == queries(many) <= 25


@pytest.mark.rule("SGC-ENC-18")
def test_the_umpire_holds_the_bigger_classes_back_for_a_captains_first_voyages(club, draw):
    campaign = club["campaign"]
    campaign.holdback_voyages = 2
    campaign.save()
    # Shistomik: always a Cloud Captain; the pool of a first voyage is Endtime and Fenian Ram (hull 5).
    hits = [
        at_sea(campaign, ship(campaign, club["jack"], "clearsight", f"Gull {n}"), q=n, territory="Shistomik")
        for n in range(20)
    ]
    draw(campaign, hits)
    drawn = set(EncounterShip.objects.filter(category="Cloud Captain").values_list("class_id", flat=True))
    assert drawn == {"endtime", "fenian_ram"}
    assert set(EncounterShip.objects.filter(category="Cloud Captain").values_list("crew_quality", flat=True)) == {
        "crack"
    }


# --- the battle ------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-ENC-19", "SGC-ENC-20", "SGC-ENC-21")
def test_the_battle_opens_with_the_player_against_the_ai_and_his_ship_enters_with_her_record(club, draw):
    campaign, jack = club["campaign"], club["jack"]
    with_seed(campaign, [(6, 1), (2, 2), (6, 6), (6, 3), (6, 2), (6, 1)])  # one High Martian Pirate, a Small Bird
    gull = ship(campaign, jack, "clearsight", "Gull", crew_quality="trained")
    record = ShipRecord.from_json(gull.record)
    wounded = record.crew.with_count("deckhands", record.crew.count("deckhands") - 2)
    guns = (replace(record.guns[0], destroyed=True, last_fired=7), *record.guns[1:])
    gull.record = replace(record, crew=wounded, guns=guns, fire=2).to_json()
    gull.save()
    (encounter,) = draw(campaign, [at_sea(campaign, gull)])
    battle = encounter.battle
    assert battle is not None
    sides = {side.key: side for side in battle.sides.all()}
    assert (sides["captain"].controller, sides["captain"].user) == (Controller.PLAYER, club["alice"])
    assert sides["encountered"].controller == Controller.AI
    assert battle.created_by == club["umpire"]
    document = battle.scenario
    assert document["wind"] == 2  # the logged wind die 3: from the south-east hexside
    ours = document["sides"][0]["ships"][0]
    theirs = document["sides"][1]["ships"][0]
    assert theirs["position"][0] - ours["position"][0] == 2 + 1 + 4  # 2D6 + 4 hexes apart
    assert (ours["altitude"], theirs["altitude"]) == ("M", "M")
    assert (ours["facing"], theirs["facing"]) == (1, 5)  # closing on each other
    assert (theirs["high_martian"], theirs["boarding_quality"]) == (True, "crack")
    assert BattleShip.objects.get(battle=battle, name="Gull").campaign_ship == gull
    # In the battle the Gull is the campaign's Gull: her lost gun and men, her fire out, her gun reloaded.
    from battles import engine_io

    board = engine_io.current_state(battle).board
    entered = board.by_name["Gull"]
    assert entered.guns[0].destroyed
    assert entered.guns[0].last_fired is None
    assert entered.crew.count("deckhands") == record.crew.count("deckhands") - 2
    assert entered.fire == 0
    assert entered.crew_quality == "trained"
    assert board.by_name["Small Bird"].high_martian


@pytest.mark.rule("SGC-ENCT-33", "SGC-ETYPE-09", "SGC-ETYPE-10", "SGC-ETYPE-11", "SGC-ETYPE-12")
def test_warships_escorting_a_merchant_close_while_she_runs(club, draw):
    campaign = club["campaign"]
    with_seed(campaign, [(6, 3)])  # Oenotria 3: two Warships escorting an Enemy Merchantman
    (encounter,) = draw(
        campaign, [at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"), territory="Oenotria")]
    )
    assert encounter.result == "Two Warships escorting Enemy Merchantman"
    ships = list(encounter.ships.order_by("pk"))
    assert [(s.category, s.crew_quality) for s in ships] == [
        ("Warship", "trained"),
        ("Warship", "trained"),
        ("Enemy Merchantman", "green"),
    ]
    theirs = encounter.battle.scenario["sides"][1]["ships"]
    assert [(s["role"], s["facing"]) for s in theirs] == [("warship", 5), ("warship", 5), ("merchant", 1)]
    assert encounter.battle.scenario["special_rules"] == []


def test_opening_twice_opens_one_battle(club, draw):
    campaign = club["campaign"]
    (encounter,) = draw(campaign, [at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"))])
    assert encounter_battle.encounter_battle_open(encounter_id=encounter.pk) is None
    from strategic_map.encounter_tasks import encounter_battle_open

    assert encounter_battle_open.delay(encounter.pk).get() is None
    assert Battle.objects.filter(campaign=campaign).count() == 1


def test_the_umpire_commands_the_ships_met_when_the_campaign_says_so(club, draw):
    campaign = club["campaign"]
    campaign.encounter_control = EncounterControl.UMPIRE
    campaign.save()
    (encounter,) = draw(campaign, [at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"))])
    assert encounter.battle.sides.get(key="encountered").controller == Controller.UMPIRE


def fight_it_out(battle: Battle, capture: Any) -> None:
    """The player hands his side to the AI (as a player who withdraws does): the battle plays on to its end."""
    battle.sides.filter(key="captain").update(controller=Controller.AI, user=None)
    with capture(execute=True):
        battle_services.battle_resolve(battle_id=battle.pk)
    battle.refresh_from_db()


@pytest.mark.rule("SGC-ENC-19", "SGC-ETYPE-13", "SGC-ETYPE-14")
def test_prizes_in_tow_on_both_sides_enter_astern_of_their_towers_and_the_battle_is_fought_out(
    club, draw, django_capture_on_commit_callbacks
):
    campaign, jack = club["campaign"], club["jack"]
    with_seed(campaign, [(6, 5), (5, 3)])  # Neutral Northeast 5: Cloud Captain with Prize Ship in tow; an Endtime
    gull = ship(campaign, jack, "clearsight", "Gull", crew_quality="trained")
    taken = ship(campaign, None, "warm_winds", "Warm Winds", status=ShipStatus.PRIZE, captured_by=jack, towed_by=gull)
    (encounter,) = draw(campaign, [at_sea(campaign, gull, territory="Neutral Northeast")])
    ships = list(encounter.ships.order_by("pk"))
    assert [(s.class_id, s.name, s.towed_by) for s in ships] == [
        ("endtime", "Endtime", ""),
        ("warm_winds", "Warm Winds 2", "Endtime"),  # named apart from the Gull's own prize
    ]
    battle = encounter.battle
    document = battle.scenario
    assert [s["name"] for s in document["sides"][0]["ships"]] == ["Gull", "Warm Winds"]
    assert sorted(rule["ship"] for rule in document["special_rules"]) == ["Warm Winds", "Warm Winds 2"]
    ours = {s["name"]: s for s in document["sides"][0]["ships"]}
    assert ours["Warm Winds"]["position"] == [ours["Gull"]["position"][0] - 1, ours["Gull"]["position"][1]]
    assert (ours["Gull"]["role"], ours["Warm Winds"]["role"]) == ("warship", "merchant")
    assert BattleShip.objects.get(battle=battle, name="Warm Winds").campaign_ship == taken
    assert BattleShip.objects.get(battle=battle, name="Warm Winds 2").campaign_ship is None
    taken.refresh_from_db()
    assert taken.status == ShipStatus.PRIZE  # a prize stays a prize; her tower is in battle
    fight_it_out(battle, django_capture_on_commit_callbacks)
    assert battle.status == BattleStatus.FINISHED


@pytest.mark.rule("SGC-ENC-19")
def test_the_encounter_battle_is_fought_to_its_end_by_the_ai(club, draw, django_capture_on_commit_callbacks):
    campaign = club["campaign"]
    (encounter,) = draw(campaign, [at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"))])
    battle = encounter.battle
    fight_it_out(battle, django_capture_on_commit_callbacks)
    assert battle.status == BattleStatus.FINISHED
    assert battle.result is not None


# --- the fog of war over the reports ---------------------------------------------------------------------------


@pytest.fixture
def two_encounters(club, draw) -> dict[str, Encounter]:
    campaign = club["campaign"]
    jacks = at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"), q=4, r=2)
    roberts = at_sea(campaign, ship(campaign, club["robert"], "small_bird", "Wren"), q=9, r=7, territory="Shistomik")
    first, second = draw(campaign, [jacks, roberts])
    return {"jack": first, "robert": second}


def get(client: Client, user: Any, url: str) -> Any:
    client.force_login(user)
    return client.get(url)


def test_a_player_reads_only_the_reports_of_his_own_ships_encounters(club, two_encounters):
    client = Client()
    jacks, roberts = two_encounters["jack"], two_encounters["robert"]
    listed = get(client, club["alice"], "/api/campaigns/syrtis/encounters/")
    assert listed.status_code == 200
    (report,) = listed.json()
    assert report["id"] == jacks.pk
    assert (report["day"], report["q"], report["r"], report["territory"]) == (DAY, 4, 2, "Neutral West")
    assert report["hex"] == mapdata.mars_map().hex_at(4, 2).label
    assert report["result"] == jacks.result
    assert report["our_ships"] == ["Gull"]
    assert report["battle_url"] == f"/battles/{jacks.battle_id}/"
    assert {ship["name"] for ship in report["ships_met"]} == set(jacks.ships.values_list("name", flat=True))
    assert all("seed" not in key for key in report)
    text = listed.content.decode()
    assert club["campaign"].seed not in text
    assert "Wren" not in text  # Robert's ship, and where she was, never reach Alice
    assert get(client, club["alice"], f"/api/encounters/{jacks.pk}/").status_code == 200
    assert get(client, club["alice"], f"/api/encounters/{roberts.pk}/").status_code == 404


def test_the_umpire_reads_every_report_and_outsiders_get_404(club, two_encounters):
    client = Client()
    listed = get(client, club["umpire"], "/api/campaigns/syrtis/encounters/").json()
    assert [report["id"] for report in listed] == [two_encounters["jack"].pk, two_encounters["robert"].pk]
    # Carol is a member with no captain: no reports, and each encounter is 404 to her.
    assert get(client, club["carol"], "/api/campaigns/syrtis/encounters/").json() == []
    assert get(client, club["carol"], f"/api/encounters/{two_encounters['jack'].pk}/").status_code == 404
    stranger = UserFactory(username="stranger")
    assert get(client, stranger, "/api/campaigns/syrtis/encounters/").status_code == 404
    assert get(client, stranger, f"/api/encounters/{two_encounters['jack'].pk}/").status_code == 404
    assert get(client, stranger, "/api/encounters/999999/").status_code == 404
    assert Client().get("/api/campaigns/syrtis/encounters/").status_code in (401, 403)


def test_the_encounter_battle_is_fought_with_the_campaigns_tactical_options(club, draw):
    campaign = club["campaign"]
    campaign.tactical_options = {"line_of_sight": True, "errata": False}
    campaign.save()

    (encounter,) = draw(campaign, [at_sea(campaign, ship(campaign, club["jack"], "clearsight", "Gull"))])

    battle = encounter.battle
    assert battle.ruleset_key == campaign.tactical_ruleset
    assert (battle.options["line_of_sight"], battle.options["errata"]) == (True, False)
    assert battle.options["advanced"] is True  # the rest as written
