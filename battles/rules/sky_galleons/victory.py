"""Scenario victory conditions: each kind checked on the board whenever the ruleset looks (the Initiative
Phase, after the orders, and twice at the end of each movement phase), and its result at the turn limit.

A scenario's ``victory`` object names the ``kind`` and its parameters; every kind takes ``turn_limit_winner``
(a side id, or null for a draw), the result when the last turn ends undecided. The kinds:

* ``last_flying`` (SG-SCN-06): the battle ends when one side, or none, has a ship still in the fight.
* ``last_in_the_air`` (SG-SCN-31): the last side with a ship in the air wins; a ship landed is in the
  fight but not in the air.
* ``escape`` {ship, pursuer} (SG-SCN-12): the ship's side wins when it leaves the map with the pursuer
  crippled (special_rules.crippled: out of the fight, slower than the ship, or no gun left); the other
  side wins as soon as the ship is out of the fight any other way (destroyed, struck, captured, or drifted
  off the map with nobody at the helm before the pursuer was crippled), unless it has no ship left in the
  fight either (a draw).
* ``seize_and_carry_off`` {ship, prize, hold_turns} (SG-SCN-19): the ship's side must take the prize by
  boarding, hold it with its boarders aboard and undisputed for ``hold_turns`` complete turns (from one
  Initiative Phase to the next; the turn of the boarding does not count), bring the boarders home (with
  the passenger they came for) and leave the map with them. Disputed: a ship of another side in the fight
  in the prize's hex at its altitude, or grappled with it, at any check; the count starts again. The other
  side wins as soon as this cannot happen any more: the side has no ship left in the fight and did not
  carry the passenger off, the prize leaves the map or is destroyed while he is still aboard her, the
  boarders holding the passenger are lost, or the ship with him aboard is lost. Once he is aboard that ship,
  the prize may go down (scuttled, burnt) without taking him with her.
* ``withdraw_at_half`` {flagship} (SG-SCN-47): the first side to have lost half or more of its ships (out of
  the fight for any reason, leaving the map included) withdraws and the other side wins; both at once is a
  draw. The flagship's side loses at once when the flagship is out of the fight.
* ``bombardment`` {side} (SG-SCN-25): played by ordnance_play (the city or fortress hexes to bombard).
* ``rescue`` {side} (SG-SCN-41): the side wins when a ship that picked up the landing party (with at least
  one survivor) leaves the map; the other side wins when that can no longer happen (the side has no ship
  left in the fight, or the party or its rescuers are lost).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from battles.engine.events import JSON
from battles.rules.sky_galleons import special_rules

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board

ESCAPED = "escaped"  # the ruleset's word for a ship that left the map


@dataclass(frozen=True)
class KindSpec:
    clauses: tuple[str, ...]
    required: Mapping[str, str]  # key -> "ship" or "side"
    optional: Mapping[str, tuple[str, JSON]]


KINDS_SPEC: Mapping[str, KindSpec] = {
    "last_flying": KindSpec(("SG-SCN-06",), {}, {}),
    "last_in_the_air": KindSpec(("SG-SCN-31",), {}, {}),
    "escape": KindSpec(("SG-SCN-12",), {"ship": "ship", "pursuer": "ship"}, {}),
    "seize_and_carry_off": KindSpec(("SG-SCN-19",), {"ship": "ship", "prize": "ship"}, {"hold_turns": ("count", 1)}),
    "withdraw_at_half": KindSpec(("SG-SCN-47",), {}, {"flagship": ("ship", None)}),
    "rescue": KindSpec(("SG-SCN-41",), {"side": "side"}, {}),
    # Checked by ordnance_play (bombardment_over, turn_limit_winner): the side wins when every city or
    # fortress hex of the others has taken its damage points (SG-SCN-25).
    "bombardment": KindSpec(("SG-SCN-25",), {"side": "side"}, {}),
}
KINDS = tuple(KINDS_SPEC)


@dataclass(frozen=True)
class Result:
    winner: str | None
    reason: str
    clauses: tuple[str, ...]


def parse_victory(data: Any, sides: Mapping[str, Sequence[str]]) -> dict[str, JSON]:
    """Check a scenario's victory object against its sides (id -> ship names); every parameter filled in."""
    if data is None:
        data = {"kind": "last_flying"}
    if not isinstance(data, dict) or data.get("kind") not in KINDS_SPEC:
        raise ValueError(f"victory.kind must be one of {list(KINDS)}")
    spec = KINDS_SPEC[str(data["kind"])]
    extra = sorted(set(data) - {"kind", "note", "turn_limit_winner", *spec.required, *spec.optional})
    if extra:
        raise ValueError(f"victory: {data['kind']} takes {sorted({*spec.required, *spec.optional})}, not {extra}")
    ships = {name for names in sides.values() for name in names}
    found: dict[str, JSON] = {"kind": str(data["kind"])}
    wanted = {**{k: (kind, None) for k, kind in spec.required.items()}, **spec.optional}
    for key, (kind, default) in wanted.items():
        value = data.get(key, default)
        if key in spec.required and key not in data:
            raise ValueError(f"victory: {data['kind']} needs {key!r} ({kind})")
        if value is not None and not (
            (kind == "ship" and value in ships)
            or (kind == "side" and value in sides)
            or (kind == "count" and type(value) is int and value >= 1)
        ):
            raise ValueError(f"victory.{key}: {value!r} is not a {kind} of this scenario")
        found[key] = value
    winner = data.get("turn_limit_winner")
    if winner is not None and winner not in sides:
        raise ValueError(f"victory.turn_limit_winner: {winner!r} is not a side (null for a draw)")
    found["turn_limit_winner"] = winner
    return found


def victory(board: Board) -> Mapping[str, JSON]:
    found = board.scenario_rules.get("victory")
    return found if isinstance(found, dict) else {"kind": board.victory, "turn_limit_winner": None}


def clauses(board: Board) -> tuple[str, ...]:
    return KINDS_SPEC[str(victory(board)["kind"])].clauses


def ends_only_with_one_side(board: Board) -> bool:
    """The kind ends the battle only when at most one side is left in the fight (the invariant's case)."""
    return victory(board)["kind"] == "last_flying"


def _other(board: Board, side: str) -> str | None:
    """The side that wins when ``side`` fails (the first other side; these scenarios have two)."""
    return next((s for s in board.side_order if s != side), None)


def _side_of(board: Board, name: str) -> str:
    return board.ship(name).side


def check(board: Board) -> Result | None:
    """The result if the battle is decided now, else None."""
    rule = victory(board)
    kind = str(rule["kind"])
    found: Result | None
    if kind == "last_flying":
        found = _last(board, board.sides_fighting(), "the last captain flying", "no captain left flying")
    elif kind == "last_in_the_air":
        in_air = [s for s in board.side_order if any(r.status == "flying" for r in board.fighting(s))]  # not landed
        found = _last(board, in_air, "the last ship in the air", "no ship left in the air")
    elif kind == "escape":
        found = _escape(board, str(rule["ship"]), str(rule["pursuer"]))
    elif kind == "seize_and_carry_off":
        found = _seize(board, str(rule["ship"]), str(rule["prize"]))
    elif kind == "withdraw_at_half":
        found = _withdraw(board, rule.get("flagship"))
    else:
        found = _rescue(board, str(rule["side"]))
    if found is None:
        return None
    return Result(found.winner, found.reason, clauses(board))


def at_turn_limit(board: Board) -> Result:
    winner = victory(board).get("turn_limit_winner")
    return Result(None if winner is None else str(winner), f"turn limit {board.turn_limit} reached", clauses(board))


def _last(board: Board, sides: Sequence[str], won: str, nobody: str) -> Result | None:
    if len(sides) > 1:
        return None
    return Result(sides[0], won, ()) if sides else Result(None, nobody, ())


def _escape(board: Board, ship: str, pursuer: str) -> Result | None:
    record = board.ship(ship)
    if board.in_fight(record):
        return None
    side, other = record.side, _other(board, record.side)
    if board.out.get(ship) == ESCAPED and special_rules.crippled(board, pursuer, record):
        return Result(side, f"{ship} escapes: {pursuer} cannot pursue", ())
    if other is None or not board.fighting(other):
        return Result(None, f"{ship} is lost, and her enemy with her", ())
    return Result(other, f"{ship} is taken or lost without escaping", ())


# --- seize and carry off (SG-SCN-19) -------------------------------------------------------------------


def prize_key(prize: str) -> str:
    return f"prize {prize}"


def prize_state(board: Board, prize: str) -> dict[str, JSON]:
    found = board.marks.get(prize_key(prize))
    return dict(found) if isinstance(found, dict) else {"boarded": None, "held": None, "aboard": None}


def _seize(board: Board, ship: str, prize: str) -> Result | None:
    side = _side_of(board, ship)
    other = _other(board, side)
    state = prize_state(board, prize)
    aboard = state.get("aboard")
    if isinstance(aboard, str):  # he is off the prize: what becomes of her no longer matters
        if board.out.get(aboard) == ESCAPED:
            return Result(side, f"{aboard} carries the passenger off the map", ())
        if not board.in_fight(board.ship(aboard)):
            return Result(other, f"{aboard} is lost with the passenger aboard", ())
        return None
    if state.get("lost"):
        return Result(other, "the boarders holding the passenger are lost", ())
    prize_record = board.ship(prize)
    if board.out.get(prize) == ESCAPED:
        return Result(other, f"{prize} gets away off the map", ())
    if not prize_record.afloat:
        return Result(other, f"{prize} is destroyed: the passenger is lost with her", ())
    if not board.fighting(side):
        return Result(other, f"{side} has no ship left to carry the passenger off", ())
    return None


def seize_marks(board: Board, turn: int, *, initiative: bool) -> list[special_rules.Mark]:
    """The possession of the prize as it stands: boarded (and when), held, the boarders home."""
    rule = victory(board)
    if rule["kind"] != "seize_and_carry_off":
        return []
    ship, prize = str(rule["ship"]), str(rule["prize"])
    side = _side_of(board, ship)
    state = prize_state(board, prize)
    new = dict(state)
    clauses = ("SG-SCN-19",)
    holders = [s for s in board.ships if s.side == side and s.afloat and s.boarding == prize and s.boarders.men > 0]
    if state.get("held") is None:
        taken = board.captured.get(prize) == side and bool(holders)
        if not taken or _disputed(board, side, prize):
            new["boarded"] = turn if taken else None
        elif state.get("boarded") is None:
            new["boarded"] = turn
        elif initiative and turn - int(str(state["boarded"])) >= int(str(rule["hold_turns"])) + 1:
            new["held"] = holders[0].name
    elif state.get("aboard") is None and not state.get("lost"):
        carrier = board.ship(str(state["held"]))
        if carrier.boarding == prize and carrier.boarders.men > 0:
            pass  # still across with him
        elif carrier.afloat and carrier.party.men > 0:
            new["aboard"] = carrier.name
        else:
            new["lost"] = True
    if new == state:
        return []
    what = (
        "the passenger is aboard " + str(new["aboard"])
        if new.get("aboard")
        else "the boarders holding the passenger are lost"
        if new.get("lost")
        else f"{prize} held undisputed: her passenger is taken"
        if new.get("held")
        else f"{prize} in the boarders' hands since turn {new['boarded']}"
        if new.get("boarded") is not None
        else f"{prize} is not held"
    )
    return [special_rules.Mark(prize_key(prize), new, what, clauses)]


def _disputed(board: Board, side: str, prize: str) -> bool:
    record = board.ship(prize)
    for other in board.fighting():
        if other.side == side:
            continue
        if prize in other.grappled_with or (other.position == record.position and other.altitude == record.altitude):
            return True
    return False


# --- withdraw at half (SG-SCN-47) ----------------------------------------------------------------------


def ships_lost(board: Board, side: str) -> tuple[int, int]:
    """(ships out of the fight, ships the side has had)."""
    mine = [s for s in board.ships if s.side == side and s.emplacement is None]  # ships, not the ground
    return sum(1 for s in mine if not board.in_fight(s)), len(mine)


def _withdraw(board: Board, flagship: JSON) -> Result | None:
    if isinstance(flagship, str) and not board.in_fight(board.ship(flagship)):
        side = _side_of(board, flagship)
        return Result(_other(board, side), f"{side} loses the {flagship}", ())
    broken = []
    for side in board.side_order:
        lost, had = ships_lost(board, side)
        if 2 * lost >= had:
            broken.append(side)
    if not broken:
        return None
    if len(broken) > 1:
        return Result(None, "both sides have lost half their ships and withdraw", ())
    return Result(_other(board, broken[0]), f"{broken[0]} has lost half its ships and withdraws", ())


# --- rescue (SG-SCN-41) --------------------------------------------------------------------------------


def _rescue(board: Board, side: str) -> Result | None:
    other = _other(board, side)
    state = special_rules.party_state(board, side)
    if state["state"] == "rescued":
        rescuer = str(state["ship"])
        if board.out.get(rescuer) == ESCAPED and int(str(state.get("men", 0))) > 0:
            return Result(side, f"{rescuer} carries the landing party's survivors off the map", ())
        if not board.in_fight(board.ship(rescuer)):
            return Result(other, f"{rescuer} is lost with the survivors", ())
    if state["state"] == "lost":
        return Result(other, "the landing party is overwhelmed", ())
    if not board.fighting(side):
        return Result(other, f"{side} has no ship left to bring the party home", ())
    if state["state"] == "aboard" and not _can_make_up_party(board, side):
        return Result(other, f"{side} has no ship left that can make up the landing party", ())
    return None


def _can_make_up_party(board: Board, side: str) -> bool:
    """Some ship of the side named by its landing party rule can still send the party the rule asks for: the
    men, an officer and every marine (SG-SCN-37). Men lost are not made good, so once none can, the party is
    never landed and the British cannot win (SG-SCN-41): the hostages are lost, no turn limit needed."""
    for rule in special_rules.rules(board, "landing_party"):
        if rule["side"] != side:
            continue
        for record in special_rules.party_ships(board, rule):
            try:
                special_rules.landing_party_composition(record, int(str(rule["men"])))
            except ValueError:
                continue
            return True
        return False
    return True
