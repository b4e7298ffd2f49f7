"""What a finished duel hands on: the typed outcome (battles/engine/outcome.py), the line for lists and the odds
calculator's figures. A sunk ship's fate is the campaign vocabulary's "crashed" (lost with all hands: the duel
has no crews, prizes or landings to say more)."""

from __future__ import annotations

from battles.engine.events import JSONObject
from battles.engine.outcome import CRASHED, FIGHTING, BattleOutcome, ShipOutcome
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules.duel.board import Board, Ship


def roster(state: BattleState[Board]) -> list[JSONObject]:
    board = state.board
    return [
        {"side": side, "name": board.side_names.get(side, side), "ships": [{"name": board.ship_of(side).name}]}
        for side in state.sides
    ]


def _ship_outcome(start: Ship, end: Ship) -> ShipOutcome:
    return ShipOutcome(
        name=end.name,
        side_at_start=start.side,
        side_at_end=end.side,
        fate=FIGHTING if end.afloat else CRASHED,
        record=end.to_json(),
        detail={"hull_lost": start.hull - end.hull},
    )


def outcome(initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
    ships = tuple(_ship_outcome(initial.board.ship_named(s.name), s) for s in final.board.ships)
    return BattleOutcome.of(final, ships)


def summary(state: BattleState[Board]) -> str:
    """ "Turn 3: Aphid 3/4 hull, Swiftwood 5/5 hull" (or "Over after turn 5: a ship sunk: ...")."""
    if state.over:
        head = f"Over after turn {state.turn}" + (f": {state.result}" if state.result else "")
    else:
        head = f"Turn {state.turn}" if state.turn else "Before the first turn"
    ships = ", ".join(f"{s.name} {s.hull}/{s.hull_max} hull" for s in state.board.ships)
    return f"{head}; {ships}"


def tally(state: BattleState[Board]) -> JSONObject:
    """The engine's figures and, per side, the hull its ship lost and whether she sank."""
    sides: JSONObject = {
        s.side: {"hull_lost": s.hull_max - s.hull, "sunk": 0 if s.afloat else 1} for s in state.board.ships
    }
    return {**engine_result(state), "sides": sides}
