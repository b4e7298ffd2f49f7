"""Who may fire at whom (CM-FIRE-01..05, CM-AP-12, CM-RKT-01/02, CM-LOS-01..05, CM-BRD-22): pure functions of the
board, used alike to judge a captain's orders (validate.py), to offer them (answers.py, candidates) and to say at
what range a shot is rolled (phases/fire.py).

A gun fires at a target when it is still working, has no Fired marker and is not a spent one-shot weapon; the
target is an enemy ship still flying, inside the gun's arc, in sight and within reach: for main and
anti-personnel guns the range (hexes, plus one a band the target is higher) within the gun's long range, with no
steeper than 45 degrees to it, and never up for an anti-personnel gun; for rockets exactly 45 degrees the way the
battery is fitted; for bombs a ship directly below (docs/cloudships.md section 5).
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.engine import hexgrid
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import gunnery, panels
from battles.rules.cloudships_2023.board import Board, Ship, Shot, band_height
from battles.rules.cloudships_2023.panels import Gun

SHORT, LONG = "short", "long"
# Fired at their step in the move (torpedoes, mines, drogues: CM-SMT-01, CM-TM-04, CM-DT-01), not by fire orders.
NOT_FIRED_IN_STEP_3 = frozenset({panels.SMUTTS, panels.TETHER_MINE, panels.DROGUE})


@dataclass(frozen=True)
class Refusal:
    """Why a gun may not fire at a target: the clause and words a player can read."""

    clause: str
    reason: str


@dataclass(frozen=True)
class Aim:
    """A legal shot as it will be rolled: the range counted and its band (short or long; None for a weapon that
    hits without a roll to hit: rockets and bombs, CM-RKT-05, CM-BOMB-01)."""

    shot: Shot
    range: int
    band: str | None


def level(band: str, *, really_low: bool) -> int:
    """A band's level for counting bands between two heights: Ground 0, Low 1, Medium 2, High 3; with the
    optional Really Low band in play (CM-ALT-06) it is a band too and every band above it one higher."""
    return panels.BANDS_WITH_REALLY_LOW.index(band) if really_low else panels.BANDS.index(band)


def climb(firer_band: str, target_band: str) -> int:
    """Bands the target is above (positive) or below (negative) the firer. Flying ships are never at Ground, so
    two of them span Really Low only when one is in it: then the option is in play and it counts."""
    really_low = panels.REALLY_LOW in (firer_band, target_band)
    return level(target_band, really_low=really_low) - level(firer_band, really_low=really_low)


def range_to(firer: Ship, target: Ship) -> int:
    """Hexes to the target plus one a band she is above the firer; a lower target adds nothing (CM-FIRE-03)."""
    return hexgrid.distance(firer.hex, target.hex) + max(0, climb(firer.band, target.band))


def bands_apart(firer: Ship, target: Ship) -> int:
    return abs(climb(firer.band, target.band))


def blocker(board: Board, firer: Ship, target: Ship) -> Ship | None:
    """The first ship that blocks the line of sight, if any (CM-LOS-01..05): a flying ship in a hex of the line
    between them (both ends left out) at the band of both, or at the target's band and strictly nearer her than
    the firer, or at the firer's band and strictly nearer him than the target."""
    between = set(hexgrid.line(firer.hex, target.hex)[1:-1])
    for other in board.flying():
        if other.name in (firer.name, target.name) or other.hex not in between:
            continue
        if _blocks(other, firer, target):
            return other
    return None


def _blocks(other: Ship, firer: Ship, target: Ship) -> bool:
    to_firer, to_target = hexgrid.distance(other.hex, firer.hex), hexgrid.distance(other.hex, target.hex)
    at_target, at_firer = other.band == target.band, other.band == firer.band
    if at_target and at_firer:
        return True  # CM-LOS-02
    if at_target:
        return to_target < to_firer  # CM-LOS-03
    return at_firer and to_firer < to_target  # CM-LOS-04


def refusal(board: Board, firer: Ship, gun: Gun, target: Ship) -> Refusal | None:
    """None if ``firer``'s ``gun`` may fire at ``target`` now, else why not."""
    return _gun_ready(firer, gun) or _target_fair(firer, target) or _reach(board, firer, gun, target)


def _gun_ready(firer: Ship, gun: Gun) -> Refusal | None:
    if not firer.flying:
        return Refusal("CM-SEQ-07", f"{firer.name} is out of the fight")
    if gun.number in firer.guns_lost:
        return Refusal("CM-DMG-06", f"{possessive(firer.name)} {gun.name} is destroyed")
    if gun.number in firer.spent:
        return Refusal("CM-FIRE-12", f"{possessive(firer.name)} {gun.name} is a one-shot weapon, fired already")
    if gun.number in firer.fired:
        return Refusal(
            "CM-FIRE-01", f"{possessive(firer.name)} {gun.name} has fired this round (its Fired marker is on)"
        )
    if gun.kind in NOT_FIRED_IN_STEP_3:
        return Refusal("CM-SEQ-07", f"a {gun.kind} is not fired by fire orders")
    return None


def _target_fair(firer: Ship, target: Ship) -> Refusal | None:
    if target.name == firer.name or not target.flying:
        return Refusal("CM-SEQ-07", f"{target.name} is not a ship to fire at")
    if target.side == firer.side:
        return Refusal("CM-SEQ-07", f"{target.name} is on {possessive(firer.name)} own side")
    if firer.grappled and target.name not in firer.grappled:
        return Refusal("CM-BRD-22", f"{firer.name} is in a boarding action: she may fire only at her grappler")
    return None


def _reach(board: Board, firer: Ship, gun: Gun, target: Ship) -> Refusal | None:
    if gun.kind == panels.BOMBS:
        return _bomb_reach(firer, target)
    if not _in_arc(firer, gun, target):
        return Refusal("CM-FIRE-02", f"{target.name} is outside the arc of {possessive(firer.name)} {gun.name}")
    found = _rocket_reach(firer, gun, target) if gun.kind == panels.ROCKETS else _gun_reach(firer, gun, target)
    if found is not None:
        return found
    blocking = blocker(board, firer, target)
    if blocking is not None:
        return Refusal("CM-LOS-01", f"{blocking.name} blocks the line of sight to {target.name}")
    return None


def _in_arc(firer: Ship, gun: Gun, target: Ship) -> bool:
    seen = {str(aspect) for aspect in hexgrid.aspects(firer.hex, firer.facing, target.hex)}
    return bool(seen & set(gun.arcs))


def _gun_reach(firer: Ship, gun: Gun, target: Ship) -> Refusal | None:
    hexes, apart = hexgrid.distance(firer.hex, target.hex), bands_apart(firer, target)
    if gun.kind == panels.ANTI_PERSONNEL and climb(firer.band, target.band) > 0:
        return Refusal("CM-AP-12", f"an anti-personnel gun cannot hurt {target.name} from below: only her hull")
    if hexes < apart:
        return Refusal("CM-FIRE-05", f"{target.name} is {apart} bands off but {hexes} hexes away: over 45 degrees")
    if gun.long_range is None or range_to(firer, target) > gun.long_range:
        return Refusal("CM-FIRE-04", f"{target.name} is at range {range_to(firer, target)}, beyond {gun.name}")
    return None


def _rocket_reach(firer: Ship, gun: Gun, target: Ship) -> Refusal | None:
    hexes = hexgrid.distance(firer.hex, target.hex)
    here, there = 0, climb(firer.band, target.band)
    if not gunnery.rocket_reach(hexes, here, there):
        return Refusal("CM-RKT-02", f"rockets need {target.name} exactly as many hexes away as bands: 45 degrees")
    if gun.angle is not None and gunnery.rocket_angle(here, there) != gun.angle:
        return Refusal("CM-RKT-01", f"{possessive(firer.name)} {gun.name} is fitted to fire {gun.angle} only")
    return None


def _bomb_reach(firer: Ship, target: Ship) -> Refusal | None:
    if target.hex != firer.hex or band_height(target.band) >= band_height(firer.band):
        return Refusal("CM-BOMB-02", f"bombs fall only on a ship in {possessive(firer.name)} hex, below her")
    return None


def aim(board: Board, shot: Shot) -> Aim:
    """The range and band a legal shot is rolled at: short up to the gun's short range, else long."""
    firer, target = board.ship_named(shot.ship), board.ship_named(shot.target)
    gun, distance = firer.gun(shot.gun), range_to(firer, target)
    if gun.kind not in (panels.MAIN, panels.ANTI_PERSONNEL):
        return Aim(shot, distance, None)
    short = gun.short_range is not None and distance <= gun.short_range
    return Aim(shot, distance, SHORT if short else LONG)


def legal_shots(board: Board, firer: Ship, targets: tuple[Ship, ...]) -> list[Shot]:
    """Every gun of ``firer`` at every one of ``targets`` it may fire at now, gun by gun."""
    return [
        Shot(firer.name, gun.number, target.name)
        for gun in firer.panel.guns
        for target in targets
        if refusal(board, firer, gun, target) is None
    ]


def enemies(board: Board, firer: Ship) -> tuple[Ship, ...]:
    return tuple(ship for ship in board.flying() if ship.side != firer.side)
