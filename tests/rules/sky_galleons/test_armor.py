"""Armor and penetration (battles/rules/sky_galleons/combat.py): halving, no effect, protected locations."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons.combat import (
    ArmorEffect,
    CombatRules,
    FixedDice,
    Shot,
    apply_hit,
    armor_effect,
    fire,
    fire_solution,
)
from galleons.record import Moment, ShipRecord, ship_record_from_class

NOW = Moment(2, 2)
HULL, CREW, GUN, CRITICAL = 1, 3, 5, 6


def ship(name: str, cls: str, *, at: Hex = ORIGIN, altitude: str = "M") -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=0, altitude=altitude)


@pytest.mark.rule("SG-ARM-01", "SG-ARM-03", "SG-ARM-06")
@pytest.mark.parametrize(
    ("damage_value", "penetration", "armor", "effect"),
    [
        (3, 2, 0, ArmorEffect("full", 3)),
        (3, 2, 2, ArmorEffect("full", 3)),  # armor must exceed the penetration
        (3, 2, 3, ArmorEffect("halved", 1, True)),
        (4, 2, 4, ArmorEffect("halved", 2, False)),
        (4, 2, 5, ArmorEffect("none", 0)),
        (1, 1, 2, ArmorEffect("halved", 0, True)),
    ],
)
def test_armor_effect(damage_value: int, penetration: int, armor: int, effect: ArmorEffect) -> None:
    assert armor_effect(damage_value, penetration, armor) == effect


@pytest.mark.rule("SG-ARM-08")
def test_penetration_0_full_against_0_half_against_1_none_from_2() -> None:
    assert armor_effect(2, 0, 0) == ArmorEffect("full", 2)
    assert armor_effect(2, 0, 1) == ArmorEffect("halved", 1)
    assert armor_effect(2, 0, 2) == ArmorEffect("none", 0)


@pytest.mark.rule("SG-ARM-04")
@pytest.mark.parametrize(("die", "hits"), [(1, 0), (3, 0), (4, 1), (6, 1)])
def test_a_half_hit_takes_effect_on_4_to_6(die: int, hits: int) -> None:
    hamburg = ship("Hamburg", "Hamburg")  # armor 3
    hit, happened = apply_hit(hamburg, Shot(1, penetration=2), now=NOW, roller=FixedDice(HULL, die))
    assert hit.hull_hits == hits
    assert happened[1]["needed"] == "4+"


@pytest.mark.rule("SG-ARM-09")
def test_armor_does_not_protect_the_crew() -> None:
    hamburg = ship("Hamburg", "Hamburg")  # armor 3; a light gun (Pen 0) has no effect on its hull
    assert apply_hit(hamburg, Shot(2, penetration=0), now=NOW, roller=FixedDice(HULL))[0] == hamburg
    crewed, _ = apply_hit(hamburg, Shot(2, penetration=0), now=NOW, roller=FixedDice(CREW, 1))
    assert hamburg.crew_aboard - crewed.crew_aboard == 1
    # Nor a Rudder Jammed critical (3 + 3 = 6): the full damage value jams it.
    jammed, _ = apply_hit(hamburg, Shot(2, penetration=0), now=NOW, roller=FixedDice(CRITICAL, 3, 3))
    assert jammed.criticals.rudder_jam == 2


@pytest.mark.rule("SG-ARM-09", "SG-ARM-10", "SG-ARM-11")
def test_armored_guns_take_their_mount_armor_and_unarmored_guns_none() -> None:
    gloire = ship("Gloire", "Gloire")  # hull armor 4, turrets 5; the 3-pdr broadside guns unarmored
    turret = gloire.gun("1")
    assert turret.armor == 5
    # Damage value 4, Pen 2 from the bow: turret guns 1, 2 (bow), ventral 4 bear. Pen 2 x 2 < 5: no effect.
    hit, _ = apply_hit(gloire, Shot(4, penetration=2, incoming=("bow",)), now=NOW, roller=FixedDice(GUN, 1))
    assert not hit.gun("1").destroyed
    # Pen 3 against 5: halved to 2, the turret gun goes and one of its crew with it.
    hit, _ = apply_hit(gloire, Shot(4, penetration=3, incoming=("bow",)), now=NOW, roller=FixedDice(GUN, 1, 1))
    assert hit.gun("1").destroyed
    assert hit.gun("1").manned == turret.manned - 1
    # From port, guns 1, 3, 4 (turrets) and 5, 6 (3-pdrs, port broadside) bear. The fourth, a 3-pdr, has no
    # armor: damage value 2 destroys it and kills a man.
    port_guns = [gun.id for gun in gloire.guns if gun.arcs == ("port",)]
    assert port_guns == ["5", "6"]
    dice = FixedDice(GUN, 4, 1)
    hit, _ = apply_hit(gloire, Shot(2, penetration=0, incoming=("port",)), now=NOW, roller=dice)
    assert hit.gun(port_guns[0]).destroyed
    assert hit.crew_aboard == gloire.crew_aboard - 1
    assert dice.left == ()


@pytest.mark.rule("SG-ARM-09")
def test_protected_criticals_are_halved_or_stopped() -> None:
    hamburg = ship("Hamburg", "Hamburg")  # armor 3
    # Trim Damage (2 + 3) from a Pen 0 gun: armor 3 stops it; a Pen 2 gun's 3 comes through as 1 or 2.
    stopped, happened = apply_hit(hamburg, Shot(3, penetration=0), now=NOW, roller=FixedDice(CRITICAL, 2, 3))
    assert stopped == hamburg
    assert happened[-1]["outcome"] == "no effect"
    # Halved to 1 (die 2): recovery needs more than 1 (+1 for hull size 6): a natural 1 recovers.
    kept, _ = apply_hit(hamburg, Shot(3, penetration=2), now=NOW, roller=FixedDice(CRITICAL, 2, 3, 2, 1))
    assert kept.altitude == "M"
    assert kept.criticals.stunned_from == NOW.index + 1


@pytest.mark.rule("SG-CG-06", "SG-ARM-01")
def test_penetration_falls_at_long_range_unless_switched_off() -> None:
    firer = ship("Firer", "Swiftwood", at=Hex(0, 5))  # rogue: Pen 2/1, DV 3, range 3/6
    aphid = ship("Aphid", "Aphid (original)")  # armor 2
    ships = {s.name: s for s in (firer, aphid)}
    # Long range: Pen 1 against armor 2 -> halved: 1 hull hit and a half (die 1: no).
    after, _ = fire(ships, "Firer", "1", "Aphid", now=NOW, roller=FixedDice(6, HULL, 1))
    assert after["Aphid"].hull_hits == 1
    # With one penetration at all ranges (SG-CG-07): Pen 2 against armor 2 -> full 3 hits.
    after, _ = fire(ships, "Firer", "1", "Aphid", now=NOW, roller=FixedDice(6, HULL), rules=CombatRules(False))
    assert after["Aphid"].hull_hits == 3
    closer = replace(firer, position=Hex(0, 3))
    assert fire_solution(closer, "1", aphid, now=NOW).penetration == 2
