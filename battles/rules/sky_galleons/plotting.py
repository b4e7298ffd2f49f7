"""Plotted movement, the errata's optional variant (SG-ERR-24/25; option ``plotted_movement``, off by default).

In the Initiative Phase, at the same time as the crew changes, each side secretly plots half of each ship's
movement, in movement points: a plain plan of steps costing at most half the ship's allowance, rounded up
(:func:`share`). Plotting less is allowed, but it lowers the whole turn's movement. Once the initiative is
decided the plotted moves are carried out, all before anyone's Movement Phase; then play goes on as usual,
except that in its own Movement Phase no ship may spend more movement points than its plotted move did
(:func:`rest`), so a ship moves at most twice what it plotted, and never more than its allowance.

The readings (data/optional-rules.json ``plotted_movement``):

* Odd allowances round up: a speed 5 ship plots up to 3 MP, and has 2 left for its own phase.
* The plotted moves are carried out in the turn's movement order (the side that moves first first, each
  side's ships in scenario order), each ship's whole plot in turn with the usual collision checks; that order
  settles who enters a shared hex first.
* A ship stopped by a collision in its plotted move moves no more that turn (SG-COL-04).
* Kites do not plot: their allowance comes from the movement die rolled in their own phase (SG-KITE-02/04).
  A ship that may not move (grappled, or in tow) plots nothing.
* With nobody at the helm the ship holds its course (SG-CREW-08): it plots the first half, rounded up, of
  the hexes it holds, and moves the rest in its own phase.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from battles.engine.jsonread import DataFile
from battles.rules.sky_galleons.movement import Allowance

OPTIONAL_RULES = DataFile(Path(__file__).parent / "data" / "optional-rules.json")


def share(points: int) -> int:
    """The most a ship may plot: its allowance times the plotted share (a half), rounded up (SG-ERR-24)."""
    top = OPTIONAL_RULES.whole("plotted_movement", "plot_share", "numerator")
    bottom = OPTIONAL_RULES.whole("plotted_movement", "plot_share", "denominator")
    return -(-max(points, 0) * top // bottom)


def plotting(full: Allowance) -> Allowance:
    """The allowance a plot is traced against: the plotted share of the speed and of a held course."""
    held = None if full.held_speed is None else share(full.held_speed)
    return replace(full, speed=share(full.speed), held_speed=held)


def rest(full: Allowance, spent: int, cap: int) -> Allowance:
    """The allowance in the ship's own Movement Phase after a plotted move that spent ``spent`` MP: what is left
    of the turn's allowance, and no more than ``cap`` (what it plotted; 0 if a collision stopped it) (SG-ERR-25)."""
    speed = max(min(full.speed - spent, cap), 0)
    held = None if full.held_speed is None else max(min(full.held_speed - spent, cap), 0)
    return replace(full, speed=speed, held_speed=held)
