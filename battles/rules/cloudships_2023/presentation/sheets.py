"""A Cloudships of Mars ship's control panel as a record sheet (CM-SEQ-01), from the board view a side may see,
laid out like the game's own panel and drawn by the app's HTML and PDF renderers from the same data.

What the panel holds (the text describes it, docs/cloudships.md section 2): the boarding value of the undamaged
ship in a hexagon at the top (CM-BRD-10), the movement in a circle, the ceiling and the ram value; each gun with
its position and its arcs of fire marked in red (CM-FIRE-02), its ranges, dice, damage and the score it needs to
hit (CM-FIRE-06..09, CM-AP-01..03); the damage track, a row a band, its boxes crossed left to right (CM-DMG-01);
the three lights of each system, green, amber and red, the one showing lit (CM-LIGHT-01..08); the boarding
parties as blue squares (CM-REP-05) and the flights aboard; the crew chart (CM-AP-07) and the critical chart
(CM-DMG-11). What the battle has done is drawn on it: boxes crossed, lamps lit, Fired markers, guns lost, spent
one-shot weapons, parties lost.
"""

from __future__ import annotations

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.presentation import (
    EMPTY,
    HEXAGON,
    LAMPS,
    LOST,
    WHOLE,
    Block,
    Box,
    Fact,
    Item,
    RecordSheet,
    Row,
    Section,
    generic_sheet,
    pieces_of,
)
from battles.engine.telling import plural
from battles.rules.cloudships_2023 import gunnery, kinds, panels
from battles.rules.cloudships_2023.board import Board, Ship
from battles.rules.cloudships_2023.panels import Gun

MOTIVE_POWER_HIT = "Motive Power Hit"  # a permanent critical: one movement less (docs/cloudships.md section 4)
# The arcs on a gun's glyph, degrees clockwise from the bow (hexgrid.aspects: 30 either side of bow and stern).
ARC_SPANS = {"bow": (-30, 30), "starboard": (30, 150), "stern": (150, 210), "port": (210, 330)}
# The letter a track box carries, and the boxes printed in colour: the Boarding Party box is blue (CM-PG-04).
BOX_LETTERS = {
    panels.HULL: "",
    panels.GUN: "G",
    panels.GUN_CHOSEN: "GUN",  # in capitals: the firer's choice, with the option (CM-GUN-03)
    panels.MEDIUM: "M",
    panels.LOW: "L",
    panels.SPEED: "S",
    panels.BOARDING_PARTY: "B",
    panels.CRITICAL: "C",
    panels.GROUND: "GR",
}
BOX_COLOURS = {panels.BOARDING_PARTY: "blue"}
LAMP_COLOURS = (panels.GREEN, panels.AMBER, panels.RED)
LIGHT_WORDS = {panels.GREEN: "green: working", panels.AMBER: "amber: hit this turn", panels.RED: "red: being fixed"}
FATE_WORDS = {
    kinds.FLYING: "Flying",
    kinds.CRASHED: "Crashed",
    kinds.SUNK: "Destroyed",
    kinds.STRUCK: "Colours struck",
    kinds.LEFT: "Left the battle",
}


def ship_sheet(view: JSON, name: str, status: str | None = None) -> RecordSheet | None:
    """The panel of ``name`` on a board view (None if the view does not show her). A view this module cannot read
    as a board gets the engine's plain sheet rather than none. ``status``: her state in words off the battle board
    (a campaign's ship in port), shown in place of the battle's status, hex, band, facing and card."""
    try:
        board = Board.from_json(view)
    except (KeyError, TypeError, ValueError):
        found = next((p for p in pieces_of(view) if str(p.get("name")) == name), None)
        return generic_sheet(found, {}) if found is not None else None
    ship = next((s for s in board.ships if s.name == name), None)
    return None if ship is None else panel_sheet(board, ship, status)


def panel_sheet(board: Board, ship: Ship, status: str | None = None) -> RecordSheet:
    panel = ship.panel
    what = f"{panel.name} class · " if panel.name != ship.name else ""
    return RecordSheet(
        key=ship.name,
        title=ship.name,
        subtitle=f"{what}{panel.motive} · {board.side_names.get(ship.side, ship.side)}",
        look="control-panel",
        lead=(_hexagon(ship),),
        badges=(_movement(ship), _ceiling(ship), Fact("Ram value", str(panel.ram))),
        facts=_facts(board, ship) if status is None else (Fact("Status", status), *_crew_facts(ship)),
        sections=(_guns(ship), _track(ship), _lights(ship), _boarding(ship), _crew_chart(ship), _critical_chart(ship)),
    )


# --- the enclosure ----------------------------------------------------------------------------------------------


def boarding_value(ship: Ship) -> int:
    """The hexagon's figure now: parties and flights left, working anti-personnel guns, superior crew (CM-BRD-08..10,
    CM-FLY-23)."""
    ap = sum(1 for gun in ship.working_guns() if gun.kind == panels.ANTI_PERSONNEL)
    return panels.boarding_value(ship.parties, ship.flights, ap, superior=ship.panel.superior)


def _hexagon(ship: Ship) -> Fact:
    printed, now = ship.panel.hexagon, boarding_value(ship)
    return Fact("Boarding value", str(printed), look=HEXAGON, aside=f"now {now}" if now != printed else "")


def movement_now(ship: Ship) -> int | None:
    """Her movement as the damage leaves it (CM-DMG-09, a Motive Power Hit); None for a kite, which rolls."""
    if ship.panel.movement is None:
        return None
    return max(0, ship.panel.movement - ship.speed_lost - ship.criticals.count(MOTIVE_POWER_HIT))


def _movement(ship: Ship) -> Fact:
    base = ship.panel.movement
    if base is None:  # a kite rolls a die each turn (CM-MOV-12)
        lost = ship.speed_lost + ship.criticals.count(MOTIVE_POWER_HIT)
        return Fact("Movement (a kite rolls a die)", "d6", look="speed", aside=f"-{lost}" if lost else "")
    now = movement_now(ship)
    what = "Movement (steam; the sail may add 1 or 2)" if ship.panel.motive == panels.MIXED else "Movement"
    return Fact(what, str(base), look="speed", aside=f"now {now}" if now != base else "")  # CM-MOV-18..21


def _ceiling(ship: Ship) -> Fact:
    now = ship.ceiling
    return Fact("Ceiling", ship.panel.ceiling, aside=f"now {now}" if now != ship.panel.ceiling else "")


def _facts(board: Board, ship: Ship) -> tuple[Fact, ...]:
    col, row = hexgrid.to_odd_q(ship.hex)
    facts = [Fact("Status", FATE_WORDS.get(ship.status, ship.status))]
    if ship.flying:
        facts += [
            Fact("Hex", f"{col},{row}"),
            Fact("Band", ship.band),
            Fact("Facing", hexgrid.direction_name(ship.facing)),
        ]
    facts.append(Fact("Card", _card(board, ship)))
    return (*facts, *_crew_facts(ship))


def _crew_facts(ship: Ship) -> tuple[Fact, ...]:
    facts = []
    if ship.panel.superior:
        facts.append(Fact("Crew", "superior"))
    if ship.panel.vulnerable_magazine:
        facts.append(Fact("Magazine", "vulnerable: explosions do double"))
    return tuple(facts)


def _card(board: Board, ship: Ship) -> str:
    if board.active == ship.name:
        return "turned: her turn now"
    if ship.name in board.deck.turned:
        return "turned this round"
    return "face down" if ship.name in board.cards_left() else "none"


# --- guns ------------------------------------------------------------------------------------------------------


def _reach(gun: Gun, superior: bool) -> str:
    """The gun's ranges with the score each needs, or how it strikes where it has no range."""
    if gun.kind in (panels.MAIN, panels.ANTI_PERSONNEL) and gun.long_range is not None:
        short, long = gun.short_range or 0, gun.long_range
        to_hit_short = gunnery.score_to_hit(gun.kind, short=True, superior=superior)
        to_hit_long = gunnery.score_to_hit(gun.kind, short=False, superior=superior)
        return f"short 1-{short}: {_score(to_hit_short)} · long {short + 1}-{long}: {_score(to_hit_long)}"
    if gun.kind == panels.ROCKETS:
        return f"fired {gun.angle or 'down'} at 45 degrees, no roll to hit"
    if gun.kind == panels.BOMBS:
        return "on a ship directly below, no roll to hit"
    return "strikes during the move"


def _score(needed: int) -> str:
    return "6" if needed >= 6 else f"{needed}+"


def _power(gun: Gun) -> str:
    if gun.kind == panels.MAIN:
        return f"{plural(gun.dice, 'die')} · damage {gun.damage}".replace("dies", "dice")
    if gun.kind == panels.ANTI_PERSONNEL:
        return f"{gun.dice} dice · crew hits"
    return f"damage {gun.roll}"


def _gun_state(ship: Ship, gun: Gun) -> str:
    if gun.number in ship.guns_lost:
        return "destroyed"
    if gun.number in ship.spent:
        return "spent"
    return "fired" if gun.number in ship.fired else ""


def _gun(ship: Ship, gun: Gun) -> Item:
    state = _gun_state(ship, gun)
    arcs = ", ".join(gun.arcs) or "none"
    detail = f"{gun.position} · arcs {arcs} · {_reach(gun, ship.panel.superior)} · {_power(gun)}"
    words = {"destroyed": "destroyed", "spent": "spent (fired once)", "fired": "Fired marker on it", "": "ready"}
    return Item(
        key=str(gun.number),
        name=gun.name,
        detail=detail,
        summary=f"Gun {gun.number}: {gun.name}, {gun.kind}, {detail}; {words[state]}",
        state=state,
        values={
            "aspects": [[aspect, *ARC_SPANS[aspect], aspect in gun.arcs] for aspect in ARC_SPANS],
            "arc_colour": "red",
            "marks": [state] if state else [],
        },
    )


def _guns(ship: Ship) -> Section:
    items = tuple(_gun(ship, gun) for gun in ship.panel.guns)
    fired = sum(1 for gun in ship.panel.guns if _gun_state(ship, gun) == "fired")
    lost = len(ship.guns_lost)
    summary = ", ".join(w for w in (f"{lost} destroyed" if lost else "", f"{fired} fired" if fired else "") if w)
    return Section("guns", "Guns", (Block(items=items, empty="No guns."),), look="guns", summary=summary, wide=True)


# --- the damage track -------------------------------------------------------------------------------------------


def _bands_down(ceiling: str, rows: int) -> list[str]:
    """The band each track row stands for: the panel's ceiling, then each band below it (CM-DMG-07/08)."""
    top = panels.BANDS.index(ceiling)
    return [panels.BANDS[max(top - i, 1)] for i in range(rows)]


def _track(ship: Ship) -> Section:
    crossed = ship.crossed
    rows = []
    seen = 0
    for band, boxes in zip(_bands_down(ship.panel.ceiling, len(ship.panel.track)), ship.panel.track, strict=True):
        drawn = tuple(
            Box(LOST if seen + i < crossed else WHOLE, BOX_LETTERS.get(box, "?"), BOX_COLOURS.get(box, ""))
            for i, box in enumerate(boxes)
        )
        lost = sum(1 for box in drawn if box.state == LOST)
        seen += len(boxes)
        look = "gone" if lost == len(boxes) else ("ceiling" if band == ship.ceiling else "")
        rows.append(Row(band, f"{band} row", drawn, f"{band} row: {lost} of {len(boxes)} crossed", look))
    total = ship.panel.track_length
    key = "G gun · C critical · S speed · B boarding party · M, L: the ceiling falls · GR ground: she crashes"
    block = Block(rows=tuple(rows), notes=(key,))
    return Section("track", "Damage track", (block,), look="track", summary=f"{crossed} of {total} crossed", wide=True)


# --- lights, boarding and the charts ---------------------------------------------------------------------------


def _lamps(light: str, colour: str) -> Row:
    lamps = tuple(Box(WHOLE if c == colour else EMPTY, "", c) for c in LAMP_COLOURS)
    return Row(light, light, lamps, f"{light}: {LIGHT_WORDS.get(colour, colour)}", LAMPS)


def _lights(ship: Ship) -> Section:
    rows = tuple(_lamps(light, colour) for light, colour in ship.lights)
    lit = sum(1 for _, colour in ship.lights if colour != panels.GREEN)
    blocks = [Block(rows=rows)]
    if ship.pending:
        blocks.append(Block(facts=(Fact("Taken this turn, amber at its end", ", ".join(ship.pending)),)))
    blocks.append(Block(facts=(Fact("Permanent", ", ".join(ship.criticals) or "none"),)))
    return Section("lights", "Lights", tuple(blocks), look="lights", summary=f"{lit} lit" if lit else "all green")


def _squares(count: int, left: int, label: str) -> tuple[Box, ...]:
    return tuple(Box(WHOLE if n < left else LOST, label, "blue") for n in range(count))


def _boarding(ship: Ship) -> Section:
    panel = ship.panel
    rows = [Row("Parties", "Boarding parties", _squares(panel.boarding_parties, ship.parties, ""), _party_words(ship))]
    if panel.flying_martians:
        flights = _squares(panel.flying_martians, ship.flights, "F")
        rows.append(Row("Flights", "Flying Martian flights aboard", flights, f"{ship.flights} flights aboard"))
    facts = [Fact("Boarding value now", str(boarding_value(ship)))]
    if panel.power_grapnel:
        facts.append(Fact("Power grapnel", "aboard" if ship.grapnel else "lost"))
    if ship.grappled:
        facts.append(Fact("Grappled with", ", ".join(ship.grappled)))
    return Section("boarding", "Boarding", (Block(rows=tuple(rows), facts=tuple(facts)),), look="boarding")


def _party_words(ship: Ship) -> str:
    return f"Boarding parties: {ship.parties} of {ship.panel.boarding_parties} left"


def _parties(count: int) -> str:
    return f"{count} {'party' if count == 1 else 'parties'}"


def _crew_chart(ship: Ship) -> Section:
    chart = ship.panel.crew_chart
    facts = [Fact(f"{hits}+ hits", f"{_parties(n)} lost") for n, hits in enumerate(chart, start=1)]
    below = f"Fewer than {chart[0]} hits: no effect." if chart else "Anti-personnel hits have no effect."
    block = Block(facts=tuple(facts), notes=(below,), look="chart")
    return Section("crew", "Crew chart", (block,), look="chart", summary="anti-personnel hits")


def _critical_chart(ship: Ship) -> Section:
    facts = tuple(Fact(str(score), critical) for score, critical in enumerate(ship.panel.criticals, start=2))
    return Section("criticals", "Critical chart", (Block(facts=facts, look="chart"),), look="chart", summary="2d6")
