"""What a finished battle hands on: the roster, each ship's fate in the campaign's words, a summary line and the
odds calculator's tally. Barsoom's fates: a wreck (the second 10, BR-DMG-12) is ``crashed`` (lost); a ship that
crashed but is no wreck is ``crash-landed``; landed by choice ``landed``; off the map ``escaped``; taken by boarders
``captured`` (by the side that took her); the rest ``fighting``."""

from __future__ import annotations

from battles.engine import outcome as fates
from battles.engine.events import JSONObject
from battles.engine.outcome import BattleOutcome, ShipOutcome
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules.barsoom import orders
from battles.rules.barsoom.battle import Battle


def roster(state: BattleState[Battle]) -> list[JSONObject]:
    battle = state.board
    return [
        {
            "side": side,
            "name": battle.side_names.get(side, side),
            "ships": [
                {"name": ship.name, "class": ship.ship_class.key}
                for ship in battle.board.ships
                if battle.of(ship.name).first_side == side
            ],
        }
        for side in state.sides
    ]


def fate(battle: Battle, name: str) -> str:
    ship, entry = battle.ship(name), battle.of(name)
    if ship.side != entry.first_side:
        return fates.CAPTURED
    if entry.condition.wrecked:
        return fates.CRASHED
    if ship.left_map:
        return fates.ESCAPED
    if ship.crashed:
        return fates.CRASH_LANDED
    return fates.LANDED if ship.landed else fates.FIGHTING


def outcome(initial: BattleState[Battle], final: BattleState[Battle]) -> BattleOutcome:
    battle = final.board
    ships = []
    for ship in battle.board.ships:
        entry = battle.of(ship.name)
        crew = entry.crew
        left = crew.aboard + sum(party.men for party in crew.away)
        ships.append(
            ShipOutcome(
                name=ship.name,
                side_at_start=entry.first_side,
                side_at_end=ship.side,
                fate=fate(battle, ship.name),
                captured_by=ship.side if ship.side != entry.first_side else None,
                class_id=ship.ship_class.key,
                crew_at_start=entry.crew_at_start,
                crew_lost=max(0, entry.crew_at_start - left) if ship.side == entry.first_side else entry.crew_at_start,
                crew_away=sum(party.men for party in crew.away),
            )
        )
    return BattleOutcome.of(final, tuple(ships))


def tally(state: BattleState[Battle]) -> JSONObject:
    battle = state.board
    sides: JSONObject = {
        side: {
            "ships fighting": sum(1 for s in battle.ships_of(side) if orders.able_to_fight(battle, s.name)),
            "men aboard": sum(battle.of(s.name).crew.aboard for s in battle.ships_of(side)),
        }
        for side in state.sides
    }
    return {**engine_result(state), "sides": sides}
