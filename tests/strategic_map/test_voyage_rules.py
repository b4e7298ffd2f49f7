"""The pure voyage rules (strategic_map/voyage_rules.py): a ship's daily allowance by propulsion, the west wind on
the flat-top map, towing, coal, partial days and patrols, the checking of a plan, and the shortest way home."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from galleons import catalog, design
from galleons.record import ShipRecord, ship_record_from_class
from strategic_map import voyage_rules as vr
from strategic_map.mapdata import mars_map

ATLAS = mars_map()
PARHOON = Hex(7, 8)  # 0812
N, NE, SE, S, SW, NW = range(6)


@dataclass(frozen=True)
class Numbers:
    move_through: int | None
    patrol: int | None

    def number_for(self, *, patrolling: bool) -> int | None:
        return self.patrol if patrolling else self.move_through


REFERENCE = {name: Numbers(t.move_through, t.patrol) for name, t in ATLAS.territories.items()}


def record(class_id: str, **criticals: Any) -> ShipRecord:
    made = ship_record_from_class(class_id, name=class_id.replace("_", " ").title())
    return replace(made, criticals=replace(made.criticals, **criticals)) if criticals else made


def movement(class_id: str, **kwargs: Any) -> vr.ShipMovement:
    return vr.ship_movement(record(class_id).to_json(), **kwargs)


def steps(start: Hex, *directions: int) -> list[list[int]]:
    """A path as a plan writes it: the hexes entered going the given directions from ``start``."""
    path, at = [], start
    for direction in directions:
        at = hexgrid.neighbour(at, direction)
        path.append(at.to_json())
    return path


def check(plan: Any, ship: vr.ShipMovement, start: Hex = PARHOON, **kwargs: Any) -> vr.PlanCheck:
    return vr.plan_check(plan, start=start, ship=ship, atlas=ATLAS, numbers=REFERENCE, **kwargs)


def move(*directions: int, start: Hex = PARHOON) -> dict[str, Any]:
    return {"kind": "move", "path": steps(start, *directions)}


# --- the daily allowance ---------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-02", "SGC-MOVE-03", "SGC-MOVE-04", "SGC-MOVE-06", "SGC-MOVE-07", "SGC-MOVE-15")
@pytest.mark.parametrize(
    ("class_id", "propulsion", "points"),
    [
        ("aphid", "steam", 3),  # tactical speed 6
        ("thunderer", "steam", 3),  # tactical speed 3
        ("small_bird", "screw_galley", 2),  # tactical speed 2
        ("clearsight", "screw_galley", 2),  # tactical speed 5: the day's cruise does not care
        ("bloodrunner", "kite", 4),
        ("warm_winds", "kite", 4),
        ("boarding_launch", "launch", 1),  # a screw galley by her record, but she cruises 1 hex a day
    ],
)
def test_the_days_allowance_is_the_propulsions_not_the_tactical_speed(class_id, propulsion, points):
    ship = movement(class_id)
    assert (ship.propulsion, ship.points, ship.can_sail) == (propulsion, points, True)


@pytest.mark.rule("SGC-MOVE-02", "SGC-MOVE-03", "SGC-MOVE-15")
@pytest.mark.parametrize(("class_id", "hexes"), [("aphid", 3), ("small_bird", 2), ("boarding_launch", 1)])
def test_a_ship_sails_her_allowance_and_no_further(class_id, hexes):
    ship = movement(class_id, coal_days=20)
    assert check([move(*[N] * hexes)], ship).valid
    too_far = check([move(*[N] * (hexes + 1))], ship)
    assert not too_far.valid
    assert too_far.errors == (f"Day 1: Too far for one day: {ship.describe()}; this path needs {hexes + 1} hexes.",)
    assert too_far.days[0].hexes_used == hexes + 1
    assert too_far.days[0].allowance == hexes


# --- the wind ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-08", "SGC-MOVE-10")
def test_the_west_wind_on_the_flat_top_map():
    # Eastward hexsides run with the wind, westward against it, north and south across it.
    assert vr.wind_of_direction() == ("across", "with", "with", "across", "against", "against")
    assert vr.wind_between(PARHOON, hexgrid.neighbour(PARHOON, NE)) == "with"
    assert vr.wind_between(PARHOON, hexgrid.neighbour(PARHOON, NW)) == "against"


@pytest.mark.rule("SGC-MOVE-04", "SGC-MOVE-08", "SGC-MOVE-10")
@pytest.mark.parametrize("path", [(NE, SE, NE, SE), (NE, NE, NE, NE), (N, N, N, N), (S, SE, S, NE)])
def test_a_kite_makes_four_hexes_with_or_across_the_wind(path):
    kite = movement("bloodrunner")
    assert check([move(*path)], kite).valid
    assert not check([move(*path, NE)], kite).valid


@pytest.mark.rule("SGC-MOVE-05", "SGC-MOVE-09")
def test_a_kite_beats_straight_upwind_at_two_hexes_a_day():
    kite = movement("bloodrunner")
    assert check([move(NW, SW)], kite).valid
    upwind = check([move(NW, SW, NW)], kite)
    assert upwind.errors == (
        "Day 1: Too far for one day: the Bloodrunner, a kite, has 4 points a day: a hex with or across the wind "
        "costs 1, a hex against it 2; this path needs 6 points.",
    )
    # One hex upwind and two others: 2 + 1 + 1 points.
    assert check([move(NW, N, N)], kite).valid
    assert not check([move(NW, N, N, N)], kite).valid


@pytest.mark.rule("SGC-MOVE-10")
def test_a_steam_ship_or_galley_does_not_care_about_the_wind():
    galley = movement("small_bird")
    assert check([move(NW, SW)], galley).valid
    assert galley.step_cost(PARHOON, hexgrid.neighbour(PARHOON, SW)) == 1


# --- towing ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-13", "SG-TOW-07", "SG-TOW-08")
def test_towing_halves_the_allowance_and_takes_off_the_weight_as_the_tactical_rule_does():
    # The towing rule's worked example: a size-2 hull towing a size-5 loses 2 after halving.
    assert vr.towing_points(6, tower_hull_size=2, towed_hull_sizes=[5]) == 1
    assert vr.towing_points(8, tower_hull_size=2, towed_hull_sizes=[5]) == 2
    # Its second example (a size-3 "only halved") disagrees with its formula; the formula governs, as in battle.
    assert vr.towing_points(6, tower_hull_size=2, towed_hull_sizes=[3]) == 2
    # Several prizes weigh by their hull sizes together.
    assert vr.towing_points(6, tower_hull_size=2, towed_hull_sizes=[2, 2]) == 1
    # Rounding up, and never below one hex a day.
    assert vr.towing_points(3, tower_hull_size=2, towed_hull_sizes=[1]) == 2
    assert vr.towing_points(2, tower_hull_size=1, towed_hull_sizes=[7]) == 1
    assert vr.towing_points(3, tower_hull_size=2, towed_hull_sizes=[]) == 3


@pytest.mark.rule("SGC-MOVE-13")
def test_a_steam_ship_with_a_prize_in_tow_makes_fewer_hexes():
    aphid = movement("aphid", coal_days=20, towed_hull_sizes=[3])  # hull 2: ceil(3 / 2) - floor(3 / 2) = 1
    assert (aphid.points, aphid.towing) == (1, True)
    assert check([move(N)], aphid).valid
    assert not check([move(N, N)], aphid).valid
    assert "while towing" in check([move(N, N)], aphid).errors[0]


@pytest.mark.rule("SGC-MOVE-13", "SGC-MOVE-05")
def test_a_towing_kite_is_halved_and_halved_again_upwind():
    kite = movement("swiftwood", towed_hull_sizes=[2])  # hull 3: 4 points halved to 2
    assert kite.points == 2
    assert check([move(NE, SE)], kite).valid
    assert not check([move(NE, SE, NE)], kite).valid
    assert check([move(NW)], kite).valid
    assert not check([move(NW, NW)], kite).valid
    # Left with 1 point she still makes the first hex of her day, upwind too.
    crawling = movement("bloodrunner", towed_hull_sizes=[1])  # hull 1: 2 - 1 = 1 point
    assert crawling.points == 1
    assert check([move(NW)], crawling).valid
    assert not check([move(N, N)], crawling).valid


# --- coal --------------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-14")
def test_endurance_is_ten_times_bunkers_over_engine_size():
    aphid = catalog.ship_class("aphid")
    rating = design.rate_design(design.design_from_catalog(aphid))
    assert rating.endurance_days == 10 * aphid.raw["bunker_size"] // record("aphid").engine_size == 20


@pytest.mark.rule("SGC-MOVE-14")
def test_a_steam_ship_burns_a_day_of_coal_a_day_at_sea_and_cannot_move_without_it():
    aphid = movement("aphid", coal_days=2)
    plan = [move(N), {"kind": "patrol"}, move(S, start=hexgrid.neighbour(PARHOON, N))]
    checked = check(plan, aphid)
    assert [day.coal_after for day in checked.days] == [1, 0, 0]
    assert checked.errors == ("Day 3: The Aphid has no coal left: a steam ship cannot move without it (SGC-MOVE-14).",)
    # Out of coal she may still patrol where she is.
    assert check([move(N), {"kind": "patrol"}, {"kind": "patrol"}], aphid).valid


@pytest.mark.rule("SGC-MOVE-14")
def test_only_steam_ships_burn_coal():
    galley = movement("small_bird", coal_days=5)
    assert galley.coal_days is None
    assert [day.coal_after for day in check([move(N), {"kind": "patrol"}], galley).days] == [None, None]
    untracked = movement("aphid", coal_days=None)
    assert check([move(N)] * 1, untracked).days[0].coal_after is None


# --- partial days and patrols --------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-01", "SGC-MOVE-11", "SGC-MOVE-12")
def test_a_day_is_a_move_of_up_to_the_allowance_or_a_patrol():
    steam = movement("aphid", coal_days=20)
    first = hexgrid.neighbour(PARHOON, N)
    plan = [move(N), {"kind": "patrol"}, move(N, N, start=first)]
    checked = check(plan, steam)
    assert checked.valid
    assert [(d.kind, d.hexes_used, d.end) for d in checked.days] == [
        ("move", 1, first),
        ("patrol", 0, first),
        ("move", 2, Hex(7, 5)),
    ]
    assert checked.plan == [move(N), {"kind": "patrol"}, move(N, N, start=first)]
    # Part of a day moving and part patrolling is not a day: a patrol has no path.
    mixed = check([{"kind": "patrol", "path": steps(PARHOON, N)}], steam)
    assert mixed.errors == ("Day 1: A patrol stays where she is: it has no path.",)


@pytest.mark.rule("SGC-MOVE-12")
def test_an_empty_move_is_refused():
    assert check([{"kind": "move", "path": []}], movement("aphid")).errors == (
        "Day 1: A move needs a path: the hexes entered, in order, as [[q, r], ...].",
    )


# --- the state of the ship -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("class_id", "criticals"),
    [
        ("aphid", {"boiler_blown": True}),
        ("small_bird", {"screw_mast_hits": 5}),
        ("bloodrunner", {"screw_mast_hits": 7}),
    ],
)
def test_a_ship_whose_speed_is_nothing_cannot_sail(class_id, criticals):
    damaged = vr.ship_movement(record(class_id, **criticals).to_json(), coal_days=20)
    assert not damaged.can_sail
    assert "speed is 0" in (damaged.cannot_sail_because or "")
    refused = check([move(N)], damaged)
    assert refused.errors[0].startswith(f"Day 1: The {record(class_id).name}'s speed is 0 after her damage")
    # Drifting where she is, she may still patrol.
    assert check([{"kind": "patrol"}], damaged).valid


def test_a_jury_rigged_ship_sails_again():
    rigged = vr.ship_movement(record("small_bird", screw_mast_hits=5, jury_rigged=True).to_json())
    assert rigged.can_sail
    assert rigged.points == 2


def test_a_crashed_ship_cannot_sail():
    crashed = replace(record("small_bird"), status="crashed")
    assert vr.ship_movement(crashed).cannot_sail_because == "The Small Bird has crashed: she cannot sail."


# --- the plan as untrusted input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plan", "error"),
    [
        ({"kind": "patrol"}, "The plan must be a list of days."),
        ([{"kind": "patrol"}] * 61, "A plan is at most 60 days; this one has 61."),
        (["patrol"], 'Day 1: A day is {"kind": "move", "path": [[q, r], ...]} or {"kind": "patrol"}.'),
        ([{"kind": "fly"}], 'Day 1: A day is {"kind": "move", "path": [[q, r], ...]} or {"kind": "patrol"}.'),
        ([{"kind": "patrol", "speed": 9}], "Day 1: A day has only a kind and a path, not speed."),
        ([{"kind": "move", "path": [[7, 7.5]]}], "Day 1: Hex 1 of the path is not [q, r] whole numbers: [7, 7.5]."),
        ([{"kind": "move", "path": [[7, 7, 1]]}], "Day 1: Hex 1 of the path is not [q, r] whole numbers: [7, 7, 1]."),
        ([{"kind": "move", "path": [[True, 7]]}], "Day 1: Hex 1 of the path is not [q, r] whole numbers: [True, 7]."),
        ([{"kind": "move", "path": [[7, 7], [7, 5]]}], "Day 1: Hex 2 of the path, 0809, is not next to 0811."),
        ([{"kind": "move", "path": [[7, 8]]}], "Day 1: Hex 1 of the path, 0812, is where she already is."),
        ([{"kind": "move", "path": [[7, 6]]}], "Day 1: Hex 1 of the path, 0810, is not next to 0812."),
        ([{"kind": "move", "path": [[7, 7]] * 25}], "Day 1: A day's path is at most 24 hexes; this one has 25."),
    ],
)
def test_a_malformed_plan_is_refused_with_a_reason(plan, error):
    checked = check(plan, movement("aphid", coal_days=20))
    assert not checked.valid
    assert checked.errors[0] == error


def test_off_the_map_is_refused():
    corner = Hex(0, 0)  # 0101, the north-west corner
    assert vr.on_map(ATLAS, corner)
    assert not vr.on_map(ATLAS, Hex(-1, 0))
    checked = check([{"kind": "move", "path": [[-1, 0]]}], movement("small_bird"), start=corner)
    assert checked.errors == ("Day 1: Hex 1 of the path, (-1, 0), is off the map.",)
    assert checked.days[0].end == corner


def test_the_next_day_starts_where_the_last_one_really_ended():
    # Day 1 breaks off at its second hex; day 2 is checked from its first.
    first = hexgrid.neighbour(PARHOON, N)
    plan = [{"kind": "move", "path": [first.to_json(), [0, 0]]}, move(N, start=first)]
    checked = check(plan, movement("aphid", coal_days=20))
    assert [day.end for day in checked.days] == [first, hexgrid.neighbour(first, N)]
    assert len(checked.errors) == 1
    assert checked.errors[0].startswith("Day 1:")


# --- encounters and territories -----------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MOVE-11")
def test_each_day_carries_the_encounter_number_of_the_territory_she_ends_it_in():
    start = Hex(4, 7)  # 0509, next to Shistomik (move 1, patrol 3)
    west = hexgrid.neighbour(start, NW)
    assert ATLAS.hex_at(west.q, west.r).territory == "Shistomik"
    checked = check([move(NW, start=start), {"kind": "patrol"}], movement("small_bird"), start=start)
    assert [(d.territory, d.encounter_number) for d in checked.days] == [("Shistomik", 1), ("Shistomik", 3)]
    assert [d.to_json()["encounter_chance"] for d in checked.days] == ["1 in 6", "3 in 6"]
    british = check([move(N)], movement("small_bird")).days[0]
    assert (british.territory, british.encounter_number, british.to_json()["encounter_chance"]) == (
        "British",
        None,
        "none",
    )


def test_the_campaigns_own_numbers_are_used():
    numbers = {**REFERENCE, "British": Numbers(2, 4)}
    day = vr.plan_check([{"kind": "patrol"}], start=PARHOON, ship=movement("small_bird"), atlas=ATLAS, numbers=numbers)
    assert day.days[0].encounter_number == 4


def test_the_day_json_is_the_contract():
    day = check([move(N, NE)], movement("aphid", coal_days=9)).to_json()
    assert day["valid"] is True
    assert day["errors"] == []
    assert day["start"] == [7, 8]
    assert day["days"] == [
        {
            "index": 0,
            "kind": "move",
            "path": [[7, 7], [8, 6]],
            "end": [8, 6],
            "end_label": ATLAS.hex_at(8, 6).label,
            "territory": "British",
            "encounter_number": None,
            "encounter_chance": "none",
            "coal_after": 8,
            "allowance": 3,
            "hexes_used": 2,
            "problems": [],
        }
    ]


# --- friendly cities ---------------------------------------------------------------------------------------------


def test_the_friendly_cities_are_the_cities_in_friendly_hexes():
    names = {city.name for city in vr.friendly_cities(ATLAS)}
    assert {"Parhoon", "Syrtis Major", "Umbra", "Gorovaan"} <= names
    assert not names & {"Crocea", "Boreosyrtis", "Shastapsh", "Oenotria"}


def test_a_day_ending_in_a_friendly_city_ends_the_voyage():
    steam = movement("aphid", coal_days=20)
    plan = [move(N), move(S, start=hexgrid.neighbour(PARHOON, N)), {"kind": "patrol"}]
    checked = check(plan, steam)
    assert checked.days[1].arrives_at == "Parhoon"
    assert checked.errors == ("Day 3: The voyage ends at Parhoon at the end of day 2: this day would never be sailed.",)


# --- locked days -------------------------------------------------------------------------------------------------


def test_a_locked_days_problems_are_shown_but_do_not_refuse_the_plan():
    damaged = vr.ship_movement(record("small_bird", screw_mast_hits=5).to_json())
    checked = check([move(N), {"kind": "patrol"}], damaged, locked_days=1)
    assert checked.valid
    assert checked.days[0].locked
    assert checked.days[0].problems


# --- the shortest way --------------------------------------------------------------------------------------------


def test_the_shortest_way_is_split_into_days_of_the_ships_allowance():
    galley = movement("small_bird")
    goal = Hex(9, 11)  # Syrtis Major, 1016
    plan = vr.route_plan(PARHOON, goal, ship=galley, atlas=ATLAS)
    assert plan is not None
    assert [len(day["path"]) for day in plan] == [2, 2, 1]  # 5 hexes
    checked = check(plan, galley)
    assert checked.valid
    assert checked.days[-1].end == goal
    assert checked.days[-1].arrives_at == "Syrtis Major"


@pytest.mark.rule("SGC-MOVE-05", "SGC-MOVE-09")
def test_a_kites_way_west_is_planned_upwind_at_two_hexes_a_day():
    kite = movement("bloodrunner")
    goal = Hex(1, 11)  # six columns west of Parhoon
    plan = vr.route_plan(PARHOON, goal, ship=kite, atlas=ATLAS)
    assert plan is not None
    assert len(plan) == 3
    assert all(len(day["path"]) == 2 for day in plan)
    assert check(plan, kite).valid
    east = vr.route_plan(PARHOON, Hex(15, 4), ship=kite, atlas=ATLAS)
    assert east is not None
    assert len(east) == 2
    assert len(east[0]["path"]) == 4
    assert check(east, kite).valid


def test_the_way_to_a_hex_off_the_map_is_none():
    assert vr.route_plan(PARHOON, Hex(-3, 0), ship=movement("small_bird"), atlas=ATLAS) is None


def test_the_nearest_friendly_city_and_the_way_there():
    galley = movement("small_bird")
    start = Hex(3, 5)  # 0407, out west in the Neutral West
    found = vr.nearest_friendly_city(start, ship=galley, atlas=ATLAS)
    assert found is not None
    city, plan = found
    # Nothing friendly is fewer days away.
    for other in vr.friendly_cities(ATLAS):
        other_plan = vr.route_plan(start, vr.city_hex(ATLAS, other), ship=galley, atlas=ATLAS)
        assert other_plan is not None
        assert len(other_plan) >= len(plan)
    checked = check(plan, galley, start=start)
    assert checked.valid
    assert checked.days[-1].arrives_at == city.name


def test_a_patrol_over_a_friendly_city_does_not_end_the_voyage():
    umbra = Hex(12, -1)  # 1306, a friendly city in the Neutral Northeast
    galley = movement("small_bird")
    checked = check([{"kind": "patrol"}, move(N, start=umbra)], galley, start=umbra)
    assert checked.valid
    assert checked.days[0].arrives_at is None
    assert checked.days[0].encounter_number == 2
    assert vr.arrival_city(ATLAS, kind="move", end=umbra) == ATLAS.city("Umbra")
    assert vr.arrival_city(ATLAS, kind="patrol", end=umbra) is None
