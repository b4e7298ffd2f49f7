"""Getting aboard and fighting there (battles/rules/barsoom/boarding.py, a stand-in: docs/barsoom.md section 8):
crossing over, jumping, grappling and abseiling, the boarding fight in crew points and fire at crew."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battles.engine import dice
from battles.rules.barsoom import boarding, crew
from battles.rules.barsoom.boarding import (
    ABSEIL,
    ACROSS,
    BOMB,
    FELL,
    FIGHTING,
    FREE,
    HEAVY,
    JUMP,
    LANDED_HARD,
    LIGHT,
    MEDIUM,
    REPELLED,
    TAKEN,
    Jumped,
    Melee,
)
from battles.rules.barsoom.crew import Boarders

FACES = range(1, 7)


def chance(hit: list[int]) -> Fraction:
    """The chance of a D6 face being among ``hit``."""
    return Fraction(len(hit), 6)


# --- the measure and the scale --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hexes", "rise", "gap"), [(0, 0, 0), (1, 0, 1), (0, -1, 1), (2, 1, 2), (2, -2, 3), (1, 3, 3), (4, 0, 4)]
)
def test_the_gap_is_the_longer_way_and_half_the_shorter(hexes: int, rise: int, gap: int) -> None:
    assert boarding.apart(hexes, rise) == gap


def test_a_hex_distance_is_never_negative() -> None:
    with pytest.raises(ValueError, match="never negative"):
        boarding.apart(-1, 0)


@pytest.mark.rule("BR-GRAP-02")
def test_three_inches_become_one_hex_and_one_level_within_half_a_hex() -> None:
    """3 inches is 1.5 hexes (or levels) of 2 inches; the free crossing reaches 1 of each, half a hex short."""
    three_inches = Fraction(3, crew.TABLES.whole("inches_per_hex"))
    for reach in (crew.TABLES.whole("crossing", "free_hexes"), crew.TABLES.whole("crossing", "free_levels")):
        assert abs(reach - three_inches) <= Fraction(1, 2)


# --- crossing over --------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-GRAP-01")
def test_ships_in_contact_cross_freely() -> None:
    assert boarding.way_across(0, 0) == FREE
    assert boarding.way_across(1, 0) == FREE  # neighbouring hexes at one level touch


@pytest.mark.rule("BR-GRAP-02")
@pytest.mark.parametrize(
    ("hexes", "rise", "way"),
    [(0, 1, FREE), (0, -1, FREE), (1, 1, FREE), (1, -1, FREE), (2, 0, JUMP), (0, 2, JUMP), (0, -2, JUMP), (1, 2, JUMP)],
)
def test_within_three_inches_each_way_men_cross_freely_beyond_they_jump(hexes: int, rise: int, way: str) -> None:
    assert boarding.way_across(hexes, rise) == way


@pytest.mark.rule("BR-GRAP-11")
@pytest.mark.parametrize(
    ("hexes", "rise", "way"),
    [(0, -2, ABSEIL), (0, -3, ABSEIL), (1, -3, ABSEIL), (0, -4, JUMP), (2, -2, JUMP), (0, 2, JUMP), (0, -1, FREE)],
)
def test_boarders_drop_by_lines_onto_a_grappled_ship_up_to_three_levels_below(hexes: int, rise: int, way: str) -> None:
    """Down only: nothing in the text lets men climb lines up onto a ship above."""
    assert boarding.way_across(hexes, rise, grappled=True) == way


# --- jumping --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("hexes", "rise", "inches"), [(2, 0, 4), (3, 0, 6), (0, -2, 4), (2, 1, 4), (2, 2, 6)])
def test_a_jump_must_cover_two_inches_a_hex_of_the_gap(hexes: int, rise: int, inches: int) -> None:
    assert boarding.jump_gap(hexes, rise) == inches


@pytest.mark.rule("BR-GRAP-03", "BR-GRAP-04")
@pytest.mark.parametrize(
    ("hexes", "rise", "across"), [(2, 0, [4, 5, 6]), (3, 0, [6]), (2, 1, [4, 5, 6]), (0, 2, [4, 5, 6])]
)
def test_a_jump_across_carries_on_a_die_of_inches_to_the_gap_else_he_falls(
    hexes: int, rise: int, across: list[int]
) -> None:
    ends = [boarding.jump(hexes, rise, face) for face in FACES]
    assert ends == [ACROSS if face in across else FELL for face in FACES]


@pytest.mark.rule("BR-GRAP-04")
@pytest.mark.parametrize(("rise", "across"), [(-2, [4, 5, 6]), (-3, [6]), (-4, []), (-6, [])])
def test_a_jump_short_onto_a_ship_directly_below_lands_hard_on_her(rise: int, across: list[int]) -> None:
    ends = [boarding.jump(0, rise, face) for face in FACES]
    assert ends == [ACROSS if face in across else LANDED_HARD for face in FACES]


@pytest.mark.rule("BR-GRAP-03")
@pytest.mark.parametrize(("hexes", "rise"), [(4, 0), (3, 3), (0, 4), (1, 0), (0, -1)])
def test_no_jump_where_no_die_could_carry_or_men_may_simply_cross(hexes: int, rise: int) -> None:
    assert not boarding.can_jump(hexes, rise)
    with pytest.raises(ValueError, match="no jump"):
        boarding.jump(hexes, rise, 6)


@pytest.mark.rule("BR-GRAP-04")
def test_men_who_land_hard_take_a_plain_hit_and_men_who_fall_are_lost() -> None:
    """The landing hit is a wound die with no modifier: a 5 or 6 puts the man out, as a light weapon's hit."""
    ends = [ACROSS, LANDED_HARD, FELL, LANDED_HARD, LANDED_HARD]
    assert boarding.jumped(ends, (5, 4, 6)) == Jumped(across=2, lost=3)
    assert boarding.jumped(ends, (1, 2, 3)) == Jumped(across=4, lost=1)
    with pytest.raises(ValueError, match="3 men landed hard and roll 3 wound dice, not 2"):
        boarding.jumped(ends, (1, 2))


# --- grappling ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-GRAP-05", "BR-GRAP-11")
@pytest.mark.parametrize(
    ("hexes", "rise", "reach"),
    [(3, 0, True), (4, 0, False), (2, 2, True), (3, -2, False), (0, -3, True), (1, -3, True), (0, -4, False)],
)
def test_a_grapnel_reaches_three_hexes_of_gap_which_takes_in_three_levels_below(
    hexes: int, rise: int, reach: bool
) -> None:
    assert boarding.within_throw(hexes, rise) is reach


@pytest.mark.rule("BR-GRAP-06")
@pytest.mark.parametrize(("faces", "holds"), [((), False), ((5, 5, 5), False), ((1, 6), True), ((6,), True)])
def test_a_grapple_is_made_or_cut_by_any_six_among_the_grapplers(faces: tuple[int, ...], holds: bool) -> None:
    assert boarding.grapple_holds(faces) is holds


@pytest.mark.rule("BR-GRAP-06")
def test_each_grappler_has_a_one_in_six_chance() -> None:
    assert chance([face for face in FACES if boarding.grapple_holds((face,))]) == Fraction(1, 6)


# --- the boarding fight ---------------------------------------------------------------------------------------------


def test_each_fighting_man_puts_an_enemy_out_on_a_five_or_six_defenders_on_a_four_too() -> None:
    attacker_hits = [face for face in FACES if boarding.melee_round(1, 1, (face,), (1,)).defenders_lost]
    defender_hits = [face for face in FACES if boarding.melee_round(1, 1, (1,), (face,)).attackers_lost]
    assert (attacker_hits, defender_hits) == ([5, 6], [4, 5, 6])


def test_a_round_takes_men_from_both_sides_at_once() -> None:
    melee = boarding.melee_round(6, 4, (6, 5, 4, 3, 2, 1), (4, 3, 2, 1))
    assert melee == Melee(attackers_lost=1, defenders_lost=2, result=FIGHTING)


def test_no_side_loses_more_men_than_it_has() -> None:
    melee = boarding.melee_round(5, 2, (6, 6, 6, 6, 6), (6, 6))
    assert melee == Melee(attackers_lost=2, defenders_lost=2, result=TAKEN)


def test_every_fighting_man_rolls_one_die() -> None:
    with pytest.raises(ValueError, match="3 boarders and 2 defenders roll a die each, not 2 and 2"):
        boarding.melee_round(3, 2, (6, 6), (6, 6))


@pytest.mark.parametrize(
    ("attackers", "defenders", "result"),
    [
        (1, 0, TAKEN),
        (9, 3, TAKEN),
        (10, 4, FIGHTING),
        (4, 10, FIGHTING),
        (3, 9, REPELLED),
        (0, 1, REPELLED),
        (0, 0, REPELLED),
        (5, 5, FIGHTING),
    ],
)
def test_a_side_with_none_left_or_outnumbered_three_to_one_is_beaten(
    attackers: int, defenders: int, result: str
) -> None:
    """The ship is taken only with boarders left to take her: if both sides fall she is not taken."""
    assert boarding.fight_result(attackers, defenders) == result


def test_the_losses_of_boarders_from_several_ships_fall_on_the_largest_party() -> None:
    parties = (Boarders("Helium", 5), Boarders("Ptarth", 3), Boarders("Gathol", 5))
    assert boarding.share_losses(parties, 4) == (Boarders("Helium", 3), Boarders("Ptarth", 3), Boarders("Gathol", 3))
    assert boarding.share_losses(parties, 12) == (Boarders("Gathol", 1),)
    assert boarding.share_losses(parties, 20) == ()


def _fight(attackers: int, defenders: int, seed: bytes) -> str:
    """A boarding fight to its end with the engine's dice: round after round until a side is beaten."""
    counter = 0
    while True:
        a_faces = dice.faces(seed, "crew", counter, attackers)
        d_faces = dice.faces(seed, "crew", counter + attackers, defenders)
        counter += attackers + defenders
        melee = boarding.melee_round(attackers, defenders, a_faces, d_faces)
        attackers, defenders = attackers - melee.attackers_lost, defenders - melee.defenders_lost
        if melee.result != FIGHTING:
            return melee.result


@pytest.mark.parametrize(
    ("attackers", "defenders", "low", "high"), [(38, 19, 0.95, 1.0), (19, 19, 0.0, 0.15), (24, 19, 0.35, 0.75)]
)
def test_the_fight_favours_the_defenders_deck_and_numbers_tell(
    attackers: int, defenders: int, low: float, high: float
) -> None:
    """Measured with the engine's dice over 400 fights: a capital crew takes a medium ship's deck almost always,
    an equal party almost never, and a quarter more boarders about as often as not (docs/barsoom.md section 8)."""
    taken = sum(_fight(attackers, defenders, bytes([n, 7])) == TAKEN for n in range(200)) + sum(
        _fight(attackers, defenders, bytes([n, 9])) == TAKEN for n in range(200)
    )
    assert low <= taken / 400 <= high


# --- fire at crew ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-WPN-10", "BR-WPN-14", "BR-WPN-17")
@pytest.mark.parametrize(("weapon", "modifier"), [(HEAVY, -2), (MEDIUM, 0), (LIGHT, 0), (BOMB, 0)])
def test_heavy_guns_fire_at_crew_at_minus_two_the_rest_as_normal(weapon: str, modifier: int) -> None:
    assert boarding.to_hit_on_crew(weapon) == modifier


@pytest.mark.rule("BR-WPN-10")
def test_every_heavy_hit_on_crew_kills_without_a_wound_die() -> None:
    assert boarding.kills_on_hit(HEAVY)
    assert boarding.wound_dice(HEAVY, 3) == 0
    assert boarding.casualties(HEAVY, 3, ()) == 3


@pytest.mark.rule("BR-WPN-14", "BR-WPN-17", "BR-BOMB-02")
@pytest.mark.parametrize(
    ("weapon", "faces", "odds"),
    [(LIGHT, [5, 6], Fraction(1, 3)), (BOMB, [3, 4, 5, 6], Fraction(2, 3)), (MEDIUM, [2, 3, 4, 5, 6], Fraction(5, 6))],
)
def test_a_hit_puts_a_man_out_on_the_wound_die_with_the_weapons_benefit(
    weapon: str, faces: list[int], odds: Fraction
) -> None:
    """Light weapons as normal (5 or 6), bombs +2 (3 or more), medium weapons +3 (2 or more)."""
    down = [face for face in FACES if boarding.casualties(weapon, 1, (face,))]
    assert down == faces
    assert chance(down) == odds
    assert boarding.wound_dice(weapon, 4) == 4


def test_the_wound_dice_are_one_a_hit() -> None:
    assert boarding.casualties(MEDIUM, 3, (1, 2, 6)) == 2
    with pytest.raises(ValueError, match="2 light hits roll 2 wound dice, not 1"):
        boarding.casualties(LIGHT, 2, (6,))


# --- a boarding action from grapple to prize ------------------------------------------------------------------------


@pytest.mark.rule("BR-GRAP-06", "BR-GRAP-07", "BR-GRAP-11")
def test_a_capital_ship_grapples_a_medium_ship_below_drops_her_boarders_and_takes_her() -> None:
    """The pieces together, as the phases will use them: the Xavarian, 2 levels above the Thark in her hex."""
    xavarian, thark = crew.complement("capital"), crew.complement("medium")
    assert boarding.within_throw(0, -2)
    xavarian = xavarian.to_grapnels(3)
    assert boarding.grapple_holds((2, 6, 1))
    assert boarding.way_across(0, -2) == JUMP  # before the grapple: jump or stay
    assert boarding.way_across(0, -2, grappled=True) == ABSEIL  # fast now: down the lines, no risk
    xavarian = xavarian.stand_down().send("Thark", 30)
    assert (xavarian.men, xavarian.party_aboard("Thark")) == (8, 30)
    boarders = (6, 5) * 6 + (4, 3) * 9  # 12 hits
    defenders = (4, 5, 6, 4, 6) + (3,) * 14  # 5 hits, a 4 hitting for the defenders
    melee = boarding.melee_round(30, thark.men, boarders, defenders)
    assert melee == Melee(attackers_lost=5, defenders_lost=12, result=TAKEN)  # 7 left against 25: beaten
    xavarian = xavarian.lose_away("Thark", melee.attackers_lost)
    assert thark.lose(crew.DECK, melee.defenders_lost).struck().aboard == 0
    prize = crew.prize_crew(xavarian.party_aboard("Thark"))
    assert (prize.men, prize.helmless) == (25, True)
