"""Getting aboard and fighting there, in crew points: the stand-in for the figure combat the text leaves to its
host game. Pure: every die's face comes in as an argument, so the phases roll them logged; docs/barsoom.md
section 8 gives every decision and data/crew.json every number.

- Where ships stand is given as ``hexes`` (the hex distance between them, 0 for one above the other) and
  ``rise`` (the other ship's level less this one's). One hex is 2 inches and one level 2 inches of height.
- Crossing (BR-GRAP-01/02): free when they are at most 1 hex apart and at most 1 level apart (3 inches rounds to
  1 of either); with a grapple fast, boarders also drop freely by abseil or lines onto a ship up to 3 levels below
  (BR-GRAP-11). Anything else is a jump: each man rolls a D6 of inches against the gap; short, he falls to the
  ground (lost), or, jumping down onto a ship directly below, lands there with a hit (BR-GRAP-03/04).
- Grappling (BR-GRAP-05/06): within throwing range, 3 hexes; one D6 a grappler, any 6 makes (or cuts) the grapple.
- A boarding fight: a round at a time, one D6 a fighting man, each 5 or 6 puts an enemy out; the defenders add 1,
  fighting on their own deck. A side left with none, or outnumbered three to one, is beaten: beaten defenders
  strike (the ship is taken), beaten boarders surrender.
- Fire at crew (BR-WPN-10/14/17, BR-BOMB-02): the to-hit roll is the weapons' (2D6 - 6, BR-HIT-01), heavy guns
  at -2; each hit then rolls a D6 wound die, adding the weapon's wound modifier, and a 5 or more puts a man out.
  A heavy hit needs no wound die: it kills.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from battles.rules.barsoom.crew import TABLES, Boarders
from battles.rules.barsoom.scale import range_3d

# Ways across to another ship.
FREE, ABSEIL, JUMP = "free", "abseil", "jump"
# How a jump ends for one man.
ACROSS, LANDED_HARD, FELL = "across", "landed hard", "fell"
# How a round of a boarding fight leaves it.
FIGHTING, TAKEN, REPELLED = "fighting", "taken", "repelled"
# Weapons firing at crew: the weapon classes (brdamage's weapons.py) and bombs, whose wound benefit is their own.
HEAVY, MEDIUM, LIGHT, BOMB = "heavy", "medium", "light", "bomb"


def apart(hexes: int, rise: int) -> int:
    """The gap between two ships in hexes, a level counted as a hex of height: the one measure of distance between
    ships, the straight line rounded to the nearest hex (scale.range_3d), as a gun's range is taken."""
    if hexes < 0:
        raise ValueError(f"a hex distance is never negative, not {hexes}")
    return range_3d(hexes, abs(rise))


# --- crossing over -------------------------------------------------------------------------------------------------


def way_across(hexes: int, rise: int, *, grappled: bool = False) -> str:
    """How men get onto a ship ``hexes`` away and ``rise`` levels up (down when negative): freely when the ships
    touch or are within 3 inches each way (BR-GRAP-01/02), by abseil or lines down onto a grappled ship up to 3
    levels below (BR-GRAP-11), otherwise only by jumping (BR-GRAP-03)."""
    near = apart(hexes, 0) <= TABLES.whole("crossing", "free_hexes")
    if near and abs(rise) <= TABLES.whole("crossing", "free_levels"):
        return FREE
    if grappled and near and -TABLES.whole("grapple", "abseil_levels") <= rise < 0:
        return ABSEIL
    return JUMP


def jump_gap(hexes: int, rise: int) -> int:
    """The inches a jumper must cover: 2 inches a hex of the gap between the ships."""
    return TABLES.whole("inches_per_hex") * apart(hexes, rise)


def directly_below(hexes: int, rise: int) -> bool:
    """The other ship is under this one: the one jump that cannot miss her, only land hard (BR-GRAP-04)."""
    return hexes == 0 and rise < 0


def can_jump(hexes: int, rise: int) -> bool:
    """Is a jump worth trying? Not when no die of inches could carry the gap, unless the ship is directly below
    (he lands on her anyway). A free crossing needs no jump."""
    if way_across(hexes, rise) == FREE:
        return False
    return directly_below(hexes, rise) or jump_gap(hexes, rise) <= TABLES.whole("jump", "die")


def jump(hexes: int, rise: int, face: int) -> str:
    """One man's jump with the extra D6 of movement ``face`` in inches (BR-GRAP-03): across when it covers the gap;
    short, he lands hard on a ship directly below, or falls to the ground (BR-GRAP-04)."""
    if not can_jump(hexes, rise):
        raise ValueError(f"no jump to a ship {hexes} hexes away and {rise} levels up: cross freely or come closer")
    if face >= jump_gap(hexes, rise):
        return ACROSS
    return LANDED_HARD if directly_below(hexes, rise) else FELL


@dataclass(frozen=True, slots=True)
class Jumped:
    """A party's jump: the men who got aboard the other ship and the men lost (fallen, or struck down landing)."""

    across: int
    lost: int


def jumped(ends: Sequence[str], wound_faces: Sequence[int]) -> Jumped:
    """Sum up a party's jumps: each man who landed hard takes a hit, one wound die in ``wound_faces`` each, in
    order (the landing hit of BR-GRAP-04 as a plain hit, wound modifier 0); a man who fell is lost."""
    hard = sum(1 for end in ends if end == LANDED_HARD)
    if len(wound_faces) != hard:
        raise ValueError(f"{hard} men landed hard and roll {hard} wound dice, not {len(wound_faces)}")
    down = sum(1 for face in wound_faces if struck_down(face, TABLES.whole("fire_at_crew", "landing_hit")))
    fell = sum(1 for end in ends if end == FELL)
    return Jumped(across=len(ends) - fell - down, lost=fell + down)


# --- grappling -----------------------------------------------------------------------------------------------------


def within_throw(hexes: int, rise: int) -> bool:
    """Can a grapnel reach her (BR-GRAP-05)? Throwing range is 3 hexes by the gap between the ships, which takes in
    a ship 3 levels straight below, the reach of the vertical lines (BR-GRAP-11)."""
    return apart(hexes, rise) <= TABLES.whole("grapple", "throwing_range")


def grapple_holds(faces: Sequence[int]) -> bool:
    """One D6 a grappler, any 6 makes the grapple fast; the same for ungrapplers cutting it (BR-GRAP-06)."""
    return any(face >= TABLES.whole("grapple", "succeeds_on") for face in faces)


# --- the boarding fight ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Melee:
    """One round of a boarding fight: the men each side lost, and how it leaves the fight."""

    attackers_lost: int
    defenders_lost: int
    result: str


def melee_round(attackers: int, defenders: int, attacker_faces: Sequence[int], defender_faces: Sequence[int]) -> Melee:
    """A round aboard the defenders' ship: each fighting man rolls a D6 and each hit puts one enemy out, both sides
    at once; the defenders add their bonus for fighting on their own deck."""
    if (len(attacker_faces), len(defender_faces)) != (attackers, defenders):
        raise ValueError(
            f"{attackers} boarders and {defenders} defenders roll a die each, "
            f"not {len(attacker_faces)} and {len(defender_faces)}"
        )
    hits_on, bonus = TABLES.whole("melee", "hits_on"), TABLES.whole("melee", "defenders_bonus")
    defenders_lost = min(defenders, sum(1 for face in attacker_faces if face >= hits_on))
    attackers_lost = min(attackers, sum(1 for face in defender_faces if face + bonus >= hits_on))
    return Melee(attackers_lost, defenders_lost, fight_result(attackers - attackers_lost, defenders - defenders_lost))


def beaten(side: int, enemy: int) -> bool:
    """None left, or outnumbered three to one: such a side gives up the fight."""
    return side == 0 or side * TABLES.whole("melee", "beaten_at_odds") <= enemy


def fight_result(attackers: int, defenders: int) -> str:
    """Where a fight stands: the ship taken once her defenders are beaten and boarders are left to take her (all
    aboard her strike: Crew.struck); the boarders repelled once they are beaten (those left surrender: lost to
    their ship); else the fight goes on next turn."""
    if beaten(defenders, attackers) and attackers > 0:
        return TAKEN
    if beaten(attackers, defenders):
        return REPELLED
    return FIGHTING


def share_losses(parties: Sequence[Boarders], lost: int) -> tuple[Boarders, ...]:
    """Boarders from several ships fight as one; their losses fall a man at a time on the largest party left (the
    first named on a tie), so no party fights on at full strength while another is cut down. Emptied parties go."""
    men = [party.men for party in parties]
    for _ in range(min(lost, sum(men))):
        men[men.index(max(men))] -= 1
    return tuple(Boarders(party.aboard, left) for party, left in zip(parties, men, strict=True) if left > 0)


# --- fire at crew ----------------------------------------------------------------------------------------------------


def to_hit_on_crew(weapon: str) -> int:
    """The to-hit modifier for firing at men: -2 for heavy guns (BR-WPN-10), none for the rest (BR-WPN-14/17)."""
    return TABLES.whole("fire_at_crew", "to_hit", weapon)


def kills_on_hit(weapon: str) -> bool:
    """A heavy gun's hit on crew is a kill, no wound die (BR-WPN-10)."""
    return weapon in TABLES.texts("fire_at_crew", "kills_on_any_hit")


def wound_dice(weapon: str, hits: int) -> int:
    """How many wound dice ``hits`` on crew need: one a hit, none for a weapon whose hits kill."""
    return 0 if kills_on_hit(weapon) else hits


def struck_down(face: int, modifier: int) -> bool:
    """One wound die: the face plus the modifier at 5 or more puts the man out of the fight."""
    return face + modifier >= TABLES.whole("fire_at_crew", "wounds_on")


def casualties(weapon: str, hits: int, wound_faces: Sequence[int]) -> int:
    """The men ``hits`` from ``weapon`` put out: every hit from a heavy gun (BR-WPN-10); for the rest one wound die
    a hit with the weapon's modifier: medium +3 (BR-WPN-14), bombs +2 (BR-BOMB-02), light none (BR-WPN-17)."""
    if len(wound_faces) != wound_dice(weapon, hits):
        raise ValueError(f"{hits} {weapon} hits roll {wound_dice(weapon, hits)} wound dice, not {len(wound_faces)}")
    if kills_on_hit(weapon):
        return hits
    modifier = TABLES.whole("fire_at_crew", "wound", weapon)
    return sum(1 for face in wound_faces if struck_down(face, modifier))
