"""What a finished battle hands on: the roster, each ship's fate in the campaign's words, and the odds calculator's
tally. Ironclads' fates: sunk (IC-END-01) is ``crashed``, the engine's word for a ship lost with her hull; broken off
the map (IC-MOV-07) is ``escaped``; the rest ``fighting``. No ship is taken in Ironclads, so none changes side."""

from __future__ import annotations

from battles.engine import outcome as fates
from battles.engine.events import JSONObject
from battles.engine.outcome import BattleOutcome, ShipOutcome
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import HULL, to_json
from battles.rules.ironclads.orders import hull_share


def roster(state: BattleState[Battle]) -> list[JSONObject]:
    battle = state.board
    return [
        {
            "side": side,
            "name": battle.side_names.get(side, side),
            "ships": [{"name": s.name, "class": s.card.name} for s in battle.ships_of(side)],
        }
        for side in state.sides
    ]


def fate(ship: Ship) -> str:
    if ship.sunk:
        return fates.CRASHED
    return fates.ESCAPED if ship.broken_off else fates.FIGHTING


def outcome(initial: BattleState[Battle], final: BattleState[Battle]) -> BattleOutcome:
    ships = tuple(
        ShipOutcome(
            name=ship.name,
            side_at_start=ship.side,
            side_at_end=ship.side,
            fate=fate(ship),
            class_id=ship.card.name,
            record=to_json(ship.card),
            detail={"hull_left": ship.card.left(HULL), "sunk": ship.sunk, "broken_off": ship.broken_off},
        )
        for ship in final.board.ships
    )
    return BattleOutcome.of(final, ships)


def tally(state: BattleState[Battle]) -> JSONObject:
    battle = state.board
    sides: JSONObject = {
        side: {
            "ships on the table": len(battle.afloat_of(side)),
            "ships sunk": sum(1 for s in battle.ships_of(side) if s.sunk),
            "ships broken off": sum(1 for s in battle.ships_of(side) if s.broken_off),
            "hull left (%)": round(100 * hull_share(battle, side)),
        }
        for side in state.sides
    }
    return {**engine_result(state), "sides": sides}
