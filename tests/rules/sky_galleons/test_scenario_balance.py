"""The designer's advice on balancing scenarios (SG-SCN-48..50): scenario_balance and `simulate_battle --balance`.

The figures are checked by hand against the catalog (ship-catalog.json price and tonnage of each class).
"""

from __future__ import annotations

import json
from fractions import Fraction
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.scenario_balance import balance, sides_strength

# A Martian-yard screw galley of hull 3 with 12 turncranks and one Heavy Gun: hull 3 x £5000 (SGD-HULL-04),
# turncranks 12 x (10 t, £100), the gun 40 t and £1000: £17,200 and 160 t.
HOMEBUILT = {
    "yard": "martian",
    "hull": "wood",
    "hull_size": 3,
    "ram": False,
    "armor": 0,
    "propulsion": {"type": "screw_galley", "turncranks": 12},
    "weapons": [{"weapon": "Heavy Gun", "mount": "forward"}],
    "exotics": [],
    "marines": 0,
}


def shipped(slug: str) -> dict[str, Any]:
    return scenario.load_data(slug)


def run(*args: str) -> str:
    out = StringIO()
    call_command("simulate_battle", *args, stdout=out)
    return out.getvalue()


@pytest.mark.rule("SG-SCN-48")
def test_pitched_battle_gives_the_martians_a_third_more_money_within_the_half_allowed():
    weighed = balance(shipped("pitched-battle"))
    british, martians = weighed.side("british"), weighed.side("oenotrians")
    # Triumph 173,100 + Dauntless 34,100 + Aphid 23,220
    assert (british.cost, len(british.ships)) == (230_420, 3)
    # 2 Clearsight x 12,800 + 3 Hullcutter x 46,800 + 2 Whisperdeath x 59,340 + Swiftwood 20,200
    assert (martians.cost, len(martians.ships)) == (304_880, 8)
    assert (weighed.british, weighed.martian) == ("british", "oenotrians")
    assert weighed.money_ratio == Fraction(304_880, 230_420)  # 1.32
    assert weighed.money_in_guideline is True


@pytest.mark.rule("SG-SCN-48")
def test_martians_with_more_than_half_as_much_again_or_less_than_the_british_are_outside_the_money_guideline():
    # The Fenian Ram (Martian yard) 37,000 against the Aphid 23,220: 1.59 times, over the 1.5
    bulls = balance(shipped("john-bulls-tyranny"))
    assert (bulls.martian, bulls.british) == ("irish", "british")
    assert bulls.money_ratio == Fraction(37_000, 23_220)
    assert bulls.money_in_guideline is False
    # Two Small Birds and two Glory Sleds (2 x 13,000 + 2 x 43,000) against the Thunderer's 135,800
    hearts = balance(shipped("hearts-of-oak"))
    assert hearts.side("high_martians").cost == 112_000
    assert hearts.money_ratio == Fraction(112_000, 135_800)
    assert hearts.money_in_guideline is False
    # A fourth Hullcutter in Pitched Battle takes the Oenotrians to 351,680: 1.53 times, too rich
    data = shipped("pitched-battle")
    fourth = {**data["sides"][1]["ships"][1], "name": "Hullcutter 4", "position": [29, 18]}
    data["sides"][1]["ships"].append(fourth)
    richer = balance(data)
    assert richer.side("oenotrians").cost == 351_680
    assert richer.money_in_guideline is False


@pytest.mark.rule("SG-SCN-48")
def test_sides_of_one_yard_get_the_ratio_of_dearest_to_cheapest_and_no_verdict():
    incident = balance(shipped("diplomatic-incident"))
    assert (incident.british, incident.martian, incident.money_in_guideline) == (None, None, None)
    # Hamburg 69,400 against two Dauntless at 34,100; the passenger kite is a merchant, not fighting strength
    assert incident.side("british").cost == 68_200
    assert incident.side("british").not_counted == ("merchant Passenger Kite",)
    assert incident.money_ratio == Fraction(69_400, 68_200)
    assert balance(shipped("thieves-fall-out")).money_ratio == 1  # three Sky Runners


@pytest.mark.rule("SG-SCN-48")
def test_a_designed_ship_is_priced_by_the_design_rules():
    data = shipped("thieves-fall-out")
    data["sides"][0]["ships"][0] = {**data["sides"][0]["ships"][0], "design": HOMEBUILT}
    del data["sides"][0]["ships"][0]["class"]
    _, sides = sides_strength(data)
    homebuilt = sides[0].ships[0]
    assert (homebuilt.designed, homebuilt.yard, homebuilt.cost, homebuilt.tonnage, homebuilt.guns) == (
        True,
        "martian",
        17_200,
        160,
        1,
    )
    assert balance(data).money_ratio == Fraction(20_200, 17_200)


@pytest.mark.rule("SG-SCN-49")
def test_pitched_battle_has_more_than_twice_the_british_tonnage_in_martian_ships():
    weighed = balance(shipped("pitched-battle"))
    # 1400 + 250 + 160 British tons against 2 x 200 + 3 x 695 + 2 x 695 + 185 Martian
    assert (weighed.side("british").tonnage, weighed.side("oenotrians").tonnage) == (1_810, 4_060)
    assert weighed.tonnage_ratio == Fraction(4_060, 1_810)  # 2.24
    assert weighed.tonnage_in_guideline is True
    bulls = balance(shipped("john-bulls-tyranny"))
    assert bulls.tonnage_ratio == Fraction(445, 160)
    assert bulls.tonnage_in_guideline is True


@pytest.mark.rule("SG-SCN-49")
def test_less_than_twice_the_british_tonnage_is_short_and_designed_ships_get_no_tonnage_verdict():
    hearts = balance(shipped("hearts-of-oak"))
    assert hearts.tonnage_ratio == Fraction(2 * 145 + 2 * 460, 1_200)
    assert hearts.tonnage_in_guideline is False
    raid = balance(shipped("the-great-raid"))
    # Aphid 160 t and Danger 250 t against two Small Birds of 145 t; the kraag's defences are not priced
    assert raid.tonnage_ratio == Fraction(290, 410)
    assert raid.tonnage_in_guideline is False
    assert raid.side("high_martians").not_counted == (
        "4 ground batteries",
        "3 mined hexes",
        "6 flying parties (60 men)",
    )
    data = shipped("john-bulls-tyranny")
    ram = data["sides"][0]["ships"][0]
    data["sides"][0]["ships"][0] = {key: value for key, value in ram.items() if key != "class"} | {"design": HOMEBUILT}
    homebuilt = balance(data)
    assert homebuilt.tonnage_ratio == Fraction(160, 160)
    assert homebuilt.tonnage_in_guideline is None  # the rule of thumb is for ships already designed
    assert homebuilt.money_ratio == Fraction(17_200, 23_220)


@pytest.mark.rule("SG-SCN-50")
def test_hearts_of_oak_is_a_large_green_squadron_against_a_small_crack_one():
    weighed = balance(shipped("hearts-of-oak"))
    british, martians = weighed.side("british"), weighed.side("high_martians")
    assert (len(british.ships), british.guns, british.crews) == (1, 5, {"crack": 1})
    assert (len(martians.ships), martians.guns, martians.crews) == (4, 14, {"green": 4})  # High Martians: Green
    assert (british.hull_boxes, martians.hull_boxes) == (48, 80)
    assert weighed.crews_offset == "british"


@pytest.mark.rule("SG-SCN-50")
def test_crews_offset_only_when_the_outgunned_side_has_the_better_crews():
    weighed = balance(shipped("pitched-battle"))
    # All British Crack; the Oenotrians Trained but the one ship they make Crack (Hullcutter 1 by default)
    assert weighed.side("british").crews == {"crack": 3}
    assert weighed.side("oenotrians").crews == {"trained": 7, "crack": 1}
    assert (weighed.side("british").guns, weighed.side("oenotrians").guns) == (20, 41)
    assert weighed.crews_offset == "british"
    data = shipped("hearts-of-oak")
    data["sides"][0]["crew_quality"] = "green"
    assert balance(data).crews_offset is None  # outgunned and no better crewed
    assert balance(shipped("john-bulls-tyranny")).crews_offset is None  # both Trained


@pytest.mark.rule("SG-SCN-48", "SG-SCN-49", "SG-SCN-50")
def test_simulate_battle_balance_reports_the_figures_and_the_verdicts():
    text = run("--balance", "--scenario", "pitched-battle")
    assert "Royal Navy [british, british yard]: 3 warships, £230,420, 1,810 t, 85 hull boxes, 20 guns" in text
    assert "money (SG-SCN-48): Martians 1.32x the British, guideline 1-1.5x: within" in text
    assert "tonnage (SG-SCN-49): Martians 2.24x the British, at least 2x for a good fight: enough" in text
    assert "crews (SG-SCN-50): Royal Navy makes up for fewer guns with better crews" in text
    every = json.loads(run("--balance", "--json"))
    assert [entry["slug"] for entry in every] == scenario.available()
    bulls = next(entry for entry in every if entry["slug"] == "john-bulls-tyranny")
    assert bulls["money"] == {"clause": "SG-SCN-48", "ratio": 1.593, "guideline": [1.0, 1.5], "in_guideline": False}
    assert bulls["tonnage"]["in_guideline"] is True


def test_balance_of_an_unplayable_scenario_is_a_clear_error(tmp_path):
    data = shipped("hearts-of-oak")
    data["sides"][0]["ships"][0]["class"] = "No Such Class"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"cannot weigh this scenario: .*No Such Class"):
        run("--balance", "--scenario-file", str(path))
