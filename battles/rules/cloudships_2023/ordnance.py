"""The exotic ordnance as pure rules: Smutts torpedoes, tether mines and drogue torpedoes (CM-SMT, CM-TM, CM-DT).
Pure functions of the board, used alike to judge the start-of-turn orders (validate.py), to offer them
(answers.py, candidates) and to carry them out (phases/ordnance.py rolls the dice).

- At the start of her turn a captain lets out tether mines and drogues on their cables, winches in those already
  out, and launches Smutts torpedoes: one decision, ``{"let_out": [gun], "winch_in": [gun], "launch": [gun]}``
  (CM-TM-01/02; docs/cloudships.md section 10).
- A tether mine rides the band directly above her, a drogue the band directly below (CM-TM-03, CM-DT-01); from Low
  a drogue reaches only the ground (CM-DT-03). As she enters a hex, each one out strikes at the enemy ships at its
  band there, one after another until it hits (CM-TM-04/06).
- A Smutts torpedo flies 10 hexes a turn in a straight line, level, for two turns (CM-SMT-01, CM-SMT-07), and
  meets every ship at its band in the hexes it enters (CM-SMT-06).
- Every strike is the ramming roll: one die each, the weapon's bonus on its own (a torpedo's ram of 2, a superior
  crew's 1 for a mine or drogue, CM-SMT-03/12, CM-TM-05, CM-DT-02), steam +1 on the target's (CM-SMT-04,
  CM-TM-07); the weapon hits only by scoring higher (CM-RAM-03).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, OrdnanceOrders, Ship
from battles.rules.cloudships_2023.panels import Gun

CABLED = (panels.TETHER_MINE, panels.DROGUE)  # let out on a cable and dragged about (CM-TM-01, CM-DT-01)
TORPEDO_SPEED = 10  # hexes a turn of movement (CM-SMT-01)
TORPEDO_TURNS = 2  # turns of movement before it self-destructs (CM-SMT-07)
TORPEDO_RAM = 2  # the torpedo's ram bonus on its roll (CM-SMT-03/04)
STEAM = 1  # a steamer's +1 on her roll (CM-RAM-02, CM-SMT-04, CM-TM-07)
SUPERIOR = 1  # a superior crew's +1 to a mine's or drogue's roll (CM-TM-05, CM-DT-02); nothing to a torpedo
NATURAL_SIX = 6
# The way a torpedo flies from its launcher's heading, by the launcher's side: a bow tube ahead, a stern one
# astern, a broadside one along that side's forward hexside (docs/cloudships.md section 10).
TORPEDO_HEADING = {"bow": 0, "starboard": 1, "stern": 3, "port": -1}
ONE_SHOT_CLAUSE = {panels.TETHER_MINE: "CM-TM-12", panels.DROGUE: "CM-FIRE-12", panels.SMUTTS: "CM-SMT-11"}


class Problem(NamedTuple):
    """Why an order is refused: the clause and words a player can read."""

    clause: str
    reason: str


def bands(*, really_low: bool) -> tuple[str, ...]:
    return panels.BANDS_WITH_REALLY_LOW if really_low else panels.BANDS


def reach(kind: str, band: str, *, really_low: bool) -> str | None:
    """The band a tether mine (directly above, CM-TM-03) or a drogue (directly below, CM-DT-01) strikes at from a
    ship at ``band``; None where there is none (a mine over High). A drogue from Low, or Really Low, reaches only
    the ground (CM-DT-03)."""
    ladder = bands(really_low=really_low)
    if kind == panels.DROGUE:
        return panels.GROUND if band in (panels.LOW, panels.REALLY_LOW) else ladder[ladder.index(band) - 1]
    above = ladder.index(band) + 1
    return ladder[above] if above < len(ladder) else None


def loaded(ship: Ship, gun: Gun) -> bool:
    """Still aboard to be used: not lost to a Gun box (CM-DMG-06) and not spent (one-shot, CM-FIRE-12)."""
    return gun.number not in ship.guns_lost and gun.number not in ship.spent


def on_cables(board: Board, ship: Ship) -> tuple[Gun, ...]:
    """Her tether mines and drogues out now, still whole, in the order let out."""
    return tuple(ship.gun(n) for n in board.ordnance.cables(ship.name) if loaded(ship, ship.gun(n)))


def torpedo_heading(ship: Ship, gun: Gun) -> int:
    """The hexside a torpedo flies towards: her heading turned to the launcher's side (bow if it has none)."""
    side = gun.arcs[0] if gun.arcs else "bow"
    return hexgrid.rotate_facing(ship.facing, TORPEDO_HEADING.get(side, 0))


def torpedo_line(start: Hex, facing: int, hexes: int = TORPEDO_SPEED) -> list[Hex]:
    """The hexes a torpedo enters in one turn: a straight line (CM-SMT-01)."""
    line, spot = [], start
    for _ in range(hexes):
        spot = hexgrid.neighbour(spot, facing)
        line.append(spot)
    return line


def strikes(weapon_score: int, target_score: int) -> bool:
    """The ramming roll: the weapon hits only on the higher total; a tie misses (CM-RAM-03/04, CM-SMT-05)."""
    return weapon_score > target_score


def natural_six(faces: Sequence[int]) -> bool:
    """A critical comes with a natural 6 on the damage roll, one however many dice show it (CM-SMT-09, CM-TM-10,
    CM-DT-05)."""
    return NATURAL_SIX in faces


# --- the start-of-turn orders ------------------------------------------------------------------------------------


def may_let_out(ship: Ship, gun: Gun, board: Board, *, really_low: bool) -> Problem | None:
    if gun.kind not in CABLED:
        return Problem("CM-TM-01", f"{possessive(ship.name)} {gun.name} is no tether mine or drogue to let out")
    if gun.number in ship.guns_lost:
        return Problem("CM-DMG-06", f"{possessive(ship.name)} {gun.name} is destroyed")
    if gun.number in ship.spent:
        return Problem(ONE_SHOT_CLAUSE[gun.kind], f"{possessive(ship.name)} {gun.name} has struck already: one shot")
    if gun.number in board.ordnance.cables(ship.name):
        return Problem("CM-TM-01", f"{possessive(ship.name)} {gun.name} is out already; it stays out until winched in")
    if gun.kind == panels.TETHER_MINE and reach(gun.kind, ship.band, really_low=really_low) is None:
        return Problem("CM-TM-03", f"a tether mine rides the band above {ship.name}: there is none over {ship.band}")
    return None


def may_winch_in(ship: Ship, gun: Gun, board: Board) -> Problem | None:
    if gun.number not in board.ordnance.cables(ship.name) or not loaded(ship, gun):
        return Problem("CM-TM-02", f"{possessive(ship.name)} {gun.name} is not out on its cable")
    return None


def may_launch(ship: Ship, gun: Gun) -> Problem | None:
    if gun.kind != panels.SMUTTS:
        return Problem("CM-SMT-01", f"{possessive(ship.name)} {gun.name} is no Smutts torpedo")
    if gun.number in ship.guns_lost:
        return Problem("CM-DMG-06", f"{possessive(ship.name)} {gun.name} is destroyed")
    if gun.number in ship.spent:
        return Problem("CM-SMT-11", f"{possessive(ship.name)} {gun.name} is fired already: it is never reloaded")
    if ship.grappled:
        return Problem("CM-BRD-22", f"{ship.name} is in a boarding action: she fires at no other vessel")
    return None


def orders_problem(board: Board, ship: Ship, orders: OrdnanceOrders, *, really_low: bool) -> Problem | None:
    """None if ``ship`` may carry out ``orders`` now, else why not."""
    named = (*orders.let_out, *orders.winch_in, *orders.launch)
    if len(set(named)) != len(named):
        return Problem("CM-TM-02", "each system is named once: let out, winched in or launched")
    numbers = {gun.number for gun in ship.panel.guns}
    missing = [number for number in named if number not in numbers]
    if missing:
        return Problem("CM-SEQ-01", f"{ship.name} has no gun {missing[0]}")
    found = [may_let_out(ship, ship.gun(n), board, really_low=really_low) for n in orders.let_out]
    found += [may_winch_in(ship, ship.gun(n), board) for n in orders.winch_in]
    found += [may_launch(ship, ship.gun(n)) for n in orders.launch]
    return next((problem for problem in found if problem is not None), None)


def choices(board: Board, ship: Ship, *, really_low: bool) -> OrdnanceOrders:
    """Everything she may do at the start of her turn, each on its own: what she may let out, winch in, launch."""
    guns = ship.panel.guns
    return OrdnanceOrders(
        let_out=tuple(g.number for g in guns if may_let_out(ship, g, board, really_low=really_low) is None),
        winch_in=tuple(g.number for g in on_cables(board, ship)),
        launch=tuple(g.number for g in guns if may_launch(ship, g) is None),
    )


def has_choices(board: Board, ship: Ship, *, really_low: bool) -> bool:
    """Whether she is asked at all: a ship with nothing to let out, winch in or launch is not."""
    found = choices(board, ship, really_low=really_low)
    return bool(ship.flying and (found.let_out or found.winch_in or found.launch))
