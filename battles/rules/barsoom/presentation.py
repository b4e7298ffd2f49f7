"""What the players see: every Barsoom event in words, and a ship's record sheet with her Movement Cards drawn as
cards (a box a card: whole while her deck holds it, crossed off while damage has it discarded), the cards she has
revealed this turn, her crew by post and her guns. The map is the generic one from the board view's ships (hex,
facing, altitude as the level)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from battles.engine.events import DECISION, JSON
from battles.engine.presentation import (
    LOST,
    WHOLE,
    Badge,
    Block,
    Box,
    Fact,
    Item,
    MapView,
    RecordSheet,
    Row,
    Section,
    generic_map,
)
from battles.engine.telling import Names, Teller
from battles.engine.words import and_list, mid_sentence, possessive
from battles.rules.barsoom.cards import Deck, played
from battles.rules.barsoom.kinds import (
    AT_BOMB,
    AT_CREW,
    BOARDERS_CROSSED,
    BOARDERS_JUMPED,
    BOARDING_FIGHT,
    BOMB_DROPPED,
    CARD_GLYPHS,
    CARD_REVEALED,
    CREW_POSTED,
    DAMAGED,
    DED_ROLLED,
    FIRE_WAITS,
    FITTED_OUT,
    GRAPPLE_CUT,
    GRAPPLE_THROWN,
    GUN_FIRED,
    GUN_LOST,
    INITIATIVE_WON,
    MEN_LOST,
    OUT_OF_CONTROL,
    REPAIRS,
    SHIP_MOVED,
    SHIP_TAKEN,
    WRECK_FELL,
)
from battles.rules.barsoom.ships import ShipClass, classes


def _fitted(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} carries {e['bombs']} bomb{'s' if e['bombs'] != 1 else ''} ({e['die']})."


def _initiative(e: Mapping[str, Any], n: Names) -> str:
    order = [mid_sentence(n.side(side)) for side in e["order"]]
    return f"The initiative to {order[0]}, who reveal first; then {and_list(order[1:])}."


def _adrift(e: Mapping[str, Any], n: Names) -> str:
    drawn = and_list(e["cards"]) if e["cards"] else "no card"
    return f"{e['ship']} is out of control: {drawn} at random, then she descends."


def _revealed(e: Mapping[str, Any], n: Names) -> str:
    ram = " to ram" if e["ram"] else ""
    held = ", held: no turn" if e.get("held") else ""
    return f"{e['ship']} reveals card {e['slot'] + 1}: {e['card']}{held}{ram}."


def _moved(e: Mapping[str, Any], n: Names) -> str:
    forced = "forced " if e["forced"] else ""
    with_ = f" with {e['contact']}" if e["contact"] else ""
    why = f" ({e['why']})" if e["why"] else ""
    return f"{possessive(e['ship'])} {forced}{e['card']}: she {e['outcome']}{with_}{why}."


def _damaged(e: Mapping[str, Any], n: Names) -> str:
    wrecked = " She is a wreck." if e["wrecked"] else ""
    return f"{e['ship']} rolls {e['row']} on the Damage table ({e['reason']}): {e['effect']}.{wrecked}"


def _ded(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} Damage Effect Die shows {e['symbol']}: {e['move']}."


def _wreck(e: Mapping[str, Any], n: Names) -> str:
    if e["broken_up"]:
        return f"The wreck of {e['ship']} falls onto the ship below and breaks up."
    return f"The wreck of {e['ship']} falls to the ground."


def _fired(e: Mapping[str, Any], n: Names) -> str:
    hits = [s for s in e["severities"] if s]
    told = f"{len(hits)} hit{'s' if len(hits) != 1 else ''} ({and_list(hits)})" if hits else "misses"
    jam = "; it jams" if e["jammed"] else ""
    aim = f"{possessive(e['target'])} crew" if e["at"] == AT_CREW else e["target"]
    return f"{possessive(e['ship'])} {e['gun']} ({e['weapon']}) fires on {aim} at {e['distance']} hexes: {told}{jam}."


def _bomb(e: Mapping[str, Any], n: Names) -> str:
    told = f"a {e['severity']} hit" if e["severity"] else "a miss"
    return f"{e['ship']} drops a {AT_BOMB} on {e['target']}: {told}."


def _men(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} loses {e['men']} m{'e' if e['men'] != 1 else 'a'}n to the {e['by']}."


def _grapple(e: Mapping[str, Any], n: Names) -> str:
    told = "they hold" if e["held"] else "they miss"
    return f"{possessive(e['ship'])} {e['men']} grapplers throw at {e['other']}: {told}."


def _cut(e: Mapping[str, Any], n: Names) -> str:
    told = "the lines part" if e["held"] else "the lines hold"
    return f"{e['ship']} tries to cut the grapples to {e['other']}: {told}."


def _crossed(e: Mapping[str, Any], n: Names) -> str:
    how = "by abseil" if e["way"] == "abseil" else "across"
    return f"{e['men']} boarders from {e['ship']} go {how} to {e['other']}."


def _jumped(e: Mapping[str, Any], n: Names) -> str:
    men = f"{e['men']} m{'e' if e['men'] != 1 else 'a'}n"
    told = [f"{e['across']} get{'s' if e['across'] == 1 else ''} aboard"]
    if e["fell"]:
        told.append(f"{e['fell']} fall{'s' if e['fell'] == 1 else ''} short to the ground")
    if e["landed_hard"]:
        hurt = e["lost"] - e["fell"]
        told.append(f"{e['landed_hard']} land{'s' if e['landed_hard'] == 1 else ''} hard ({hurt} struck down)")
    verb = "jumps" if e["men"] == 1 else "jump"
    return f"{men} of {possessive(e['ship'])} crew {verb} for {e['other']}: {and_list(told)}."


def _fight(e: Mapping[str, Any], n: Names) -> str:
    if e["result"] == "surrendered":
        return f"The {e['surrendered']} boarders left aboard {e['ship']} surrender."
    return (
        f"Aboard {e['ship']}, {e['boarders']} boarders fight {e['defenders']} defenders: "
        f"{e['boarders_lost']} boarders and {e['defenders_lost']} defenders fall; the fight is {e['result']}."
    )


def _taken(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} strikes to {mid_sentence(n.side(e['side']))}; {e['prize_crew']} men are her prize crew."


def _repairs(e: Mapping[str, Any], n: Names) -> str:
    mended = f": {and_list(e['mended'])} mended" if e["mended"] else ""
    return f"{possessive(e['ship'])} repair crew rolls {e['sixes']} six{'es' if e['sixes'] != 1 else ''}{mended}."


def _posted(e: Mapping[str, Any], n: Names) -> str:
    place = {"helm": "the helm", "repairs": "the repairs", "deck": "the deck"}[e["to"]]
    return f"{e['ship']} sends {e['men']} m{'e' if e['men'] != 1 else 'a'}n to {place}."


def _gun_given_up(e: Mapping[str, Any], n: Names) -> str:
    """Row 8's gun, as her owner chose it (BR-DMG-10); other answers are the engine's to tell."""
    if e.get("decision") != GUN_LOST or not e.get("ships"):
        return ""
    return f"{e['ships'][0]} loses her {e['choice']} to the hit, her captain's choice."


def _fire_waits(e: Mapping[str, Any], n: Names) -> str:
    return f"The fire waits while {and_list([possessive(s) for s in e['owing']])} captains choose the guns they lose."


TELLERS: dict[str, Teller] = {
    DECISION: _gun_given_up,
    FIRE_WAITS: _fire_waits,
    FITTED_OUT: _fitted,
    INITIATIVE_WON: _initiative,
    OUT_OF_CONTROL: _adrift,
    CARD_REVEALED: _revealed,
    SHIP_MOVED: _moved,
    DAMAGED: _damaged,
    DED_ROLLED: _ded,
    WRECK_FELL: _wreck,
    GUN_FIRED: _fired,
    BOMB_DROPPED: _bomb,
    MEN_LOST: _men,
    GRAPPLE_THROWN: _grapple,
    GRAPPLE_CUT: _cut,
    BOARDERS_CROSSED: _crossed,
    BOARDERS_JUMPED: _jumped,
    BOARDING_FIGHT: _fight,
    SHIP_TAKEN: _taken,
    REPAIRS: _repairs,
    CREW_POSTED: _posted,
}

# Bookkeeping a reader may skip: the reveal is told again by the move it makes.
DETAIL = frozenset({CARD_REVEALED, FIRE_WAITS})


# --- the map -------------------------------------------------------------------------------------------------


def map_view(view: JSON, focus: Mapping[str, JSON] | None = None) -> MapView:
    """The generic map of the view's ships (hex, facing, the level as the altitude badge), each counter marked as
    she rests (a wreck, crashed, landed) and burning while a fire is aboard; the scale in words."""
    drawn = generic_map(view, focus)
    board: Any = view if isinstance(view, Mapping) else {"ships": []}  # plain JSON, as Battle.view writes it
    ships = {str(p["name"]): p for p in board["ships"]}
    counters = []
    for counter in drawn.counters:
        ship = ships.get(counter.key, {})
        rest = (
            "wrecked"
            if ship.get("wrecked")
            else "crashed"
            if ship.get("crashed")
            else "landed"
            if ship.get("landed")
            else ""
        )
        marks = ("burning",) if ship.get("fires") else ()
        badges = (*counter.badges, Badge("OOC", "out of control")) if ship.get("out_of_control") else counter.badges
        counters.append(replace(counter, state=rest, marks=marks, badges=badges))
    scale = "A hex is 2 inches; a level is 2 inches of height, 0 the ground"
    return replace(drawn, counters=tuple(counters), scale=scale, piece_word="ship")


# --- the record sheet ----------------------------------------------------------------------------------------


def _card_words(value: str) -> str:
    """A plotted card as her sheet names it: a Turn card held (BR-MOV-05) as "Turn right, held"."""
    card, turns = played(value)
    return card if turns else f"{card}, held"


def record_sheet(view: JSON, piece: str) -> RecordSheet | None:
    """Her sheet from the board view: her facts, her Movement Cards as cards, the cards revealed this turn, her crew
    by post and her guns."""
    if not isinstance(view, Mapping):
        return None
    board: Any = view  # a board view is plain JSON: read as Battle.view writes it
    ships = {str(s.get("name")): s for s in board.get("ships", []) if isinstance(s, Mapping)}
    ship = ships.get(piece)
    entry = board.get("aboard", {}).get(piece) if isinstance(board.get("aboard"), Mapping) else None
    if ship is None or not isinstance(entry, Mapping):
        return None
    ship_class: ShipClass = classes()[str(ship["class"])]
    discarded = [str(card) for harm in entry["condition"]["harms"] for card in harm["cards"]]
    rows = []
    for card, count in Deck.full(ship_class).counts:
        gone = min(count, discarded.count(card))
        boxes = tuple(Box(LOST if n >= count - gone else WHOLE, label=card[0]) for n in range(count))
        rows.append(Row(card, card, boxes, f"{card}: {count - gone} of {count} in her deck"))
    cards = Section("cards", "Movement Cards", (Block(rows=tuple(rows)),), look="cards")
    plot = board.get("plots", {}).get(piece) if isinstance(board.get("plots"), Mapping) else None
    shown = list(plot.get("cards", [])) if isinstance(plot, Mapping) else []
    revealed = int(board.get("revealed", {}).get(piece, 0)) if isinstance(board.get("revealed"), Mapping) else 0
    plot_items = tuple(
        Item(
            key=f"card{n + 1}",
            name=_card_words(str(card)),
            detail="",
            summary="revealed" if n < revealed else "plotted",
            values={"glyph": CARD_GLYPHS.get(played(str(card))[0], "")},  # drawn as the plot form's card tile
        )
        for n, card in enumerate(shown)
    )
    this_turn = Section("plot", "This turn's cards", (Block(items=plot_items, empty="No cards plotted."),))
    crew = entry["crew"]
    posts = (
        Fact("On deck", str(crew["men"])),
        Fact("At the helm", str(crew["helm"])),
        Fact("At the grapnels", str(crew["grapplers"])),
        Fact("At the repairs", f"{crew['repair']['men']} ({crew['repair']['sixes']} sixes saved)"),
        Fact("Away", ", ".join(f"{p['men']} aboard {p['aboard']}" for p in crew["away"]) or "none"),
    )
    crew_section = Section("crew", "Crew", (Block(facts=posts),), look="crew")
    lost = set(entry["condition"]["weapons_lost"])
    guns = tuple(
        Item(
            key=str(g["key"]),
            name=f"{g['key']}: {g['weapon']}",
            detail="",
            summary="lost" if g["key"] in lost else "aboard",
        )
        for g in entry["guns"]
    )
    gun_section = Section("guns", "Guns", (Block(items=guns, empty="No guns."),), look="guns")
    side = str(ship.get("side", ""))
    names = board.get("side_names", {}) if isinstance(board.get("side_names"), Mapping) else {}
    facts = (
        Fact("Class", ship_class.name),
        Fact("Speed", f"{ship['speed']} hexes"),
        Fact("Level", str(ship["altitude"])),
        Fact("Fires", str(ship["fires"])),
        Fact("Bombs", str(ship["bombs"])),
    )
    return RecordSheet(
        key=piece,
        title=piece,
        subtitle=str(names.get(side, side)),
        facts=facts,
        sections=(cards, this_turn, crew_section, gun_section),
    )
