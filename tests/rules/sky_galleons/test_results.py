"""The battle result (results.py): what a Sky Galleons battle hands the campaign. Hand-built and driven battles
with known damage, casualties, captures, crashes and stores spent, asserted figure by figure; then AI battles of
shipped scenarios checked against the outcome (casualties = crew_lost, never below none)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import simulate
from battles.engine.state import BattleState
from battles.rules.sky_galleons import agility, close_action, ordnance, results, scenario, signals
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.combat import FixedDice
from battles.rules.sky_galleons.kinds import CAPTURED, MOVE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import Criticals, HullRow, Party, ShipRecord, assign_gun_crew
from tests.rules.sky_galleons import test_ordnance_battle as ob
from tests.rules.sky_galleons.battle_harness import drive, ship, start
from tests.rules.sky_galleons.battle_harness import scenario as battle
from tests.rules.sky_galleons.test_boarding_battle import orders

State = BattleState[Board]

NOBODY = {
    "captain": 0,
    "officers": 0,
    "helmsman": 0,
    "trimsman": 0,
    "signalman": 0,
    "petty_officers": 0,
    "deckhands": 0,
    "marine_officers": 0,
    "marines": 0,
    "maneuver": 0,
    "gun_crews": 0,
}
AWAY_NONE = {"boarders": 0, "flying_parties": 0, "landing_party": 0, "prize_crews": 0, "guards": 0}


def entry(result: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [s for s in result["ships"] if s["name"] == name]
    return found


def captain(result: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [c for c in result["captains"] if c["ship"] == name]
    return found


def crew_lost(state: State, name: str) -> int:
    (found,) = [s for s in RS.tally(state)["ships"] if s["name"] == name]
    return int(found["crew_lost"])


def with_ship(state: State, record: ShipRecord) -> State:
    return replace(state, board=state.board.with_ship(record))


# --- a ship shot up ---------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-05", "SG-DMG-20", "SG-DMG-13", "SG-CRIT-10", "SGC-REPAIR-04", "SGC-REPAIR-05")
def test_a_ship_shot_up_gives_its_dead_post_by_post_its_hull_row_by_row_and_the_guns_it_lost() -> None:
    data = battle([ship("Reaver", "Hullcutter", (4, 8))], [ship("Runner", "Sky Runner", (12, 3))])
    initial, state = start(data, b"results-shot-up")
    reaver = state.board.ship("Reaver")
    crew = replace(reaver.crew, officers=2, deckhands=4, marines=6, maneuver_lost=4)
    guns = {"1": {"manned": 1}, "2": {"jammed": True}, "4": {"manned": 0, "destroyed": True}}
    hull = (HullRow("H", 7, 7), HullRow("M", 7, 2), HullRow("L", 7), HullRow("VL", 7))
    reaver = replace(
        reaver,
        crew=crew,
        guns=tuple(replace(g, **guns.get(g.id, {})) for g in reaver.guns),
        hull_rows=hull,
        fire=3,
        criticals=Criticals(rudder_jam=2, screw_mast_hits=1),
    )
    final = with_ship(state, reaver).evolve(over=True, winner="a", result="b withdraws")
    result = RS.battle_result(initial, final)
    assert (result["format"], result["ruleset"], result["scenario"]) == (1, "sky_galleons", "variant-test")
    assert result["battle"] == {"winner": "a", "reason": "b withdraws", "turns": final.turn, "over": True}
    ship_ = entry(result, "Reaver")
    assert (ship_["class"], ship_["side_at_start"], ship_["side_at_end"], ship_["fate"]) == (
        "Hullcutter",
        "a",
        "a",
        "fighting",
    )
    assert ship_["hull"] == {
        "boxes": 28,
        "hits": 9,
        "hits_in_battle": 9,
        "ceiling": "M",
        "rows": [
            {"altitude": "H", "boxes": 7, "hits": 7, "hits_in_battle": 7},
            {"altitude": "M", "boxes": 7, "hits": 2, "hits_in_battle": 2},
            {"altitude": "L", "boxes": 7, "hits": 0, "hits_in_battle": 0},
            {"altitude": "VL", "boxes": 7, "hits": 0, "hits_in_battle": 0},
        ],
    }
    assert ship_["guns_lost"] == [{"id": "4", "weapon": reaver.gun("4").weapon_id, "name": "Heavy Gun"}]
    assert ship_["criticals"] == {
        "fire": 3,
        "rudder_jammed": 2,
        "lifters_jammed": 0,
        "screw_mast_hits": 1,
        "boiler_blown": False,
        "boiler_loss": 0,
        "jury_rigged": False,
        "guns_jammed": ["2"],
        "helm_manned": True,
        "trim_manned": True,
    }
    crew_ = ship_["crew"]
    assert crew_["at_start"] == 60
    assert crew_["start"] == {
        **NOBODY,
        "captain": 1,
        "officers": 3,
        "helmsman": 1,
        "trimsman": 1,
        "signalman": 1,
        "deckhands": 7,
        "marine_officers": 1,
        "marines": 9,
        "maneuver": 21,
        "gun_crews": 15,
    }
    # One officer, three deckhands, three marines, four turncranks; two of gun 1's crew and gun 4's two.
    assert crew_["casualties"] == {
        **NOBODY,
        "officers": 1,
        "deckhands": 3,
        "marines": 3,
        "maneuver": 4,
        "gun_crews": 4,
    }
    assert crew_["gun_crew_casualties"] == {"1": 2, "4": 2}
    assert (crew_["killed"], crew_["joined"], crew_["went_down"], crew_["lost"], crew_["prisoners"]) == (
        15,
        0,
        0,
        15,
        0,
    )
    assert crew_["away"] == AWAY_NONE
    assert crew_["killed"] == crew_lost(final, "Reaver")
    assert captain(result, "Reaver") == {
        "ship": "Reaver",
        "side": "a",
        "fate": "aboard",
        "went_down": False,
        "captured_by": None,
    }
    untouched = entry(result, "Runner")
    assert (untouched["crew"]["killed"], untouched["hull"]["hits"], untouched["guns_lost"]) == (0, 0, [])
    assert untouched["ordnance"] == {"expended": {}, "items": []}
    assert untouched["endurance"] is None
    assert json.loads(json.dumps(result)) == result


@pytest.mark.rule("SG-CREW-05", "SG-SIG-01", "SG-CG-93", "SG-CREW-16", "SG-DMG-18")
def test_men_moved_between_posts_count_at_the_post_they_hold_and_a_dead_captain_is_killed() -> None:
    """The Swiftwood's signalman is killed and a deckhand takes his place (SG-SIG-01); two more deckhands man
    the power grapnel, whose crew is not supplied (SG-CG-93); the captain is killed. Two men died: the posts
    short at the end are a deckhand's and the captain's."""
    data = battle([ship("Reaver", "Hullcutter", (4, 8))], [ship("Swift", "Swiftwood", (12, 3))])
    initial, state = start(data, b"results-moved")
    swift = state.board.ship("Swift")
    swift = replace(swift, crew=swift.crew.with_count("signalman", 0).with_count("captain", 0))
    swift = assign_gun_crew(signals.replace_signalman(swift, "deckhands"), "5", 2)
    assert (swift.crew.deckhands, swift.crew.signalman, swift.gun("5").manned) == (0, 1, 2)
    final = with_ship(state, swift)
    crew_ = entry(RS.battle_result(initial, final), "Swift")["crew"]
    assert crew_["casualties"] == {**NOBODY, "deckhands": 1, "captain": 1}
    assert crew_["gun_crew_casualties"] == {}
    assert (crew_["killed"], crew_["joined"]) == (2, 0)
    assert crew_["killed"] == crew_lost(final, "Swift")
    assert captain(RS.battle_result(initial, final), "Swift")["fate"] == "killed"


# --- a ship taken and her prize crew ----------------------------------------------------------------------


def boarded(seed: bytes) -> tuple[State, State]:
    """The pirate Hullcutter's boarders (her marine officer, three deckhands and five marines, formed from their
    posts) are across on a Sky Runner grappled to her, whose deckhands are dead and who has no other defender:
    the boarders secure her deck in the pirate's first movement phase with her bridge alive (SG-BRD-12/13).
    The initial state, and the state at turn 2's orders."""
    data = battle(
        [ship("Reaver", "Hullcutter", (6, 5))],
        [ship("Runner", "Sky Runner", (6, 5)), ship("Far", "Sky Runner", (14, 2))],
        turns=8,
    )
    initial, state = start(data, seed)
    board = state.board
    formed = close_action.form_party(board.ship("Reaver"), {"marine_officers": 1, "deckhands": 3, "marines": 5})
    across = replace(formed.party, posts=())
    reaver = replace(
        formed, party=Party(posts=formed.party.posts), boarders=across, boarding="Runner", grappled_with=("Runner",)
    )
    runner = board.ship("Runner")
    runner = replace(runner, crew=runner.crew.with_count("deckhands", 0), grappled_with=("Reaver",))
    state = replace(state, board=board.with_ship(reaver).with_ship(runner))
    state, _, request = drive(state, orders(), seed, lambda s, r: s.turn == 2 and r.kind == ORDERS and r.side == "a")
    assert request is not None
    assert state.board.out.get("Runner") == CAPTURED
    return initial, state


@pytest.mark.rule("SG-BRD-13", "SG-BRD-21", "SG-BRD-22", "SG-BRD-04", "SGC-TREK-01")
def test_a_ship_taken_by_boarders_is_captured_with_her_captain_and_her_captors_men_away_are_not_lost() -> None:
    seed = b"results-taken"
    initial, state = boarded(seed)
    result = RS.battle_result(initial, state)
    runner = entry(result, "Runner")
    assert (runner["fate"], runner["captured_by"], runner["side_at_start"], runner["side_at_end"]) == (
        CAPTURED,
        "a",
        "b",
        "a",
    )
    # Her three deckhands died; the other 24 of her 27 are prisoners aboard her.
    assert runner["crew"]["casualties"] == {**NOBODY, "deckhands": 3}
    assert (runner["crew"]["killed"], runner["crew"]["prisoners"], runner["crew"]["lost"]) == (3, 24, 3)
    assert runner["prize"] == {
        "captor": "a",
        "owner": "b",
        "status": "held",
        "guard": {"ship": "Reaver", "rank": "marines"},
        "prize_crew": {},
        "prisoners": 24,
    }
    assert captain(result, "Runner") == {
        "ship": "Runner",
        "side": "b",
        "fate": "captured",
        "went_down": False,
        "captured_by": "a",
    }
    # The pirate's nine men are alive: eight boarders across and a marine guarding the prisoners.
    reaver = entry(result, "Reaver")
    assert reaver["crew"]["away"] == {**AWAY_NONE, "boarders": 8, "guards": 1}
    assert reaver["crew"]["casualties"] == NOBODY
    assert reaver["crew"]["killed"] == crew_lost(state, "Reaver") == 0
    assert captain(result, "Reaver")["fate"] == "aboard"
    assert runner["crew"]["killed"] == crew_lost(state, "Runner")

    # Crewed: her own men are prisoners at the posts they held; the pirate's eight are her prize crew.
    state, _, request = drive(
        state, orders(extra={"a": {"prizes": {"Runner": "crew"}}}), seed, lambda s, r: r.kind == MOVE
    )
    assert request is not None
    assert state.board.prizes["Runner"].status == "crewed"
    assert state.board.ship("Runner").crew.captain == 1  # the pirates' marine officer commands her
    posts = dict(state.board.prizes["Runner"].prisoner_posts)
    assert (posts["captain"], posts["maneuver"], posts.get("deckhands", 0), sum(posts.values())) == (1, 12, 0, 24)
    assert RS.board_from_json(RS.board_to_json(state.board)) == state.board  # the posts are saved with her
    result = RS.battle_result(initial, state)
    runner = entry(result, "Runner")
    assert (runner["fate"], runner["side_at_end"], runner["prize"]["status"]) == (CAPTURED, "a", "crewed")
    assert runner["prize"]["prize_crew"] == {"Reaver": 8}
    assert runner["crew"]["casualties"] == {**NOBODY, "deckhands": 3}
    assert runner["crew"]["prisoners"] == 24
    assert captain(result, "Runner")["fate"] == "captured"
    reaver = entry(result, "Reaver")
    assert reaver["crew"]["away"] == {**AWAY_NONE, "prize_crews": 8, "guards": 1}
    assert reaver["crew"]["casualties"] == NOBODY
    for name in ("Runner", "Reaver"):
        assert entry(result, name)["crew"]["killed"] == crew_lost(state, name)


# --- crashes -------------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-ALT-10", "SG-ALT-12", "SG-ALT-14", "SGC-TREK-01")
def test_a_crash_landing_saves_the_crew_and_a_crash_takes_them_down_with_her() -> None:
    """The Lander, at Very Low, moves two hexes and drops to the ground: a crash landing (SG-ALT-12). The Ram,
    at Low, runs at speed 2 into a hill as high as she is: she crashes (SG-ALT-14)."""
    data = battle(
        [
            ship("Lander", "Aphid (original)", (5, 8), altitude="VL"),
            ship("Ram", "Aphid (original)", (9, 8), altitude="L"),
        ],
        [ship("Far", "Sky Runner", (14, 2))],
        turns=3,
        map={"cols": 16, "rows": 12, "terrain": [{"hex": [9, 6], "height": "L"}]},
    )
    seed = b"results-crash"
    initial, state = start(data, seed)
    moves = {"Lander": ["ahead", "ahead", "descend"], "Ram": ["ahead", "ahead"]}
    state, _, _ = drive(state, ob.script(moves=moves), seed, lambda s, r: s.turn == 2)
    result = RS.battle_result(initial, state)
    lander, ram = entry(result, "Lander"), entry(result, "Ram")
    assert (lander["fate"], ram["fate"]) == ("crash-landed", "crashed")
    assert (lander["crew"]["killed"], lander["crew"]["went_down"], lander["crew"]["lost"]) == (0, 0, 0)
    assert (ram["crew"]["killed"], ram["crew"]["went_down"], ram["crew"]["lost"]) == (0, 15, 15)
    assert ram["crew"]["killed"] == crew_lost(state, "Ram")  # the outcome counts the killed in action only
    assert captain(result, "Lander")["fate"] == "crash-landed"
    assert captain(result, "Ram") == {
        "ship": "Ram",
        "side": "a",
        "fate": "killed",
        "went_down": True,
        "captured_by": None,
    }
    assert captain(result, "Far")["fate"] == "aboard"


# --- ordnance, the endurance track and the ground ------------------------------------------------------------


@pytest.mark.rule("SG-SMT-09", "SG-SMT-02", "SG-CG-25")
def test_a_launched_torpedo_is_expended() -> None:
    seed = b"torpedo"
    data = ob.battle([ob.ship("Triumph", "Triumph", (8, 14))], [ob.ship("Gull", "Endtime", (8, 10))])
    initial, state = start(data, seed)
    state, _, request = drive(state, ob.script(fire=ob.LAUNCH), seed, ob.at(ob.AVOID_TORPEDO))
    assert request is not None
    torpedoes = len(initial.board.ship("Triumph").items_of(ordnance.SMUTTS_TORPEDO))
    assert torpedoes > 1
    spent = entry(RS.battle_result(initial, state), "Triumph")["ordnance"]
    assert spent["expended"] == {ordnance.SMUTTS_TORPEDO: 1}
    (item,) = spent["items"]
    assert (item["weapon"], item["start"], item["end"]) == (ordnance.SMUTTS_TORPEDO, "stowed", "launched")


@pytest.mark.rule("SG-TM-05", "SG-CG-36", "SG-TM-03")
def test_tether_mines_cut_loose_are_expended_and_mines_merely_raised_are_not() -> None:
    seed = b"cut-loose"
    data = ob.battle(
        [ob.ship("Dart", ob.DART, (8, 7), altitude="H"), ob.ship("Aphid", "Aphid (original)", (8, 7), altitude="VH")],
        [ob.ship("Sled", "Skyfire", (8, 7))],
    )
    initial, state = start(data, seed)
    mines = initial.board.ship("Sled").items_of(*ordnance.MINES)
    assert mines
    raised = {"b": {"mines": [{"ship": "Sled", "raised": True}]}}
    held, _, _ = drive(state, ob.script(orders=raised), seed, ob.at(MOVE))
    assert entry(RS.battle_result(initial, held), "Sled")["ordnance"]["expended"] == {}
    cut = {"b": {"mines": [{"ship": "Sled", "raised": True}], "cut_mines": ["Sled"]}}
    state, _, _ = drive(state, ob.script(orders=cut), seed, ob.at(MOVE))
    spent = entry(RS.battle_result(initial, state), "Sled")["ordnance"]
    assert spent["expended"] == {mines[0].weapon_id: len(mines)}
    assert sorted({i["end"] for i in spent["items"]}) <= ["cut", "detonated"]
    assert len(spent["items"]) == len(mines)


@pytest.mark.rule("AG-END-01", "AG-END-02", "AG-END-03", "AG-END-05")
def test_the_endurance_track_gives_the_boxes_used_and_the_coal_lost_in_this_battle() -> None:
    """The Aphid's campaign record: 20 days of endurance, 4 travelled, a box lost to a bunker hit in an earlier
    battle; in this one a 6 on the bunker check after a hit of DV 3 holes it again (AG-END-05)."""
    data = battle([ship("Aphid", "Aphid (original)", (4, 8))], [ship("Runner", "Sky Runner", (12, 3))])
    initial, state = start(data, b"results-coal", {"agility": True, "coal_bunker_hits": True})
    campaign = replace(agility.travel(agility.with_endurance(initial.board.ship("Aphid"), 20), 4), coal_lost=1)
    initial = with_ship(initial, campaign)
    holed, _ = agility.coal_bunker_check(
        replace(state.board.ship("Aphid"), endurance=20, endurance_used=4, coal_lost=1), 3, roller=FixedDice(6)
    )
    final = with_ship(state, holed)
    boxes = campaign.endurance
    assert boxes is not None
    used = campaign.endurance_used
    assert used is not None
    assert entry(RS.battle_result(initial, final), "Aphid")["endurance"] == {
        "boxes": boxes,
        "used": used,
        "coal_lost": 2,
        "coal_lost_in_battle": 1,
        "left": boxes - used - 2,
    }
    assert entry(RS.battle_result(initial, final), "Runner")["endurance"] is None


@pytest.mark.rule("SG-GB-01", "SG-BOMB-01")
def test_ground_targets_are_listed_apart_from_the_vessels() -> None:
    data = ob.battle(
        [ob.ship("Dart", ob.DART, (8, 12))], [ob.ship("Skiff", "Sky Runner", (4, 4))], b_ground=ob.RAID_GROUND
    )
    initial, state = start(data, b"results-ground")
    result = RS.battle_result(initial, state)
    vessels = [s.name for s in state.board.ships if s.emplacement is None]
    ground = [s.name for s in state.board.ships if s.emplacement is not None]
    assert ground
    assert [s["name"] for s in result["ships"]] == vessels == ["Dart", "Skiff"]
    assert sorted(g["name"] for g in result["ground"]) == sorted(ground)
    assert all(g["fate"] == "standing" for g in result["ground"])


# --- AI battles of the shipped scenarios ------------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-05", "SGC-EXP-02", "SG-BRD-21", "SG-HM-05", "SG-SCN-38")
@pytest.mark.parametrize(("slug", "run"), [("hearts-of-oak", 0), ("hearts-of-oak", 2), ("the-great-raid", 0)])
def test_ai_battles_give_every_vessel_once_with_casualties_that_add_up_to_the_outcome(slug: str, run: int) -> None:
    played = simulate.simulate(RS, scenario.load_data(slug), seed=simulate.seed_for(7, run))
    result = RS.battle_result(played.initial, played.final)
    assert json.loads(json.dumps(result)) == result
    assert result["format"] == results.FORMAT
    board = played.final.board
    vessels = [s.name for s in board.ships if s.emplacement is None]
    assert [s["name"] for s in result["ships"]] == vessels
    assert len(set(vessels)) == len(vessels)
    outcome = {s["name"]: s for s in played.outcome["ships"]}
    for ship_ in result["ships"]:
        crew_ = ship_["crew"]
        assert sum(crew_["start"].values()) == crew_["at_start"] == outcome[ship_["name"]]["crew_at_start"]
        assert all(n >= 0 for n in crew_["casualties"].values())
        assert sum(crew_["casualties"].values()) == crew_["killed"]
        assert crew_["killed"] == outcome[ship_["name"]]["crew_lost"] >= 0  # men lost, never men who joined
        assert crew_["lost"] == crew_["killed"] + crew_["went_down"]
        assert ship_["hull"]["hits"] == outcome[ship_["name"]]["hull_hits"]
        assert ship_["fate"] in results.RESULTS.texts("fates", "words")
    with_captain = [s.name for s in played.initial.board.ships if s.emplacement is None and s.crew.captain]
    assert [c["ship"] for c in result["captains"]] == with_captain
    assert all(c["fate"] in results.RESULTS.texts("captains", "words") for c in result["captains"])
    assert result["battle"] == {
        "winner": played.outcome["winner"],
        "reason": played.outcome["reason"],
        "turns": played.outcome["turns"],
        "over": played.outcome["over"],
    }
