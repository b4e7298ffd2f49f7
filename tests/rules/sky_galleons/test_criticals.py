"""Critical hits, loss of trim, fires and repairs (battles/rules/sky_galleons/combat.py, SG-CRIT, SG-CREW-09)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN
from battles.rules.sky_galleons.combat import (
    CombatRules,
    FixedDice,
    Shot,
    apply_critical,
    begin_turn,
    check_untrimmed,
    critical_hit,
    fight_fire,
    fire_reaches_magazine,
    lose_trim,
    repair,
    trim_recovers,
)
from galleons.record import Criticals, Moment, ShipRecord, ship_record_from_class

NOW = Moment(4, 1)


def ship(cls: str = "Swiftwood", *, name: str = "Target", altitude: str = "M", **changes: object) -> ShipRecord:
    record = ship_record_from_class(cls, name=name, position=ORIGIN, facing=0, altitude=altitude)
    return replace(record, **changes)


def crit(record: ShipRecord, kind: str, damage_value: int, *faces: int, **shot: object) -> tuple[ShipRecord, FixedDice]:
    dice = FixedDice(*faces)
    result, _ = apply_critical(record, kind, Shot(damage_value, **shot), now=NOW, roller=dice)
    assert dice.left == (), f"unused dice {dice.left}"
    return result, dice


# --- the table ------------------------------------------------------------------------------------------


@pytest.mark.rule(
    "SG-CRIT-01",
    "SG-CRIT-02",
    "SG-CRIT-03",
    "SG-CRIT-04",
    "SG-CRIT-05",
    "SG-CRIT-06",
    "SG-CRIT-07",
    "SG-CRIT-08",
    "SG-CRIT-09",
)
@pytest.mark.parametrize(
    ("faces", "result", "then"),
    [
        ((1, 1), "magazine", (2, 1, 6)),  # a light gun's magazine; its own critical 1+6 = 7, a fire
        ((4, 6), "magazine", (2, 1, 6)),
        ((1, 2), "bridge", (1,)),  # the die picks the captain
        ((5, 6), "bridge", (1,)),
        ((1, 3), "fire_boiler", ()),
        ((6, 6), "fire_boiler", ()),
        ((1, 4), "trim", (6,)),
        ((1, 5), "rudder", ()),
        ((1, 6), "fire", ()),
        ((2, 6), "lifters", ()),
        ((3, 6), "screw_mast", ()),
    ],
)
def test_critical_hit_table(faces: tuple[int, int], result: str, then: tuple[int, ...]) -> None:
    dice = FixedDice(*faces, *then)
    _, happened = critical_hit(ship(), Shot(2), now=NOW, roller=dice)
    assert happened[0]["faces"] == list(faces)
    assert happened[0]["outcome"] == result
    assert dice.left == ()


# --- magazine -------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CRIT-10", "SG-CRIT-11", "SG-CRIT-12")
def test_magazine_loses_a_gun_and_its_crew_then_hull_hits_and_a_critical_at_its_damage_value() -> None:
    target = ship()
    # Magazines: the rogue (DV 3) and two light guns (DV 1); the die picks the rogue. Its own critical is a
    # Rudder Jammed (1 + 5) at the rogue's damage value, 3, not the firing gun's 1.
    after, dice = crit(target, "magazine", 1, 1, 1, 5)
    assert dice.calls[0][2] == 3
    rogue = after.gun("1")
    assert rogue.destroyed
    assert rogue.manned == 0
    assert after.hull_hits == 3
    assert after.criticals.rudder_jam == 3


@pytest.mark.rule("SG-CRIT-13", "SG-CRIT-14")
def test_magazine_with_only_damage_value_1_guns_takes_one_and_with_none_is_a_fire() -> None:
    clearsight = ship("Clearsight")  # four light guns, DV 1: one of them goes (the decision)
    after, _ = crit(clearsight, "magazine", 2, 4, 2, 5)
    assert after.gun("4").destroyed
    assert after.hull_hits == 1
    assert after.fire == 1  # its own critical, 2 + 5 = 7, a fire at damage value 1
    fleetfoot = ship("Fleetfoot")  # two sweepers: no damage value, no magazine
    after, _ = crit(fleetfoot, "magazine", 2)
    assert after.fire == 2
    assert after.guns == fleetfoot.guns


@pytest.mark.rule("SG-ARM-09", "SG-CRIT-10")
def test_armor_protects_the_magazines() -> None:
    hamburg = ship("Hamburg")  # armor 3
    assert crit(hamburg, "magazine", 2, penetration=0)[0] == hamburg


# --- bridge ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CRIT-15", "SG-CRIT-16", "SG-CRIT-43")
def test_bridge_kills_half_the_damage_value_by_die_and_locks_course_and_altitude_next_turn() -> None:
    target = ship()  # bridge: captain, officer, helmsman, trimsman, signalman
    after, dice = crit(target, "bridge", 3, 3, 4)
    # Two killed: the 3rd of five (helmsman), then the 4th of the four left (signalman).
    assert [sides for _, _, sides in dice.calls] == [5, 4]
    assert (after.crew.captain, after.crew.officers, after.crew.helmsman) == (1, 1, 0)
    assert (after.crew.trimsman, after.crew.signalman) == (1, 0)
    assert after.criticals.helm_locked_turn == NOW.turn + 1
    assert after.can_change_course(NOW) is False  # no helmsman now
    relieved = replace(after, crew=after.crew.with_count("helmsman", 1))
    assert not relieved.can_change_course(Moment(NOW.turn + 1))
    assert not relieved.can_change_altitude(Moment(NOW.turn + 1))
    assert relieved.can_change_course(Moment(NOW.turn + 2))


# --- fire and boiler ------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CRIT-17", "SG-CRIT-49", "SG-CRIT-24")
def test_fire_starts_at_the_damage_value_and_adds_to_a_fire_burning() -> None:
    after, _ = crit(ship(), "fire", 3)
    assert after.fire == 3
    again, _ = crit(after, "fire_boiler", 2)  # a kite has no boiler: a Fire
    assert again.fire == 5


@pytest.mark.rule("SG-CRIT-25", "SG-CRIT-27")
def test_boiler_holds_and_the_speed_loss_recovers_a_turn_at_a_time() -> None:
    ranger = ship("Ranger")  # steam, speed 4, engine size 2, armor 0
    after, _ = crit(ranger, "fire_boiler", 3, 3)  # 3 is not less than 3: it holds
    assert after.criticals.boiler_loss == 3
    assert after.effective_speed() == 1
    speeds = []
    for _ in range(4):
        after, _ = begin_turn(after)
        speeds.append(after.effective_speed())
    assert speeds == [2, 3, 4, 4]


@pytest.mark.rule("SG-CRIT-25", "SG-CRIT-26", "SG-CRIT-44")
def test_boiler_blows_below_the_damage_value_killing_the_engine_crew_with_engine_size_criticals() -> None:
    ranger = ship("Ranger")
    # 2 is less than 3: it blows. Two more criticals at damage value 1: 1+6 and 2+5, fires of 1 each.
    after, _ = crit(ranger, "fire_boiler", 3, 2, 1, 6, 2, 5)
    assert after.criticals.boiler_blown
    assert after.crew.maneuver == 0
    assert after.effective_speed() == 0
    assert after.fire == 2
    assert not after.jury_rig_possible


# --- trim -----------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CRIT-31", "SG-CRIT-36", "SG-CRIT-37", "SG-CRIT-48")
def test_loss_of_trim_drops_a_level_per_failure_until_recovered_then_stuns_two_phases() -> None:
    target = ship(altitude="M")  # Hs 3: no hull bonus; trimsman alive
    recovered, _ = crit(target, "trim", 2, 3)
    assert recovered.altitude == "M"
    # Recovered or not, the crew is stunned (main text over the chart): no moving, firing or fire fighting.
    assert recovered.stunned(Moment(4, 2))
    assert not recovered.can_change_course(Moment(4, 2))
    after, _ = crit(target, "trim", 2, 2, 1, 3)
    assert after.altitude == "VL"
    assert after.status == "flying"
    assert not after.stunned(NOW)
    assert after.stunned(Moment(4, 2))
    assert after.stunned(Moment(5, 1))
    assert not after.stunned(Moment(5, 2))


@pytest.mark.rule("SG-CRIT-36", "SG-ALT-10", "SG-CRIT-47")
def test_failing_all_the_way_down_crashes() -> None:
    after, _ = crit(ship(altitude="L"), "trim", 4, 1, 2)
    assert after.altitude == "G"
    assert after.status == "crashed"


@pytest.mark.rule("SG-CRIT-33")
@pytest.mark.parametrize(
    ("dead", "modifier"),
    [
        ((), {}),
        (("trimsman",), {"captain at the trim": -1}),
        (("trimsman", "captain"), {"officer or petty officer at the trim": -2}),
        (
            ("trimsman", "captain", "officers", "helmsman", "marine_officers"),
            {"crewman at the trim": -3},
        ),
    ],
)
def test_who_recovers_trim_and_at_what_modifier(dead: tuple[str, ...], modifier: dict[str, int]) -> None:
    target = ship()
    crew = target.crew
    for post in dead:
        crew = crew.with_count(post, 0)
    # A 5 beats damage value 1 even at -3.
    _, happened = lose_trim(replace(target, crew=crew), 1, now=NOW, roller=FixedDice(5))
    assert happened[0]["modifiers"] == modifier


@pytest.mark.rule("SG-CRIT-33")
def test_nobody_aboard_cannot_recover_trim() -> None:
    target = ship(altitude="L")
    empty = replace(
        target,
        crew=replace(
            target.crew,
            captain=0,
            officers=0,
            helmsman=0,
            trimsman=0,
            signalman=0,
            deckhands=0,
            marine_officers=0,
            marines=0,
            maneuver_lost=sum(target.crew.maneuver_rows),
        ),
        guns=tuple(replace(gun, manned=0) for gun in target.guns),
    )
    after, happened = lose_trim(empty, 1, now=NOW, roller=FixedDice())
    assert after.status == "crashed"
    assert happened[0]["outcome"] == "fails"


@pytest.mark.rule("SG-CRIT-34", "SG-ERR-08", "SG-CQ-04", "SG-CQ-08")
def test_hull_size_and_crew_quality_modify_the_die() -> None:
    _, happened = lose_trim(ship("Skylord", crew_quality="green"), 2, now=NOW, roller=FixedDice(5))  # Hs 14
    assert happened[0]["modifiers"] == {"hull size": 2, "green crew": -1}
    _, happened = lose_trim(ship("Endtime", crew_quality="crack"), 2, now=NOW, roller=FixedDice(5))  # Hs 5
    assert happened[0]["modifiers"] == {"hull size": 1, "crack crew": 1}


@pytest.mark.rule("SG-CRIT-35")
def test_a_natural_6_always_recovers_trim() -> None:
    assert trim_recovers(6, 3, 8, CombatRules(errata=False))
    assert not trim_recovers(5, 7, 8, CombatRules(errata=False))


@pytest.mark.rule("SG-CRIT-32")
def test_collision_trim_loss_uses_half_the_hull_size_difference() -> None:
    # Hull sizes 7 and 2: floor(5 / 2) = 2 to beat. A 2 drops a level, a 3 recovers.
    after, _ = lose_trim(ship(), (7 - 2) // 2, now=NOW, roller=FixedDice(2, 3), cause="collision")
    assert after.altitude == "L"


@pytest.mark.rule("SG-ERR-07")
def test_errata_damage_value_6_or_more_recovers_on_a_modified_6() -> None:
    # Hs 3 with a crack crew (+1): damage value 6, a natural 5 makes 6.
    crack = ship(crew_quality="crack")
    assert lose_trim(crack, 6, now=NOW, roller=FixedDice(5))[0].altitude == "M"
    assert lose_trim(crack, 6, now=NOW, roller=FixedDice(5, 6), rules=CombatRules(errata=False))[0].altitude == "L"


@pytest.mark.rule("SG-ARM-09")
def test_armor_protects_the_trim_controls() -> None:
    hamburg = ship("Hamburg")
    assert crit(hamburg, "trim", 1, penetration=0)[0] == hamburg


# --- rudder, lifters, screw and mast, repairs ------------------------------------------------------------


@pytest.mark.rule("SG-CRIT-38", "SG-CRIT-39", "SG-CRIT-41")
def test_rudder_jam_adds_up_and_frees_above_it_or_on_a_6() -> None:
    jammed, _ = crit(ship(), "rudder", 5)
    jammed, _ = crit(jammed, "rudder", 2)
    assert jammed.criticals.rudder_jam == 7
    assert not jammed.can_change_course(NOW)
    still, _ = repair(jammed, roller=FixedDice(5))
    assert still.criticals.rudder_jam == 7
    freed, happened = repair(jammed, roller=FixedDice(6))
    assert freed.criticals.rudder_jam == 0
    assert happened[0]["outcome"] == "freed"
    assert freed.can_change_course(NOW)


@pytest.mark.rule("SG-CRIT-42")
def test_lifters_jam_and_free_like_the_rudder() -> None:
    jammed, _ = crit(ship(), "lifters", 2)
    assert not jammed.can_change_altitude(NOW)
    assert repair(jammed, roller=FixedDice(2))[0].criticals.lifters_jam == 2
    freed, _ = repair(jammed, roller=FixedDice(3))
    assert freed.criticals.lifters_jam == 0
    assert freed.can_change_altitude(NOW)
    # Both jammed: the rudder is tried first, then the lifters.
    both, _ = crit(jammed, "rudder", 1)
    dice = FixedDice(2, 1)
    after, _ = repair(both, roller=dice)
    assert (after.criticals.rudder_jam, after.criticals.lifters_jam) == (0, 2)
    assert dice.purposes == ["free Target's jammed rudder", "free Target's jammed lifters"]


@pytest.mark.rule("SG-CRIT-28", "SG-CRIT-29", "SG-CRIT-45", "SG-CRIT-46")
def test_screw_and_mast_hits_cost_one_each_whatever_the_damage_value() -> None:
    hamburg, _ = crit(ship("Hamburg"), "screw_mast", 6)
    assert hamburg.effective_speed() == 4
    kite, _ = crit(ship(), "screw_mast", 6)
    assert kite.effective_speed(4) == 4  # the die's 4 counts as 3: speed 1 + 3


@pytest.mark.rule("SG-CRIT-30")
def test_jury_rig_on_a_6_in_the_repair_step() -> None:
    stopped = ship("Hamburg", criticals=Criticals(screw_mast_hits=5))
    assert repair(stopped, roller=FixedDice(5))[0].effective_speed() == 0
    rigged, happened = repair(stopped, roller=FixedDice(6))
    assert rigged.effective_speed() == 1
    assert happened[0]["outcome"] == "jury-rigged"
    # Nothing to repair: no dice.
    assert repair(rigged, roller=FixedDice()) == (rigged, [])


# --- fires ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CRIT-18", "SG-SEQ-10")
def test_fires_grow_each_turn_faster_on_kites() -> None:
    assert begin_turn(ship("Ranger", fire=2))[0].fire == 3
    assert begin_turn(ship("Swiftwood", fire=2))[0].fire == 4
    assert begin_turn(ship("Ranger"))[0].fire == 0


@pytest.mark.rule("SG-CRIT-20")
def test_a_fire_above_hull_size_reaches_a_magazine() -> None:
    target = ship(fire=3)  # Hs 3: not above
    assert fire_reaches_magazine(target, now=NOW, roller=FixedDice()) == (target, [])
    burning = ship(fire=4)
    # The rogue's magazine (die 1 of 3), 3 hull hits, then its critical: 3 + 5 = 8, lifters jammed 3.
    after, _ = fire_reaches_magazine(burning, now=NOW, roller=FixedDice(1, 3, 5))
    assert after.gun("1").destroyed
    assert after.hull_hits == 3
    assert after.criticals.lifters_jam == 3


@pytest.mark.rule("SG-CRIT-20")
def test_with_no_magazine_left_the_fire_does_a_die_of_hull_hits() -> None:
    fleetfoot = ship("Fleetfoot", fire=2)  # Hs 1, sweepers only
    after, happened = fire_reaches_magazine(fleetfoot, now=NOW, roller=FixedDice(4))
    assert after.hull_hits == 4
    assert happened[1]["outcome"] == "4 hull hits"


@pytest.mark.rule("SG-CRIT-21", "SG-CRIT-23")
def test_fire_fighting_on_a_wooden_ship_puts_out_a_level_per_6() -> None:
    target = ship(fire=5)  # 3 deckhands, no extra petty officers
    after, happened = fight_fire(target, now=NOW, roller=FixedDice(6, 5, 6))
    assert after.fire == 3
    assert happened[0]["needed"] == "6+ each"


@pytest.mark.rule("SG-CRIT-22", "SG-CRIT-21")
def test_fire_fighting_on_a_steel_ship_puts_out_a_level_per_5_or_6() -> None:
    aphid = ship("Aphid (original)", fire=4)  # steel: 2 deckhands and 1 extra petty officer
    after, _ = fight_fire(aphid, now=NOW, roller=FixedDice(5, 6, 4))
    assert after.fire == 2
    out, _ = fight_fire(replace(aphid, fire=1), now=NOW, roller=FixedDice(6, 6, 6))
    assert out.fire == 0


@pytest.mark.rule("SG-CRIT-37")
def test_a_stunned_crew_does_not_fight_fires() -> None:
    stunned = ship(fire=3, criticals=Criticals(stunned_from=NOW.index, stunned_through=NOW.index + 1))
    after, happened = fight_fire(stunned, now=NOW, roller=FixedDice())
    assert after.fire == 3
    assert happened[0]["clauses"] == ["SG-CRIT-37"]


# --- nobody at the trim station ------------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-09")
def test_nobody_at_the_trim_station_loses_trim_on_a_6() -> None:
    manned = ship()
    assert check_untrimmed(manned, now=NOW, roller=FixedDice()) == (manned, [])
    untrimmed = replace(manned, crew=manned.crew.with_count("trimsman", 0))
    assert check_untrimmed(untrimmed, now=NOW, roller=FixedDice(5))[0] == untrimmed
    # On a 6, a loss of trim against damage value 6 (the decision): the captain (-1) rolls a 5, making 4:
    # the ship drops a level; then a natural 6 recovers.
    after, happened = check_untrimmed(untrimmed, now=NOW, roller=FixedDice(6, 5, 6))
    assert after.altitude == "L"
    assert [h["outcome"] for h in happened if h["faces"]] == ["loss of trim", "drops", "recovered"]
