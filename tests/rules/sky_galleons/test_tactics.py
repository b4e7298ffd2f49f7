"""The Sky Galleons AI captain (battles/rules/sky_galleons/tactics.py): it fights, closes, fires every gun that
bears, runs when beaten or a merchant, plays the same battle from the same seed, and never decides illegally."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import dice, events, hexgrid, policies, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState, redact
from battles.rules.sky_galleons import scenario as scenarios
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import FIRE, FIRST, MOVE, ORDERS, POSITION
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS
from battles.rules.sky_galleons.tactics import Captain
from galleons.record import HullRow, ShipRecord

RS = SKY_GALLEONS
THIEVES = scenarios.load_data("thieves-fall-out")
TURN_LIMIT = THIEVES["turn_limit"]


# --- building battles ----------------------------------------------------------------------------------------


def ship(
    name: str,
    at: tuple[int, int],
    *,
    cls: str = "Sky Runner",
    facing: int = 0,
    altitude: str = "M",
    role: str = "warship",
) -> dict[str, Any]:
    return {"name": name, "class": cls, "position": list(at), "facing": facing, "altitude": altitude, "role": role}


def battle(*sides: tuple[str, list[dict[str, Any]]], turn_limit: int = 20) -> dict[str, Any]:
    """A scenario in the JSON format (docs/scenarios.md): fixed set-up on the standard 30 x 22 map."""
    return {
        "format": "red-captain/sky-galleons-scenario",
        "version": 1,
        "slug": "tactics-test",
        "title": "Tactics test",
        "map": {"cols": 30, "rows": 22},
        "turn_limit": turn_limit,
        "setup": {"kind": "fixed"},
        "sides": [{"id": side, "ships": ships} for side, ships in sides],
    }


def start(data: dict[str, Any], seed: bytes) -> BattleState[Board]:
    return resolver.new_battle(RS, data, seed_commitment=dice.commitment(seed))


def captains(state: BattleState[Board], seed: bytes) -> dict[str, Captain]:
    return {side: Captain(seed + side.encode()) for side in state.sides}


class Unguarded:
    """The Captain without the safety net of ``choose``: its own answer goes to the engine, legal or not."""

    def __init__(self, captain: Captain) -> None:
        self.captain = captain
        self.name = captain.name

    def choose(self, ruleset: Any, state: BattleState[Any], request: DecisionRequest) -> Any:
        return self.captain.propose(ruleset, state, request)


def play(state: BattleState[Board], seed: bytes, *, guarded: bool = True) -> resolver.Accepted[Board]:
    chosen = captains(state, seed)
    players: dict[str, Any] = chosen if guarded else {side: Unguarded(c) for side, c in chosen.items()}
    return policies.auto_play(RS, state, seed=seed, policies=players)


def step_until(state: BattleState[Board], seed: bytes, stop: Any, policy: Any = None) -> BattleState[Board]:
    """Answer decisions (the Captain's by default) until ``stop(state)`` holds or the battle ends."""
    state = resolver.resolve(RS, state, seed).state
    chosen = captains(state, seed)
    while not state.over and not stop(state):
        request = state.pending()[0]
        answer = (policy or chosen[request.side]).choose(RS, redact(state, request.side), request)
        outcome = resolver.submit(RS, state, side=request.side, request_id=request.id, choice=answer, seed=seed)
        assert not isinstance(outcome, resolver.Rejection), outcome
        state = outcome.state
    return state


def asking(kind: str, side: str | None = None) -> Any:
    return lambda state: any(r.kind == kind and (side is None or r.side == side) for r in state.pending())


def request_for(state: BattleState[Board], kind: str, side: str) -> DecisionRequest:
    return next(r for r in state.pending() if r.kind == kind and r.side == side)


def with_record(state: BattleState[Board], record: ShipRecord) -> BattleState[Board]:
    return state.evolve(board=state.board.with_ship(record))


def hit(record: ShipRecord, hits: int) -> ShipRecord:
    """The record with ``hits`` hull boxes marked, the highest rows first (SG-DMG-13)."""
    rows = []
    for row in record.hull_rows:
        marked = min(hits, row.boxes)
        rows.append(HullRow(row.altitude, row.boxes, marked))
        hits -= marked
    return replace(record, hull_rows=tuple(rows))


def apart(state: BattleState[Board], a: str, b: str) -> int:
    one, two = state.board.ship(a).position, state.board.ship(b).position
    assert one is not None
    assert two is not None
    return hexgrid.distance(one, two)


def edge(state: BattleState[Board], name: str) -> int:
    position = state.board.ship(name).position
    assert position is not None
    col, row = hexgrid.to_odd_q(position)
    terrain = state.board.terrain
    return min(col + 1, terrain.cols - col, row + 1, terrain.rows - row)


# --- whole battles -------------------------------------------------------------------------------------------

SEEDS = [f"tactics-{i}".encode() for i in range(30)]


@pytest.fixture(scope="module")
def thieves() -> dict[bytes, resolver.Accepted[Board]]:
    """Thieves Fall Out played by three unguarded Captains for 30 seeds (auto_play raises on an illegal answer)."""
    return {seed: play(start(THIEVES, seed), seed, guarded=False) for seed in SEEDS}


def to_hit_rolls(played: resolver.Accepted[Board]) -> int:
    return sum(1 for e in played.events if e.kind == "roll" and str(e.data["purpose"]).startswith("to hit"))


def test_captains_fight_thieves_fall_out_to_a_finish(thieves):
    first = [thieves[seed] for seed in SEEDS[:20]]
    finished = [p for p in first if p.state.over and p.state.turn <= TURN_LIMIT // 2]
    assert len(finished) >= 16, [p.state.turn for p in first]
    for played in first:
        outcome = RS.tally(played.state)
        assert to_hit_rolls(played) >= 10, "the captains close and fire"
        assert sum(ship["hull_hits"] for ship in outcome["ships"]) > 0, "and their shots tell"
        assert outcome["winner"] is not None or not played.state.board.sides_fighting()


def test_the_captain_never_decides_illegally(thieves):
    # Every answer went to the engine unchecked; one illegal answer would have raised in auto_play.
    assert len(thieves) == 30
    for played in thieves.values():
        assert played.state.over
        assert not RS.check_invariants(played.state)


MIXED = battle(
    ("crown", [ship("Aphid", (4, 6), cls="Aphid (original)", facing=2), ship("Ant", (4, 14), facing=1)]),
    (
        "oenotria",
        [ship("Spice", (24, 10), cls="Mikasa", facing=5, role="merchant"), ship("Warden", (22, 12), cls="Endtime")],
    ),
    turn_limit=25,
)


@pytest.mark.parametrize("seed", [b"mixed-1", b"mixed-2", b"mixed-3"])
def test_the_captain_plays_steam_ships_and_merchants_legally(seed):
    # Steam gunboats power turn; a merchant runs while her escort fights.
    played = play(start(MIXED, seed), seed, guarded=False)
    assert played.state.over
    assert not RS.check_invariants(played.state)
    assert to_hit_rolls(played) > 0


def test_the_same_seed_plays_the_same_battle(thieves):
    seed = SEEDS[3]
    one = play(start(THIEVES, seed), seed)
    # Played again from the seed, and guarded this time, the battle comes out the same: the guarded
    # Captain answers as the unguarded one did, its answers all legal.
    assert events.events_to_json(one.events) == events.events_to_json(thieves[seed].events)
    assert events.events_to_json(one.events) != events.events_to_json(thieves[SEEDS[4]].events)


# --- movement --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [b"close-1", b"close-2"])
def test_warships_close_on_the_enemy(seed):
    data = battle(("red", [ship("Aphid", (5, 10), facing=0)]), ("blue", [ship("Bee", (17, 10), facing=0)]))
    state = start(data, seed)
    assert apart(resolver.resolve(RS, state, seed).state, "Aphid", "Bee") == 12
    after = step_until(state, seed, lambda s: s.turn >= 2)
    assert apart(after, "Aphid", "Bee") <= 8, "both captains turned toward the enemy and closed"


def test_a_merchant_runs_from_a_warship():
    data = battle(
        ("trader", [ship("Argosy", (15, 11), cls="Mikasa", facing=1, role="merchant")]),
        ("raider", [ship("Corsair", (15, 16), facing=0)]),
    )
    data["options"] = {"advanced": False}  # running, not boarding (see the pirate test below)
    fates = []
    for seed in (b"merchant-1", b"merchant-2", b"merchant-3"):
        state = start(data, seed)
        before = step_until(state, seed, asking(MOVE, "trader"))
        after = step_until(state, seed, lambda s: "Argosy" in s.board.moved)
        assert apart(after, "Argosy", "Corsair") > apart(before, "Argosy", "Corsair")
        assert edge(after, "Argosy") < edge(before, "Argosy"), "toward the map edge"
        played = play(state, seed)
        fates.append(played.state.board.out.get("Argosy"))
    assert set(fates) <= {"escaped", "struck"}, fates
    assert "escaped" in fates


BEATEN = {
    "hull": lambda record: hit(record, 8),  # 8 of 12 boxes: two thirds of the hull
    "officers": lambda record: replace(record, crew=replace(record.crew, captain=0, officers=0)),  # SG-CREW-03
}


@pytest.mark.parametrize("how", sorted(BEATEN))
@pytest.mark.parametrize("seed", [b"beaten-1", b"beaten-2"])
def test_a_beaten_ship_runs_for_the_edge(how, seed):
    data = battle(
        ("red", [ship("Limper", (15, 4), facing=4, altitude="L")]),
        ("blue", [ship("Hunter", (15, 12), facing=0, altitude="L")]),
    )
    state = start(data, seed)
    limper = BEATEN[how](state.board.ship("Limper"))
    state = with_record(state, limper)
    before = step_until(state, seed, asking(MOVE, "red"))
    after = step_until(state, seed, lambda s: "Limper" in s.board.moved)
    gone = after.board.out.get("Limper") == "escaped"
    assert gone or edge(after, "Limper") < edge(before, "Limper")
    assert gone or apart(after, "Limper", "Hunter") > apart(before, "Limper", "Hunter")
    played = play(state, seed)
    assert played.state.turn <= 4, "it leaves within a few turns, one way or another"
    # The hunter, fresh, runs from nobody.
    assert played.state.board.out.get("Hunter") is None


# --- fire -------------------------------------------------------------------------------------------------------


def fire_answer(data: dict[str, Any], seed: bytes, side: str = "red") -> tuple[BattleState[Board], Any]:
    """Both sides hold still (the default move) until ``side`` is asked to fire; then the Captain answers."""
    state = step_until(start(data, seed), seed, asking(FIRE, side), policies.DefaultPolicy())
    request = request_for(state, FIRE, side)
    return state, Captain(seed).choose(RS, redact(state, side), request)


def test_every_gun_that_bears_fires_split_between_targets():
    # Aphid faces north: Bee off her port side (the port heavy gun and the rogue bear), Wasp off her starboard
    # side (the starboard heavy gun and the rogue). No single target takes every gun.
    data = battle(
        ("red", [ship("Aphid", (10, 10), facing=0)]),
        ("blue", [ship("Bee", (8, 10), facing=0), ship("Wasp", (12, 10), facing=0)]),
    )
    state, answer = fire_answer(data, b"fire-1")
    solutions = RS.solutions(state, "red")
    assert {(s.firer, s.gun_id) for s in solutions} == {("Aphid", "1"), ("Aphid", "2"), ("Aphid", "3")}
    shots = answer["shots"]
    assert sorted((s["ship"], s["gun"]) for s in shots) == [("Aphid", "1"), ("Aphid", "2"), ("Aphid", "3")]
    legal = {(s.firer, s.gun_id, s.target) for s in solutions}
    assert all((s["ship"], s["gun"], s["target"]) in legal for s in shots)
    assert {s["target"] for s in shots} == {"Bee", "Wasp"}


def test_a_gun_takes_the_close_shot_and_the_damaged_target():
    # The rogue (3/6) reaches both: Bee at close range, Wasp at long range.
    data = battle(
        ("red", [ship("Aphid", (10, 10), facing=0)]),
        ("blue", [ship("Bee", (10, 8), facing=0), ship("Wasp", (15, 8), facing=0)]),
    )
    state, answer = fire_answer(data, b"fire-2")
    rogue = next(s for s in answer["shots"] if s["gun"] == "1")
    assert rogue["target"] == "Bee"
    # Two targets alike but one already hurt: the guns go for the damaged one.
    data = battle(
        ("red", [ship("Aphid", (10, 10), facing=0)]),
        ("blue", [ship("Bee", (8, 9), facing=0), ship("Wasp", (12, 9), facing=0)]),
    )
    state = step_until(start(data, b"fire-3"), b"fire-3", asking(FIRE, "red"), policies.DefaultPolicy())
    state = with_record(state, hit(state.board.ship("Wasp"), 3))
    answer = Captain(b"fire-3").choose(RS, redact(state, "red"), request_for(state, FIRE, "red"))
    assert next(s for s in answer["shots"] if s["gun"] == "1")["target"] == "Wasp"


# --- initiative orders, who moves first, shared hexes --------------------------------------------------------


def orders_for(state: BattleState[Board], side: str, seed: bytes = b"orders") -> Any:
    request = request_for(state, ORDERS, side)
    return Captain(seed).choose(RS, redact(state, side), request)


def at_orders(data: dict[str, Any], seed: bytes = b"orders") -> BattleState[Board]:
    return step_until(start(data, seed), seed, asking(ORDERS))


def test_orders_relieve_the_helm_and_man_the_guns():
    data = battle(("red", [ship("Aphid", (10, 10))]), ("blue", [ship("Bee", (20, 10))]))
    state = at_orders(data)
    aphid = state.board.ship("Aphid")
    rogue = replace(aphid.gun("1"), manned=1)
    aphid = replace(aphid.with_gun(rogue), crew=replace(aphid.crew, helmsman=0))
    state = with_record(state, aphid)
    orders = orders_for(state, "red")
    assert {"ship": "Aphid", "relief": "helm", "rank": "officer"} in orders["crew"]  # no extra petty officer aboard
    assert {"ship": "Aphid", "gun": "1", "men": 2, "from": "deckhands"} in orders["crew"]
    assert orders["strike"] == []
    assert orders_for(at_orders(data), "red") == {"crew": [], "strike": []}, "nothing to change on a fresh ship"


def test_a_merchant_strikes_when_hit_and_caught():
    data = battle(
        ("trader", [ship("Argosy", (15, 11), cls="Mikasa", role="merchant")]),
        ("raider", [ship("Corsair", (15, 13), facing=0)]),
    )
    state = at_orders(data)
    assert orders_for(state, "trader")["strike"] == [], "unhurt, she still runs"
    state = with_record(state, hit(state.board.ship("Argosy"), 1))
    assert orders_for(state, "trader")["strike"] == ["Argosy"]


def test_a_beaten_ship_that_cannot_move_strikes():
    data = battle(("red", [ship("Aphid", (10, 10), altitude="L")]), ("blue", [ship("Bee", (10, 12), altitude="L")]))
    state = at_orders(data)
    aphid = hit(state.board.ship("Aphid"), 8)
    state = with_record(state, aphid)
    assert orders_for(state, "red")["strike"] == ["Aphid"], "beaten, an enemy on her and the edge far off"
    assert orders_for(state, "blue")["strike"] == []


def request(kind: str, side: str, options: list[Any], ships: tuple[str, ...] = ()) -> DecisionRequest:
    return DecisionRequest("t1", side, kind, "", "SG-SEQ-03", options[0], tuple(options), ships=ships)


def test_the_stronger_side_moves_last():
    data = battle(("red", [ship("Aphid", (5, 5)), ship("Ant", (5, 8))]), ("blue", [ship("Bee", (20, 10))]))
    state = start(data, b"first")
    captain = Captain(b"first")
    # Red has the more guns: it lets blue move first and answers what it sees. Blue, weaker, moves first.
    assert captain.choose(RS, state, request(FIRST, "red", ["red", "blue"])) == "blue"
    assert captain.choose(RS, state, request(FIRST, "blue", ["blue", "red"])) == "blue"


def test_in_a_shared_hex_the_bow_guns_bear_and_his_fewest_bear_back():
    data = battle(("red", [ship("Aphid", (10, 10))]), ("blue", [ship("Bee", (10, 10), facing=0)]))
    state = start(data, b"position")
    options = sorted([list(p) for p in hexgrid.relative_positions(0, 0)])
    choice = Captain(b"position").choose(RS, state, request(POSITION, "red", options, ("Aphid", "Bee")))
    # All three of a Sky Runner's guns bear ahead; astern only the two heavy guns.
    assert choice == ["bow", "stern"]


# --- close action: pirates ram, grapple and board ---------------------------------------------------------------


def test_pirates_go_for_a_merchant_and_take_or_break_her():
    """A Hullcutter (ram fitted) and an Endtime (marines) against a slow merchant: the pirates declare,
    move first and ram or grapple her (SG-RAM-01/03); the merchant avoids; what the pirates catch they
    board or batter until she strikes."""
    data = battle(
        (
            "pirates",
            [ship("Reaver", (8, 10), cls="Hullcutter", facing=1), ship("Gull", (8, 13), cls="Endtime", facing=1)],
        ),
        ("trader", [ship("Argosy", (12, 10), cls="Mikasa", facing=1, role="merchant")]),
    )
    attempts = avoided = taken = 0
    for n in range(10):
        seed = f"pirates-{n}".encode()
        played = play(start(data, seed), seed)
        kinds = [e.kind for e in played.events]
        attempts += kinds.count("held move")
        avoided += kinds.count("avoiding")
        firsts = [e for e in played.events if e.kind == "ram declarations"]
        assert firsts, "the pirates declare"
        taken += played.state.board.out.get("Argosy") in ("struck", "captured")
    assert attempts >= 2, "the pirates try to ram or grapple (when their guns have not made her strike first)"
    assert avoided >= 1, "the merchant avoids"
    assert taken >= 7, "most of the time the merchant is taken or strikes"


def test_boarders_cross_when_they_outweigh_the_defenders_and_not_otherwise():
    data = battle(
        ("pirates", [ship("Gull", (10, 10), cls="Endtime")]),
        ("navy", [ship("Bee", (10, 10), cls="Sky Runner")]),
    )
    state = at_orders(data)
    gull = replace(state.board.ship("Gull"), grappled_with=("Bee",))
    bee = replace(state.board.ship("Bee"), grappled_with=("Gull",))
    state = with_record(with_record(state, gull), bee)
    orders = orders_for(state, "pirates")
    assert orders["parties"] == [{"ship": "Gull", "men": {"marine_officers": 1, "deckhands": 2, "marines": 9}}]
    assert "cut" not in orders
    navy = orders_for(state, "navy")
    assert navy.get("cut") == [["Bee", "Gull"]], "a ship that cannot win the boarding fight cuts loose"
