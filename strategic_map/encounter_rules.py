"""Encounters on campaign as pure rules (SGC-ENC, SGC-ENCT, SGC-ETYPE): no Django, no dice of its own.

The service (strategic_map/encounters.py) rolls the logged dice and hands their results here:

* ``encounter_happens``: the territory's encounter die (SGC-ENC-03/04);
* ``parse_line``: a line of a territory's encounter table ("Two High Martian Pirates", "Warship escorting Enemy
  Merchantman", "High Martian Pirate with Prize Ship in tow") as the ships to draw, each with its category, its
  role in the encounter and the ship towing it (SGC-ENC-17, SGC-ENCT-*). Read from the catalog's own words:
  the category names and the two joining words "escorting" and "with ... in tow";
* ``class_pool``: the classes a category draws from, with the umpire's hold-back of the bigger classes for a
  captain's first voyages (SGC-ENC-18);
* ``crew_for``: the crew a category's ship carries (SGC-ETYPE-02/03/05/07/10/12/14);
* ``ship_names``: names unique within the encounter;
* ``battle_setup``: the encounter's tactical set-up from its dice (wind, sighting distance; DESIGN.md 4.3).

Decisions where the text is silent are documented in docs/strategic-map.md, "Encounters".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from galleons import catalog

# A ship's part in an encounter: a fighting ship on her own or at the head of the line, an escort, a merchant
# under way, a prize being towed home by her captor.
RAIDER, ESCORT, MERCHANT, PRIZE = "raider", "escort", "merchant", "prize"
ROLES = (RAIDER, ESCORT, MERCHANT, PRIZE)
# The battle's role (scenario format): merchants and prizes run, the rest fight.
BATTLE_ROLE = {RAIDER: "warship", ESCORT: "warship", MERCHANT: "merchant", PRIZE: "merchant"}

COUNTS = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3}
ESCORTING = " escorting "
WITH = " with "

HIGH_MARTIAN = "High Martian"
GREEN, TRAINED, CRACK = "green", "trained", "crack"
# SGC-ETYPE-03: High Martians board "Trained or Crack". Decided by a logged die per ship: 1-3 Trained, 4-6 Crack.
HIGH_MARTIAN_CRACK_FROM = 4
# SGC-ETYPE-14: a prize in tow has no stated crew. Her captor's prize crew, a handful put aboard: Green.
PRIZE_CREW = GREEN


class EncounterLineError(ValueError):
    """A table line this module cannot read: a data error, reported with the line."""


@dataclass(frozen=True, slots=True)
class WantedShip:
    """One ship an encounter line asks for: her category, role, and the index (in the line's ships) of the
    ship towing her, if she is a prize in tow."""

    category: str
    role: str
    towed_by: int | None = None


@dataclass(frozen=True, slots=True)
class Crew:
    """A drawn ship's crew: its quality, the quality it fights boarding actions with, High Martian or not,
    and whether her holds are full of contraband (a merchant: her cargo is auctioned, SGC-ETYPE-12)."""

    quality: str
    boarding_quality: str
    high_martian: bool = False
    contraband: bool = False


# --- the encounter die --------------------------------------------------------------------------------------


def encounter_happens(die: int, number: int | None) -> bool:
    """SGC-ENC-03/04: an encounter on a 1D6 at most the territory's number; no number (British): none."""
    if not 1 <= die <= 6:
        raise ValueError(f"a 1D6 roll is 1..6, not {die}")
    return number is not None and die <= number


# --- reading a table line ----------------------------------------------------------------------------------


def _plurals(name: str) -> tuple[str, ...]:
    # "Enemy Merchantman" -> "Enemy Merchantmen"; "Warship" -> "Warships"; "High Martian Pirate" -> "...Pirates".
    if name.endswith("man"):
        return (name[: -len("man")] + "men",)
    return (name + "s",)


def _category_names(categories: Iterable[catalog.EncounterCategory]) -> dict[str, str]:
    """Lookup key (singular or plural, any case) -> the category's name."""
    names: dict[str, str] = {}
    for category in categories:
        for form in (category.name, *_plurals(category.name)):
            names[" ".join(form.split()).casefold()] = category.name
    return names


def _prize_category(categories: Sequence[catalog.EncounterCategory]) -> str:
    for category in categories:
        if category.name.casefold().startswith("prize ship"):
            return category.name
    raise EncounterLineError("the catalog has no Prize Ship category")


def _group(text: str, names: Mapping[str, str], line: str) -> tuple[int, str]:
    """ "Two High Martian Pirates" -> (2, "High Martian Pirate"). A count word is optional (one)."""
    words = text.split()
    count = 1
    if words and words[0].casefold() in COUNTS:
        count = COUNTS[words[0].casefold()]
        words = words[1:]
    key = " ".join(words).casefold()
    if key not in names:
        raise EncounterLineError(f"{line!r}: no encounter category {' '.join(words)!r}")
    return count, names[key]


def parse_line(line: str, categories: Sequence[catalog.EncounterCategory] | None = None) -> tuple[WantedShip, ...]:
    """The ships an encounter table line names, in order (SGC-ENC-17: two or three ships, two or three draws)."""
    cats = tuple(catalog.encounter_categories() if categories is None else categories)
    names = _category_names(cats)
    text = " ".join(line.split())
    lowered = text.casefold()
    if WITH in lowered:
        # "<ship> with Prize Ship in tow": the second group is the category "Prize Ship in Tow" itself.
        at = lowered.index(WITH)
        count, category = _group(text[:at], names, line)
        towed_count, towed = _group(text[at + len(WITH) :], names, line)
        if towed != _prize_category(cats) or towed_count != 1 or count != 1:
            raise EncounterLineError(f"{line!r}: one ship tows one Prize Ship")
        return (WantedShip(category, RAIDER), WantedShip(towed, PRIZE, towed_by=0))
    if ESCORTING in lowered:
        at = lowered.index(ESCORTING)
        count, category = _group(text[:at], names, line)
        guarded_count, guarded = _group(text[at + len(ESCORTING) :], names, line)
        return tuple(WantedShip(category, ESCORT) for _ in range(count)) + tuple(
            WantedShip(guarded, MERCHANT) for _ in range(guarded_count)
        )
    count, category = _group(text, names, line)
    role = MERCHANT if _is_merchant(category, cats) else RAIDER
    return tuple(WantedShip(category, role) for _ in range(count))


def _is_merchant(category: str, categories: Sequence[catalog.EncounterCategory]) -> bool:
    # The merchant category is the one the text gives Green crews and contraband cargo (SGC-ETYPE-11/12).
    return category.casefold().endswith("merchantman")


# --- the class pools ---------------------------------------------------------------------------------------


def held_back(class_ids: Sequence[str], hull_sizes: Mapping[str, int]) -> tuple[str, ...]:
    """SGC-ENC-18: "larger ships" held out of a pool: every class above the pool's smallest hull size. A pool
    of one size (High Martian Pirates, merchants) holds nothing back."""
    smallest = min(hull_sizes[class_id] for class_id in class_ids)
    return tuple(class_id for class_id in class_ids if hull_sizes[class_id] > smallest)


def class_pool(
    class_ids: Sequence[str], hull_sizes: Mapping[str, int], *, voyages_made: int, holdback_voyages: int
) -> tuple[str, ...]:
    """The classes to draw from, in the catalog's order: all of them, or for a captain on one of his first
    ``holdback_voyages`` voyages (``voyages_made`` is how many he has finished), the pool less its bigger
    classes (SGC-ENC-18, the umpire's option: 0 holds nothing back)."""
    if not class_ids:
        raise ValueError("an empty class pool")
    if voyages_made >= holdback_voyages:
        return tuple(class_ids)
    bigger = set(held_back(class_ids, hull_sizes))
    return tuple(class_id for class_id in class_ids if class_id not in bigger)


def drawn_class(pool: Sequence[str], die: int) -> str:
    """The class a die of len(pool) sides draws (SGC-ENC-17: at random within the category)."""
    if not 1 <= die <= len(pool):
        raise ValueError(f"a draw from {len(pool)} classes is 1..{len(pool)}, not {die}")
    return pool[die - 1]


# --- crews -------------------------------------------------------------------------------------------------


def needs_crew_die(category: catalog.EncounterCategory) -> bool:
    """High Martians roll for their boarding quality (SGC-ETYPE-03)."""
    return category.crew_quality == HIGH_MARTIAN


def crew_for(category: catalog.EncounterCategory, role: str, die: int | None = None) -> Crew:
    """The crew of a ship drawn from ``category`` in ``role`` (SGC-ETYPE-02/05/07/10/12/14).

    High Martians: Green in everything but boarding, fought as Trained on a die of 1-3 and Crack on 4-6
    (``die``, logged by the caller). A prize in tow: a Green prize crew. The others as the catalog says."""
    if role == PRIZE:
        return Crew(PRIZE_CREW, PRIZE_CREW)
    quality = category.crew_quality
    if quality == HIGH_MARTIAN:
        if die is None or not 1 <= die <= 6:
            raise ValueError(f"a High Martian crew needs its boarding die (1..6), not {die}")
        boarding = CRACK if die >= HIGH_MARTIAN_CRACK_FROM else TRAINED
        return Crew(GREEN, boarding, high_martian=True)
    if quality is None:
        raise ValueError(f"{category.name}: the catalog gives no crew quality")
    level = quality.casefold()
    if level not in (GREEN, TRAINED, CRACK):
        raise ValueError(f"{category.name}: unknown crew quality {quality!r}")
    return Crew(level, level, contraband=role == MERCHANT)


# --- names -------------------------------------------------------------------------------------------------


def ship_names(class_names: Sequence[str], taken: Iterable[str] = ()) -> list[str]:
    """A name for each ship drawn, unique within the encounter and apart from ``taken`` (the player's ships):
    the class name, numbered when the class comes more than once or the name is taken."""
    used = {name.casefold() for name in taken}
    counts = Counter(class_names)
    seen: Counter[str] = Counter()
    names: list[str] = []
    for class_name in class_names:
        seen[class_name] += 1
        number = seen[class_name]
        name = class_name if counts[class_name] == 1 else f"{class_name} {number}"
        while name.casefold() in used:
            number += 1
            name = f"{class_name} {number}"
        used.add(name.casefold())
        names.append(name)
    return names


# --- the tactical set-up (SGC-ENC-21: the campaign gives none; DESIGN.md 4.3) -------------------------------

SIGHTING_DICE = 2
SIGHTING_ADD = 4
MAP_COLS, MAP_ROWS = 30, 22  # scenario.DEFAULT_MAP
ROW_STEP = 2


def sighting_distance(dice: Sequence[int]) -> int:
    """The hexes between the two lines at the start: 2D6 + 4 (DESIGN.md 4.3)."""
    if len(dice) != SIGHTING_DICE or not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"the sighting distance takes {SIGHTING_DICE}D6, not {list(dice)}")
    return sum(dice) + SIGHTING_ADD


def wind_from(die: int) -> int:
    """The hexside the wind blows from on 1D6: 1 = north, then clockwise (the scenario format's roll)."""
    if not 1 <= die <= 6:
        raise ValueError(f"a 1D6 roll is 1..6, not {die}")
    return die - 1


@dataclass(frozen=True, slots=True)
class Placement:
    position: tuple[int, int]  # [col, row], odd-q offset on the tactical map
    facing: int


# Flat-top hexes, facings clockwise from north: 1 and 2 head east, 4 and 5 west.
EASTWARD, WESTWARD = 1, 5


def _rows(count: int) -> list[int]:
    """Rows for a line of ``count`` ships, centred on the map's middle row, two rows apart."""
    middle = MAP_ROWS // 2
    offsets = [0]
    step = 1
    while len(offsets) < count:
        offsets.append(step * ROW_STEP)
        if len(offsets) < count:
            offsets.append(-step * ROW_STEP)
        step += 1
    return sorted(middle + offset for offset in offsets[:count])


def _line(
    col: int, roles: Sequence[str], towed_by: Sequence[int | None], heading: int, astern: int, running: int
) -> list[Placement]:
    towed = list(towed_by) + [None] * (len(roles) - len(towed_by))
    free = [n for n in range(len(roles)) if towed[n] is None]
    rows = dict(zip(free, _rows(len(free)), strict=True))
    line: list[Placement] = []
    for n, role in enumerate(roles):
        tower = towed[n]
        if tower is not None:
            if not 0 <= tower < n:
                raise ValueError(f"ship {n} is towed by ship {tower}, which is not before her")
            # Astern of her tower, heading as he does.
            at, row = line[tower].position
            line.append(Placement((min(max(at + astern, 0), MAP_COLS - 1), row), line[tower].facing))
            continue
        line.append(Placement((col, rows[n]), running if BATTLE_ROLE[role] == "merchant" else heading))
    return line


def placements(
    our_roles: Sequence[str],
    their_roles: Sequence[str],
    distance: int,
    *,
    our_towed_by: Sequence[int | None] = (),
    their_towed_by: Sequence[int | None] = (),
) -> tuple[list[Placement], list[Placement]]:
    """Where the two lines start, ``distance`` hexes apart across the map's middle: the player's ships on the
    west heading east; the ships met on the east, fighting ships heading at him (pirates closing) and merchants
    heading away (merchants running). A prize in tow starts astern of her tower, heading as he does."""
    distance = max(1, min(distance, MAP_COLS - 3))
    west = (MAP_COLS - distance) // 2
    east = west + distance
    ours = _line(west, our_roles, our_towed_by, EASTWARD, -1, EASTWARD)
    theirs = _line(east, their_roles, their_towed_by, WESTWARD, +1, EASTWARD)
    return ours, theirs
