"""Gunnery rules that read only a panel's guns: the scores to hit, anti-personnel hits, a rocket's reach and
what a Magazine Hit costs. Pure functions over numbers; the fire phase that rolls the dice comes later.
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.panels import Gun

# Scores needed on one die (CM-FIRE-07/08, CM-AP-02/03); a superior crew adds 1 to the die (CM-SUP-01..04).
MAIN_SHORT, MAIN_LONG, AP_SHORT, AP_LONG = 3, 5, 5, 6


def score_to_hit(kind: str, *, short: bool, superior: bool) -> int:
    """The least die score that hits: main guns 3+ short, 5+ long; anti-personnel 5+ short, 6 long; one less
    for a superior crew (its +1 to the die)."""
    short_score, long_score = (AP_SHORT, AP_LONG) if kind == panels.ANTI_PERSONNEL else (MAIN_SHORT, MAIN_LONG)
    return (short_score if short else long_score) - (1 if superior else 0)


def anti_personnel_hits(rolls: Sequence[int], *, short: bool, superior: bool) -> int:
    """Crew hits from one ship's anti-personnel dice, each die counted alone (CM-AP-02..05); a superior crew
    adds 1 to every die and one hit to the total (CM-AP-10/11, CM-SUP-05). The text does not say whether the
    extra hit comes when no die hits: we read it as one more hit on a hit scored, never out of nothing."""
    needed = score_to_hit(panels.ANTI_PERSONNEL, short=short, superior=superior)
    return crew_total(sum(1 for roll in rolls if roll >= needed), superior=superior)


def rocket_reach(hexes: int, firer_band: int, target_band: int) -> bool:
    """Rockets fly only at 45 degrees: the target must be exactly as many hexes away as it is bands above or
    below, and never at the firer's own band (CM-RKT-01/02). Bands are counted Ground 0, Low 1, Medium 2,
    High 3 (one more from Low up with the optional Really Low band)."""
    bands = abs(firer_band - target_band)
    return bands > 0 and hexes == bands


def rocket_angle(firer_band: int, target_band: int) -> str:
    """Down at a lower target, up at a higher one: a battery fires only the way it is fitted (CM-RKT-01)."""
    return "down" if target_band < firer_band else "up"


def magazine_points(gun: Gun, *, vulnerable: bool) -> int:
    """A Magazine Hit on ``gun``: the most it could do in a turn (CM-MAG-02), every die a hit and no natural-6
    extra: a main gun's dice times its damage (4-inch short 4, 1-pdr QF three shells of 1, CM-MAG-03/04); an
    anti-personnel gun's dice as hits on the crew chart (Nordenfelt 5, CM-MAG-05). Doubled for a ship marked
    vulnerable (CM-MAG-06). Rockets and other rolled weapons roll instead (``gun.roll``, CM-MAG-08)."""
    if gun.kind == panels.MAIN and gun.damage is not None:
        points = gun.dice * gun.damage
    elif gun.kind == panels.ANTI_PERSONNEL:
        points = gun.dice
    else:
        raise ValueError(f"{gun.name} rolls its magazine's damage ({gun.roll})")
    return points * (2 if vulnerable else 1)


# --- the fire step's arithmetic (phases/fire.py rolls the dice) -------------------------------------------------

NATURAL_SIX = 6


def hit_damage(gun: Gun, face: int) -> int:
    """A main gun's hit: its damage value, one more when the die showed a natural 6, never a modified one
    (CM-FIRE-10/11)."""
    return (gun.damage or 0) + (1 if face == NATURAL_SIX else 0)


def crew_total(hits: int, *, superior: bool) -> int:
    """One ship's anti-personnel hits on one target, every gun's added (CM-AP-08), and a superior crew's one more
    hit in total, on a hit scored only (CM-AP-10, CM-SUP-05)."""
    return hits + 1 if superior and hits else hits


def roll_spec(text: str) -> tuple[int, int]:
    """A weapon's damage roll as dice and a plus: "1d6" is (1, 0), "1d6+2" (1, 2), "2d6" (2, 0)."""
    dice_part, _, plus = text.partition("+")
    count, _, sides = dice_part.partition("d")
    if sides != "6" or not count.isdigit() or (plus and not plus.isdigit()):
        raise ValueError(f"a damage roll is NdS or NdS+K in six-sided dice, not {text!r}")
    return int(count), int(plus or 0)


def parties_lost(chart: Sequence[int], hits: int) -> int:
    """Boarding parties one volley of anti-personnel hits costs: every step of the crew chart they reach
    (CM-AP-07; the chart holds the hits that cost the first, second... party)."""
    return sum(1 for needed in chart if hits >= needed)
