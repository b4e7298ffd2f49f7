"""Five panels reviewed by hand (docs/cloudships.md, "Hand review"): every figure written out with its reason,
so a change to the conversion that moves a well-known ship shows here first. The Locust and the Skylord are
the two classes the CM text itself names (CM-RKT-03, CM-PT-09)."""

import pytest

from battles.rules.cloudships_2023 import conversion
from battles.rules.cloudships_2023.panels import ControlPanel


def panel(class_id: str) -> ControlPanel:
    return next(p for p in conversion.stored_panels() if p.class_id == class_id)


def guns(p: ControlPanel) -> list[tuple[int, str, str, int, int | str | None]]:
    return [(g.number, g.source, g.position, g.dice, g.damage if g.damage is not None else g.roll) for g in p.guns]


@pytest.mark.rule("CM-RKT-03", "CM-MAG-03")
def test_locust():
    p = panel("locust")
    assert (p.motive, p.movement, p.ceiling) == ("steam", 6, "High")  # SG speed 6, Very High ceiling
    assert p.boarding_parties == 1  # 2 deckhands + 1 petty officer: a part party
    assert p.hexagon == 3  # the party and two Gatlings
    assert p.ram == 1  # no ram, hull size 2: SG collision damage
    assert guns(p) == [
        (1, "4in_short", "bow", 1, 4),  # DV 2 + Pen 2: the text's magazine figure
        (2, "3pdr_hrc", "starboard", 3, 2),  # three shots of DV 1 + Pen 1
        (3, "gatling_1in", "starboard", 4, None),  # AP; SG rate 3 (4 max) within 4..6
        (4, "4in_short", "stern", 1, 4),
        (5, "3pdr_hrc", "port", 3, 2),
        (6, "gatling_1in", "port", 4, None),
        (7, "hale_rockets", "port", 1, "1d6"),  # the battery the text fires from High
    ]
    assert p.track_length == 21  # hull 5 + 3 + 5 (armor 1 a row), 5 system boxes, 3 band boxes
    assert p.crew_chart == (3,)  # 17 men: one hit a step after the two shrugged off
    assert p.criticals[8] == "Rocket Magazine"  # roll 10


@pytest.mark.rule("CM-MOV-12", "CM-PT-09")
def test_skylord():
    p = panel("skylord")
    assert (p.motive, p.movement, p.ceiling) == ("kite", None, "High")  # a kite rolls its movement
    assert p.boarding_parties == 6  # 14 deckhands + 20 marines x 2 = 54 men
    assert p.hexagon == 6  # no anti-personnel guns
    assert p.ram == 7  # fitted ram, hull size 14: half of it
    assert [g.source for g in p.guns].count("heavy_gun") == 12  # the broadsides, six a side
    assert [g.roll for g in p.guns if g.kind == "drogue torpedo"] == ["2d6", "2d6"]
    assert [len(row) for row in p.track] == [25, 25, 46]  # hull 16, 16, 30 (armor 2 a row)
    assert p.crew_chart == (6, 10, 14, 18, 22, 26)  # 79 men: four hits a party


def test_hullcutter():
    p = panel("hullcutter")
    assert (p.motive, p.movement, p.ceiling) == ("screw galley", 3, "High")
    assert p.boarding_parties == 3  # 7 deckhands + 10 marines x 2 = 27 men
    assert p.ram == 4  # "workhorse" with a ram, hull size 7: 7 / 2 rounded up
    assert guns(p) == [
        (1, "rogue", "starboard bow", 1, 5),  # DV 3 + Pen 2; reloads in SG, fires each CM turn
        (2, "heavy_gun", "starboard", 1, 3),
        (3, "rod_gun", "stern", 1, 4),  # DV 1 + Pen 3: the armour-piercer
        (4, "heavy_gun", "port", 1, 3),
        (5, "rogue", "port bow", 1, 5),
        (6, "lob_gun", "amidships", 1, 6),  # no close range: DV 4 + long Pen 2
    ]
    assert [len(row) for row in p.track] == [11, 11, 22]  # hull 7, 7, 14, no armor
    assert p.crew_chart == (5, 8, 11)  # 60 men: three hits a party


def test_reliant():
    p = panel("reliant")
    assert (p.motive, p.movement, p.ceiling) == ("steam", 4, "High")
    assert p.boarding_parties == 6  # 12 deckhands + 3 petty officers + 20 marines x 2 = 55
    assert p.hexagon == 10  # and four Nordenfelts
    assert p.ram == 2  # no ram, hull size 12: one hit, and a second for the six beyond six
    assert [(g.source, g.damage) for g in p.guns if g.kind == "main"] == [
        ("5in", 8),  # bow: DV 4 + Pen 4
        ("6in", 11),  # starboard sponson: DV 6 + Pen 5
        ("5in", 8),  # stern
        ("6in", 11),  # port sponson
    ]
    assert sum(g.kind == "rockets" for g in p.guns) == 6
    assert p.track_length == 87  # hull 15, 15, 27 (armor 3 a row) + 27 system boxes + 3 band boxes


@pytest.mark.rule("CM-MAG-04")
def test_aphid():
    p = panel("aphid")
    assert guns(p)[:2] == [
        (1, "4in_short", "bow", 1, 4),  # the text's 4-inch short, 4 points
        (2, "1pdr_hrc", "starboard", 3, 1),  # the text's 1-pdr QF, three shells of 1
    ]
    assert p.hexagon == 3  # one party and two Nordenfelts
