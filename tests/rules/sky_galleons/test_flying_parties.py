"""High Martians, flying parties and Throckmorton conveyors as the ruleset plays them (SG-HM-01..08, SG-THR-01,
SG-ERR-13, SG-SHR-06; flying.py). Battles are driven from small scenario dicts with scripted decisions; dice
are seeded: a test checks each logged roll against its rule, or looks for a seed that gives the case it needs
and says so."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, policies, resolver
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import Event
from battles.engine.hexgrid import Hex, to_odd_q
from battles.engine.state import BattleState
from battles.rules.sky_galleons import close_action, combat, flying, movement
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.flying import FLY, FlyingParty
from battles.rules.sky_galleons.kinds import BOARD, FIRE, FIRST, MOVE, ORDERS, POSITION
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.scenario import ScenarioError, parse
from battles.rules.sky_galleons.tactics import Captain
from galleons.record import Party
from tests.rules.sky_galleons.battle_harness import drive, submit

State = BattleState[Board]
Decide = Callable[[State, DecisionRequest], Any]


def ship(
    name: str, cls: str, at: tuple[int, int], facing: int = 0, altitude: str = "M", **extra: Any
) -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at), "facing": facing, "altitude": altitude, **extra}


def scenario(a: list[dict[str, Any]], b: list[dict[str, Any]], turns: int = 4, **more: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "slug": "flying-test",
        "title": "Flying parties test",
        "map": {"cols": 16, "rows": 12},
        "turn_limit": turns,
        "sides": [{"id": "a", "ships": a}, {"id": "b", "ships": b}],
    }
    data.update(more)
    return data


def raptor(at: tuple[int, int] = (6, 6), **extra: Any) -> dict[str, Any]:
    """A High Martian Small Bird (hull 2, a marine officer and nine marines, turnscrews in two rows of two)."""
    return ship("Raptor", "Small Bird", at, high_martian=True, **extra)


RUNNER = ship("Runner", "Sky Runner", (6, 4))  # hull 3, three deckhands, no marines
DANGER = ship("Danger", "Dauntless (original design)", (6, 4), facing=3)  # marines with rifles, 4in guns

FLYERS = {"marine_officers": 1, "marines": 9}
FORM = {"flying_parties": [{"ship": "Raptor", "men": FLYERS}]}


def begin(data: Mapping[str, Any], seed: bytes, options: Mapping[str, Any] | None = None) -> State:
    initial = resolver.new_battle(RS, dict(data), seed_commitment=dice.commitment(seed), options=options)
    return resolver.resolve(RS, initial, seed).state


def refused(state: State, request: DecisionRequest, choice: Any, seed: bytes) -> Rejection:
    outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
    assert isinstance(outcome, Rejection), "expected a rejection"
    return outcome


def plays(orders: Mapping[str, Mapping[str, Any]] | None = None, flights: Mapping[str, Any] | None = None) -> Decide:
    """Turn 1's initiative ``orders`` per side, side a moves first, ships hold still, ``flights`` by party name
    (default: stay), nobody fires, and in a shared hex the first position offered."""

    def decide(state: State, request: DecisionRequest) -> Any:
        if request.kind == ORDERS:
            extra = (orders or {}).get(request.side, {}) if state.turn == 1 else {}
            return {"crew": [], "strike": [], **extra}
        if request.kind == FIRST:
            return "a"
        if request.kind == MOVE:
            return []
        if request.kind == FLY:
            return (flights or {}).get(request.ships[0], [])
        if request.kind == FIRE:
            return {"shots": []}
        if request.kind == POSITION:
            return request.options[0]
        return None

    return decide


def at(kind: str, side: str | None = None) -> Callable[[State, DecisionRequest], bool]:
    return lambda _state, request: request.kind == kind and (side is None or request.side == side)


def kinds(found: list[Event], kind: str) -> list[Event]:
    return [e for e in found if e.kind == kind]


def rolls(found: list[Event], words: str) -> list[Event]:
    return [e for e in found if e.kind == "roll" and words in str(e.data["purpose"])]


def party(state: State, name: str = "Raptor flyers 1-1") -> FlyingParty:
    found = flying.find(state.board.flyers, name)
    assert found is not None, f"no flying party {name}"
    return found


def where(found: FlyingParty) -> list[int]:
    return list(to_odd_q(found.position))


def flown(
    orders: Mapping[str, Any], seed: bytes, data: Mapping[str, Any] | None = None
) -> tuple[State, DecisionRequest]:
    """Turn 1 with side a's ``orders``, up to the first ``fly`` request."""
    state = begin(data or scenario([raptor()], [RUNNER]), seed)
    state, _, request = drive(state, plays({"a": orders}), seed, at(FLY))
    assert request is not None
    return state, request


# --- High Martian crews (SG-HM-07) ------------------------------------------------------------------------


@pytest.mark.rule("SG-HM-07")
def test_high_martians_are_green_but_board_as_trained_or_the_crack_the_scenario_gives() -> None:
    found = parse(scenario([raptor(), raptor((9, 8), boarding_quality="crack") | {"name": "Kestrel"}], [RUNNER]))
    plain, crack = found.sides[0].ships[0].record, found.sides[0].ships[1].record
    assert (plain.crew_quality, plain.boarders_quality) == ("green", "trained")
    assert (crack.crew_quality, crack.boarders_quality) == ("green", "crack")
    assert combat.to_hit_modifiers(plain, found.sides[1].ships[0].record) == {"green crew": -1}
    with pytest.raises(ScenarioError, match="SG-HM-07"):
        parse(scenario([raptor(crew_quality="crack")], [RUNNER]))
    with pytest.raises(ScenarioError, match="SG-HM-07"):
        parse(scenario([raptor(boarding_quality="green")], [RUNNER]))
    runner = parse(scenario([raptor()], [RUNNER])).sides[1].ships[0].record
    assert (runner.high_martian, runner.boarders_quality) == (False, "trained")


@pytest.mark.rule("SG-HM-07", "SG-CQ-09")
def test_crack_high_martian_boarders_add_one_to_every_boarding_die() -> None:
    seed = b"hm-crack"
    data = scenario([raptor(boarding_quality="crack")], [RUNNER])
    state, request = flown(FORM, seed, data)
    state, found, _ = drive(
        state, plays(flights={request.ships[0]: {"steps": ["N", "N"], "board": "Runner"}}), seed, at(MOVE, "b")
    )
    attack = rolls(found, "boarding combat: attacker Raptor flyers 1-1's 10 officers and marines")[0]
    assert attack.data["needed"].startswith("each die 4+ (5+, crack +1)")
    defend = rolls(found, "boarding combat: defender Runner's")[0]
    assert defend.data["needed"] == "each die 6+ kills"  # the Sky Runner's Trained crew: no bonus


# --- forming a flying party (SG-HM-02, SG-HM-08) ---------------------------------------------------------


def orders_request(
    data: Mapping[str, Any], seed: bytes, options: Mapping[str, Any] | None = None
) -> tuple[State, DecisionRequest]:
    state = begin(data, seed, options)
    state, _, request = drive(state, plays(), seed, at(ORDERS, "a"))
    assert request is not None
    return state, request


@pytest.mark.rule("SG-HM-02", "SG-BRD-01", "SG-BRD-02")
def test_a_flying_party_is_formed_in_the_initiative_phase_from_the_posts_and_put_in_the_ships_hex() -> None:
    seed = b"hm-form"
    state, _ = flown(FORM, seed)
    ship = state.board.ship("Raptor")
    flyers = party(state)
    assert (ship.crew.marine_officers, ship.crew.marines) == (0, 0)  # marked off as if casualties
    assert flyers.men == Party(officers=1, marines=9, posts=(("marine_officers", 1), ("marines", 9)))
    assert (flyers.position, flyers.altitude) == (ship.position, ship.altitude)
    assert (flyers.home, flyers.side, flyers.formed, flyers.aboard) == ("Raptor", "a", 1, None)
    assert (flyers.crew_quality, flyers.boarding_quality) == ("green", "trained")
    assert ship.party.men == 0  # a flying party is not the boarding party at home


@pytest.mark.rule("SG-HM-02", "SG-CREW-01", "SG-THR-01")
def test_a_flying_party_needs_an_officer_and_high_martians_or_conveyors() -> None:
    seed = b"hm-form-no"
    state, request = orders_request(scenario([raptor()], [RUNNER]), seed)
    marines = {"crew": [], "strike": [], "flying_parties": [{"ship": "Raptor", "men": {"marines": 5}}]}
    assert refused(state, request, marines, seed).clause == "SG-CREW-01"
    state, request = orders_request(scenario([ship("Raptor", "Small Bird", (6, 6))], [RUNNER]), seed)
    plain = {"crew": [], "strike": [], **FORM}
    assert refused(state, request, plain, seed).clause == "SG-HM-02"


@pytest.mark.rule("SG-HM-08")
def test_high_martian_turnscrews_are_slaves_who_leave_the_crankshaft_for_nobody() -> None:
    seed = b"hm-slaves"
    state, request = orders_request(scenario([raptor()], [RUNNER]), seed)
    for order in (
        {"parties": [{"ship": "Raptor", "men": {"marine_officers": 1, "turncranks": 2}}]},
        {"flying_parties": [{"ship": "Raptor", "men": {"marine_officers": 1, "maneuver": 2}}]},
        {"crew": [{"ship": "Raptor", "gun": "2", "men": 1, "from": "turncranks"}]},
    ):
        assert refused(state, request, {"crew": [], "strike": [], **order}, seed).clause == "SG-HM-08"
    # Everyone else may go: the turnscrews stay at the crankshaft and the galley keeps her speed.
    everyone = {"marine_officers": 1, "marines": 9, "deckhands": 2, "signalman": 1}
    state, _, _ = drive(state, plays({"a": {"flying_parties": [{"ship": "Raptor", "men": everyone}]}}), seed, at(FLY))
    galley = state.board.ship("Raptor")
    assert galley.crew.maneuver == sum(galley.crew.maneuver_rows)
    assert RS.speed(galley) == 2


# --- moving (SG-HM-03, SG-HM-04) -------------------------------------------------------------------------


@pytest.mark.rule("SG-HM-03")
def test_a_flying_party_moves_two_hexes_any_way_after_its_sides_ships() -> None:
    seed = b"hm-move"
    state, request = flown(FORM, seed)
    assert request.side == "a"
    assert "Raptor" in state.board.moves_done  # the ships moved first
    for steps in (["SE", "SW"], ["NW"], ["S", "S"], ["N", "S"], []):
        assert RS.validate(state, request, steps) is None, steps
    assert refused(state, request, ["N", "N", "N"], seed).clause == "SG-HM-03"
    assert refused(state, request, ["ahead"], seed).clause == "SG-HM-03"
    assert refused(state, request, {"steps": ["N"], "ram": "Runner"}, seed).clause == "SG-HM-03"
    start = party(state).position
    state, found = submit(state, request, ["SE", "NE"], seed)
    moved = kinds(found, "party moved")
    assert [e.data["step"] for e in moved] == ["SE", "NE"]
    assert [e.data["cost"] for e in moved] == [1, 1]
    assert party(state).position == start + Hex(1, 0) + Hex(1, -1)  # hexsides 2 and 1
    assert party(state).flown == 1


@pytest.mark.rule("SG-HM-03")
def test_a_flying_party_stays_on_the_map() -> None:
    seed = b"hm-edge"
    state, request = flown(FORM, seed, scenario([raptor((0, 6))], [RUNNER]))
    assert refused(state, request, ["NW"], seed).clause == "SG-HM-03"
    assert RS.validate(state, request, ["NE"]) is None


@pytest.mark.rule("SG-HM-04")
def test_a_climb_costs_both_movement_points_a_descent_one_and_only_one_level_down_a_turn() -> None:
    seed = b"hm-levels"
    state, request = flown(FORM, seed)
    for legal in (["climb"], ["descend"], ["descend", "N"], ["N", "descend"]):
        assert RS.validate(state, request, legal) is None, legal
    for illegal in (["climb", "N"], ["N", "climb"], ["descend", "descend"], ["climb", "climb"]):
        assert refused(state, request, illegal, seed).clause == "SG-HM-04", illegal
    state, _ = submit(state, request, ["descend"], seed)
    assert (party(state).altitude, party(state).descended) == ("L", 1)
    state, _, request2 = drive(state, plays(), seed, at(FLY))
    assert request2 is not None
    assert state.turn == 2
    assert RS.validate(state, request2, ["descend"]) is None  # a new turn, a new level


@pytest.mark.rule("SG-HM-04", "SG-ALT-02")
def test_a_flying_party_lands_on_a_kraag_as_high_as_itself_and_flies_into_no_higher_land() -> None:
    seed = b"hm-kraag"
    terrain = [{"hex": [6, 5], "height": "M", "kind": "kraag"}, {"hex": [7, 5], "height": "H", "kind": "peak"}]
    data = scenario([raptor()], [RUNNER], map={"cols": 16, "rows": 12, "terrain": terrain})
    state, request = flown(FORM, seed, data)
    assert refused(state, request, ["NE"], seed).clause == "SG-ALT-02"  # the peak rises above M
    state, _ = submit(state, request, ["N"], seed)  # onto the kraag's top, at M: landed there
    assert flying.is_landed(party(state), state.board.terrain)
    state, _, request = drive(state, plays(), seed, at(FLY))
    assert request is not None
    assert refused(state, request, ["descend"], seed).clause == "SG-ALT-02"
    assert RS.validate(state, request, ["climb"]) is None  # it takes off again


# --- boarding from the air (SG-HM-05) and from the same hex (SG-HM-01) --------------------------------------------


@pytest.mark.rule("SG-HM-05", "SG-SEQ-07")
def test_a_flying_party_ending_on_an_enemy_boards_her_and_fights_in_the_phase_boarding_action() -> None:
    seed = b"hm-board"
    state, request = flown(FORM, seed)
    name = request.ships[0]
    assert refused(state, request, {"steps": ["N"], "board": "Runner"}, seed).clause == "SG-HM-05"
    assert refused(state, request, {"steps": ["N", "N"], "board": "Raptor"}, seed).clause == "SG-HM-05"
    state, found, _ = drive(state, plays(flights={name: {"steps": ["N", "N"], "board": "Runner"}}), seed, at(MOVE, "b"))
    fight = kinds(found, "boarding action")[0]
    assert fight.data["attackers"] == [name]
    assert all(e.seq < fight.seq for e in kinds(found, "stage") if e.data["stage"] == "fire")
    assert rolls(found, f"boarding combat: attacker {name}'s 10 officers and marines")
    after = flying.find(state.board.flyers, name)
    lost = int(str(fight.data["attackers_lost"]))
    if after is not None:
        assert after.men.men == 10 - lost
        assert after.aboard == "Runner" or after.aboard is None
    if state.board.captured.get("Runner") == "a":
        assert after is not None
        assert after.aboard == "Runner"  # the prize crew


@pytest.mark.rule("SG-HM-05", "SG-BRD-17")
def test_a_flying_party_without_a_leader_cannot_board() -> None:
    seed = b"hm-leaderless"
    state, request = flown(FORM, seed)
    name = request.ships[0]
    leaderless = replace(party(state), men=Party(marines=6))
    state = state.evolve(board=replace(state.board, flyers=(leaderless,)))
    assert refused(state, request, {"steps": ["N", "N"], "board": "Runner"}, seed).clause == "SG-BRD-17"
    assert RS.validate(state, request, {"steps": [], "board": "Raptor"}) is None  # it may still go home
    assert name == leaderless.name


@pytest.mark.rule("SG-HM-05", "SG-BRD-04")
def test_a_flying_party_landing_on_its_own_ship_goes_back_to_its_posts() -> None:
    seed = b"hm-home"
    state, request = flown(FORM, seed)
    name = request.ships[0]
    state, _ = submit(state, request, ["S"], seed)
    state, _, request = drive(state, plays(), seed, at(FLY))
    assert request is not None
    assert state.turn == 2
    state, found = submit(state, request, {"steps": ["N"], "board": "Raptor"}, seed)
    assert flying.find(state.board.flyers, name) is None
    ship = state.board.ship("Raptor")
    assert (ship.crew.marine_officers, ship.crew.marines) == (1, 9)
    assert any("go back to their posts" in str(n["what"]) for e in kinds(found, "effects") for n in e.data["notes"])


@pytest.mark.rule("SG-HM-05")
def test_a_flying_party_landing_on_another_friendly_ship_joins_her_crew() -> None:
    seed = b"hm-friend"
    kestrel = raptor((8, 6)) | {"name": "Kestrel"}
    state, request = flown(FORM, seed, scenario([raptor(), kestrel], [RUNNER]))
    before = state.board.ship("Kestrel").crew
    flight = {"steps": ["NE", "SE"], "board": "Kestrel"}
    state, _ = submit(state, request, flight, seed)
    after = state.board.ship("Kestrel").crew
    assert (after.officers, after.marines) == (before.officers + 1, before.marines + 9)
    assert not state.board.flyers


@pytest.mark.rule("SG-HM-01")
def test_a_high_martian_ship_in_an_enemys_hex_boards_her_without_grappling() -> None:
    seed = b"hm-leap"
    party_order = {"parties": [{"ship": "Raptor", "men": FLYERS}]}
    state = begin(scenario([raptor((6, 4))], [RUNNER]), seed)
    state, _, request = drive(state, plays({"a": party_order}), seed, lambda s, r: r.kind in (BOARD, FIRE))
    assert request is not None
    assert request.kind == BOARD
    assert not state.board.ship("Raptor").grappled_with
    limit = RS.boarding_options(state, "a")["Raptor"]["Runner"]
    assert limit in (5, 10)  # five per hull size of the smaller ship, half over a bow or stern (SG-BRD-07..09)
    boarding = {"boardings": [{"ship": "Raptor", "target": "Runner", "men": limit}]}
    state, found = submit(state, request, boarding, seed)
    assert "SG-HM-01" in kinds(found, "crossing")[0].data["clauses"]
    state, more, _ = drive(state, plays(), seed, at(MOVE, "b"))
    assert kinds(found + more, "boarding action")[0].data["attackers"] == ["Raptor"]


@pytest.mark.rule("SG-HM-01")
def test_other_ships_in_an_enemys_hex_still_need_a_grapple_to_board() -> None:
    seed = b"hm-leap-not"
    party_order = {"parties": [{"ship": "Raptor", "men": FLYERS}]}
    state = begin(scenario([ship("Raptor", "Small Bird", (6, 4))], [RUNNER]), seed)
    state, _, request = drive(state, plays({"a": party_order}), seed, lambda s, r: r.kind in (BOARD, FIRE))
    assert request is not None
    assert request.kind == FIRE
    assert RS.boarding_options(state, "a") == {}


# --- fire at flying parties (SG-HM-06, SG-SHR-06) ------------------------------------------------------------


def under_fire(seed: bytes) -> tuple[State, DecisionRequest, str]:
    """The Raptor's flyers two hexes south of the Danger (facing them), at her fire request of turn 1."""
    state = begin(scenario([raptor((6, 8))], [DANGER]), seed)
    state, _, request = drive(state, plays({"a": FORM}), seed, at(FLY))
    assert request is not None
    name = request.ships[0]
    state, _ = submit(state, request, ["N", "N"], seed)
    state, _, request = drive(state, plays(), seed, at(FIRE, "b"))
    assert request is not None
    return state, request, name


@pytest.mark.rule("SG-HM-06")
def test_only_small_arms_shrapnel_and_grape_fire_at_a_flying_party() -> None:
    seed = b"hm-fire"
    state, request, name = under_fire(seed)
    at_party = {(s.gun_id, s.ammunition) for s in RS.solutions(state, "b") if s.target == name}
    assert ("marines", "shell") in at_party
    assert ("1", "shrapnel") in at_party  # the 4in bow gun
    assert not [kind for gun, kind in at_party if kind == "shell" and gun != "marines"]
    shell = {"shots": [{"ship": "Danger", "gun": "1", "target": name}]}
    assert refused(state, request, shell, seed).clause == "SG-HM-06"
    shrapnel = {"shots": [{"ship": "Danger", "gun": "1", "target": name, "ammunition": "shrapnel"}]}
    assert RS.validate(state, request, shrapnel) is None
    assert RS.validate(state, request, {"shots": [{"ship": "Danger", "gun": "marines", "target": name}]}) is None
    assert refused(state, request, {"shots": [{"ship": "Danger", "gun": "9", "target": name}]}, seed).clause == (
        "SG-FIRE-02"
    )


@pytest.mark.rule("SG-HM-06", "SG-SAF-13")
def test_small_arms_at_a_flying_party_roll_hits_and_the_party_saves() -> None:
    for n in range(30):
        seed = f"hm-rifles-{n}".encode()
        state, request, name = under_fire(seed)
        before = party(state).men.men
        volley = {"shots": [{"ship": "Danger", "gun": "marines", "target": name}]}
        state, found = submit(state, request, volley, seed)
        hit = rolls(found, "small arms to hit: Danger marines")[0]
        assert len(hit.data["dice"]) == 6  # twelve marines with modern rifles: a die per two (SG-SAF-15)
        assert hit.data["needed"] == "6+"  # long range: two hexes
        hits = sum(1 for face in hit.data["dice"] if face >= 6)
        saves = rolls(found, f"saving throws: {name}")
        if not hits:
            assert not saves
            continue
        faces = saves[0].data["dice"]
        assert len(faces) == hits
        lost = sum(1 for face in faces if face > 2)  # no armor: 1-2 saves, and a 6 never does
        after = flying.find(state.board.flyers, name)
        assert (after.men.men if after else 0) == before - lost
        if lost:
            return
    pytest.fail("no seed put a man of the party down")


@pytest.mark.rule("SG-SHR-06", "SG-SHR-05")
def test_shrapnel_at_a_flying_party_kills_the_guns_damage_value_a_hit_less_the_saves() -> None:
    for n in range(40):
        seed = f"hm-shrapnel-{n}".encode()
        state, request, name = under_fire(seed)
        before = party(state).men.men
        volley = {"shots": [{"ship": "Danger", "gun": "3", "target": name, "ammunition": "shrapnel"}]}
        state, found = submit(state, request, volley, seed)
        hit = rolls(found, "to hit: Danger gun 3")[0]
        assert hit.data["modifiers"] == {"shrapnel": 1}  # the usual roll, +1 (SG-SHR-02)
        assert not rolls(found, "hit location")  # every hit is a crew hit
        hits = sum(1 for face in hit.data["dice"] if face + 1 >= 3)  # the 3pdr at close range: 3+
        saves = rolls(found, f"saving throws: {name} against")
        if not hits:
            continue
        assert saves[0].data["purpose"] == f"saving throws: {name} against {hits} men hit by shrapnel"
        lost = sum(1 for face in saves[0].data["dice"] if face > 2)
        after = flying.find(state.board.flyers, name)
        assert (after.men.men if after else 0) == before - lost
        if lost:
            return
    pytest.fail("no seed put a man of the party down")


@pytest.mark.rule("SG-HM-06")
def test_a_party_wiped_out_is_gone() -> None:
    seed = b"hm-wiped"
    state, _, name = under_fire(seed)
    last = replace(party(state), men=Party(officers=1))
    state = state.evolve(board=replace(state.board, flyers=(last,)))
    rules = RS.rules(state)
    shot = flying.solution(state.board.ship("Danger"), "marines", last, now=RS.now(state), rules=rules)
    volley = flying.resolve(
        state.board.ship("Danger"),
        last,
        shot,
        ships=state.board.by_name,
        now=RS.now(state),
        roller=combat.FixedDice(6, 1, 1, 1, 1, 1, 6, 1),  # one hit, unsaved, no officer check
        rules=rules,
    )
    assert volley.parties == {name: None}
    assert "Danger" in volley.ships  # the marines are marked as having fired


@pytest.mark.rule("SG-HM-06", "SG-SAF-14", "SG-SAF-12")
def test_a_flying_partys_marines_shoot_their_bows_at_a_ship_in_their_hex() -> None:
    seed = b"hm-bows"
    warband = {"name": "Warband", "men": 10, "position": [6, 5], "altitude": "M", "arms": "bow"}
    data = scenario([raptor((6, 9))], [RUNNER])
    data["sides"][0]["flying_parties"] = [warband]
    state = begin(data, seed)
    state, _, request = drive(state, plays(), seed, at(FLY))
    assert request is not None
    assert request.ships == ("Warband",)
    state, _ = submit(state, request, ["N"], seed)
    shots = [s for s in RS.solutions(state, "a") if s.firer == "Warband"]
    assert [(s.target, s.shots, s.band) for s in shots] == [("Runner", 3, "close")]  # nine bowmen: 3 dice
    assert shots[0].save_modifiers == {"bowmen": -1, "green firers": -1}
    state, _, request = drive(state, plays(), seed, at(FIRE, "a"))
    assert request is not None
    state, found, _ = drive(
        state,
        lambda s, r: {"shots": [{"ship": "Warband", "gun": "marines", "target": "Runner"}]} if r.side == "a" else None,
        seed,
        lambda s, r: r.kind != FIRE,
    )
    volley = rolls(found, "small arms to hit: Warband marines vs Runner")
    assert len(volley[0].data["dice"]) == 3
    assert party(state, "Warband").fired == 1


# --- Throckmorton conveyors (SG-THR-01, SG-ERR-13) ------------------------------------------------------------


def danger_with(conveyors: int) -> dict[str, Any]:
    return ship("Danger", "Dauntless (original design)", (6, 6), throckmorton_conveyors=conveyors)


@pytest.mark.rule("SG-THR-01", "SG-ERR-13")
@pytest.mark.parametrize(
    ("men", "errata", "clause"),
    [
        ({"marine_officers": 1, "marines": 2}, True, None),  # three conveyors from a hull 3 ship
        ({"marine_officers": 1, "marines": 3}, True, "SG-ERR-13"),
        ({"marine_officers": 1, "marines": 3}, False, None),
        ({"marine_officers": 1, "marines": 4}, False, "SG-THR-01"),  # only four conveyors aboard
    ],
)
def test_conveyors_fly_a_british_party_one_a_man_and_one_a_hull_size_a_turn(
    men: dict[str, int], errata: bool, clause: str | None
) -> None:
    seed = b"thr"
    state, request = orders_request(
        scenario([danger_with(4)], [ship("Raptor", "Small Bird", (6, 2))]), seed, {"errata": errata}
    )
    order = {"crew": [], "strike": [], "flying_parties": [{"ship": "Danger", "men": men}]}
    if clause is not None:
        assert refused(state, request, order, seed).clause == clause
        return
    state, _ = submit(state, request, order, seed)
    state, _, _ = drive(state, plays(), seed, at(FLY))
    flyers = party(state, "Danger flyers 1-1")
    assert (flyers.conveyors, flyers.crew_quality, flyers.arms) == (True, "trained", "modern_rifle")
    assert state.board.ship("Danger").conveyors == 4 - sum(men.values())


@pytest.mark.rule("SG-ERR-13")
def test_two_conveyor_parties_in_a_turn_count_together_against_the_hull_size() -> None:
    seed = b"thr-two"
    state, request = orders_request(scenario([danger_with(6)], [ship("Raptor", "Small Bird", (6, 2))]), seed)
    two = [
        {"ship": "Danger", "men": {"marine_officers": 1, "marines": 1}},
        {"ship": "Danger", "men": {"officers": 1, "marines": 1}},
    ]
    assert refused(state, request, {"crew": [], "strike": [], "flying_parties": two}, seed).clause == "SG-ERR-13"


@pytest.mark.rule("SG-THR-01")
def test_conveyors_come_back_aboard_with_their_men() -> None:
    seed = b"thr-home"
    data = scenario([danger_with(3)], [ship("Raptor", "Small Bird", (6, 1))])
    state = begin(data, seed)
    order = {"flying_parties": [{"ship": "Danger", "men": {"marine_officers": 1, "marines": 2}}]}
    state, _, request = drive(state, plays({"a": order}), seed, at(FLY))
    assert request is not None
    assert state.board.ship("Danger").conveyors == 0
    state, _ = submit(state, request, {"steps": [], "board": "Danger"}, seed)
    danger = state.board.ship("Danger")
    assert (danger.conveyors, danger.crew.marines, danger.crew.marine_officers) == (3, 11, 1)


# --- flying parties a scenario starts on the map -------------------------------------------------------------

KRAAG = {"cols": 16, "rows": 12, "terrain": [{"hex": [8, 5], "height": "H", "kind": "kraag"}]}


def raid(*parties: dict[str, Any]) -> dict[str, Any]:
    data = scenario([raptor((8, 7))], [ship("Sandflea", "Aphid (original)", (2, 2))], map=KRAAG)
    data["sides"][0]["flying_parties"] = list(parties)
    return data


@pytest.mark.rule("SG-HM-02", "SG-HM-07")
def test_a_scenario_puts_armed_high_martian_parties_landed_on_top_of_a_kraag() -> None:
    warband = {"name": "Warband", "men": 10, "position": [8, 5], "landed": True, "arms": "bow", "quality": "crack"}
    found = parse(raid(warband))
    (flyers,) = found.flyers
    assert flyers.men == Party(officers=1, marines=9)
    assert (flyers.altitude, flyers.arms, flyers.home) == ("H", "bow", None)
    assert (flyers.crew_quality, flyers.boarding_quality, flyers.conveyors) == ("green", "crack", False)
    state = begin(raid(warband), b"raid")
    assert flying.is_landed(party(state, "Warband"), state.board.terrain)
    state, _, request = drive(state, plays(), b"raid", at(FLY))
    assert request is not None
    assert RS.validate(state, request, ["S", "S"]) is None  # off the kraag's top, in the air at H
    assert refused(state, request, ["descend"], b"raid").clause == "SG-ALT-02"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "W", "men": 10, "position": [8, 5], "landed": True, "altitude": "M"}, "land there is at H"),
        ({"name": "W", "men": 10, "position": [8, 5], "altitude": "M"}, "inside the land"),
        ({"name": "W", "men": 0, "position": [8, 6]}, "men is a number"),
        ({"name": "W", "men": 5, "position": [8, 6], "arms": "longbow"}, "arms"),
        ({"name": "W", "men": 5, "position": [8, 6], "quality": "green"}, "SG-HM-07"),
        ({"name": "Raptor", "men": 5, "position": [8, 6]}, "called 'Raptor'"),
        ({"name": "W", "men": 5, "position": [8, 6], "wings": 2}, "unknown keys"),
    ],
)
def test_a_scenario_party_that_cannot_be_played_is_refused_with_the_reason(entry: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        parse(raid(entry))


# --- the end of the battle -------------------------------------------------------------------------------------


@pytest.mark.rule("SG-SCN-06", "SG-HM-02")
def test_flying_parties_alone_keep_no_side_in_the_fight_and_the_outcome_lists_them() -> None:
    seed = b"hm-end"
    state, request = flown(FORM, seed)
    outcome = RS.tally(state)
    assert outcome["flying_parties"] == [
        {
            "name": request.ships[0],
            "side": "a",
            "home": "Raptor",
            "men": 10,
            "aboard": None,
            "hex": [6, 6],
            "altitude": "M",
        }
    ]
    assert next(s for s in outcome["ships"] if s["name"] == "Raptor")["crew_lost"] == 0  # the flyers are not lost

    def strike_next_turn(state: State, request: DecisionRequest) -> Any:
        if request.kind == ORDERS and request.side == "a" and state.turn == 2:
            return {"crew": [], "strike": ["Raptor"]}
        return plays()(state, request)

    state, _, _ = drive(state, strike_next_turn, seed, lambda s, r: False)
    assert state.over
    assert state.winner == "b"
    assert flying.find(state.board.flyers, request.ships[0]) is not None  # still in the air, but beaten


@pytest.mark.rule("SG-BRD-17", "SG-HM-05")
def test_a_party_aboard_an_enemy_may_be_recalled_into_the_air() -> None:
    seed = b"hm-recall"
    data = scenario([raptor((6, 9))], [ship("Cutter", "Hullcutter", (6, 4))])
    data["sides"][0]["flying_parties"] = [{"name": "Warband", "men": 10, "position": [6, 6]}]
    state, request = orders_request(data, seed)
    aboard = replace(party(state, "Warband"), aboard="Cutter")
    state = state.evolve(board=replace(state.board, flyers=(aboard,)))
    assert [r.name for r in RS.boarders_on(state.board, "Cutter")] == ["Warband"]  # it fights as a boarder
    assert not [s for s in RS.solutions(state, "b") if s.target == "Warband"]  # and is no target aboard
    assert refused(state, request, {"crew": [], "strike": [], "recall_flyers": ["Raptor"]}, seed).clause == "SG-BRD-17"
    state, _ = submit(state, request, {"crew": [], "strike": [], "recall_flyers": ["Warband"]}, seed)
    state, _, _ = drive(state, plays(), seed, at(FLY))
    back = party(state, "Warband")
    cutter = state.board.ship("Cutter")
    assert (back.aboard, back.position, back.altitude) == (None, cutter.position, cutter.altitude)


# --- the AI captain and whole battles -------------------------------------------------------------------------

SKIRMISH = {
    "slug": "high-martian-skirmish",
    "title": "High Martian skirmish",
    "map": {"cols": 20, "rows": 16},
    "turn_limit": 15,
    "sides": [
        {
            "id": "hm",
            "ships": [
                ship("Raptor", "Small Bird", (8, 10), high_martian=True),
                ship("Sled", "Glory Sled", (11, 10), high_martian=True, boarding_quality="crack"),
            ],
        },
        {
            "id": "rn",
            "ships": [
                ship("Sandflea", "Aphid (original)", (9, 3), facing=3),
                ship("Danger", "Dauntless (original design)", (12, 3), facing=3, throckmorton_conveyors=3),
            ],
        },
    ],
}


class Unguarded:
    """The Captain without the safety net of ``choose``: its own answer goes to the engine, legal or not."""

    def __init__(self, captain: Captain) -> None:
        self.captain = captain
        self.name = captain.name

    def choose(self, ruleset: Any, state: BattleState[Any], request: DecisionRequest) -> Any:
        return self.captain.propose(ruleset, state, request)


def replays(initial: State, played: resolver.Accepted[Board]) -> bool:
    again = resolver.replay(RS, initial, played.events)
    return RS.board_to_json(again.board) == RS.board_to_json(played.state.board)


@pytest.mark.rule("SG-HM-02", "SG-HM-05", "SG-HM-06")
def test_captains_fight_high_martians_with_flying_parties_legally_and_the_log_replays() -> None:
    formed = boarded = 0
    for n in range(4):
        seed = f"hm-captains-{n}".encode()
        initial = resolver.new_battle(RS, SKIRMISH, seed_commitment=dice.commitment(seed))
        players = {side: Unguarded(Captain(seed + side.encode(), f"captain {side}")) for side in initial.sides}
        played = policies.auto_play(RS, initial, seed=seed, policies=players)  # raises on an illegal answer
        assert played.state.over
        assert not RS.check_invariants(played.state)
        assert replays(initial, played)
        formed += sum(1 for e in played.events if e.kind == "party order" and "flying party" in e.data["order"])
        boarded += sum(1 for e in played.events if e.kind == "boarding action" and "flyers" in str(e.data["attackers"]))
    assert formed >= 4
    assert boarded >= 2


@pytest.mark.rule("SG-HM-03", "SG-HM-04", "SG-HM-05")
def test_random_play_with_flying_parties_stays_within_the_rules_and_replays() -> None:
    flights = 0
    for n in range(4):
        seed = f"hm-random-{n}".encode()
        initial = resolver.new_battle(RS, SKIRMISH, seed_commitment=dice.commitment(seed))
        players = {side: policies.RandomPolicy(seed + side.encode()) for side in initial.sides}
        played = policies.auto_play(RS, initial, seed=seed, policies=players)
        assert played.state.over
        assert not RS.check_invariants(played.state)
        assert replays(initial, played)
        flights += len(kinds(list(played.events), "party moved"))
    assert flights > 0


def captain_answer(state: State, request: DecisionRequest) -> Any:
    return Captain(b"hm-ai", f"captain {request.side}").propose(RS, state, request)


def test_the_captain_sends_high_martian_flyers_at_a_weak_ship_and_boards_her() -> None:
    seed = b"hm-ai-board"
    state, request = orders_request(scenario([raptor()], [RUNNER]), seed)
    orders = captain_answer(state, request)
    assert orders.get("flying_parties") == [{"ship": "Raptor", "men": FLYERS}]
    state, _ = submit(state, request, orders, seed)
    state, _, request = drive(state, plays(), seed, at(FLY))
    assert request is not None
    assert captain_answer(state, request) == {"steps": ["N", "N"], "board": "Runner"}


def test_an_outnumbered_flying_party_goes_home() -> None:
    seed = b"hm-ai-home"
    data = scenario([raptor((6, 9))], [ship("Cutter", "Hullcutter", (6, 4))])
    data["sides"][0]["flying_parties"] = [{"name": "Scouts", "men": 3, "position": [6, 6]}]
    data["sides"][0]["ships"][0] |= {"name": "Raptor"}
    state = begin(data, seed)
    scouts = replace(party(state, "Scouts"), home="Raptor")
    state = state.evolve(board=replace(state.board, flyers=(scouts,)))
    state, _, request = drive(state, plays(), seed, at(FLY))
    assert request is not None
    flight = captain_answer(state, request)
    steps, target = flying.flight_parts(flight)
    assert target is None
    assert steps == ["S", "S"]  # toward the Raptor, three hexes south, away from the Cutter's marines


@pytest.mark.rule("SG-SHR-06")
def test_the_captain_turns_small_arms_on_a_flying_party_in_range() -> None:
    seed = b"hm-ai-fire"
    state, request, name = under_fire(seed)
    shots = captain_answer(state, request)["shots"]
    assert {"ship": "Danger", "gun": "marines", "target": name} in shots
    assert RS.validate(state, request, {"shots": shots}) is None


@pytest.mark.rule("SG-HM-01")
def test_a_high_martian_captain_comes_alongside_to_board_without_a_grapple() -> None:
    seed = b"hm-ai-leap"
    state = begin(scenario([raptor((6, 6))], [RUNNER]), seed)
    state, _, request = drive(state, plays(), seed, at(ORDERS, "a"))
    assert request is not None
    galley = close_action.form_party(state.board.ship("Raptor"), {"marine_officers": 1, "marines": 9})
    state = state.evolve(board=state.board.with_ship(galley))
    state, _, request = drive(state, plays(), seed, at(MOVE, "a"))
    assert request is not None
    plan = captain_answer(state, request)
    assert isinstance(plan, list)
    allowed = RS.allowance(state, galley)
    steps = movement.trace(galley, [str(s) for s in plan], allowed=allowed, terrain=state.board.terrain)
    runner = state.board.ship("Runner")
    assert (steps[-1].hex, steps[-1].altitude) == (runner.position, runner.altitude)


@pytest.mark.rule("SG-SAF-05", "SG-SAF-12")
def test_a_scenario_arms_the_kings_marines_with_bows_and_their_flyers_carry_them() -> None:
    seed = b"hm-arms"
    state, _ = flown(FORM, seed, scenario([raptor(marine_arms="bow")], [RUNNER]))
    assert state.board.ship("Raptor").marine_arms == "bow"
    assert party(state).arms == "bow"
    with pytest.raises(ScenarioError, match="marine_arms"):
        parse(scenario([raptor(marine_arms="sling")], [RUNNER]))


@pytest.mark.rule("SG-HM-03")
def test_a_fly_decision_refuses_junk_with_a_clause_and_its_default_stays_put() -> None:
    seed = b"hm-junk"
    state, request = flown(FORM, seed)
    for junk in ({"steps": "N"}, {"steps": ["N"], "board": 3}, {"go": ["N"]}, 7, [1, 2]):
        assert refused(state, request, junk, seed).clause.startswith("SG-HM-"), junk
    assert RS.validate(state, request, request.default) is None
    assert request.default in RS.candidates(state, request)
    start = party(state).position
    state, _ = submit(state, request, request.default, seed)
    assert party(state).position == start


@pytest.mark.rule("SG-HM-05", "SG-ALT-10")
def test_a_party_aboard_a_ship_that_goes_down_takes_wing_where_she_fell() -> None:
    seed = b"hm-wreck"
    hill = {"cols": 16, "rows": 12, "terrain": [{"hex": [6, 4], "height": "VL", "kind": "hill"}]}
    data = scenario([raptor((6, 9))], [ship("Runner", "Sky Runner", (6, 4), altitude="L")], map=hill)
    data["sides"][0]["flying_parties"] = [{"name": "Warband", "men": 10, "position": [6, 6]}]
    state, _ = orders_request(data, seed)
    runner = state.board.ship("Runner")
    wrecked = replace(
        runner, hull_rows=tuple(replace(r, hits=r.boxes) if r.altitude != "VL" else r for r in runner.hull_rows)
    )
    assert wrecked.max_altitude == "VL"  # she must drop a level, onto the hill: a crash (SG-ALT-10)
    aboard = replace(party(state, "Warband"), aboard="Runner")
    state = state.evolve(board=replace(state.board.with_ship(wrecked), flyers=(aboard,)))

    def runner_first(state: State, request: DecisionRequest) -> Any:  # she drops before the flyers fight
        return "b" if request.kind == FIRST else plays()(state, request)

    state, found, _ = drive(state, runner_first, seed, lambda s, r: False)
    assert state.board.out.get("Runner") == "crashed"
    back = party(state, "Warband")
    assert (back.aboard, back.position, back.altitude) == (None, wrecked.position, "VL")
    assert flying.is_landed(back, state.board.terrain)
    assert any(
        "takes wing as Runner goes down" in str(n["what"]) for e in kinds(found, "effects") for n in e.data["notes"]
    )
