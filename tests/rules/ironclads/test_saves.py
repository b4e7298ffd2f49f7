"""Armour saves (IC-SAVE-01..10)."""

from __future__ import annotations

import pytest

from battles.rules.ironclads import cards, saves, scale
from battles.rules.ironclads.cards import ARMOUR, HULL, PORT
from battles.rules.ironclads.salvo import Score
from battles.rules.ironclads.scale import CLOSE, LONG, MIDDLE


@pytest.mark.rule("IC-SAVE-09", "IC-SAVE-02", "IC-SAVE-04", "IC-SAVE-06")
def test_the_golden_save_ic_save_09() -> None:
    target, _ = cards.card("T", {PORT: 5, ARMOUR: 7, HULL: 9}).cross_off(ARMOUR, 3)
    assert saves.save_dice(target) == 4  # 4D6
    band = scale.band(8)  # 33 cm: 8 hexes
    assert band == MIDDLE
    assert saves.saved(band, (5, 1, 4, 2)) == 1  # one 5
    assert saves.unsaved(Score(criticals=1, hits=1), 1) == Score(criticals=0, hits=1)  # the owner saves the C


@pytest.mark.rule("IC-SAVE-02")
def test_a_die_for_each_armour_stat_left_none_for_a_wooden_ship_ic_save_02() -> None:
    assert saves.save_dice(cards.card("W", {ARMOUR: 0, HULL: 3})) == 0
    assert saves.save_dice(cards.card("I", {ARMOUR: 7, HULL: 3})) == 7


@pytest.mark.parametrize(("band", "count"), [(LONG, 4), (MIDDLE, 2), (CLOSE, 1)])
@pytest.mark.rule("IC-SAVE-03", "IC-SAVE-04", "IC-SAVE-05")
def test_what_saves_by_band_ic_save_03_to_05(band: str, count: int) -> None:
    assert saves.saved(band, (1, 2, 3, 4, 5, 6)) == count


@pytest.mark.rule("IC-SAVE-10")
def test_25_and_50_cm_save_in_the_middle_band_ic_save_10() -> None:
    # 25 cm lies between 6 hexes (24) and 7 (28); 50 cm between 12 (48) and 13 (52): every middle hex range is
    # one the main text puts in the middle band, and the hexes nearest its ends are 7 and 12.
    assert scale.text_band(25) == scale.text_band(50) == MIDDLE
    assert [saves.saved(scale.band(h) or "", (5,)) for h in (6, 7, 12, 13)] == [0, 1, 1, 1]
    assert [saves.saved(scale.band(h) or "", (4,)) for h in (6, 7, 12, 13)] == [0, 0, 0, 1]


@pytest.mark.rule("IC-SAVE-06")
def test_the_owner_saves_criticals_first_ic_save_06() -> None:
    assert saves.unsaved(Score(criticals=2, hits=3), 1) == Score(criticals=1, hits=3)
    assert saves.unsaved(Score(criticals=2, hits=3), 3) == Score(criticals=0, hits=2)
    assert saves.unsaved(Score(criticals=2, hits=3), 9) == Score()  # saved hits are simply misses
    assert saves.unsaved(Score(criticals=0, hits=3), 0) == Score(hits=3)


@pytest.mark.rule("IC-SAVE-01")
def test_each_salvo_has_its_own_save_ic_save_01() -> None:
    # Two salvoes of one hit each at long range; two dice each: the saves of one never spill into the other.
    first = saves.unsaved(Score(hits=1), saves.saved(LONG, (6, 6)))
    second = saves.unsaved(Score(hits=2), saves.saved(LONG, (1, 1)))
    assert (first, second) == (Score(), Score(hits=2))


def test_the_log_reads_each_save() -> None:
    assert saves.needed(MIDDLE).judge_dice((5, 6, 4), 0) == "save:2,failed save:1"  # told "2 saves, 1 failed save"
    assert saves.needed(CLOSE).text == "6 saves"
