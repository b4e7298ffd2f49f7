"""Salvoes (IC-FIRE-01..12, IC-COL-08): which tracks fire together, how many dice, what each face scores."""

from __future__ import annotations

import pytest

from battles.engine.hexgrid import Hex
from battles.rules.ironclads import cards, salvo
from battles.rules.ironclads.cards import (
    ARMOUR,
    CENTRE_TURRET,
    FORWARD,
    FORWARD_TURRET,
    HULL,
    PORT,
    PROPULSION,
    REAR,
    REAR_TURRET,
    STARBOARD,
)
from battles.rules.ironclads.salvo import Score, Sight
from battles.rules.ironclads.scale import CLOSE, LONG, MIDDLE

SHIP = Hex(0, 0)
FIRER = cards.card(
    "FIRER",
    {FORWARD: 3, PORT: 11, STARBOARD: 11, REAR: 2, FORWARD_TURRET: 7, REAR_TURRET: 7, ARMOUR: 7, HULL: 9},
)
TARGET = cards.card("TARGET", {PORT: 5, STARBOARD: 5, ARMOUR: 7, PROPULSION: 14, HULL: 9})
FOUR_ARMOUR, _ = TARGET.cross_off(ARMOUR, 3)


def _sight(target: str = "T", *, tracks: tuple[str, ...] = (PORT,), band: str | None = MIDDLE) -> Sight:
    return Sight(target, tracks, band, clear=True, armour_left=4, fired_into=(STARBOARD,))


@pytest.mark.rule("IC-FIRE-12", "IC-FIRE-05", "IC-FIRE-06", "IC-FIRE-07")
def test_the_golden_broadside_ic_fire_12() -> None:
    # 11 port stats at a target with 4 Armour left, 33 cm away: 8 hexes (32 cm), the middle band.
    target_hex = Hex(-8, 4)
    seen = salvo.sight(FIRER, SHIP, 0, "T", FOUR_ARMOUR, target_hex, 0, obstacles=())
    assert (seen.tracks, seen.band, seen.armour_left) == ((PORT, FORWARD_TURRET, REAR_TURRET), MIDDLE, 4)
    fired = salvo.plan(FIRER, {PORT: "T"}, {"T": seen})
    assert fired.refusals == ()
    (broadside,) = fired.salvoes
    assert (broadside.stats, broadside.dice) == (11, 6)  # 11D6 halved, 5.5 rounded up
    assert salvo.plan(FIRER, {PORT: "T"}, {"T": seen}, rough=True).salvoes[0].dice == 3
    assert salvo.score(broadside.band, (4, 5, 1, 3, 2, 3)) == Score(criticals=1, hits=1)


@pytest.mark.rule("IC-FIRE-01")
def test_one_salvo_for_each_fixed_arc_each_with_all_its_stats_ic_fire_01() -> None:
    sights = {"T": _sight(tracks=(FORWARD, STARBOARD))}  # astride the forward line (IC-ARC-04)
    fired = salvo.plan(FIRER, {FORWARD: "T", STARBOARD: "T"}, sights)
    assert [(s.tracks, s.stats) for s in fired.salvoes] == [((FORWARD,), 3), ((STARBOARD,), 11)]


@pytest.mark.rule("IC-FIRE-02", "IC-SAVE-01")
def test_turrets_at_one_target_are_one_salvo_apart_from_the_arcs_ic_fire_02_ic_save_01() -> None:
    sights = {"T": _sight(tracks=(PORT, FORWARD_TURRET, REAR_TURRET))}
    fired = salvo.plan(FIRER, {PORT: "T", FORWARD_TURRET: "T", REAR_TURRET: "T"}, sights)
    assert [(s.tracks, s.stats, s.dice) for s in fired.salvoes] == [
        ((PORT,), 11, 6),
        ((FORWARD_TURRET, REAR_TURRET), 14, 7),
    ]


@pytest.mark.rule("IC-FIRE-03")
def test_each_turret_fires_at_one_target_but_turrets_may_choose_different_ones_ic_fire_03() -> None:
    sights = {"A": _sight("A", tracks=(PORT, FORWARD_TURRET, REAR_TURRET)), "B": _sight("B", tracks=(REAR_TURRET,))}
    fired = salvo.plan(FIRER, {FORWARD_TURRET: "A", REAR_TURRET: "B"}, sights)
    assert [(s.target, s.tracks) for s in fired.salvoes] == [("A", (FORWARD_TURRET,)), ("B", (REAR_TURRET,))]
    # Orders give one target a track: a turret (or an arc) cannot be split between two.


@pytest.mark.rule("IC-FIRE-04")
def test_a_track_with_nothing_left_cannot_fire_ic_fire_04() -> None:
    shot_away, _ = FIRER.cross_off(PORT, 11)
    fired = salvo.plan(shot_away, {PORT: "T"}, {"T": _sight()})
    assert fired.salvoes == ()
    assert [r.clause for r in fired.refusals] == ["IC-FIRE-04"]
    assert salvo.plan(FIRER, {CENTRE_TURRET: "T"}, {"T": _sight()}).refusals[0].clause == "IC-FIRE-04"


@pytest.mark.parametrize(
    ("stats", "armour", "rough", "on_fire", "dice"),
    [
        (11, 2, False, False, 11),  # IC-FIRE-05: a die a stat
        (11, 3, False, False, 6),  # IC-FIRE-06: 3 or more Armour left halves, rounding up
        (11, 7, False, False, 6),
        (1, 7, False, False, 1),
        (11, 0, True, False, 6),  # IC-FIRE-07: a rough sea halves
        (11, 4, True, False, 3),  # IC-FIRE-07: ... again, after the armour
        (11, 4, False, True, 3),  # IC-FIRE-08: on fire halves the final number
        (11, 4, True, True, 2),
        (13, 0, True, True, 4),
        (1, 7, True, True, 1),  # never below a die
    ],
)
@pytest.mark.rule("IC-FIRE-05", "IC-FIRE-06", "IC-FIRE-07", "IC-FIRE-08")
def test_the_dice_halvings_ic_fire_05_to_08(stats: int, armour: int, rough: bool, on_fire: bool, dice: int) -> None:
    assert salvo.salvo_dice(stats, armour, rough=rough, on_fire=on_fire) == dice


@pytest.mark.rule("IC-FIRE-08")
def test_a_ship_on_fire_halves_every_salvo_ic_fire_08() -> None:
    fired = salvo.plan(FIRER, {PORT: "T"}, {"T": _sight()}, on_fire=True)
    assert fired.salvoes[0].dice == 3


@pytest.mark.rule("IC-FIRE-09", "IC-FIRE-10", "IC-FIRE-11")
def test_what_each_face_scores_by_band_ic_fire_09_to_11() -> None:
    faces = (1, 2, 3, 4, 5, 6)
    assert salvo.score(LONG, faces) == Score(criticals=0, hits=2)  # IC-FIRE-09: over 50 cm, no criticals
    assert salvo.score(MIDDLE, faces) == Score(criticals=1, hits=2)  # IC-FIRE-10
    assert salvo.score(CLOSE, faces) == Score(criticals=2, hits=2)  # IC-FIRE-11
    assert salvo.needed(MIDDLE).judge_dice((4, 5, 6, 1), 0) == "critical:1,hit:2,miss:1"  # for the log


@pytest.mark.rule("IC-COL-08")
def test_a_collided_ship_fires_nothing_this_turn_ic_col_08() -> None:
    refused = salvo.collided(True)
    assert refused is not None
    assert refused.clause == "IC-COL-08"
    assert salvo.collided(False) is None
    fired = salvo.plan(FIRER, {PORT: "T"}, {"T": _sight()}, has_collided=True)
    assert (fired.salvoes, [r.clause for r in fired.refusals]) == ((), ["IC-COL-08"])


@pytest.mark.rule("IC-ARC-07", "IC-ZOF-02", "IC-ZOF-03")
def test_orders_the_map_refuses_ic_arc_07_ic_zof_02_ic_zof_03() -> None:
    blocked = Sight("T", (PORT,), MIDDLE, clear=False, armour_left=4, fired_into=(STARBOARD,))
    far = _sight(band=None)
    assert salvo.plan(FIRER, {STARBOARD: "T"}, {"T": _sight()}).refusals[0].clause == "IC-ARC-07"
    assert salvo.plan(FIRER, {FORWARD_TURRET: "T"}, {"T": _sight()}).refusals[0].clause == "IC-ARC-08"
    assert salvo.plan(FIRER, {PORT: "T"}, {"T": blocked}).refusals[0].clause == "IC-ZOF-02"
    assert salvo.plan(FIRER, {PORT: "T"}, {"T": far}).refusals[0].clause == "IC-ZOF-03"
    assert salvo.plan(FIRER, {PORT: "X"}, {"T": _sight()}).refusals[0].clause == "IC-FIRE-01"


@pytest.mark.rule("IC-ZOF-02", "IC-ZOF-03")
def test_the_map_sight_blocks_behind_a_ship_and_reaches_100_cm_ic_zof_02_ic_zof_03() -> None:
    target_hex = Hex(-8, 4)
    between = Hex(-4, 2)
    assert not salvo.sight(FIRER, SHIP, 0, "T", TARGET, target_hex, 0, [between]).clear
    assert salvo.sight(FIRER, SHIP, 0, "T", TARGET, Hex(-25, 12), 0, []).band == LONG
    assert salvo.sight(FIRER, SHIP, 0, "T", TARGET, Hex(-26, 13), 0, []).band is None
    # Her port is his starboard when they lie on parallel courses: the hits go into his starboard arc.
    assert salvo.sight(FIRER, SHIP, 0, "T", TARGET, target_hex, 0, []).fired_into == (STARBOARD,)
