"""Damage resolution (IC-DMG-01..14, IC-SAVE-07/08, IC-SEQ-02): the Hits line, the allocation and its checks,
and the sensible owner's default."""

from __future__ import annotations

import itertools

import pytest

from battles.rules.ironclads import cards, damage
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
    TRACKS,
)
from battles.rules.ironclads.damage import Allocation, Noted
from battles.rules.ironclads.salvo import Score

SHIP = cards.card(
    "SHIP",
    {FORWARD: 2, PORT: 6, STARBOARD: 6, REAR: 2, ARMOUR: 4, PROPULSION: 20, HULL: 9},
)
TURRET_SHIP = cards.card(
    "TURRET SHIP",
    {FORWARD_TURRET: 4, CENTRE_TURRET: 3, REAR_TURRET: 3, ARMOUR: 5, PROPULSION: 6, HULL: 12},
    turret_arcs={FORWARD_TURRET: (FORWARD, PORT, STARBOARD), CENTRE_TURRET: (PORT, STARBOARD), REAR_TURRET: (REAR,)},
)


@pytest.mark.rule("IC-SEQ-02")
def test_a_d6_read_as_a_d3_ic_seq_02() -> None:
    assert [damage.d3(face) for face in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError, match="1 to 6"):
        damage.d3(7)


@pytest.mark.rule("IC-SAVE-07", "IC-SAVE-08", "IC-DMG-13")
def test_unsaved_hits_are_noted_as_c_and_h_keeping_their_arc_ic_save_07_ic_save_08_ic_dmg_13() -> None:
    noted = Noted().note(Score(criticals=1, hits=1), (PORT,)).note(Score(hits=2), (FORWARD, STARBOARD))
    assert noted.line == "CHHH"
    assert noted.hits == ((PORT,), (FORWARD, STARBOARD), (FORWARD, STARBOARD))
    assert noted.criticals == ((PORT,),)
    assert not Noted()
    assert noted


@pytest.mark.rule("IC-DMG-01")
def test_a_ship_with_nothing_noted_has_nothing_to_resolve_ic_dmg_01() -> None:
    resolution = damage.resolve(SHIP, Noted(), (), Allocation((), ()))
    assert (resolution.card, resolution.losses) == (SHIP, ())
    assert damage.default_allocation(SHIP, Noted(), ()) == Allocation((), ())


@pytest.mark.rule("IC-DMG-01", "IC-DMG-04")
def test_every_hit_needs_a_track_and_every_critical_a_d3_ic_dmg_01_ic_dmg_04() -> None:
    noted = Noted().note(Score(criticals=1, hits=1), (PORT,))
    assert [r.clause for r in damage.refusals(SHIP, noted, (2,), Allocation((HULL,), ()))] == ["IC-DMG-01"]
    assert [r.clause for r in damage.refusals(SHIP, noted, (), Allocation((HULL,), (PORT,)))] == ["IC-DMG-04"]


@pytest.mark.rule("IC-DMG-08", "IC-DMG-04")
def test_the_golden_critical_ic_dmg_08_ic_dmg_04() -> None:
    noted = Noted().note(Score(criticals=1), (PORT,))
    demand = damage.d3(5)  # a 5 is a 3
    resolution = damage.resolve(SHIP, noted, (demand,), Allocation((PROPULSION,), ()))
    assert resolution.card.left(PROPULSION) == 17
    assert resolution.losses == (damage.Loss(PROPULSION, 3, 3, critical=True),)


@pytest.mark.rule("IC-DMG-09", "IC-DMG-06")
def test_the_golden_critical_short_of_stats_ic_dmg_09_ic_dmg_06() -> None:
    noted = Noted().note(Score(criticals=1), (PORT,))
    resolution = damage.resolve(SHIP, noted, (3,), Allocation((REAR,), ()))
    assert resolution.card.left(REAR) == 0
    (loss,) = resolution.losses
    assert (loss.crossed, loss.missed) == (2, 1)  # the third stat is a miss and goes nowhere else
    assert resolution.card.left(FORWARD) == 2


@pytest.mark.rule("IC-DMG-05")
def test_a_critical_may_take_any_track_even_guns_that_cannot_bear_ic_dmg_05() -> None:
    noted = Noted().note(Score(criticals=1), (PORT,))
    for track in TRACKS:
        if SHIP.left(track):
            assert damage.refusals(SHIP, noted, (2,), Allocation((track,), ())) == ()
    assert damage.resolve(SHIP, noted, (2,), Allocation((STARBOARD,), ())).card.left(STARBOARD) == 4


@pytest.mark.rule("IC-DMG-05", "IC-DMG-10")
def test_an_empty_track_is_not_hers_to_choose_while_she_has_stats_ic_dmg_05_ic_dmg_10() -> None:
    noted = Noted().note(Score(criticals=1, hits=1), (PORT,))
    refused = damage.refusals(SHIP, noted, (3,), Allocation((CENTRE_TURRET,), (HULL,)))
    assert [r.clause for r in refused] == ["IC-DMG-05"]
    refused = damage.refusals(SHIP, noted, (3,), Allocation((HULL,), (REAR_TURRET,)))
    assert [r.clause for r in refused] == ["IC-DMG-10"]


@pytest.mark.rule("IC-DMG-02", "IC-DMG-03")
def test_criticals_are_crossed_off_before_hits_ic_dmg_02_ic_dmg_03() -> None:
    # The H was fired into the port arc, which has 1 left; the C takes it first, so the H may go elsewhere.
    ship, _ = SHIP.cross_off(PORT, 5)
    noted = Noted().note(Score(criticals=1, hits=1), (PORT,))
    resolution = damage.resolve(ship, noted, (1,), Allocation((PORT,), (STARBOARD,)))
    assert [(loss.track, loss.critical) for loss in resolution.losses] == [(PORT, True), (STARBOARD, False)]
    assert (resolution.card.left(PORT), resolution.card.left(STARBOARD)) == (0, 5)
    assert resolution.card.track(STARBOARD).lost == 1  # from the right (IC-SPD-06)


@pytest.mark.rule("IC-DMG-10")
def test_an_h_crosses_off_one_stat_of_any_type_ic_dmg_10() -> None:
    noted = Noted().note(Score(hits=3), (PORT,))
    resolution = damage.resolve(SHIP, noted, (), Allocation((), (ARMOUR, HULL, PORT)))
    assert [(loss.track, loss.crossed) for loss in resolution.losses] == [(ARMOUR, 1), (HULL, 1), (PORT, 1)]


@pytest.mark.rule("IC-DMG-11")
def test_an_h_on_the_guns_comes_from_the_arc_fired_into_first_ic_dmg_11() -> None:
    noted = Noted().note(Score(hits=1), (PORT,))
    refused = damage.refusals(SHIP, noted, (), Allocation((), (STARBOARD,)))
    assert [r.clause for r in refused] == ["IC-DMG-11"]
    assert "port" in refused[0].reason
    assert damage.refusals(SHIP, noted, (), Allocation((), (PORT,))) == ()
    empty, _ = SHIP.cross_off(PORT, 6)
    assert damage.refusals(empty, noted, (), Allocation((), (STARBOARD,))) == ()  # then any arc
    # Two H's into the port arc with one stat left there: the first must take it, the second may go anywhere.
    one_left, _ = SHIP.cross_off(PORT, 5)
    two = Noted().note(Score(hits=2), (PORT,))
    assert damage.refusals(one_left, two, (), Allocation((), (PORT, REAR))) == ()
    assert [r.clause for r in damage.refusals(one_left, two, (), Allocation((), (REAR, PORT)))] == ["IC-DMG-11"]


@pytest.mark.rule("IC-DMG-11", "IC-ARC-04")
def test_an_h_fired_into_two_arcs_may_come_from_either_ic_dmg_11_ic_arc_04() -> None:
    noted = Noted().note(Score(hits=1), (FORWARD, PORT))
    assert damage.refusals(SHIP, noted, (), Allocation((), (FORWARD,))) == ()
    assert damage.refusals(SHIP, noted, (), Allocation((), (PORT,))) == ()
    assert damage.refusals(SHIP, noted, (), Allocation((), (REAR,)))[0].clause == "IC-DMG-11"


@pytest.mark.rule("IC-DMG-12")
def test_an_h_on_the_turrets_comes_from_turrets_bearing_that_way_first_ic_dmg_12() -> None:
    noted = Noted().note(Score(hits=1), (PORT,))
    assert damage.refusals(TURRET_SHIP, noted, (), Allocation((), (FORWARD_TURRET,))) == ()
    assert damage.refusals(TURRET_SHIP, noted, (), Allocation((), (CENTRE_TURRET,))) == ()
    refused = damage.refusals(TURRET_SHIP, noted, (), Allocation((), (REAR_TURRET,)))
    assert [r.clause for r in refused] == ["IC-DMG-12"]
    silenced, _ = TURRET_SHIP.cross_off(FORWARD_TURRET, 4)
    silenced, _ = silenced.cross_off(CENTRE_TURRET, 3)
    assert damage.refusals(silenced, noted, (), Allocation((), (REAR_TURRET,))) == ()
    # An H fired into her rear: only the rear turret bears there.
    astern = Noted().note(Score(hits=1), (REAR,))
    assert damage.refusals(TURRET_SHIP, astern, (), Allocation((), (FORWARD_TURRET,)))[0].clause == "IC-DMG-12"


@pytest.mark.rule("IC-DMG-14", "IC-DMG-07")
def test_the_golden_two_hs_ic_dmg_14() -> None:
    ship = cards.card("SHIP", {FORWARD: 2, PORT: 4, ARMOUR: 2, PROPULSION: 6, HULL: 4})
    noted = Noted().note(Score(hits=2), (FORWARD,))
    resolution = damage.resolve(ship, noted, (), Allocation((), (PROPULSION, FORWARD)))
    assert (resolution.card.left(PROPULSION), resolution.card.left(FORWARD)) == (5, 1)
    assert len(resolution.losses) == 2  # both H's resolved: the Hits line is clear (IC-DMG-07)


def test_one_decision_refusals_name_each_hit_and_resolve_refuses_a_wrong_one() -> None:
    noted = Noted().note(Score(criticals=1, hits=2), (PORT,))
    refused = damage.refusals(SHIP, noted, (2,), Allocation(("funnel",), (STARBOARD, STARBOARD)))
    assert [r.clause for r in refused] == ["IC-CARD-01", "IC-DMG-11", "IC-DMG-11"]
    assert refused[1].reason.startswith("H 1:")
    with pytest.raises(ValueError, match="IC-DMG-11"):
        damage.resolve(SHIP, noted, (2,), Allocation((HULL,), (STARBOARD, STARBOARD)))


# --- the sensible owner ---------------------------------------------------------------------------------


def _legal(card: cards.DataCard, noted: Noted, demands: tuple[int, ...]) -> Allocation:
    allocation = damage.default_allocation(card, noted, demands)
    assert damage.refusals(card, noted, demands, allocation) == ()
    return allocation


@pytest.mark.rule("IC-DMG-05", "IC-DMG-10")
def test_the_default_takes_guns_that_cannot_bear_and_never_the_hull_ic_dmg_05_ic_dmg_10() -> None:
    noted = Noted().note(Score(criticals=2, hits=2), (PORT,))
    allocation = _legal(SHIP, noted, (3, 1))
    assert HULL not in allocation.criticals + allocation.hits
    assert PORT not in allocation.criticals  # the guns bearing on the enemy are spared by the criticals
    # The 3 goes on a 2-stat track that cannot bear, so a stat of it is a miss.
    assert allocation.criticals[0] in (FORWARD, REAR)


@pytest.mark.rule("IC-DMG-06")
def test_the_default_wastes_big_criticals_on_small_tracks_ic_dmg_06() -> None:
    noted = Noted().note(Score(criticals=1), (PORT,))
    resolution = damage.resolve(SHIP, noted, (3,), _legal(SHIP, noted, (3,)))
    assert resolution.losses[0].missed == 1


def test_the_default_spares_hull_and_propulsion_while_she_may_sink() -> None:
    gunless = SHIP
    for track in (FORWARD, PORT, STARBOARD, REAR):
        gunless, _ = gunless.cross_off(track, 6)
    noted = Noted().note(Score(criticals=1, hits=1), (PORT,))
    assert _legal(gunless, noted, (3,)) == Allocation((PROPULSION,), (PROPULSION,))  # afloat: speed is cheap
    sinking, _ = gunless.cross_off(HULL, 7)  # 2 left
    assert _legal(sinking, noted, (3,)) == Allocation((ARMOUR,), (ARMOUR,))  # sinking: her way home is not


def test_the_default_is_always_legal_and_spares_the_hull_while_it_can() -> None:
    for armour, hull, c_count, h_count, arcs in itertools.product(
        (0, 3, 7), (1, 5), (0, 2), (0, 3), ((PORT,), (FORWARD, STARBOARD), (REAR,))
    ):
        for card in (SHIP, TURRET_SHIP):
            ship, _ = card.cross_off(ARMOUR, card.left(ARMOUR) - min(armour, card.left(ARMOUR)))
            ship, _ = ship.cross_off(HULL, ship.left(HULL) - hull)
            noted = Noted().note(Score(criticals=c_count, hits=h_count), arcs)
            demands = (3, 2)[:c_count]
            allocation = _legal(ship, noted, demands)
            assert HULL not in allocation.criticals + allocation.hits
            assert damage.resolve(ship, noted, demands, allocation).card.left(HULL) == hull


def test_when_nothing_is_left_anywhere_every_hit_is_a_miss() -> None:
    wreck = cards.card("WRECK", {HULL: 1})
    wreck, _ = wreck.cross_off(HULL, 1)
    noted = Noted().note(Score(criticals=1, hits=1), (PORT,))
    resolution = damage.resolve(wreck, noted, (2,), _legal(wreck, noted, (2,)))
    assert sum(loss.crossed for loss in resolution.losses) == 0
