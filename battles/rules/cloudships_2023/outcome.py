"""Who is in the battle, for the app's lists: each side's name and ships; and the typed outcome a campaign reads
(battles/engine/outcome.py): each ship's fate in the campaign's words, her captor, and her record at the end (her
board entry: the panel and what the battle did to it), from which a campaign bridge brings a prize home
(docs/cloudships.md section 8). CM counts no men: the crew figures stay 0."""

from __future__ import annotations

from battles.engine import outcome as engine_outcome
from battles.engine.events import JSON, JSONObject
from battles.engine.outcome import BattleOutcome, ShipOutcome
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import kinds, victory
from battles.rules.cloudships_2023.board import Board, Ship


def roster(state: BattleState[Board]) -> list[JSONObject]:
    board = state.board
    entries: list[JSONObject] = []
    for side in state.sides:
        ships: list[JSON] = [
            {"name": ship.name, "class": ship.panel.class_id or ship.panel.name}
            for ship in board.ships
            if ship.side == side
        ]
        entries.append({"side": side, "name": board.side_names.get(side, side), "ships": ships})
    return entries


def tally(state: BattleState[Board]) -> JSONObject:
    """The battle in figures for the odds calculator: the engine's, and for each side the boxes her ships have
    crossed and how many of them are out of the fight (crashed, sunk, struck or off the map)."""
    sides: JSONObject = {}
    for side in state.sides:
        ships = [ship for ship in state.board.ships if ship.side == side]
        sides[side] = {
            "boxes_crossed": sum(ship.crossed for ship in ships),
            "ships_out": sum(0 if ship.flying else 1 for ship in ships),
        }
    return {**engine_result(state), "sides": sides}


# Her fate in the campaign's words: a ship that struck to boarders still aboard her is captured (CM-BRD-21); one
# that struck with no one left to take her has struck; a ship destroyed outright fell as a crashed one does.
FATES = {
    kinds.FLYING: engine_outcome.FIGHTING,
    kinds.CRASHED: engine_outcome.CRASHED,
    kinds.SUNK: engine_outcome.CRASHED,
    kinds.STRUCK: engine_outcome.STRUCK,
    kinds.LEFT: engine_outcome.ESCAPED,
}


def battle_outcome(initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
    return BattleOutcome(
        ruleset=final.ruleset,
        version=final.version,
        winner=final.winner,
        reason=final.result,
        turns=final.turn,
        over=final.over,
        ships=tuple(ship_outcome(final.board, ship, final.winner) for ship in final.board.ships),
    )


def ship_outcome(board: Board, ship: Ship, winner: str | None = None) -> ShipOutcome:
    """One ship: a prize goes over to her captor's side, ``captured_by`` that side and ``detail["taken_by"]`` the
    ship whose boarders took her. A noncombatant (a campaign's prize in tow, victory.noncombatants) still flying
    when another side has won has struck: she heaves to and waits to be taken, as SG-SCN-17 has it."""
    captor = board.ship_named(ship.taken_by) if ship.taken_by else None
    hove_to = ship.flying and winner not in (None, ship.side) and ship.name in victory.noncombatants(board)
    return ShipOutcome(
        name=ship.name,
        side_at_start=ship.side,
        side_at_end=captor.side if captor else ship.side,
        fate=engine_outcome.CAPTURED if captor else engine_outcome.STRUCK if hove_to else FATES[ship.status],
        captured_by=captor.side if captor else None,
        class_id=ship.panel.class_id,
        record=ship.to_json(),
        detail={"taken_by": captor.name} if captor else {},
    )
