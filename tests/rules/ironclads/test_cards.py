"""The Data Card's tracks (IC-CARD-01/48, IC-SPD-06, IC-DMG-06, IC-CARD-26)."""

from __future__ import annotations

import pytest

from battles.rules.ironclads import cards
from battles.rules.ironclads.cards import ARMOUR, CENTRE_TURRET, HULL, PORT, PROPULSION, REAR, STARBOARD

GLOIRE = {PORT: 13, STARBOARD: 13, ARMOUR: 7, PROPULSION: 13, HULL: 6}


@pytest.mark.rule("IC-CARD-01", "IC-CARD-48")
def test_the_blank_card_has_appendix_e_boxes_ic_card_48() -> None:
    assert dict(cards.BOXES) == {
        "forward": 10, "port": 25, "starboard": 25, "rear": 10,
        "forward turret": 10, "centre turret": 10, "rear turret": 10,
        "armour": 7, "propulsion": 20, "hull": 12,
    }  # fmt: skip


@pytest.mark.rule("IC-SPD-06", "IC-DMG-03", "IC-DMG-06")
def test_stats_are_crossed_off_from_the_right_and_a_shortfall_is_a_miss_ic_spd_06_ic_dmg_06() -> None:
    gloire = cards.card("GLOIRE", {**GLOIRE, REAR: 2})
    hit, crossed = gloire.cross_off(PROPULSION, 3)
    assert (crossed, hit.left(PROPULSION), hit.track(PROPULSION).lost) == (3, 10, 3)
    wrecked, crossed = hit.cross_off(REAR, 3)  # IC-DMG-09: two left, the third a miss
    assert (crossed, wrecked.left(REAR)) == (2, 0)
    again, crossed = wrecked.cross_off(REAR, 1)
    assert (crossed, again) == (0, wrecked)
    assert gloire.left(PROPULSION) == 13  # immutable


@pytest.mark.rule("IC-CARD-26")
def test_the_ship_type_follows_her_starting_armour_ic_card_26() -> None:
    assert cards.card("A", {ARMOUR: 0}).kind == cards.WOODEN_SCREW
    assert cards.card("B", {ARMOUR: 2}).kind == cards.TINCLAD
    three, _ = cards.card("C", {ARMOUR: 3}).cross_off(ARMOUR, 3)
    assert three.kind == cards.IRONCLAD  # by what she started with, not what is left


def test_a_card_that_cannot_be_drawn_is_refused() -> None:
    with pytest.raises(ValueError, match="25 boxes"):
        cards.card("X", {PORT: 26})
    with pytest.raises(ValueError, match="no such track"):
        cards.card("X", {"bowsprit": 1})
    with pytest.raises(ValueError, match="bears into"):
        cards.card("X", {CENTRE_TURRET: 3}, turret_arcs={CENTRE_TURRET: ("up",)})


def test_the_card_round_trips_through_json_with_its_losses() -> None:
    arminius = cards.card(
        "ARMINIUS", {"forward turret": 2, "rear turret": 2, ARMOUR: 5, PROPULSION: 12, HULL: 2},
        turret_arcs={"forward turret": (PORT, STARBOARD), "rear turret": (PORT, STARBOARD)},
    )  # fmt: skip
    hit, _ = arminius.cross_off(HULL, 1)
    assert cards.from_json(cards.to_json(hit)) == hit
    assert hit.bears("forward turret") == (PORT, STARBOARD)
    assert hit.bears(CENTRE_TURRET) == ()
    with pytest.raises(ValueError, match="cannot lose"):
        cards.from_json({**cards.to_json(arminius), "lost": {HULL: 3}})
