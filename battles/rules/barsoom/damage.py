"""The Damage table (BR-DMG-01..15) over a ship's ``Condition``, and the Damage Effect Die (BR-DED-01..05).

Pure: every die face and every choice (which Turn card at random, which weapon the owner gives up) is an
argument, so the phases roll through the engine's dice and log them. ``apply`` returns the new Condition and
the follow-ups owed (a DED roll, a forced descent, another roll, a wreck falling) as data for the phase to
carry out. The table's rows live in data/damage_table.json; docs/barsoom.md section 7 gives every reading chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from battles.engine import dice, hexgrid
from battles.engine.frozen import evolve
from battles.engine.jsonread import DataFile, read_int, read_list, read_object, read_str

TABLE = DataFile(Path(__file__).resolve().parent / "data" / "damage_table.json")

# Follow-ups a roll can owe, for the phase to carry out at once (BR-DMG-02).
ROLL_DED = "roll DED"  # rows 3-8 (BR-DED-02), and a Stunned hit (weapons.py)
DESCEND = "descend"  # row 2 aloft: an involuntary descent, a Crash if it reaches the ground (BR-LAND-05)
ROLL_AGAIN = "roll again"  # row 2 on the ground; apply the new face with ``rolled_again=True``
WRECK_FALLS = "wreck falls"  # the second 10 of a turn: the wreck comes down to the ground now (BR-DMG-12)


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the Damage table as data/damage_table.json states it."""

    face: int
    effect: str
    clause: str
    repairable: bool
    ded: bool
    discards: tuple[str, ...]
    discards_one_at_random: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Harm:
    """A repairable result still standing: its row and the cards it took out of the deck, so a repair gives
    back exactly those (BR-REP-01)."""

    row: int
    cards: tuple[str, ...] = ()
    stranded: bool = False


@dataclass(frozen=True, slots=True)
class Condition:
    """A ship's damage state: what the Damage table has done to her and not yet been repaired.

    The board embeds it; ``small_craft`` says whether her deck holds the Extra Ascend (BR-CARD-08).
    """

    small_craft: bool = False
    harms: tuple[Harm, ...] = ()
    weapons_lost: tuple[str, ...] = ()  # row 8, for good (BR-DMG-10)
    weapons_owed: int = 0  # row 8's guns still to be given up: the owner chooses which when her guns next matter
    tens_this_turn: int = 0  # row 10 counts only at the second in a turn (BR-DMG-12)
    wrecked: bool = False

    @property
    def discarded(self) -> tuple[str, ...]:
        """The cards out of her deck until repaired (BR-CARD-10)."""
        return tuple(card for harm in self.harms for card in harm.cards)

    def holds(self, card: str) -> int:
        """How many of ``card`` her deck still holds."""
        return max(0, deck(small_craft=self.small_craft).get(card, 0) - self.discarded.count(card))

    @property
    def control_damage(self) -> int:
        return sum(1 for harm in self.harms if harm.row == CONTROL_DAMAGE)

    @property
    def options(self) -> int:
        """Movement options she plots a turn: three less one a Control damage (BR-DMG-08, BR-MOV-14)."""
        return max(0, options_per_turn() - self.control_damage)

    @property
    def fires(self) -> int:
        return sum(1 for harm in self.harms if harm.row == FIRE)

    @property
    def stranded(self) -> bool:
        """Her Ascend was lost on the ground (BR-DMG-06): she cannot take off until it is repaired."""
        return any(harm.stranded for harm in self.harms)


@dataclass(frozen=True, slots=True)
class Applied:
    """What one Damage-table roll did: the row read (the modified total), the new Condition and the follow-ups
    owed, in order."""

    row: int
    condition: Condition
    owed: tuple[str, ...] = ()


# Rows whose handling is more than discarding cards.
NO_EFFECT, DESCENT, CONTROL_DAMAGE, WEAPON_LOST, FIRE, HULL = 1, 2, 6, 8, 9, 10
# Not a row: a crash, a repairable result of its own (BR-LAND-04, "a wreck until repaired"), kept with the harms so
# the repair crews mend it as they mend the table's results.
CRASHED = 0


@cache
def rows() -> Mapping[int, Row]:
    found: dict[int, Row] = {}
    for item in read_list(TABLE.get("rows")):
        entry = read_object(item)
        row = Row(
            face=read_int(entry["face"]),
            effect=read_str(entry["effect"]),
            clause=read_str(entry["clause"]),
            repairable=bool(entry["repairable"]),
            ded=bool(entry["ded"]),
            discards=tuple(read_str(card) for card in read_list(entry.get("discards", []))),
            discards_one_at_random=tuple(read_str(card) for card in read_list(entry.get("discards_one_at_random", []))),
        )
        found[row.face] = row
    return found


def _row_data(face: int) -> dict[str, object]:
    return read_object(read_list(TABLE.get("rows"))[face - 1])


@cache
def _ignored_when_rolled_again() -> frozenset[int]:
    return frozenset(read_int(face) for face in read_list(_row_data(DESCENT)["ignored_on_the_roll_again"]))


@cache
def deck(*, small_craft: bool) -> Mapping[str, int]:
    """The cards the table can take, as many as the deck holds; the Extra Ascend is a small craft's only."""
    counts = {key: read_int(value) for key, value in TABLE.data["deck"].items() if not key.startswith("_")}
    if not small_craft:
        for card in TABLE.texts("small_craft_only"):
            counts.pop(card)
    return counts


def options_per_turn() -> int:
    return TABLE.whole("options_per_turn")


def table_row(natural: int, modifier: int = 0) -> int:
    """The row a modified d10 reads: held within 1..10, so d10-2 can do no more than row 1 and D10+2 no more
    than row 10 (BR-DMG-14)."""
    return min(TABLE.whole("highest"), max(TABLE.whole("lowest"), natural + modifier))


def apply(
    condition: Condition,
    natural: int,
    *,
    modifier: int = 0,
    on_the_ground: bool = False,
    rolled_again: bool = False,
    turn_card: str | None = None,
    weapon: str | None = None,
    owner_chooses: bool = False,
) -> Applied:
    """One d10 on the Damage table, applied at once (BR-DMG-02).

    ``turn_card`` is the Turn card drawn at random for row 5 (one of ``turn_cards_held``); ``weapon`` the one
    the owner gives up for row 8 from those on the side the damage came from, None if she has none there.
    ``rolled_again`` marks the roll a row 2 on the ground owed: a 1 or 2 on it does nothing (BR-DMG-04).
    ``owner_chooses``: row 8 with no ``weapon`` leaves a gun owed, for the owner to choose (``give_up``).
    """
    row = table_row(natural, modifier)
    if condition.wrecked:
        return Applied(row, condition)  # an irreparable wreck on the ground: nothing left to take (BR-DMG-13)
    owed = (ROLL_DED,) if rows()[row].ded else ()
    if row == NO_EFFECT or (rolled_again and row in _ignored_when_rolled_again()):
        return Applied(row, condition)
    if row == DESCENT:
        return Applied(row, condition, (ROLL_AGAIN,) if on_the_ground else (DESCEND,))
    if row == HULL:
        return _hull(condition)
    if row == WEAPON_LOST:
        if weapon is None and owner_chooses:
            return Applied(row, evolve(condition, weapons_owed=condition.weapons_owed + 1), owed)
        lost = condition.weapons_lost + ((weapon,) if weapon else ())
        return Applied(row, evolve(condition, weapons_lost=lost), owed)
    if row in (CONTROL_DAMAGE, FIRE):
        return Applied(row, _harmed(condition, Harm(row)), owed)
    return Applied(row, _discard(condition, rows()[row], on_the_ground, turn_card), owed)


def _hull(condition: Condition) -> Applied:
    """A lone 10 does nothing; the second in a turn wrecks her, and she falls to the ground (BR-DMG-12)."""
    tens = condition.tens_this_turn + 1
    wrecked = tens >= read_int(_row_data(HULL)["tens_to_wreck"])
    after = evolve(condition, tens_this_turn=tens, wrecked=wrecked)
    return Applied(HULL, after, (WRECK_FALLS,) if wrecked else ())


def _harmed(condition: Condition, harm: Harm) -> Condition:
    if harm.row == CONTROL_DAMAGE and condition.options == 0:
        return condition  # no option left to lose: nothing a repair could give back (BR-DMG-15)
    return evolve(condition, harms=(*condition.harms, harm))


def _discard(condition: Condition, row: Row, on_the_ground: bool, turn_card: str | None) -> Condition:
    """Rows 3, 4, 5 and 7: the cards out of the deck; a card already gone is not lost twice (BR-DMG-15)."""
    if row.discards_one_at_random:
        if not turn_cards_held(condition):
            return condition  # none left to draw: the phase passes None
        if turn_card not in row.discards_one_at_random:
            raise ValueError(f"row {row.face} takes one of {row.discards_one_at_random}, not {turn_card!r}")
        wanted: tuple[str, ...] = (turn_card,)
    else:
        wanted = row.discards
    cards = tuple(card for card in wanted if condition.holds(card))
    if not cards:
        return condition
    return _harmed(condition, Harm(row.face, cards, stranded=on_the_ground and row.face == 4))


def needed() -> dice.Needed:
    """The Damage table as the log judges a d10 roll (its modifiers in the roll): each row's effect by name, a
    total below 1 or above 10 reading the end row (BR-DMG-14)."""
    found = rows()
    bands = [(None if face == 1 else face, None if face == 10 else face, found[face].effect) for face in sorted(found)]
    return dice.table("Damage table, d10", bands)


def sides_hit(ship: hexgrid.Hex, facing: int, source: hexgrid.Hex) -> frozenset[str]:
    """The sides of the ship the damage came from, for row 8's weapon (BR-DMG-10): the aspect holding the
    firer's hex, both on a dividing line, every side from her own hex (a ram, a grenade, a bomb from above)."""
    return frozenset(aspect.value for aspect in hexgrid.aspects(ship, facing, source))


def turn_cards_held(condition: Condition) -> tuple[str, ...]:
    """One entry a Turn card still in her deck, for the phase to draw row 5's card from at random (BR-DMG-07)."""
    return tuple(card for card in rows()[5].discards_one_at_random for _ in range(condition.holds(card)))


def new_turn(condition: Condition) -> Condition:
    """A new turn: the 10s rolled last turn no longer count towards a wreck (BR-DMG-12)."""
    return evolve(condition, tens_this_turn=0) if condition.tens_this_turn else condition


def fire_rolls(condition: Condition) -> int:
    """Damage-table rolls her fires cause this turn, one a fire, rolled at the end of the Ship Phase (BR-DMG-11,
    BR-DMG-02)."""
    return 0 if condition.wrecked else condition.fires


def give_up(condition: Condition, weapon: str) -> Condition:
    """Row 8's owed gun, chosen by her owner: lost for good (BR-DMG-10)."""
    if condition.weapons_owed <= 0:
        raise ValueError("she owes no gun to give up")
    return evolve(condition, weapons_lost=(*condition.weapons_lost, weapon), weapons_owed=condition.weapons_owed - 1)


def crashed(condition: Condition) -> Condition:
    """She has crashed: until it is repaired she cannot move (BR-LAND-04). An irreparable wreck (BR-DMG-12) keeps no
    such harm, and a crash is one harm however often she comes down."""
    if condition.wrecked or any(harm.row == CRASHED for harm in condition.harms):
        return condition
    return evolve(condition, harms=(*condition.harms, Harm(CRASHED)))


def harm_words(harm: Harm) -> str:
    """A repairable result in words: its row's effect, or the crash."""
    return "the crash" if harm.row == CRASHED else rows()[harm.row].effect


def repair(condition: Condition, harm: Harm) -> Condition:
    """A successful repair (BR-REP-01, BR-REP-07): the harm goes, its cards come back, a fire is out."""
    if harm not in condition.harms:
        raise ValueError(f"{harm} is not a repairable result she suffers")
    harms = list(condition.harms)
    harms.remove(harm)
    return evolve(condition, harms=tuple(harms))


# --- the Damage Effect Die -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DedMove:
    """A DED face and the extra move it makes the ship carry out at once, on top of her plotted cards
    (BR-DED-03): ``move`` is a card's name for the movement phase to execute, outside the plot and its
    restrictions."""

    face: int
    symbol: str  # stop, arrow or turn (BR-DED-01)
    move: str


def ded(face: int) -> DedMove:
    """What a DED face means (BR-DED-04): a Stop holds her where she is, an Arrow is one Ahead in her facing,
    the two Turn faces one turn right and one turn left."""
    for item in read_list(read_object(TABLE.get("ded"))["faces"]):
        entry = read_object(item)
        if read_int(entry["face"]) == face:
            return DedMove(face, read_str(entry["symbol"]), read_str(entry["move"]))
    raise ValueError(f"a DED has faces 1 to 6, not {face}")


def ded_needed() -> dice.Needed:
    """The DED as the log judges a d6 roll: each face's extra move by name."""
    return dice.table("Damage Effect Die", [(face, face, ded(face).move) for face in range(1, 7)])


# --- rolls owed by crashes, collisions and rams -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DamageDue:
    """Damage-table rolls owed: how many d10, the modifier to each, and whether a DED comes first (a Stunned
    hit owes only that)."""

    rolls: int
    modifier: int = 0
    ded: bool = False


def _accident(name: str) -> dict[str, object]:
    return read_object(read_object(TABLE.get("accidents"))[name])


def crash(consecutive_descends: int) -> DamageDue:
    """A Crash: one roll for each Descend in the unbroken run that brought her down (BR-LAND-03)."""
    return DamageDue(consecutive_descends, read_int(_accident("crash")["modifier"]))


def collision(aheads: int, head_on_aheads: int = 0) -> DamageDue:
    """What each colliding ship rolls: one a move in the run of Aheads that led to it, both ships' runs added
    head-on (BR-COL-02/03); at least one, for ships that touched at all."""
    figures = _accident("collision")
    return DamageDue(max(read_int(figures["at_least"]), aheads + head_on_aheads), read_int(figures["modifier"]))


def ram(aheads: int, head_on_aheads: int = 0) -> DamageDue:
    """What the ramming ship rolls: d10-2 a move in her run of Aheads, both runs added head-on (BR-RAM-02/03)."""
    figures = _accident("ram")
    return DamageDue(max(read_int(figures["at_least"]), aheads + head_on_aheads), read_int(figures["modifier"]))


def rammed() -> DamageDue:
    """What the rammed ship rolls: one D10+2, however long the run that hit her (BR-RAM-04)."""
    figures = _accident("rammed")
    return DamageDue(read_int(figures["rolls"]), read_int(figures["modifier"]))
