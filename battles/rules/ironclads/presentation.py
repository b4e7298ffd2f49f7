"""What the players see: every Ironclads event in words, the map (land, each ship with her facing and current speed,
sunk and broken-off ships off it) and a ship's record sheet: her Data Card's tracks as rows of boxes, the stats she
has whole and those crossed off from the right (IC-SPD-06), her speed and her state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.presentation import (
    Badge,
    MapView,
    RecordSheet,
    Terrain,
    generic_map,
)
from battles.engine.telling import COMPASS, Names, Teller
from battles.engine.words import and_list, capfirst, mid_sentence, possessive
from battles.rules.ironclads import cards
from battles.rules.ironclads.kinds import (
    CRITICALS_ROLLED,
    DAMAGE_RESOLVED,
    FORMATIONS_CHECKED,
    HITS_NOTED,
    INITIATIVE_WON,
    PROBLEM,
    SALVO_FIRED,
    SEA_STATE,
    SHIP_CHOSEN,
    SHIP_MOVED,
    SHIP_SUNK,
)
from battles.rules.ironclads.record_sheet import record_sheet as drawn_card


def _sea(e: Mapping[str, Any], n: Names) -> str:
    dice = and_list([str(face) for face in e["dice"].values()])
    return f"The sea state is rolled ({dice}): the sea is {'rough' if e['rough'] else 'calm'} for the whole battle."


def _initiative(e: Mapping[str, Any], n: Names) -> str:
    rolls = len(e["rounds"])
    again = f" after {rolls - 1} tie{'s' if rolls > 2 else ''}" if rolls > 1 else ""
    return f"{capfirst(mid_sentence(n.side(e['side'])))} have the Initiative{again}; the other side moves first."


def _checked(e: Mapping[str, Any], n: Names) -> str:
    red = e["red"]
    return f"Out of formation: {and_list(red)}." if red else "Every squadron is in formation."


def _chosen(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} is the next to move."


def _moved(e: Mapping[str, Any], n: Names) -> str:
    how = "lies stopped" if e["speed"] == 0 else f"steams at {e['speed']}{' astern' if e['astern'] else ''}"
    end = e["hexes"][-1]
    col, row = hexgrid.to_odd_q(Hex(int(end[0]), int(end[1])))
    told = f"{e['ship']} {how} {'in' if e['speed'] == 0 else 'to'} hex [{col}, {row}]"
    if e.get("breaks_off"):
        told = f"{e['ship']} breaks off from her squadron and {told.removeprefix(e['ship'] + ' ')}"
    crash = e["collision"]
    if e["broke_off"]:
        return f"{e['ship']} {how} off the map and breaks off."
    if crash:
        struck = crash["other"] or "land"
        losses = f"{crash['propulsion']} Propulsion and {crash['hull']} Hull"
        both = "each loses" if crash["other"] else "she loses"
        return f"{told} and collides with {struck}: {both} {losses}, and neither fires this turn."
    return f"{told}."


def _sunk(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} has no Hull left and sinks."


def _salvo(e: Mapping[str, Any], n: Names) -> str:
    guns = and_list(list(e["tracks"]))
    scored = _score(e["criticals"], e["hits"])
    verb = "fire" if len(e["tracks"]) > 1 else "fires"
    told = f"{possessive(e['ship'])} {guns} {verb} {e['dice']}D6 at {e['target']} at {e['band']} range: {scored}"
    if e["saves"]:
        told += f"; {e['saves']}D6 of armour save {e['saved']}"
    kept = _score(e["noted"]["criticals"], e["noted"]["hits"])
    return f"{told}." if not (e["criticals"] or e["hits"]) else f"{told}, and {kept} noted."


def _score(criticals: int, hits: int) -> str:
    parts = [f"{criticals} critical{'s' if criticals != 1 else ''}"] if criticals else []
    parts += [f"{hits} hit{'s' if hits != 1 else ''}"] if hits else []
    return and_list(parts) if parts else "nothing"


def _noted(e: Mapping[str, Any], n: Names) -> str:
    lines = [f"{ship} {line}" for ship, line in e["lines"].items()]
    return f"Hits noted: {and_list(lines)}." if lines else "No hit is noted this turn."


def _criticals(e: Mapping[str, Any], n: Names) -> str:
    demands = [int(d) for d in e["demands"]]
    stats = "stat" if sum(demands) == 1 else "stats"
    takes = "critical takes" if len(demands) == 1 else "criticals take"
    return f"{possessive(e['ship'])} {takes} {and_list([str(d) for d in demands])} {stats}."


def _damaged(e: Mapping[str, Any], n: Names) -> str:
    losses = [
        f"{loss['crossed']} {loss['track']}"
        + (f" ({loss['demanded'] - loss['crossed']} missed)" if loss["crossed"] < loss["demanded"] else "")
        for loss in e["losses"]
    ]
    return f"{e['ship']} crosses off {and_list(losses)}."


def _problem(e: Mapping[str, Any], n: Names) -> str:
    what = {
        "nothing": "no further trouble",
        "fire": f"a fire, burning to turn {e['burning_until']}",
    }.get(e["problem"], e["problem"])
    return f"{possessive(e['ship'])} problems roll is {e['total']}: {what}."


TELLERS: dict[str, Teller] = {
    SEA_STATE: _sea,
    INITIATIVE_WON: _initiative,
    FORMATIONS_CHECKED: _checked,
    SHIP_CHOSEN: _chosen,
    SHIP_MOVED: _moved,
    SHIP_SUNK: _sunk,
    SALVO_FIRED: _salvo,
    HITS_NOTED: _noted,
    CRITICALS_ROLLED: _criticals,
    DAMAGE_RESOLVED: _damaged,
    PROBLEM: _problem,
}

# Bookkeeping a reader may skip: the move that follows tells it again.
DETAIL = frozenset({SHIP_CHOSEN})


# --- the map -------------------------------------------------------------------------------------------------


def map_view(view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
    """The generic map of the view's ships afloat, each with her facing and her current speed as a badge; land as
    islands; the scale in words."""
    board: Any = view if isinstance(view, Mapping) else {"ships": []}  # plain JSON, as Battle.view writes it
    afloat = [s for s in board.get("ships", []) if not (s.get("sunk") or s.get("broken_off"))]
    drawn = generic_map({**board, "ships": afloat}, focus)
    ships = {str(s["name"]): s for s in afloat}
    counters = []
    for counter in drawn.counters:
        ship = ships.get(counter.key, {})
        speed = int(ship.get("speed", 0))
        said = "stopped" if speed == 0 else f"speed {speed}{' astern' if ship.get('astern') else ''}"
        marks = ("collided",) if ship.get("collided") else ()
        badges = (Badge(str(speed), said),)
        counters.append(replace(counter, badges=badges, marks=marks, title=f"{counter.title}, {said}"))
    land = tuple(Hex.from_json(h) for h in board.get("land", []))
    terrain = (Terrain("zone", "island", land, "Land"),) if land else ()
    gone = tuple(str(s["name"]) for s in board.get("ships", []) if s.get("sunk") or s.get("broken_off"))
    scale = "A hex is 4 cm of the table: a ship fills her hex; speed is cm a turn, ranges 1-6 hexes close, 7-12 middle"
    return replace(
        drawn,
        counters=tuple(counters),
        terrain=terrain,
        off_map=gone,
        scale=scale + ", 13-25 long",
        piece_word="ship",
        title=str(board.get("title") or drawn.title),
    )


# --- the record sheet ----------------------------------------------------------------------------------------


def record_sheet(view: JSON, piece: str) -> RecordSheet | None:
    """Her Data Card as the text draws it (record_sheet.py), from the board view: her current speed, this turn's
    Hits line, and her state, steering, smokestacks and fire as notes."""
    if not isinstance(view, Mapping):
        return None
    board: Any = view
    ship = next((s for s in board.get("ships", []) if isinstance(s, Mapping) and s.get("name") == piece), None)
    if ship is None:
        return None
    card = cards.from_json(ship["card"])
    noted = board.get("noted", {}).get(piece) if isinstance(board.get("noted"), Mapping) else None
    hits = "C" * len(noted["criticals"]) + "H" * len(noted["hits"]) if isinstance(noted, Mapping) else ""
    notes = [
        "sunk" if ship.get("sunk") else "broken off" if ship.get("broken_off") else "",
        {1: "steering problems", 2: "major steering problems"}.get(int(ship.get("steering", 0)), ""),
        "smokestacks wrecked" if ship.get("smokestacks") else "",
        f"on fire to turn {board['fires'][piece]}" if piece in board.get("fires", {}) else "",
        f"astern, facing {COMPASS[int(ship.get('facing', 0)) % 6]}" if ship.get("astern") else "",
    ]
    return drawn_card(
        card, current_speeds=(int(ship.get("speed", 0)),), hits=hits, notes=[n for n in notes if n], key=piece
    )
