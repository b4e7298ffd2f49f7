"""Cloudships & Gunboats gun rules at the personal (role-playing) combat scale, as pure functions.

The consolidated gun list rates every gun twice: for ship combat (combat.py) and for the personal combat
scale, with a field gun's rate of fire, range in yards and burst (catalog.FieldGun, SG-CG-02/03). The
ship battle engine never fires at people on a grid; these functions are for the campaign's personal-scale
fights and say what the rules say:

* grapeshot covers twice the burst in width and half the close range in length (SG-CG-09); the Martian
  light gun's is 8 by 100 yards, 4 by 50 grid squares (SG-CG-10);
* shrapnel covers twice the burst in width and four times it in length (SG-CG-08);
* a howitzer fires only shell and grapeshot (SG-CG-11); its shells count close range as medium and medium
  as long (SG-CG-12); it may lob shells over troops at a target its crew observes, and over any obstruction
  at an unseen target whose rough place is known, one difficulty level harder (SG-CG-13). Against ships
  every range is long (SG-CG-14): combat.py applies that.

The numbers are in ``data/personal-combat.json``, with the readings taken where the text is silent.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.engine.jsonread import DataFile
from battles.rules.sky_galleons.datafiles import DATA_DIR
from galleons import catalog
from galleons.catalog import FieldGun, Weapon

PERSONAL_COMBAT_FILE = DATA_DIR / "personal-combat.json"
PERSONAL = DataFile(PERSONAL_COMBAT_FILE)


class NoFieldRating(ValueError):
    """The weapon has no personal-scale (field gun) figures in the consolidated list."""


@dataclass(frozen=True, slots=True)
class Area:
    """An area of effect in yards, width across the line of fire and length along it."""

    width_yards: int
    length_yards: int

    @property
    def squares(self) -> tuple[int, int]:
        """(width, length) in tactical grid squares (SG-CG-10)."""
        per = PERSONAL.whole("grid", "yards_per_square")
        return self.width_yards // per, self.length_yards // per


def field_gun(weapon: Weapon | str) -> FieldGun:
    """The weapon's field-gun figures; raises NoFieldRating for weapons the list rates at sea only."""
    found = catalog.weapon(weapon) if isinstance(weapon, str) else weapon
    if found.field_gun is None:
        raise NoFieldRating(f"{found.name} has no personal-scale rating in the consolidated list")
    return found.field_gun


def grapeshot_area(weapon: Weapon | str) -> Area:
    """Twice the burst wide, half the close range long (SG-CG-09/10)."""
    gun = field_gun(weapon)
    return Area(
        width_yards=PERSONAL.whole("grapeshot", "width_bursts") * gun.burst,
        length_yards=gun.range_yards // PERSONAL.whole("grapeshot", "length_close_range_divisor"),
    )


def shrapnel_area(weapon: Weapon | str) -> Area:
    """Twice the burst wide, four times the burst long (SG-CG-08)."""
    gun = field_gun(weapon)
    return Area(
        width_yards=PERSONAL.whole("shrapnel", "width_bursts") * gun.burst,
        length_yards=PERSONAL.whole("shrapnel", "length_bursts") * gun.burst,
    )


def is_howitzer(weapon: Weapon | str) -> bool:
    found = catalog.weapon(weapon) if isinstance(weapon, str) else weapon
    return found.id in PERSONAL.texts("howitzers", "weapons")


def howitzer_ammunition() -> tuple[str, ...]:
    """Shell and grapeshot, nothing else (SG-CG-11)."""
    return PERSONAL.texts("howitzers", "ammunition")


def range_band(weapon: Weapon | str, band: str, ammunition: str = "shell") -> str:
    """The personal-scale range band a shot is rolled at: a howitzer's shell one band further out, close as
    medium and medium as long, long staying long (SG-CG-12); any other shot as the range falls."""
    bands = PERSONAL.texts("howitzers", "range_bands")
    if band not in bands:
        raise ValueError(f"range bands are {', '.join(bands)}, not {band!r}")
    if not is_howitzer(weapon) or ammunition != "shell":
        return band
    shifted = bands.index(band) + PERSONAL.whole("howitzers", "shell_band_shift")
    return bands[min(shifted, len(bands) - 1)]


@dataclass(frozen=True, slots=True)
class IndirectFire:
    """Whether a gun may fire over what stands between it and the target, and how much harder (SG-CG-13)."""

    allowed: bool
    difficulty_steps: int = 0
    clause: str = "SG-CG-13"
    reason: str = ""


def fire_over(
    weapon: Weapon | str,
    *,
    ammunition: str = "shell",
    observed: bool,
    location_known: bool = False,
) -> IndirectFire:
    """A shot over troops or an obstruction (SG-CG-13): only a howitzer's shell; at a target its crew observes
    at the usual difficulty, at an unseen one whose rough place is known one level harder, else not at all."""
    if ammunition not in howitzer_ammunition() and is_howitzer(weapon):
        return IndirectFire(False, clause="SG-CG-11", reason="a howitzer fires only shell and grapeshot")
    if not is_howitzer(weapon) or ammunition not in PERSONAL.texts("howitzers", "indirect", "ammunition"):
        return IndirectFire(False, reason="only a howitzer's shells are lobbed over troops and obstructions")
    if observed:
        return IndirectFire(True)
    if location_known:
        return IndirectFire(True, PERSONAL.whole("howitzers", "indirect", "unobserved_difficulty_steps"))
    return IndirectFire(False, reason="the target is neither seen nor known to be there")
