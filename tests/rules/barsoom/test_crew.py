"""Sky Ships of Barsoom crews as crew points (battles/rules/barsoom/crew.py, a stand-in: docs/barsoom.md section 8):
the record, the complements per class, the helm, men set to the grapnels and the repairs, boarders away, and repairs."""

from __future__ import annotations

import pytest

from battles.rules.barsoom import crew
from battles.rules.barsoom.crew import Boarders, Crew, RepairCrew, complement, mended, repair_turn

# --- the complement per class ---------------------------------------------------------------------------------------


@pytest.mark.rule("BR-CLS-04", "BR-CLS-05", "BR-CLS-11")
@pytest.mark.parametrize(("ship_class", "men", "helm"), [("capital", 38, 2), ("medium", 19, 1), ("small", 3, 1)])
def test_each_class_sails_with_its_stated_complement(ship_class: str, men: int, helm: int) -> None:
    """ "All the crew that will fit" as stand-in numbers: 40, 20 and 4 men, of whom 2, 1 and 1 at the helm."""
    ship = complement(ship_class)
    assert (ship.men, ship.helm, ship.aboard) == (men, helm, men + helm)
    assert (ship.grapplers, ship.repair, ship.away) == (0, RepairCrew(0, 0), ())


def test_the_complements_are_40_20_and_4_men() -> None:
    assert [complement(name).aboard for name in ("capital", "medium", "small")] == [40, 20, 4]


def test_an_unknown_class_has_no_complement() -> None:
    with pytest.raises(KeyError):
        complement("dreadnought")


# --- the helm -------------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-OOC-01")
def test_a_ship_whose_helmsmen_are_all_down_is_helmless_until_men_take_the_helm() -> None:
    ship = complement("medium")
    assert not ship.helmless
    hit = ship.lose(crew.HELM, 1)
    assert hit.helmless
    assert (hit.men, hit.helm) == (19, 0)
    relieved = hit.to_helm(1)
    assert not relieved.helmless
    assert (relieved.men, relieved.helm) == (18, 1)


def test_only_men_free_on_deck_can_be_sent_anywhere() -> None:
    ship = Crew(men=2, helm=1)
    for move in (ship.to_helm, ship.to_grapnels, ship.join_repairs):
        with pytest.raises(ValueError, match="only 2 men are free on deck"):
            move(3)
        with pytest.raises(ValueError, match="cannot set -1 men"):
            move(-1)
    with pytest.raises(ValueError, match="only 2 men are free on deck"):
        ship.send("Thark", 3)


# --- grapplers ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-GRAP-06", "BR-GRAP-07")
def test_grapplers_leave_the_deck_for_the_turn_and_come_back_when_it_ends() -> None:
    ship = complement("capital").to_grapnels(5)
    assert (ship.men, ship.grapplers, ship.aboard) == (33, 5, 40)  # busy: not among the men who fight or cross
    assert ship.stand_down() == complement("capital")


# --- boarders away --------------------------------------------------------------------------------------------------


def test_boarders_sent_across_are_away_until_recalled_or_lost() -> None:
    ship = complement("capital").send("Thark", 10).send("Zodanga", 4).send("Thark", 5)
    assert ship.men == 19
    assert ship.aboard == 21
    assert ship.away == (Boarders("Zodanga", 4), Boarders("Thark", 15))
    assert ship.party_aboard("Thark") == 15
    assert ship.party_aboard("Helium") == 0
    back = ship.recall("Thark", 3)
    assert back.men == 22
    assert back.party_aboard("Thark") == 12
    assert back.lose_away("Zodanga", 9).away == (Boarders("Thark", 12),)  # an emptied party is gone
    with pytest.raises(ValueError, match="only 12 men are aboard Thark"):
        back.recall("Thark", 13)


def test_a_ship_taken_makes_prisoners_of_all_aboard_but_her_parties_away_fight_on() -> None:
    ship = complement("capital").to_grapnels(2).join_repairs(3).send("Thark", 10)
    struck = ship.struck()
    assert struck == Crew(men=0, helm=0, away=(Boarders("Thark", 10),))
    assert struck.aboard == 0


def test_the_boarders_who_took_her_are_her_prize_crew_and_she_has_no_helmsman_yet() -> None:
    prize = crew.prize_crew(7)
    assert (prize.men, prize.helm, prize.helmless) == (7, 0, True)


# --- losses ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("group", "expected"),
    [
        (crew.DECK, Crew(men=15, helm=2, grapplers=3, repair=RepairCrew(4, 1))),
        (crew.HELM, Crew(men=20, helm=0, grapplers=3, repair=RepairCrew(4, 1))),
        (crew.GRAPPLERS, Crew(men=20, helm=2, grapplers=0, repair=RepairCrew(4, 1))),
        (crew.REPAIRERS, Crew(men=20, helm=2, grapplers=3, repair=RepairCrew(0, 1))),
    ],
)
def test_losses_come_off_the_group_hit_and_never_below_none(group: str, expected: Crew) -> None:
    ship = Crew(men=20, helm=2, grapplers=3, repair=RepairCrew(4, 1))
    assert ship.lose(group, 5) == expected


def test_there_is_no_other_crew_group() -> None:
    with pytest.raises(ValueError, match="no crew group 'galley'"):
        Crew(men=1, helm=1).lose("galley", 1)


# --- repairs --------------------------------------------------------------------------------------------------------


@pytest.mark.rule("BR-REP-02", "BR-REP-05", "BR-REP-06")
def test_men_join_and_leave_the_repair_crew_and_are_off_the_deck_while_on_it() -> None:
    ship = complement("medium").join_repairs(4)
    assert (ship.men, ship.repair, ship.aboard) == (15, RepairCrew(4, 0), 20)
    more = ship.join_repairs(2)
    assert (more.men, more.repair.men) == (13, 6)
    fewer = more.leave_repairs(5)
    assert (fewer.men, fewer.repair.men) == (18, 1)
    with pytest.raises(ValueError, match="only 1 men are at the repairs"):
        fewer.leave_repairs(2)


@pytest.mark.rule("BR-REP-04", "BR-REP-06")
def test_the_sixes_stay_saved_when_men_leave_the_repair_crew() -> None:
    ship = Crew(men=5, helm=1, repair=RepairCrew(3, 2)).leave_repairs(3)
    assert ship.repair == RepairCrew(0, 2)
    assert ship.join_repairs(1).repair == RepairCrew(1, 2)


@pytest.mark.rule("BR-REP-03")
def test_each_repairer_rolls_one_die() -> None:
    with pytest.raises(ValueError, match="a repair crew of 3 rolls 3 dice, not 2"):
        repair_turn(RepairCrew(3, 0), (6, 6), outstanding=1)


@pytest.mark.rule("BR-REP-03")
@pytest.mark.parametrize(
    ("faces", "sixes", "mends"),
    [((6, 6, 6), 0, 1), ((6, 6, 5), 2, 0), ((1, 2, 3), 0, 0), ((5, 5, 5), 0, 0), ((6, 6, 6, 6), 1, 1)],
)
def test_three_sixes_mend_a_result_and_no_other_face_counts(faces: tuple[int, ...], sixes: int, mends: int) -> None:
    assert repair_turn(RepairCrew(len(faces), 0), faces, outstanding=2) == (RepairCrew(len(faces), sixes), mends)


@pytest.mark.rule("BR-REP-03", "BR-REP-04")
def test_sixes_saved_from_earlier_turns_count_towards_the_three() -> None:
    first, mends = repair_turn(RepairCrew(2, 0), (6, 3), outstanding=1)
    assert (first, mends) == (RepairCrew(2, 1), 0)
    second, mends = repair_turn(first, (4, 6), outstanding=1)
    assert (second, mends) == (RepairCrew(2, 2), 0)
    third = repair_turn(second, (6, 1), outstanding=1)
    assert third == (RepairCrew(2, 0), 1)


def test_every_three_sixes_mend_one_more_result_while_any_is_left() -> None:
    assert repair_turn(RepairCrew(6, 1), (6, 6, 6, 6, 6, 2), outstanding=3) == (RepairCrew(6, 0), 2)
    assert repair_turn(RepairCrew(6, 2), (6, 6, 6, 6, 6, 2), outstanding=3) == (RepairCrew(6, 1), 2)


def test_spare_sixes_go_once_nothing_is_left_to_mend() -> None:
    assert repair_turn(RepairCrew(4, 2), (6, 6, 6, 6), outstanding=1) == (RepairCrew(4, 0), 1)
    assert repair_turn(RepairCrew(2, 2), (6, 1), outstanding=0) == (RepairCrew(2, 0), 0)


@pytest.mark.rule("BR-REP-07")
def test_a_successful_repair_can_put_out_a_fire() -> None:
    assert mended(("reverse lost", "fire"), 1, first=("fire",)) == ("reverse lost",)
    assert mended(("fire", "fire", "speed loss"), 2, first=("fire",)) == ("speed loss",)


def test_without_a_choice_the_oldest_result_is_mended_first() -> None:
    assert mended(("reverse lost", "fire", "speed loss"), 2) == ("speed loss",)
    assert mended(("reverse lost",), 3) == ()
    assert mended(("reverse lost", "fire"), 0, first=("fire",)) == ("reverse lost", "fire")
