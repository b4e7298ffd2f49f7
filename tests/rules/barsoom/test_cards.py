"""The Movement Cards (battles/rules/barsoom/cards.py): the deck, the plot and its restrictions, discards, the
optional rule, out-of-control picks, initiative and the order of reveal."""

from __future__ import annotations

from itertools import permutations

import pytest

from battles.rules.barsoom import cards, ships
from battles.rules.barsoom.cards import Allowance, Breach, Deck, Plotted
from battles.rules.barsoom.kinds import (
    AHEAD,
    ASCEND,
    CAPITAL,
    DESCEND,
    EXTRA_ASCEND,
    MEDIUM,
    RESTRICTION_IGNORED,
    REVERSE,
    SMALL,
    STOP,
    TURN_LEFT,
    TURN_RIGHT,
)

CLASSES = ships.classes()
MEDIUM_SHIP, SMALL_CRAFT, CAPITAL_SHIP = CLASSES[MEDIUM], CLASSES[SMALL], CLASSES[CAPITAL]


def deck(ship_class=MEDIUM_SHIP, *discards: str) -> Deck:
    return Deck.full(ship_class).without(discards)


def judge(plot, ship_class=MEDIUM_SHIP, *, discards=(), lost=0, ignore_one=False):
    return cards.judge(plot, deck(ship_class, *discards), Allowance.of(ship_class, lost), ignore_one=ignore_one)


def clause(plot, ship_class=MEDIUM_SHIP, **kwargs) -> str | None:
    verdict = judge(plot, ship_class, **kwargs)
    return verdict.clause if isinstance(verdict, Breach) else None


# --- the deck --------------------------------------------------------------------------------------------------

FULL = {AHEAD: 3, REVERSE: 1, TURN_RIGHT: 2, TURN_LEFT: 2, STOP: 3, DESCEND: 3, ASCEND: 1}


@pytest.mark.rule(
    "BR-CARD-01", "BR-CARD-02", "BR-CARD-03", "BR-CARD-04", "BR-CARD-05", "BR-CARD-06", "BR-CARD-07", "BR-CARD-08"
)
def test_the_deck_holds_the_texts_cards_and_the_extra_ascend_for_small_craft_only():
    for ship_class in (CAPITAL_SHIP, MEDIUM_SHIP):
        assert dict(Deck.full(ship_class).counts) == FULL
    assert dict(Deck.full(SMALL_CRAFT).counts) == {**FULL, EXTRA_ASCEND: 1}


@pytest.mark.rule("BR-CARD-09")
def test_sixteen_cards_with_the_extra_ascend_fifteen_without_and_each_plotted_once():
    assert [Deck.full(c).size for c in (CAPITAL_SHIP, MEDIUM_SHIP, SMALL_CRAFT)] == [15, 15, 16]
    assert len(Deck.full(SMALL_CRAFT).cards()) == 16
    # small craft may Ascend twice, but the deck holds one Ascend card: the second must be the Extra Ascend
    assert clause([ASCEND, ASCEND, STOP], SMALL_CRAFT) == "BR-CARD-09"
    assert clause([ASCEND, EXTRA_ASCEND, STOP], SMALL_CRAFT) is None


@pytest.mark.rule("BR-SEQ-06")
def test_a_nautical_ship_has_no_altitude_cards():
    assert dict(Deck.full(MEDIUM_SHIP, nautical=True).counts) == {
        AHEAD: 3,
        REVERSE: 1,
        TURN_RIGHT: 2,
        TURN_LEFT: 2,
        STOP: 3,
    }
    assert Deck.full(SMALL_CRAFT, nautical=True).size == 11


@pytest.mark.rule("BR-CARD-10", "BR-DMG-05", "BR-DMG-07", "BR-DMG-09")
def test_discarded_cards_leave_the_plot():
    hurt = deck(MEDIUM_SHIP, REVERSE, TURN_LEFT, AHEAD)
    assert (hurt.count(REVERSE), hurt.count(TURN_LEFT), hurt.count(AHEAD), hurt.size) == (0, 1, 2, 12)
    assert clause([REVERSE, STOP, STOP], discards=[REVERSE]) == "BR-CARD-10"
    assert clause([AHEAD, STOP, AHEAD], discards=[AHEAD, AHEAD]) == "BR-CARD-10"
    assert clause([AHEAD, STOP, AHEAD], discards=[AHEAD]) is None
    # a card already gone is not there to discard twice
    assert deck(MEDIUM_SHIP, REVERSE, REVERSE) == hurt.with_back(TURN_LEFT, Deck.full(MEDIUM_SHIP)).with_back(
        AHEAD, Deck.full(MEDIUM_SHIP)
    )
    with pytest.raises(ValueError, match="no Movement Card"):
        Deck.full(MEDIUM_SHIP).without(["Hover"])


@pytest.mark.rule("BR-DMG-06")
def test_a_lost_ascend_leaves_the_plot():
    assert clause([ASCEND, STOP, STOP], discards=[ASCEND]) == "BR-CARD-10"


def test_a_repaired_card_comes_back_but_never_beyond_the_full_deck():
    full = Deck.full(MEDIUM_SHIP)
    assert deck(MEDIUM_SHIP, REVERSE).with_back(REVERSE, full) == full
    assert full.with_back(REVERSE, full) == full


# --- the plot ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-MOV-01", "BR-MOV-02")
def test_three_cards_are_plotted_from_the_deck():
    assert judge([AHEAD, TURN_RIGHT, AHEAD]) == Plotted((AHEAD, TURN_RIGHT, AHEAD))
    assert clause([AHEAD, AHEAD]) == "BR-MOV-01"
    assert clause([AHEAD, AHEAD, STOP, STOP]) == "BR-MOV-01"
    assert clause([AHEAD, "Hover", STOP]) == "BR-MOV-01"


@pytest.mark.rule("BR-MOV-08")
def test_the_cards_come_in_any_order_the_restrictions_allow():
    for plot in set(permutations([AHEAD, STOP, DESCEND])) | set(permutations([ASCEND, DESCEND, STOP])):
        assert clause(list(plot)) is None, plot


@pytest.mark.rule("BR-DMG-08", "BR-MOV-14")
def test_control_damage_takes_a_card_a_turn_and_three_take_them_all():
    assert [cards.options_per_turn(lost) for lost in range(5)] == [3, 2, 1, 0, 0]
    assert clause([AHEAD, STOP, AHEAD], lost=1) == "BR-DMG-08"
    assert clause([AHEAD, STOP], lost=1) is None
    assert clause([AHEAD], lost=3) == "BR-MOV-14"
    assert judge([], lost=3) == Plotted(())


@pytest.mark.rule("BR-MOV-09")
def test_one_ascend_a_turn():
    assert clause([ASCEND, STOP, ASCEND]) == "BR-MOV-09"
    assert clause([ASCEND, STOP, DESCEND]) is None
    verdict = cards.breaches([ASCEND, STOP, ASCEND], Allowance.of(MEDIUM_SHIP))
    assert verdict == [Breach(2, "BR-MOV-09", "card 3: Ascend 2 times in a turn")]


@pytest.mark.rule("BR-CLS-07", "BR-CARD-08", "BR-MOV-09")
def test_small_craft_ascend_twice_a_turn_with_the_extra_ascend():
    assert clause([ASCEND, EXTRA_ASCEND, AHEAD], SMALL_CRAFT) is None
    assert clause([EXTRA_ASCEND, STOP, STOP], SMALL_CRAFT) is None
    assert clause([EXTRA_ASCEND, STOP, STOP], MEDIUM_SHIP) == "BR-CARD-08"
    assert clause([EXTRA_ASCEND, STOP, STOP], CAPITAL_SHIP) == "BR-CARD-08"


@pytest.mark.rule("BR-MOV-10")
def test_a_turn_comes_straight_after_an_ahead_or_reverse():
    assert clause([AHEAD, TURN_RIGHT, STOP]) is None
    assert clause([REVERSE, TURN_LEFT, STOP]) is None
    assert clause([TURN_RIGHT, AHEAD, STOP]) == "BR-MOV-10"
    assert clause([AHEAD, STOP, TURN_RIGHT]) == "BR-MOV-10"
    assert clause([AHEAD, DESCEND, TURN_LEFT]) == "BR-MOV-10"
    assert clause([AHEAD, TURN_RIGHT, TURN_RIGHT]) == "BR-MOV-10"
    assert clause([AHEAD, TURN_RIGHT, TURN_RIGHT], CAPITAL_SHIP) == "BR-MOV-10"


@pytest.mark.rule("BR-CLS-08", "BR-MOV-10")
def test_small_craft_turn_twice_after_each_ahead_or_reverse():
    assert clause([AHEAD, TURN_RIGHT, TURN_RIGHT], SMALL_CRAFT) is None
    assert clause([REVERSE, TURN_LEFT, TURN_RIGHT], SMALL_CRAFT) is None
    assert clause([TURN_RIGHT, TURN_RIGHT, AHEAD], SMALL_CRAFT) == "BR-MOV-10"
    assert clause([STOP, TURN_RIGHT, TURN_RIGHT], SMALL_CRAFT) == "BR-MOV-10"


@pytest.mark.rule("BR-MOV-11")
def test_one_reverse_a_turn():
    assert clause([REVERSE, STOP, REVERSE]) == "BR-MOV-11"
    assert clause([REVERSE, STOP, STOP]) is None


@pytest.mark.rule("BR-MOV-12")
def test_a_stop_between_ahead_and_reverse_either_way():
    assert clause([AHEAD, REVERSE, STOP]) == "BR-MOV-12"
    assert clause([REVERSE, AHEAD, STOP]) == "BR-MOV-12"
    assert clause([AHEAD, TURN_RIGHT, REVERSE]) == "BR-MOV-12"
    assert clause([REVERSE, DESCEND, AHEAD]) == "BR-MOV-12"
    assert clause([AHEAD, STOP, REVERSE]) is None
    assert clause([REVERSE, STOP, AHEAD]) is None
    assert clause([AHEAD, AHEAD, AHEAD]) is None


# --- the optional rule -------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-OPT-01")
def test_one_restriction_may_be_ignored_a_turn_and_the_plot_says_which():
    ignored = judge([TURN_RIGHT, AHEAD, STOP], ignore_one=True)
    assert ignored == Plotted(
        (TURN_RIGHT, AHEAD, STOP), Breach(0, "BR-MOV-10", "card 1: a Turn comes straight after an Ahead or Reverse")
    )
    assert judge([AHEAD, REVERSE, STOP], ignore_one=True) == Plotted(
        (AHEAD, REVERSE, STOP), Breach(1, "BR-MOV-12", "card 2: Reverse after Ahead with no Stop")
    )
    assert judge([AHEAD, STOP, STOP], ignore_one=True) == Plotted((AHEAD, STOP, STOP), None)
    # two breaches are one too many
    assert clause([TURN_RIGHT, TURN_LEFT, AHEAD], ignore_one=True) == "BR-OPT-01"
    assert clause([ASCEND, REVERSE, AHEAD], ignore_one=False) == "BR-MOV-12"
    # the deck's limits are no restrictions: never ignored
    assert clause([REVERSE, STOP, REVERSE], ignore_one=True) == "BR-CARD-09"
    assert clause([EXTRA_ASCEND, STOP, STOP], ignore_one=True) == "BR-CARD-08"
    assert clause([REVERSE, STOP, STOP], discards=[REVERSE], ignore_one=True) == "BR-CARD-10"


@pytest.mark.rule("BR-OPT-02")
def test_ignoring_a_restriction_owes_one_damage_roll_after_that_card():
    plotted = judge([AHEAD, TURN_RIGHT, TURN_LEFT], ignore_one=True)
    assert isinstance(plotted, Plotted)
    assert plotted.ignored is not None
    assert plotted.ignored.card == 2
    owed = cards.ignored_damage("Heliumite cruiser", plotted.ignored)
    assert (owed.ship, owed.rolls, owed.modifier, owed.reason, owed.clause) == (
        "Heliumite cruiser",
        1,
        0,
        RESTRICTION_IGNORED,
        "BR-OPT-02",
    )


# --- out of control ------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-OOC-02", "BR-OOC-03")
def test_an_out_of_control_ship_draws_two_random_cards_from_her_deck_as_it_stands():
    full = Deck.full(MEDIUM_SHIP)
    assert cards.random_dice(full) == (15, 14)
    assert full.cards() == (AHEAD,) * 3 + (REVERSE,) + (TURN_RIGHT,) * 2 + (TURN_LEFT,) * 2 + (STOP,) * 3 + (
        DESCEND,
    ) * 3 + (ASCEND,)
    assert cards.random_options(full, (1, 1)) == (AHEAD, AHEAD)
    assert cards.random_options(full, (4, 14)) == (REVERSE, ASCEND)
    assert cards.random_options(full, (15, 5)) == (ASCEND, TURN_RIGHT)
    # drawn from what damage left her
    hurt = full.without([AHEAD, AHEAD, AHEAD, REVERSE])
    assert cards.random_dice(hurt) == (11, 10)
    assert cards.random_options(hurt, (1, 1)) == (TURN_RIGHT, TURN_RIGHT)
    assert cards.random_dice(Deck.full(SMALL_CRAFT)) == (16, 15)
    assert cards.random_options(Deck.full(SMALL_CRAFT), (16, 1)) == (EXTRA_ASCEND, AHEAD)
    with pytest.raises(ValueError, match="1 to 14"):
        cards.random_options(full, (1, 15))


# --- initiative and the order of reveal ----------------------------------------------------------------------


@pytest.mark.rule("BR-SEQ-02")
def test_the_highest_initiative_roll_moves_first_and_a_tie_rolls_again():
    assert cards.initiative([{"Helium": 5, "Zodanga": 3}]) == ("Helium", "Zodanga")
    assert cards.initiative([{"Helium": 2, "Zodanga": 6}]) == ("Zodanga", "Helium")
    tie = [{"Helium": 4, "Zodanga": 4}]
    assert cards.initiative(tie) is None
    assert cards.tied(tie) == ("Helium", "Zodanga")
    assert cards.initiative([*tie, {"Helium": 1, "Zodanga": 3}]) == ("Zodanga", "Helium")
    assert cards.tied([*tie, {"Helium": 1, "Zodanga": 3}]) == ()
    three = [{"Helium": 6, "Zodanga": 2, "Ptarth": 2}, {"Zodanga": 5, "Ptarth": 1}]
    assert cards.initiative(three) == ("Helium", "Zodanga", "Ptarth")
    assert cards.tied(three[:1]) == ("Zodanga", "Ptarth")
    assert cards.initiative([]) is None


@pytest.mark.rule("BR-SEQ-03", "BR-MOV-02")
def test_cards_are_revealed_alternately_starting_with_the_initiative_side():
    one_each = {"Helium": [("Xavarian", 3)], "Zodanga": [("Thark Bane", 3)]}
    assert cards.reveal_order(("Helium", "Zodanga"), one_each) == (
        ("Xavarian", 0),
        ("Thark Bane", 0),
        ("Xavarian", 1),
        ("Thark Bane", 1),
        ("Xavarian", 2),
        ("Thark Bane", 2),
    )
    assert cards.reveal_order(("Zodanga", "Helium"), one_each)[:2] == (("Thark Bane", 0), ("Xavarian", 0))
    # two ships against one with a card lost to Control damage: the sides alternate ship by ship
    uneven = {"Helium": [("Xavarian", 3), ("scout", 3)], "Zodanga": [("Thark Bane", 2)]}
    assert cards.reveal_order(("Helium", "Zodanga"), uneven) == (
        ("Xavarian", 0),
        ("Thark Bane", 0),
        ("scout", 0),
        ("Xavarian", 1),
        ("Thark Bane", 1),
        ("scout", 1),
        ("Xavarian", 2),
        ("scout", 2),
    )


@pytest.mark.rule("BR-OOC-01")
def test_a_ship_is_out_of_control_with_no_turn_left_no_helmsman_or_when_declared():
    full = Deck.full(MEDIUM_SHIP)
    assert not cards.out_of_control(full)
    no_steering = full.without([TURN_RIGHT, TURN_RIGHT, TURN_LEFT])
    assert not cards.out_of_control(no_steering)
    assert cards.out_of_control(no_steering.without([TURN_LEFT]))
    assert cards.out_of_control(full, helm_manned=False)
    assert cards.out_of_control(full, declared=True)
