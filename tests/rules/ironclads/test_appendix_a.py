"""Appendix A as a tool (IC-CARD-02..47): the gun classes, the stats per gun, the sums rounded once, the caps, the
armour, propulsion and hull, and every worked example of the text as a golden test."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from battles.rules.ironclads import appendix_a
from battles.rules.ironclads.appendix_a import classify, rate
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
from battles.rules.ironclads.particulars import Gun, ParticularsError, from_json, read_gun


def ship(**given: Any) -> Any:
    return rate(from_json({"name": "X", "displacement_tons": 1, "speed_knots": 1, **given}))


def stats(data: dict[str, Any]) -> dict[str, int]:
    card = rate(from_json({"name": "X", "displacement_tons": 1000, "speed_knots": 10, **data})).card
    return {t: card.track(t).stats for t in TRACKS if card.track(t).stats}


def gun_class(text: str) -> str:
    return classify(read_gun(text, "test"))[0].name


# --- the Gun Class table ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gun", "expected"),
    [
        ("1 x 12 lb", "Very Light"),  # IC-CARD-04: 12 lb or less
        ("1 x 13 lb", "Light"),  # IC-CARD-05: over 12 up to 64
        ("1 x 64 lb", "Light"),
        ("1 x 65 lb", "Medium"),  # IC-CARD-06: over 64 up to 90
        ("1 x 90 lb", "Medium"),
        ("1 x 91 lb", "Heavy"),  # IC-CARD-07: over 90 up to 170
        ("1 x 170 lb", "Heavy"),
        ("1 x 171 lb", "Very Heavy"),  # IC-CARD-08: over 170 up to 220
        ("1 x 220 lb", "Very Heavy"),
        ("1 x 221 lb", "Monster"),  # IC-CARD-09: over 220
    ],
)
@pytest.mark.rule("IC-CARD-03", "IC-CARD-04", "IC-CARD-05", "IC-CARD-06", "IC-CARD-07", "IC-CARD-08", "IC-CARD-09")
def test_gun_class_by_weight_of_shot_ic_card_03_to_09(gun: str, expected: str) -> None:
    """IC-CARD-03..09: each class's weight-of-shot column, edges included in the lighter class."""
    assert gun_class(gun) == expected


@pytest.mark.parametrize(
    ("calibre", "smoothbore", "rifled"),
    [
        ("5", "Very Light", "Light"),  # IC-CARD-04/05: smoothbore 5 or less; rifled over 3.5 up to 5
        ("3.5", "Very Light", "Very Light"),
        ("7.5", "Light", "Heavy"),  # IC-CARD-05; rifled over 6.5 up to 9 (IC-CARD-07)
        ("6.5", "Light", "Medium"),  # IC-CARD-06
        ("9.5", "Medium", "Very Heavy"),  # IC-CARD-06; rifled over 9 up to 10.5 (IC-CARD-08)
        ("13", "Heavy", "Monster"),  # IC-CARD-07
        ("15", "Very Heavy", "Monster"),  # IC-CARD-08
        ("15.1", "Monster", "Monster"),  # IC-CARD-09
    ],
)
@pytest.mark.rule("IC-CARD-03", "IC-CARD-04", "IC-CARD-05", "IC-CARD-06", "IC-CARD-07", "IC-CARD-08", "IC-CARD-09")
def test_gun_class_by_calibre_in_each_bore_column_ic_card_03_to_09(calibre: str, smoothbore: str, rifled: str) -> None:
    """IC-CARD-03..09: the smoothbore and rifled calibre columns are read apart."""
    assert gun_class(f"1 x {calibre} in smoothbore") == smoothbore
    assert gun_class(f"1 x {calibre} in rifled") == rifled


@pytest.mark.rule("IC-CARD-07", "IC-CARD-08")
def test_rifled_calibre_edges_ic_card_07_ic_card_08() -> None:
    """IC-CARD-07/08: rifled over 6.5 up to 9 in is Heavy, over 9 up to 10.5 Very Heavy."""
    assert [gun_class(f"1 x {c} in rifled") for c in ("9", "9.1", "10.5", "10.6")] == [
        "Heavy", "Very Heavy", "Very Heavy", "Monster",
    ]  # fmt: skip


@pytest.mark.rule("IC-CARD-10")
def test_a_gun_of_unknown_bore_is_classed_as_a_smoothbore_ic_card_10() -> None:
    """IC-CARD-10: 7 in of unknown bore reads the smoothbore column (Light), not the rifled (Heavy)."""
    gun = read_gun("1 x 7 in", "test")
    assert gun.bore == "unknown"
    found, why = classify(gun)
    assert found.name == "Light"
    assert "bore unknown" in why


@pytest.mark.rule("IC-CARD-11")
def test_shot_and_calibre_in_conflict_take_the_heavier_class_ic_card_11() -> None:
    """IC-CARD-11: 8 in smoothbore is Medium, 150 lb shot Heavy: the heavier, Heavy; and the reverse order."""
    found, why = classify(read_gun("1 x 8 in 150 lb smoothbore", "test"))
    assert found.name == "Heavy"
    assert "heavier" in why
    assert gun_class("1 x 10.6 in 100 lb rifled") == "Monster"


@pytest.mark.rule("IC-CARD-17", "IC-CARD-18", "IC-CARD-19", "IC-CARD-20", "IC-CARD-21", "IC-CARD-22")
def test_the_table_is_data_ic_card_17_to_22() -> None:
    """IC-CARD-17..22: stats per gun 0.2, 0.4, 0.7, 1.2, 2.0, 3.3, read from data/gun_classes.json."""
    table = appendix_a.gun_classes()
    assert [c.name for c in table] == ["Very Light", "Light", "Medium", "Heavy", "Very Heavy", "Monster"]
    assert [c.stats_per_gun for c in table] == [Fraction(x) for x in ("0.2", "0.4", "0.7", "1.2", "2.0", "3.3")]


@pytest.mark.parametrize(
    ("guns", "expected"),
    [
        (["1 x 12 lb"], 1),  # IC-CARD-17: 0.2 -> 1
        (["5 x 12 lb"], 1),  # 5 x 0.2 = 1.0 exactly: no rounding up past a whole number
        (["6 x 12 lb"], 2),  # 1.2 -> 2
        (["5 x 30 lb"], 2),  # IC-CARD-18: 5 x 0.4 = 2.0
        (["10 x 70 lb"], 7),  # IC-CARD-19: 10 x 0.7 = 7.0
        (["5 x 100 lb"], 6),  # IC-CARD-20: 5 x 1.2 = 6.0
        (["3 x 200 lb"], 6),  # IC-CARD-21: 3 x 2.0
        (["3 x 300 lb"], 10),  # IC-CARD-22: 9.9 -> 10
    ],
)
@pytest.mark.rule("IC-CARD-17", "IC-CARD-18", "IC-CARD-19", "IC-CARD-20", "IC-CARD-21", "IC-CARD-22")
def test_stats_per_gun_ic_card_17_to_22(guns: list[str], expected: int) -> None:
    """IC-CARD-17..22, with the total rounded up only where it has a fraction (exact arithmetic, no 7.0000001)."""
    assert stats({"arcs": {FORWARD: guns}})[FORWARD] == expected


@pytest.mark.rule("IC-CARD-16", "IC-CARD-23")
def test_an_arcs_stats_are_summed_then_rounded_up_once_ic_card_16_ic_card_23() -> None:
    """IC-CARD-16/23: 1 Medium + 1 Light = 1.1 -> 2 (rounding each gun first would give 2 too: 3 Light guns show the
    difference: 1.2 -> 2, where 1 + 1 + 1 would be 3)."""
    assert stats({"arcs": {REAR: ["3 x 30 lb"]}})[REAR] == 2
    assert stats({"arcs": {REAR: ["1 x 70 lb", "1 x 30 lb"]}})[REAR] == 2


@pytest.mark.rule("IC-CARD-16")
def test_a_pivot_gun_counts_in_every_arc_it_fires_into_ic_card_16() -> None:
    """IC-CARD-16: the guns that can fire into an arc give its stats; 'broadside' lists a gun for each side."""
    found = stats(
        {
            "arcs": {
                "broadside": ["4 x 10.8 in smoothbore"],
                FORWARD: ["1 x 9.4 in smoothbore"],
                REAR: ["1 x 9.4 in smoothbore"],
            }
        }
    )
    assert (found[PORT], found[STARBOARD], found[FORWARD], found[REAR]) == (5, 5, 1, 1)


@pytest.mark.rule("IC-CARD-24")
def test_arc_and_turret_caps_ic_card_24() -> None:
    """IC-CARD-24: a broadside at most 25, the end arcs and each turret at most 10."""
    many = ["30 x 300 lb"]
    found = stats({"arcs": {PORT: many, FORWARD: many, REAR: many}, "turrets": {CENTRE_TURRET: {"guns": many}}})
    assert (found[PORT], found[FORWARD], found[REAR], found[CENTRE_TURRET]) == (25, 10, 10, 10)
    rating = rate(from_json({"name": "X", "displacement_tons": 1, "speed_knots": 1, "arcs": {PORT: many}}))
    assert "held to the card's 25 boxes" in rating.lines(PORT)[-1]


@pytest.mark.rule("IC-CARD-02")
def test_turret_arcs_are_agreed_in_the_particulars_ic_card_02() -> None:
    """IC-CARD-02: which arcs a turret bears into is given with it (all four when not said)."""
    ship = rate(
        from_json(
            {
                "name": "X", "displacement_tons": 1, "speed_knots": 1,
                "turrets": {FORWARD_TURRET: {"guns": ["1 x 10 in"], "bears": ["port", "starboard"]},
                            REAR_TURRET: {"guns": ["1 x 10 in"]}},
            }
        )
    ).card  # fmt: skip
    assert ship.bears(FORWARD_TURRET) == (PORT, STARBOARD)
    assert ship.bears(REAR_TURRET) == (FORWARD, PORT, STARBOARD, REAR)
    assert ship.bears(CENTRE_TURRET) == ()


# --- armour, propulsion, hull ---------------------------------------------------------------------------


@pytest.mark.rule("IC-CARD-12")
def test_no_iron_no_armour_ic_card_12() -> None:
    """IC-CARD-12: wood without iron gives nothing."""
    assert ARMOUR not in stats({"wood_backing_in": 30})


@pytest.mark.rule("IC-CARD-13", "IC-CARD-15")
def test_effective_armour_iron_plus_a_tenth_of_the_wood_rounded_up_ic_card_13_ic_card_15() -> None:
    """IC-CARD-13/15: the text's example, 2.5 in iron on 24 in wood: 2.5 + 2.4 = 4.9 -> 5."""
    rating = rate(
        from_json({"name": "X", "displacement_tons": 1, "speed_knots": 1, "belt_iron_in": 2.5, "wood_backing_in": 24})
    )
    assert rating.card.track(ARMOUR).stats == 5
    assert "24 in wood / 10 = 2.4 in; 2.5 + 2.4 = 4.9 in; rounded up = 5" in rating.lines(ARMOUR)[0]
    assert stats({"belt_iron_in": 2})[ARMOUR] == 2  # a whole inch is not rounded up
    assert rating.card.kind == "ironclad"


@pytest.mark.rule("IC-CARD-14")
def test_wood_of_unknown_thickness_counts_six_inches_ic_card_14() -> None:
    """IC-CARD-14: 4 in iron on wood of unknown thickness: 4 + 0.6 = 4.6 -> 5."""
    rating = rate(
        from_json(
            {"name": "X", "displacement_tons": 1, "speed_knots": 1, "belt_iron_in": 4, "wood_backing_in": "unknown"}
        )
    )
    assert rating.card.track(ARMOUR).stats == 5
    assert "taken as 6 in" in rating.lines(ARMOUR)[0]


@pytest.mark.rule("IC-CARD-25", "IC-CARD-26")
def test_armour_is_a_stat_an_inch_up_to_seven_ic_card_25_ic_card_26() -> None:
    """IC-CARD-25/26: capped at 7; 1-2 a tinclad, 3+ an ironclad, 0 a wooden screw ship."""
    assert stats({"belt_iron_in": 12})[ARMOUR] == 7
    assert ship(belt_iron_in=1.5).card.kind == "tinclad"
    assert ship().card.kind == "wooden screw"


@pytest.mark.rule("IC-CARD-27")
def test_propulsion_a_stat_a_knot_rounded_up_and_held_to_the_cards_twenty_boxes_ic_card_27() -> None:
    """IC-CARD-27: 11.2 knots -> 12; the text states no cap, the card's 20 boxes are the cap (decision)."""
    assert stats({"speed_knots": 11.2})[PROPULSION] == 12
    assert stats({"speed_knots": 20})[PROPULSION] == 20
    fast = rate(from_json({"name": "X", "displacement_tons": 1, "speed_knots": 23.5}))
    assert fast.card.track(PROPULSION).stats == 20
    assert "held to the card's 20 boxes" in fast.lines(PROPULSION)[0]


@pytest.mark.rule("IC-CARD-28")
@pytest.mark.parametrize(("tons", "hull"), [(1, 1), (1000, 1), (1001, 2), (5630, 6), (11999, 12), (20000, 12)])
def test_hull_a_stat_per_thousand_tons_or_part_up_to_twelve_ic_card_28(tons: int, hull: int) -> None:
    """IC-CARD-28."""
    assert stats({"displacement_tons": tons})[HULL] == hull


@pytest.mark.rule("IC-CARD-29")
def test_a_monitors_hull_is_doubled_and_still_capped_ic_card_29() -> None:
    """IC-CARD-29: 987 tons -> 1, doubled 2; 6,300 tons -> 7, doubled 14, held to 12."""
    assert stats({"displacement_tons": 987, "monitor": True})[HULL] == 2
    assert stats({"displacement_tons": 6300, "monitor": True})[HULL] == 12


# --- the worked examples (golden) -----------------------------------------------------------------------

GLOIRE = {
    "name": "GLOIRE", "nation": "French", "years": "1859-1879", "sisters": ["INVINCIBLE", "NORMANDIE"],
    "displacement_tons": 5630, "speed_knots": 13, "belt_iron_in": 4.75, "wood_backing_in": 26,
    "arcs": {"broadside": ["18 x 6.4 in rifled"]},
}  # fmt: skip


def card_of(data: dict[str, Any]) -> dict[str, int]:
    card = rate(from_json(data)).card
    return {t: card.track(t).stats for t in TRACKS}


def expect(**given: int) -> dict[str, int]:
    names = {"fwd": FORWARD, "port": PORT, "stbd": STARBOARD, "rear": REAR, "ft": FORWARD_TURRET,
             "ct": CENTRE_TURRET, "rt": REAR_TURRET, "armour": ARMOUR, "prop": PROPULSION, "hull": HULL}  # fmt: skip
    return {t: given.get(k, 0) for k, t in names.items()}


@pytest.mark.rule("IC-CARD-30", "IC-CARD-31", "IC-CARD-32", "IC-CARD-33")
def test_gloire_ic_card_30_to_33() -> None:
    """IC-CARD-30..33: 18 x 0.7 = 12.6 -> 13 a broadside; 4.75 + 2.6 = 7.35 -> 8, capped 7; 13 knots; 6 Hull."""
    rating = rate(from_json(GLOIRE))
    assert card_of(GLOIRE) == expect(port=13, stbd=13, armour=7, prop=13, hull=6)
    assert rating.lines(PORT)[-2:] == (
        "Port broadside: 18 Medium x 0.7 = 12.6",
        "Port broadside: 12.6, rounded up = 13 stats",
    )
    assert "4.75 + 2.6 = 7.35 in; rounded up = 8, held to the limit of 7: 7 stats" in rating.lines(ARMOUR)[0]
    assert rating.card.sisters == ("INVINCIBLE", "NORMANDIE")


@pytest.mark.rule("IC-CARD-34", "IC-CARD-35", "IC-CARD-36")
def test_warrior_ic_card_34_to_36() -> None:
    """IC-CARD-34..36: 5 Heavy x 1.2 = 6 + 15 Medium x 0.7 = 10.5 -> 16.5 -> 17; 7 Armour; 14; 10 Hull."""
    warrior = {
        "name": "WARRIOR", "displacement_tons": 9137, "speed_knots": 14, "belt_iron_in": 4.5, "wood_backing_in": 18,
        "arcs": {"broadside": ["5 x 110 lb rifled", "2 x 70 lb smoothbore", "13 x 68 lb smoothbore"]},
    }  # fmt: skip
    assert card_of(warrior) == expect(port=17, stbd=17, armour=7, prop=14, hull=10)
    assert (
        rate(from_json(warrior)).lines(STARBOARD)[-1] == "Starboard broadside: 6 + 10.5 = 16.5, rounded up = 17 stats"
    )


@pytest.mark.rule("IC-CARD-37", "IC-CARD-38")
def test_arminius_ic_card_37_38() -> None:
    """IC-CARD-37/38: two turrets of 2 x 8.2 in smoothbore, 1.4 -> 2 each, bearing into the broadsides."""
    arminius = {
        "name": "ARMINIUS", "displacement_tons": 1887, "speed_knots": 11.2, "belt_iron_in": 4.5,
        "turrets": {FORWARD_TURRET: {"guns": ["2 x 8.2 in smoothbore"], "bears": ["port", "starboard"]},
                    REAR_TURRET: {"guns": ["2 x 8.2 in smoothbore"], "bears": ["port", "starboard"]}},
    }  # fmt: skip
    assert card_of(arminius) == expect(ft=2, rt=2, armour=5, prop=12, hull=2)
    assert rate(from_json(arminius)).card.bears(REAR_TURRET) == (PORT, STARBOARD)


@pytest.mark.rule("IC-CARD-39", "IC-CARD-40")
def test_colbert_ic_card_39_40() -> None:
    """IC-CARD-39/40: rear 0.7 -> 1; each broadside 4 x 1.2 = 4.8 -> 5 (the pivot counted on both sides); 8.7 -> 9,
    capped 7; 14; 9 Hull."""
    colbert = {
        "name": "COLBERT", "displacement_tons": 8750, "speed_knots": 14, "belt_iron_in": 8.7,
        "arcs": {"rear": ["1 x 9.4 in smoothbore"],
                 "broadside": ["3 x 10.8 in smoothbore", "1 x 10.8 in smoothbore (pivot)"]},
    }  # fmt: skip
    assert card_of(colbert) == expect(port=5, stbd=5, rear=1, armour=7, prop=14, hull=9)


@pytest.mark.rule("IC-CARD-41", "IC-CARD-42")
def test_monarch_ic_card_41_42() -> None:
    """IC-CARD-41/42: forward 2.4 -> 3, rear 1.2 -> 2, turrets 6.6 -> 7; 7 Armour; 14.9 -> 15; 9 Hull."""
    monarch = {
        "name": "MONARCH", "displacement_tons": 8322, "speed_knots": 14.9, "belt_iron_in": 7,
        "arcs": {"forward": ["2 x 7 in rifled"], "rear": ["1 x 7 in rifled"]},
        "turrets": {FORWARD_TURRET: {"guns": ["2 x 12 in rifled"]}, REAR_TURRET: {"guns": ["2 x 12 in rifled"]}},
    }  # fmt: skip
    assert card_of(monarch) == expect(fwd=3, rear=2, ft=7, rt=7, armour=7, prop=15, hull=9)


ROANOKE = {
    "name": "ROANOKE", "displacement_tons": 6300, "speed_knots": 6, "belt_iron_in": 4.5, "monitor": True,
    "turrets": {FORWARD_TURRET: {"guns": ["1 x 15 in smoothbore", "1 x 150 lb rifled"]},
                CENTRE_TURRET: {"guns": ["1 x 15 in smoothbore", "1 x 11 in smoothbore"]},
                REAR_TURRET: {"guns": ["1 x 11 in smoothbore", "1 x 150 lb smoothbore"]}},
}  # fmt: skip


@pytest.mark.rule("IC-CARD-43", "IC-CARD-45", "IC-CARD-46", "IC-CARD-47")
def test_roanoke_ic_card_43_45_46_47() -> None:
    """IC-CARD-43/45..47: forward 2.0 + 1.2 = 3.2 -> 4, rear 2.4 -> 3; 5 Armour; 6; 7 Hull doubled, held to 12."""
    found = card_of(ROANOKE)
    assert (found[FORWARD_TURRET], found[REAR_TURRET]) == (4, 3)
    assert (found[ARMOUR], found[PROPULSION], found[HULL]) == (5, 6, 12)


@pytest.mark.rule("IC-CARD-43")
def test_roanokes_150_lb_gun_is_heavy_whichever_bore_the_text_means_ic_card_43() -> None:
    """IC-CARD-43: the text calls the 150 lb gun rifled in one place and smoothbore in another; by shot it is Heavy."""
    assert {gun_class(f"1 x 150 lb {bore}") for bore in ("rifled", "smoothbore", "unknown")} == {"Heavy"}


@pytest.mark.rule("IC-CARD-44")
def test_roanokes_centre_turret_follows_the_table_not_the_texts_one_point_oh_ic_card_44() -> None:
    """IC-CARD-44 (decision, docs/ironclads.md): the text counts the 11 in smoothbore at 1.0 for 3 stats; the table
    gives a Heavy gun 1.2 (IC-CARD-20), so 2.0 + 1.2 = 3.2 -> 4. The table governs, as it does for every gun."""
    rating = rate(from_json(ROANOKE))
    assert rating.card.track(CENTRE_TURRET).stats == 4
    assert rating.lines(CENTRE_TURRET)[-1] == "Centre turret: 2 + 1.2 = 3.2, rounded up = 4 stats"


# --- reading particulars --------------------------------------------------------------------------------


def test_a_gun_in_the_texts_own_words() -> None:
    assert read_gun("1 x 8 in 150 lb rifled (Parrott)", "f") == Gun(1, Fraction(8), Fraction(150), "rifled", "Parrott")
    assert str(read_gun("18 x 6.4 in rifled (RML)", "f")) == "18 x 6.4 in rifled (RML)"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "", "displacement_tons": 1, "speed_knots": 1}, "name"),
        ({"name": "X", "speed_knots": 1}, "displacement_tons"),
        ({"name": "X", "displacement_tons": 0, "speed_knots": 1}, "displacement_tons"),
        ({"name": "X", "displacement_tons": 1, "speed_knots": "fast"}, "speed_knots"),
        ({"name": "X", "displacement_tons": 1, "speed_knots": 1, "belt_iron_in": -1}, "belt_iron_in"),
        ({"name": "X", "displacement_tons": 1, "speed_knots": 1, "arcs": {"port": ["18 guns"]}}, "port"),
        ({"name": "X", "displacement_tons": 1, "speed_knots": 1, "arcs": {"port": ["2 x big"]}}, "port"),
        ({"name": "X", "displacement_tons": 1, "speed_knots": 1, "arcs": {"aft": []}}, "arcs"),
        ({"name": "X", "displacement_tons": 1, "speed_knots": 1,
          "turrets": {"rear turret": {"guns": ["1 x 9 in"], "bears": ["up"]}}}, "rear turret bears"),
    ],
)  # fmt: skip
def test_particulars_that_cannot_be_rated_name_their_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(ParticularsError) as raised:
        from_json(data)
    assert raised.value.field == field
