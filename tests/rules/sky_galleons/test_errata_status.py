"""The errata's status and leftovers: which of its parts are on by default (SG-ERR-01), armor and boarding
parties (SG-ERR-12), and the designed wind diagram (SG-WIND-02)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, hexgrid, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.hexgrid import ORIGIN, Hex
from battles.engine.ruleset import resolve_options
from battles.rules.sky_galleons import close_action
from battles.rules.sky_galleons.combat import CombatRules, FixedDice, fire_solution, resolve_fire
from battles.rules.sky_galleons.kinds import BOARD, FIRE
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from galleons.record import Moment, Party, ship_record_from_class
from tests.rules.sky_galleons.battle_harness import State, calm, drive, kinds, scenario, ship, start

# --- SG-ERR-01: the design and combat errata are official, the variants optional ------------------------


@pytest.mark.rule("SG-ERR-01")
def test_the_errata_are_on_by_default_and_its_variants_off() -> None:
    specs = {spec.key: spec for spec in RS.options}
    defaults = resolve_options(RS)
    assert defaults["errata"] is True  # Ship Design and Ship Combat: official
    assert defaults["plotted_movement"] is False  # Variants: optional
    assert (specs["errata"].clause, specs["plotted_movement"].clause) == ("SG-ERR-07", "SG-ERR-24")
    assert defaults["line_of_sight"] is False  # the rule book's own optional rules stay off as well
    assert defaults["signals"] is False


# --- SG-ERR-12: armor does not protect boarding parties --------------------------------------------------

NOW = Moment(2, 1)
SMALL_ARMS = CombatRules(small_arms=True)
NORDENFELT = "5"  # the Aphid's starboard 5-barrel Nordenfelt, a "P" gun


@pytest.mark.rule("SG-ERR-12", "SG-ERR-10")
def test_the_men_crossing_save_without_the_ships_armor() -> None:
    firer = ship_record_from_class("Aphid (original)", name="Firer", position=ORIGIN, facing=0, altitude="M")
    target = ship_record_from_class("Swiftwood", name="T", position=Hex(1, -1), facing=0, altitude="M")
    target = replace(target, armor=2)  # saves on 1-4 with the errata
    solution = fire_solution(firer, NORDENFELT, target, now=NOW, rules=SMALL_ARMS)
    assert solution.save_number == 4
    # One hit (a 6 of five dice), its save a 3: the ship's crew behind the armor saves it, a man crossing does not.
    for unprotected, lost in ((0, 0), (3, 1)):
        dice = FixedDice(6, 1, 1, 1, 1, 3, *([1] if lost else []))
        shot = replace(solution, unprotected=unprotected)
        ships, happened = resolve_fire({"Firer": firer, "T": target}, shot, now=NOW, roller=dice, rules=SMALL_ARMS)
        assert target.crew_aboard - ships["T"].crew_aboard == lost
        saves = next(h for h in happened if str(h["purpose"]).startswith("saving throws"))
        assert ("SG-ERR-12" in saves["clauses"]) == bool(unprotected)
    # Two hits, saves 3 and 3, one man crossing: his save fails, the other (armored) one holds.
    dice = FixedDice(6, 6, 1, 1, 1, 3, 3, 1)
    ships, _ = resolve_fire(
        {"Firer": firer, "T": target}, replace(solution, unprotected=1), now=NOW, roller=dice, rules=SMALL_ARMS
    )
    assert target.crew_aboard - ships["T"].crew_aboard == 1


@pytest.mark.rule("SG-ERR-12")
def test_boarding_combat_takes_no_account_of_the_ships_armor() -> None:
    attacker = ship_record_from_class("Hullcutter", name="A", position=ORIGIN, facing=0, altitude="M", side="a")
    attacker = replace(attacker, boarders=Party(officers=1, marines=6), boarding="D")
    defender = ship_record_from_class("Aphid (original)", name="D", position=ORIGIN, facing=0, altitude="M", side="b")
    results = []
    for armor in (0, 4):
        fight = close_action.boarding_round([attacker], replace(defender, armor=armor), roller=FixedDice(*[5] * 40))
        results.append((fight.attackers_lost, fight.defenders_lost))
    assert results[0] == results[1]


PARTY = {"parties": [{"ship": "Aphid", "men": {"marine_officers": 1, "marines": 6}}]}


@pytest.mark.rule("SG-ERR-12", "SG-BRD-10")
def test_small_arms_at_a_ship_whose_boarders_cross_save_those_men_without_her_armor() -> None:
    """The armored Aphid (side a) grappled with the Runner and sending her marines across; the Hullcutter
    Reaver (side b) a hex off fires its marines at the Aphid. Seeds are tried until the marines hit."""
    for n in range(30):
        saves = crossing_under_fire(f"unarmored-{n}".encode())
        if saves:
            assert "(boarders crossing)" in str(saves[0].data["needed"])
            return
    pytest.fail("the marines never hit")


def crossing_under_fire(seed: bytes) -> list[Any]:
    a = [ship("Aphid", "Aphid", (6, 5))]
    b = [ship("Runner", "Sky Runner", (6, 5), facing=2), ship("Reaver", "Hullcutter", (6, 4), facing=3)]
    _, state = start(scenario(a, b), seed)
    aphid = state.board.ship("Aphid")
    assert aphid.armor > 0
    marines = replace(aphid.crew, marines=6, marine_officers=1)
    aphid = replace(aphid, grappled_with=("Runner",), crew=marines, marine_arms=None)
    runner = replace(state.board.ship("Runner"), grappled_with=("Aphid",))
    state = replace(state, board=state.board.with_ship(aphid).with_ship(runner))

    def decide(s: State, request: DecisionRequest) -> Any:
        if request.kind == BOARD:
            men = RS.boarding_options(s, "a")["Aphid"]["Runner"]
            return {"boardings": [{"ship": "Aphid", "target": "Runner", "men": men}]}
        if request.kind == FIRE and request.side == "b":
            aimed = [o for o in RS.solutions(s, "b") if o.firer == "Reaver" and o.target == "Aphid" and o.small_arms]
            return {"shots": [{"ship": "Reaver", "gun": aimed[0].gun_id, "target": "Aphid"}]} if aimed else None
        return calm({"a": PARTY})(s, request)

    state, events, _ = drive(state, decide, seed, lambda s, r: s.board.phase_no == 2)
    assert kinds(events, "crossing")
    return [e for e in events if e.kind == "roll" and str(e.data["purpose"]).startswith("saving throws: Aphid")]


# --- SG-WIND-02: the wind diagram, designed -----------------------------------------------------------


@pytest.mark.rule("SG-WIND-02", "SG-WIND-01")
def test_the_wind_die_gives_the_hexside_it_blows_from_1_north_then_clockwise() -> None:
    """DESIGN.md "Wind" stands in for the lost diagram: 1d6, 1 = north, then clockwise (direction = die - 1)."""
    faces = set()
    for n in range(30):
        seed = f"wind-{n}".encode()
        data = scenario([ship("A", "Sky Runner", (2, 8))], [ship("B", "Sky Runner", (12, 2))], wind="roll")
        events = resolver.resolve(RS, resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed)), seed).events
        rolled = next(e for e in events if e.kind == "roll" and str(e.data["purpose"]).startswith("wind"))
        (face,) = rolled.data["dice"]
        assert next(e for e in events if e.kind == "wind").data["direction"] == face - 1
        faces.add(face)
    assert faces == {1, 2, 3, 4, 5, 6}, "the seeds should roll every face"
    # Direction 0 is the north hexside of the flat-top map, and the rest go round clockwise.
    assert hexgrid.DIRECTIONS[0] == Hex(0, -1)
    assert [hexgrid.direction_name(d) for d in range(6)] == ["N", "NE", "SE", "S", "SW", "NW"]
