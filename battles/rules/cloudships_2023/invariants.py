"""What must hold of every state of a Cloudships battle (the conformance suite and the tests check it after every
event): each ship's track, lights, markers and crew within her panel; the deck's turned cards among its cards;
the active ship's card turned; no round past the limit."""

from __future__ import annotations

from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, Ship, band_height
from battles.rules.cloudships_2023.kinds import BOARDING


def problems(state: BattleState[Board]) -> list[str]:
    board = state.board
    found = [problem for ship in board.ships for problem in ship_problems(ship)]
    deck = board.deck
    if not set(deck.turned) <= set(deck.cards) or len(set(deck.turned)) != len(deck.turned):
        found.append(f"the deck's turned cards {list(deck.turned)} are not its cards {list(deck.cards)}, once each")
    if board.active is not None and (not deck.turned or deck.turned[-1] != board.active):
        found.append(f"{board.active} is active but hers is not the last card turned")
    if state.turn > board.rounds:
        found.append(f"round {state.turn} is past the limit {board.rounds}")
    return found + boarding_problems(state) + ordnance_problems(board) + flight_problems(board)


def ordnance_problems(board: Board) -> list[str]:
    """Mines and drogues out are hers, once each, and not spent; a torpedo in flight was fired from a Smutts
    launcher, now spent, and has flown at most its two turns (CM-SMT-07, CM-TM-12; the ordnance slice)."""
    found = []
    out = board.ordnance.out
    if len(set(out)) != len(out):
        found.append(f"cables out {list(out)}: one named twice")
    for name, number in out:
        ship = board.ship_named(name)
        if ship.gun(number).kind not in (panels.TETHER_MINE, panels.DROGUE) or number in ship.spent:
            found.append(f"{possessive(name)} gun {number} is out on a cable but is no mine or drogue still whole")
    for torpedo in board.ordnance.torpedoes:
        ship = board.ship_named(torpedo.ship)
        if ship.gun(torpedo.gun).kind != panels.SMUTTS or torpedo.gun not in ship.spent or torpedo.flights > 2:
            found.append(f"{possessive(torpedo.ship)} torpedo {torpedo.gun} in flight: {torpedo.to_json()}")
    return found


def ship_problems(ship: Ship) -> list[str]:
    panel, found = ship.panel, []
    if not 0 <= ship.crossed <= panel.track_length:
        found.append(f"{ship.name}: {ship.crossed} boxes crossed of {panel.track_length}")
    if any(colour not in panels.COLOURS for _, colour in ship.lights):
        found.append(f"{ship.name}: lights {dict(ship.lights)}")
    numbers = {gun.number for gun in panel.guns}
    for what, marked in (("fired", ship.fired), ("lost", ship.guns_lost), ("spent", ship.spent)):
        if not set(marked) <= numbers or len(set(marked)) != len(marked):
            found.append(f"{ship.name}: guns {what} {list(marked)} are not her guns, once each")
    if not 0 <= ship.parties <= panel.boarding_parties or not 0 <= ship.flights <= panel.flying_martians:
        found.append(f"{ship.name}: {ship.parties} parties and {ship.flights} flights aboard")
    if ship.flying and ship.band == panels.GROUND:
        found.append(f"{ship.name}: flying at Ground")
    if ship.flying and band_height(ship.band) > band_height(ship.ceiling) and not ship.grappled and not _dropping(ship):
        found.append(f"{ship.name}: at {ship.band}, above her ceiling {ship.ceiling}")
    return found


def _dropping(ship: Ship) -> bool:
    """The box just crossed lowered her ceiling: the drop is the next event (damage.py), not yet folded."""
    crossed = ship.crossed_boxes()
    return bool(crossed) and crossed[-1] in (panels.MEDIUM, panels.LOW)


# --- grappling and boarding (the boarding slice) ------------------------------------------------------------------


def boarding_problems(state: BattleState[Board]) -> list[str]:
    """Every boarding action joins two flying ships that name each other as grappled, and no ship is grappled
    but by an action; nothing marked off below 0; an order or a round in hand only at the boarding step."""
    board, found = state.board, []
    pairs = {frozenset((g.attacker, g.defender)) for g in board.grapples}
    for grapple in board.grapples:
        attacker, defender = board.ship_named(grapple.attacker), board.ship_named(grapple.defender)
        if not (attacker.flying and defender.flying) or defender.name not in attacker.grappled:
            found.append(f"{grapple.attacker} boards {grapple.defender}, but they are not grappled in the fight")
    for ship in board.ships:
        strays = [name for name in ship.grappled if frozenset((ship.name, name)) not in pairs]
        if strays or ship.marked < 0:
            found.append(f"{ship.name}: grappled to {strays} with no boarding action, {ship.marked} marked off")
    if (board.boarding is not None or board.fight is not None) and state.phase != BOARDING:
        found.append(f"a boarding order or round in hand at the {state.phase} stage")
    return found


def flight_problems(board: Board) -> list[str]:
    """Flights on the table are a flying ship's, once each, and with those aboard no more than her panel carries
    (CM-FLY-01/03; the flights slice)."""
    found = []
    keys = [flight.key for flight in board.martians.out]
    if len(set(keys)) != len(keys):
        found.append(f"flights on the table {keys}: one named twice")
    for ship in board.ships:
        out = board.martians.of(ship.name)
        if out and not ship.flying:
            found.append(f"{ship.name} is out of the fight but has flights on the table")
        if ship.flights + len(out) > ship.panel.flying_martians:
            found.append(f"{ship.name} has more flights aboard and out than her panel's {ship.panel.flying_martians}")
    return found
