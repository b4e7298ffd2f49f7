"""A battle's board from a scenario (IC-SEQ-04: the scenario places the fleets; docs/ironclads.md "The turn, in the
app"). No dice here: the sea state is rolled in the first ``advance`` (phases/turn.py), so the log holds it.

A scenario: ``{"slug", "title", "description", "turns", "cols", "rows", "land": [[column, row], ...], "sides":
[{"key", "name"}, ...], "ships": [...], "squadrons": [...] (optional, Appendix D)}``. A ship: ``{"name", "side",
"hex": [column, row], "facing": 0-5, "speed": her current speed at the start, "astern": false}`` and her Data Card:
``"card": {"stats": {track: stats}, "turrets": {turret: [arcs]}, "nation", "years", "sisters", "monitor"}`` inline,
or ``"fleet": a fleet-list name`` (fleet.py, rated by Appendix A) with ``"lost": {track: stats}`` crossed off before
play (a ship aground: her Propulsion).
A squadron: ``{"name", "ships": [in line order], "formation": "line astern" | "line abreast"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str
from battles.rules.ironclads import board as board_
from battles.rules.ironclads import cards, fleet, formations
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import DataCard
from battles.rules.ironclads.formations import Formations


def battle(scenario: Mapping[str, JSON], *, with_formations: bool = False) -> tuple[tuple[str, ...], Battle]:
    """The sides in the scenario's order and the board before any die is cast. ``with_formations``: Appendix D is
    played (IC-FORM-01), so the scenario's squadrons are kept (none given: every ship free)."""
    sides = [read_object(s) for s in read_list(scenario["sides"])]
    keys = tuple(read_str(s["key"]) for s in sides)
    ships = [_ship(read_object(item)) for item in read_list(scenario["ships"])]
    for ship in ships:
        if ship.side not in keys:
            raise ValueError(f"{ship.name}: no side {ship.side!r} in the scenario")
    land = board_.from_offsets((read_int(c), read_int(r)) for c, r in (read_list(h) for h in _land(scenario)))
    board = board_.make(read_int(scenario["cols"]), read_int(scenario["rows"]), ships, land=land)
    made = Battle(
        board=board,
        turns=read_int(scenario["turns"]),
        title=read_str(scenario.get("title", "")),
        side_names={read_str(s["key"]): read_str(s.get("name", s["key"])) for s in sides},
        formations=_formations(scenario, board.ships) if with_formations else None,
    )
    return keys, made


def _land(scenario: Mapping[str, JSON]) -> list[JSON]:
    return read_list(scenario.get("land", []))


def _ship(entry: Mapping[str, Any]) -> Ship:
    col, row = (read_int(v) for v in read_list(entry["hex"]))
    name = read_str(entry["name"])
    speed = read_int(entry.get("speed", 0))
    astern = read_bool(entry.get("astern", False))
    data_card = card_of(name, entry)
    if speed < 0 or speed > data_card.left(cards.PROPULSION) or (astern and speed != 1):
        raise ValueError(f"{name}: a current speed of {speed}{' astern' if astern else ''} is not hers to start at")
    return Ship(
        name=name,
        side=read_str(entry["side"]),
        card=data_card,
        hex=hexgrid.from_odd_q(col, row),
        facing=read_int(entry["facing"]) % 6,
        speed=speed,
        astern=astern,
    )


def card_of(name: str, entry: Mapping[str, Any]) -> DataCard:
    """Her Data Card (IC-SEQ-03): given inline, or her fleet-list entry rated by Appendix A (``"fleet": a name``,
    with ``"lost": {track: stats}`` crossed off at the start if the scenario says so)."""
    if "fleet" in entry:
        try:
            rated = cards.to_json(fleet.card_for(read_str(entry["fleet"])))
        except KeyError as missing:
            raise ValueError(f"{name}: {missing}") from None
        # What the scenario has crossed off before play (a ship aground: her Propulsion), as a card's own "lost".
        rated["lost"] = read_object(entry.get("lost", {}))
        return cards.from_json(rated)
    if "card" not in entry:
        raise ValueError(f"{name}: a ship needs her Data Card ('card') or a fleet-list name ('fleet')")
    given = dict(read_object(entry["card"]))
    given.setdefault("name", name)
    return cards.from_json(given)


def _formations(scenario: Mapping[str, JSON], ships: tuple[Ship, ...]) -> Formations:
    names = {s.name for s in ships}
    squadrons = []
    for item in read_list(scenario.get("squadrons", [])):
        data = read_object(item)
        unit = formations.squadron(
            read_str(data["name"]),
            [read_str(s) for s in read_list(data["ships"])],
            read_str(data.get("formation", formations.LINE_ASTERN)),
        )
        if not set(unit.ships) <= names or len({next(s.side for s in ships if s.name == n) for n in unit.ships}) > 1:
            raise ValueError(f"{unit.name}: a squadron is ships of the scenario, all of one side")
        squadrons.append(unit)
    return Formations(tuple(squadrons))
