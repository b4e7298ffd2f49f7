"""The ship classes and the fleet list (battles/rules/barsoom/ships.py, data/classes.json)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from battles.rules.barsoom import ships
from battles.rules.barsoom.kinds import CAPITAL, MEDIUM, SMALL
from battles.rules.barsoom.ships import Bombs, Guns, ShipClass, Vessel


@pytest.mark.rule("BR-CLS-01")
def test_there_are_three_classes_largest_first():
    classes = ships.classes()
    assert list(classes) == [CAPITAL, MEDIUM, SMALL]
    assert [c.name for c in classes.values()] == ["capital ship", "medium ship", "small craft"]
    assert [c.size for c in classes.values()] == [3, 2, 1]


@pytest.mark.rule("BR-CLS-02", "BR-CLS-05", "BR-CLS-06")
def test_class_speeds():
    assert {k: (c.speed_inches, c.speed) for k, c in ships.classes().items()} == {
        CAPITAL: (4, 2),
        MEDIUM: (6, 3),
        SMALL: (8, 4),
    }


@pytest.mark.rule("BR-CLS-04", "BR-CLS-05", "BR-CLS-11")
def test_bombs_carried_by_class():
    bombs = {k: c.bombs for k, c in ships.classes().items()}
    assert {k: b.spec for k, b in bombs.items()} == {CAPITAL: "D6", MEDIUM: "D3", SMALL: "1"}
    assert [bombs[CAPITAL].count(face) for face in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert [bombs[MEDIUM].count(face) for face in range(1, 4)] == [1, 2, 3]
    assert bombs[SMALL].count() == 1
    with pytest.raises(ValueError, match="from 1 to 3"):
        bombs[MEDIUM].count(4)


@pytest.mark.rule("BR-CLS-03", "BR-CLS-07", "BR-CLS-08", "BR-MOV-09", "BR-MOV-10", "BR-MOV-11")
def test_what_the_classes_allow_beyond_the_restrictions():
    classes = ships.classes()
    assert {k: c.ascends_per_turn for k, c in classes.items()} == {CAPITAL: 1, MEDIUM: 1, SMALL: 2}
    assert {k: c.turns_per_forward for k, c in classes.items()} == {CAPITAL: 1, MEDIUM: 1, SMALL: 2}
    assert {k: c.reverses_per_turn for k, c in classes.items()} == {CAPITAL: 1, MEDIUM: 1, SMALL: 1}
    assert {k: c.extra_ascend for k, c in classes.items()} == {CAPITAL: False, MEDIUM: False, SMALL: True}
    assert {k: c.safe_landing_descends for k, c in classes.items()} == {CAPITAL: 2, MEDIUM: 1, SMALL: 1}


@pytest.mark.rule("BR-CLS-09", "BR-CLS-10")
def test_small_craft_weapon_figures():
    classes = ships.classes()
    small = classes[SMALL]
    assert (small.light_weapons_harm, small.light_weapon_damage_modifier, small.heavy_weapon_damage_modifier) == (
        True,
        -4,
        1,
    )
    for big in (classes[CAPITAL], classes[MEDIUM]):
        assert (big.light_weapons_harm, big.heavy_weapon_damage_modifier) == (False, 0)


@pytest.mark.rule("BR-CLS-12")
def test_the_fleet_list_states_every_ship_and_its_speeds_are_the_designers():
    fleet = ships.fleet()
    assert len(fleet) == 8
    assert {ship.ship_class.key for ship in fleet} == {CAPITAL, MEDIUM, SMALL}
    assert {ship.speed_inches for ship in fleet} == {4, 6, 8}
    table = {s.name: (s.ship_class.key, s.speed, s.guns, s.crew, s.bombs.spec) for s in fleet}
    assert table == {
        "Heliumite battleship": (CAPITAL, 2, Guns(4, 6, 8), 40, "D6"),
        "Zodangan battleship": (CAPITAL, 2, Guns(4, 4, 10), 45, "D6"),
        "troop transport": (CAPITAL, 2, Guns(0, 2, 6), 60, "D6"),
        "Heliumite cruiser": (MEDIUM, 3, Guns(2, 4, 6), 20, "D3"),
        "Zodangan patrol cruiser": (MEDIUM, 3, Guns(1, 4, 6), 18, "D3"),
        "black pirate flier": (MEDIUM, 4, Guns(0, 2, 6), 15, "D3"),
        "scout flier": (SMALL, 4, Guns(0, 0, 2), 2, "1"),
        "one-man air scout": (SMALL, 4, Guns(0, 0, 1), 1, "1"),
    }
    for ship in fleet:
        assert ship.after, ship.name
        assert ship.bombs.most <= ship.ship_class.bombs.most


def test_a_vessel_round_trips_through_plain_json_with_its_class_whole():
    for vessel in ships.fleet():
        text = json.dumps(vessel.to_json())
        assert Vessel.from_json(json.loads(text)) == vessel
    assert ships.vessel("scout flier").ship_class == ships.classes()[SMALL]
    with pytest.raises(KeyError, match="no ship"):
        ships.vessel("Thark chariot")


def test_bad_data_is_refused_loudly():
    data = ships.vessel("Heliumite cruiser").to_json()
    with pytest.raises(ValueError, match="even number of inches"):
        Vessel.from_json({**data, "speed_inches": 5})
    with pytest.raises(ValueError, match="at most D3"):
        Vessel.from_json({**data, "bombs": "D6"})
    with pytest.raises(ValueError, match="counted as"):
        Vessel.from_json({**data, "guns": {"heavy": 1}})
    with pytest.raises(ValueError, match="no ship class"):
        Vessel.from_json({**data, "class": "dreadnought"}, ships.classes())
    with pytest.raises(ValueError, match="a die"):
        Bombs.parse("lots")
    capital = ships.classes()[CAPITAL].to_json()
    with pytest.raises(ValueError, match="one of"):
        ShipClass.from_json({**capital, "key": "huge"})
    assert ShipClass.from_json(capital) == replace(ships.classes()[CAPITAL])
