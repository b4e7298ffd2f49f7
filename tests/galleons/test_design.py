"""The ship design rater (galleons/design.py), clause by clause (SGD-*)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from galleons import catalog
from galleons.design import (
    DesignInputError,
    ShipRating,
    altitude_after_hull_hits,
    crew_complement,
    design_tables,
    endurance_days,
    galley_speed,
    hull_rows,
    kite_speed,
    lift_value,
    maneuver_rows,
    max_altitude_for,
    parse_design,
    rate_design,
    rate_design_json,
    speed_after_engineer_or_topman_losses,
    speed_after_turncrank_losses,
    steam_speed,
)


def design(**overrides: Any) -> dict[str, Any]:
    """A small legal Martian screw galley; each test changes what it is about."""
    data: dict[str, Any] = {
        "yard": "martian",
        "hull": "wood",
        "hull_size": 3,
        "ram": False,
        "armor": 0,
        "propulsion": {"type": "screw_galley", "turncranks": 12},
        "weapons": [],
        "exotics": [],
        "marines": 0,
    }
    data.update(overrides)
    return data


def steamer(**overrides: Any) -> dict[str, Any]:
    """A small British steel steamer."""
    base = design(
        yard="british",
        hull="steel",
        hull_size=4,
        propulsion={"type": "steam", "engine_size": 4, "forced_draught": False, "bunker_size": 8},
    )
    base.update(overrides)
    return base


def rate(data: dict[str, Any], **options: Any) -> ShipRating:
    return rate_design(parse_design(data), **options)


def clauses(rating: ShipRating) -> list[str]:
    return [error.clause for error in rating.errors]


def component(rating: ShipRating, starts: str) -> tuple[Fraction, Fraction]:
    found = [c for c in rating.components if c.name.startswith(starts)]
    assert len(found) == 1, [c.name for c in rating.components]
    return found[0].tons, found[0].pounds


# --- hull ----------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-HULL-01", "SGD-HULL-06")
def test_the_yard_is_chosen_first_and_sets_the_prices() -> None:
    martian = rate(design())
    british = rate(design(yard="british"))
    # Same ship, dearer in a British yard: hull 8,000 not 5,000 per Hs, turncranks 200 not 100 each.
    assert british.price - martian.price == 3 * 3000 + 12 * 100
    with pytest.raises(DesignInputError, match="yard: missing"):
        parse_design({k: v for k, v in design().items() if k != "yard"})


@pytest.mark.rule("SGD-HULL-02", "SGD-HULL-06")
def test_hull_capacity_is_100_tons_per_hull_size_and_160_is_the_most() -> None:
    rating = rate(design())
    assert rating.hull_capacity == 300
    # 12 turncranks (120 t) + 5 heavy guns... too heavy: 160 t per Hs is the most a hull may carry.
    heavy = design(
        hull_size=1,
        propulsion={"type": "screw_galley", "turncranks": 1},
        weapons=[{"weapon": "Rogue", "mount": "forward"}, {"weapon": "Heavy Gun", "mount": "stern tower"}],
    )
    overloaded = rate(heavy)
    assert overloaded.tonnage == 110
    assert "SGD-HULL-02" not in clauses(overloaded)
    heavier = dict(heavy, marines=0, propulsion={"type": "screw_galley", "turncranks": 7})
    assert rate(heavier).tonnage == 170
    assert "SGD-HULL-02" in clauses(rate(heavier))


@pytest.mark.rule("SGD-HULL-03", "SGD-HULL-06")
def test_a_ram_weighs_10_tons_and_costs_1000_per_hull_size() -> None:
    without = rate(design())
    with_ram = rate(design(ram=True))
    assert component(with_ram, "ram") == (30, 3000)
    assert with_ram.tonnage - without.tonnage == 30
    assert with_ram.price - without.price == 3000
    # The catalog report can price it as the published Martian ships do (100 per Hs).
    assert rate(design(ram=True), ram_cost_per_hull_size=100).price - without.price == 300


@pytest.mark.rule("SGD-HULL-04", "SGD-HULL-06")
def test_wooden_hulls_cost_by_yard_and_take_no_armor_plate() -> None:
    assert component(rate(design()), "hull") == (0, 15000)
    assert component(rate(design(yard="british")), "hull") == (0, 24000)
    plated_wood = rate(design(yard="british", armor=1))
    assert "SGD-HULL-04" in clauses(plated_wood)
    assert "SGD-HULL-04" not in clauses(rate(design(yard="british", hull="steel", armor=1)))


@pytest.mark.rule("SGD-HULL-05", "SGD-HULL-06")
def test_steel_hulls_are_british_only_at_10000_per_hull_size() -> None:
    assert component(rate(steamer()), "hull") == (0, 40000)
    martian_steel = rate(design(hull="steel"))
    assert "SGD-HULL-05" in clauses(martian_steel)


# --- propulsion ----------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-PROP-01", "SGD-PROP-03", "SGD-PROP-07")
def test_conventional_engine_weighs_10_tons_and_costs_1000_per_engine_size() -> None:
    assert component(rate(steamer()), "engine") == (40, 4000)


@pytest.mark.rule("SGD-PROP-02", "SGD-PROP-03", "SGD-PROP-07")
def test_forced_draught_weighs_half_costs_double_and_rates_the_same() -> None:
    conventional = rate(steamer())
    forced = rate(steamer(propulsion={"type": "steam", "engine_size": 4, "forced_draught": True, "bunker_size": 8}))
    assert component(forced, "engine") == (20, 8000)
    assert forced.speed == conventional.speed == 6
    assert forced.endurance_days == conventional.endurance_days


@pytest.mark.rule("SGD-PROP-03")
def test_no_steam_engines_in_martian_yards() -> None:
    martian_steamer = rate(steamer(yard="martian", hull="wood"))
    assert "SGD-PROP-03" in clauses(martian_steamer)
    assert "SGD-PROP-03" not in clauses(rate(steamer()))


@pytest.mark.rule("SGD-PROP-04", "SGD-PROP-05", "SGD-PROP-07")
def test_turncranks_weigh_10_tons_and_cost_100_martian_200_british() -> None:
    assert component(rate(design()), "12 turncranks") == (120, 1200)
    assert component(rate(design(yard="british")), "12 turncranks") == (120, 2400)


@pytest.mark.rule("SGD-PROP-06", "SGD-PROP-07")
def test_kite_rigging_weighs_10_tons_and_costs_600_per_hull_size_in_any_yard() -> None:
    for yard in ("martian", "british"):
        assert component(rate(design(yard=yard, propulsion={"type": "kite"})), "kite rigging") == (30, 1800)


@pytest.mark.rule("SGD-PROP-08", "SGD-SPD-04")
def test_galley_speed_over_4_is_halved_not_capped() -> None:
    # Clearsight: 12 turncranks on Hs 2 -> 6 -> 5, as published.
    assert galley_speed(12, 2) == 5
    assert galley_speed(16, 2) == 6
    assert galley_speed(4, 1) == 4
    assert galley_speed(14, 4) == 3


# --- bunker --------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-BUNK-01", "SGD-BUNK-04")
def test_bunker_weighs_10_tons_per_size_and_is_free() -> None:
    assert component(rate(steamer()), "coal bunker") == (80, 0)


@pytest.mark.rule("SGD-BUNK-02", "SGD-BUNK-04")
def test_endurance_is_10_bunker_over_engine_days() -> None:
    assert endurance_days(8, 4) == 20
    assert endurance_days(10, 5) == 20
    # A part day of coal is not a day's steaming: whole days, rounded down (the text gives no rounding).
    assert endurance_days(5, 3) == 16
    assert rate(steamer()).endurance_days == 20


@pytest.mark.rule("SGD-BUNK-03", "SGD-BUNK-04")
def test_bunker_must_be_at_least_twice_the_engine() -> None:
    short = steamer(propulsion={"type": "steam", "engine_size": 4, "forced_draught": False, "bunker_size": 7})
    assert "SGD-BUNK-03" in clauses(rate(short))
    assert "SGD-BUNK-03" not in clauses(rate(steamer()))


# --- armor ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-ARMR-01", "SGD-ARMR-06")
def test_armor_value_is_a_whole_number_from_zero() -> None:
    assert not [c for c in rate(steamer(armor=0)).components if "armor" in c.name]
    with pytest.raises(DesignInputError, match="armor: must be at least 0"):
        parse_design(steamer(armor=-1))
    with pytest.raises(DesignInputError, match="armor: expected a whole number"):
        parse_design(steamer(armor=1.5))


@pytest.mark.rule("SGD-ARMR-02", "SGD-ARMR-04", "SGD-ARMR-06")
def test_armor_plate_is_10_tons_per_armor_per_hull_size_at_10_a_ton() -> None:
    assert component(rate(steamer(armor=2)), "armor plate") == (80, 800)


@pytest.mark.rule("SGD-ARMR-03", "SGD-ARMR-05", "SGD-ARMR-06")
def test_martian_protection_is_20_tons_per_armor_per_hull_size_at_50_a_ton() -> None:
    protected = rate(design(armor=2))
    assert component(protected, "Martian protection") == (120, 6000)
    # A wooden Martian hull may be protected: only armor plate is barred from wood.
    assert not protected.errors


# --- armament ------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-ARMT-01")
def test_weapons_are_chosen_with_their_mounts_and_bad_names_list_the_good_ones() -> None:
    rating = rate(design(weapons=[{"weapon": "heavy gun", "mount": "Forward"}]))
    assert [(g.weapon_id, g.mount) for g in rating.guns] == [("heavy_gun", "forward")]
    with pytest.raises(DesignInputError) as unknown:
        parse_design(design(weapons=[{"weapon": "Death Ray", "mount": "forward"}]))
    assert "weapons[0].weapon: unknown weapon 'Death Ray'" in str(unknown.value)
    assert "Heavy Gun" in str(unknown.value)
    assert "Rogue" in str(unknown.value)
    with pytest.raises(DesignInputError) as no_mount:
        parse_design(design(weapons=[{"weapon": "Heavy Gun", "mount": "masthead"}]))
    assert "weapons[0].mount: unknown mount 'masthead'" in str(no_mount.value)
    assert "port wing" in str(no_mount.value)


@pytest.mark.rule("SGD-ARMT-02", "SGD-ARMT-26")
def test_one_forward_one_stern_tower_and_two_wing_mounts() -> None:
    full = [
        {"weapon": "Heavy Gun", "mount": "forward"},
        {"weapon": "Heavy Gun", "mount": "stern tower"},
        {"weapon": "Heavy Gun", "mount": "port wing"},
        {"weapon": "Heavy Gun", "mount": "starboard wing"},
    ]
    assert rate(design(hull_size=4, weapons=full)).errors == ()
    two_forward = rate(design(hull_size=4, weapons=[*full, {"weapon": "Light Gun", "mount": "forward"}]))
    assert "SGD-ARMT-02" in clauses(two_forward)
    two_port_wings = rate(
        design(hull_size=4, weapons=[*full, {"weapon": "Heavy Gun", "mount": "port wing", "count": 1}])
    )
    assert "SGD-ARMT-02" in clauses(two_port_wings)


@pytest.mark.rule("SGD-ARMT-03", "SGD-ARMT-04", "SGD-ARMT-05", "SGD-ARMT-26")
def test_pivot_mount_arcs() -> None:
    rating = rate(
        design(
            hull_size=4,
            weapons=[
                {"weapon": "Heavy Gun", "mount": "forward"},
                {"weapon": "Heavy Gun", "mount": "stern tower"},
                {"weapon": "Heavy Gun", "mount": "port wing"},
                {"weapon": "Heavy Gun", "mount": "starboard wing"},
            ],
        )
    )
    arcs = {g.mount: set(g.arcs) for g in rating.guns}
    assert arcs["forward"] == {"bow", "port", "starboard"}
    assert arcs["stern tower"] == {"stern", "port", "starboard"}
    assert arcs["port wing"] == {"port", "bow", "stern"}
    assert arcs["starboard wing"] == {"starboard", "bow", "stern"}


@pytest.mark.rule("SGD-ARMT-06")
def test_a_pivot_position_may_hold_two_90_degree_mounts_one_a_side() -> None:
    halves = [
        {"weapon": "Heavy Gun", "mount": "forward port"},
        {"weapon": "Heavy Gun", "mount": "forward starboard"},
    ]
    rating = rate(design(weapons=halves))
    assert rating.errors == ()
    assert {g.mount: set(g.arcs) for g in rating.guns} == {
        "forward port": {"bow", "port"},
        "forward starboard": {"bow", "starboard"},
    }
    both_port = rate(design(weapons=[{"weapon": "Heavy Gun", "mount": "forward port", "count": 2}]))
    assert "SGD-ARMT-06" in clauses(both_port)
    with_a_full_pivot = rate(design(weapons=[*halves, {"weapon": "Light Gun", "mount": "forward"}]))
    assert "SGD-ARMT-02" in clauses(with_a_full_pivot)


@pytest.mark.rule("SGD-ARMT-07")
def test_guns_beyond_the_pivots_fire_to_one_broadside_and_are_not_limited() -> None:
    broadsides = [
        {"weapon": "Light Gun", "mount": "port broadside", "count": 3},
        {"weapon": "Light Gun", "mount": "starboard broadside", "count": 3},
    ]
    rating = rate(design(hull_size=4, weapons=broadsides))
    assert rating.errors == ()
    assert {g.arcs for g in rating.guns} == {("port",), ("starboard",)}


@pytest.mark.rule("SGD-ARMT-08", "SGD-ARMT-27")
def test_mount_positions_are_a_documented_stand_in_for_the_lost_illustrations() -> None:
    mounts = design_tables()["mounts"]
    assert "stand-in" in mounts["stand_in_note"].casefold()
    # The stand-in: a fixed bow gun takes one half of the forward position.
    with_fixed = design(
        weapons=[{"weapon": "Heavy Gun", "mount": "forward"}, {"weapon": "Rod Gun", "mount": "fixed bow"}]
    )
    assert "SGD-ARMT-02" in clauses(rate(with_fixed))
    two_fixed = design(weapons=[{"weapon": "Rod Gun", "mount": "fixed bow", "count": 2}])
    assert rate(two_fixed).errors == ()


@pytest.mark.rule("SGD-ARMT-09", "SGD-ARMT-16")
def test_an_armored_single_aspect_sponson_adds_no_weight_but_20_percent_cost() -> None:
    plain = rate(
        steamer(
            armor=1,
            weapons=[
                {"weapon": '6"', "mount": "port broadside"},
                {"weapon": '6"', "mount": "starboard broadside"},
            ],
        )
    )
    sponsons = rate(
        steamer(
            armor=1,
            weapons=[
                {"weapon": '6"', "mount": "port broadside", "turret_armor": 3},
                {"weapon": '6"', "mount": "starboard broadside", "turret_armor": 3},
            ],
        )
    )
    assert sponsons.tonnage == plain.tonnage
    assert sponsons.price - plain.price == 2 * 200


@pytest.mark.rule("SGD-ARMT-10", "SGD-ARMT-16")
def test_an_armored_pivot_adds_10_percent_weight_per_armor_point() -> None:
    turret = rate(steamer(armor=1, weapons=[{"weapon": '4" L', "mount": "forward", "turret_armor": 5}]))
    tons, pounds = component(turret, '1 x 4" L')
    assert (tons, pounds) == (60, 480)  # 40 t x 1.5, 400 x 1.2 (the Gloire's turrets)
    odd = rate(steamer(armor=1, weapons=[{"weapon": "Nordenfelt 5-barrel", "mount": "forward", "turret_armor": 3}]))
    assert component(odd, "1 x Nordenfelt")[0] == Fraction(13, 2)


@pytest.mark.rule("SGD-ARMT-11")
def test_turret_armor_may_differ_from_the_hull_armor() -> None:
    rating = rate(steamer(armor=1, weapons=[{"weapon": '4" L', "mount": "forward", "turret_armor": 4}]))
    assert rating.errors == ()
    assert rating.guns[0].turret_armor == 4
    assert rating.armor == 1


@pytest.mark.rule("SGD-ARMT-12")
def test_a_fixed_gun_sits_under_the_hull_armor_at_no_extra_weight_or_cost() -> None:
    hamburg_guns = [
        {"weapon": '6"', "mount": "fixed bow"},
        {"weapon": "4in_short", "mount": "fixed port", "count": 2},
        {"weapon": "4in_short", "mount": "fixed starboard", "count": 2},
    ]
    rating = rate(steamer(armor=3, weapons=hamburg_guns))
    assert component(rating, '1 x 6"') == (100, 1000)
    assert {g.arcs for g in rating.guns} == {("bow",), ("port",), ("starboard",)}
    with pytest.raises(DesignInputError, match="covered by the hull's armor"):
        parse_design(steamer(weapons=[{"weapon": '6"', "mount": "fixed bow", "turret_armor": 2}]))


@pytest.mark.rule("SGD-ARMT-13", "SGD-ARMT-20")
def test_rapid_fire_guns_are_armored_only_in_pivot_type_mounts() -> None:
    # A Nordenfelt (5 shots a turn) sited to one broadside still pays the pivot weight when armored...
    sponson = rate(
        steamer(
            armor=1,
            weapons=[
                {"weapon": "Nordenfelt 5-barrel", "mount": "port broadside", "turret_armor": 2},
                {"weapon": "Nordenfelt 5-barrel", "mount": "starboard broadside", "turret_armor": 2},
            ],
        )
    )
    assert component(sponson, "1 x Nordenfelt 5-barrel [port broadside]")[0] == 6
    # ...and cannot be a fixed gun under the hull armor.
    fixed = rate(steamer(armor=1, weapons=[{"weapon": "Nordenfelt 5-barrel", "mount": "fixed bow"}]))
    assert "SGD-ARMT-13" in clauses(fixed)
    # ROF (1) means a shot every other turn: not "more than one", so a fixed rod gun is fine.
    rod = rate(design(armor=1, weapons=[{"weapon": "Rod Gun", "mount": "fixed bow"}]))
    assert "SGD-ARMT-13" not in clauses(rod)


@pytest.mark.rule("SGD-ARMT-14", "SGD-ARMT-26")
def test_martians_fire_fixed_guns_through_gunports_but_build_no_armored_pivots() -> None:
    gunports = rate(
        design(
            armor=1,
            weapons=[
                {"weapon": "Heavy Gun", "mount": "fixed port"},
                {"weapon": "Heavy Gun", "mount": "fixed starboard"},
            ],
        )
    )
    assert gunports.errors == ()
    turret = rate(design(armor=1, weapons=[{"weapon": "Heavy Gun", "mount": "forward", "turret_armor": 1}]))
    assert "SGD-ARMT-14" in clauses(turret)


@pytest.mark.rule("SGD-ARMT-15")
def test_no_british_weapons_in_martian_yards_and_martian_weapons_at_martian_price() -> None:
    martian = rate(design(weapons=[{"weapon": '12-pdr/3"', "mount": "forward"}]))
    assert "SGD-ARMT-15" in clauses(martian)
    heavy_in_britain = rate(steamer(weapons=[{"weapon": "Heavy Gun", "mount": "forward"}]))
    assert "SGD-ARMT-15" not in clauses(heavy_in_britain)
    assert component(heavy_in_britain, "1 x Heavy Gun") == (40, 1000)


@pytest.mark.rule("SGD-ARMT-17", "SGD-CREW-01", "SG-CG-87")
def test_gun_weight_includes_its_crew_so_crew_adds_no_tonnage() -> None:
    bare = rate(design())
    gunned = rate(design(weapons=[{"weapon": "Rogue", "mount": "forward"}]))
    assert gunned.crew.gunners == 3
    assert gunned.tonnage - bare.tonnage == 60
    assert not [c for c in gunned.components if "crew" in c.name or "gunner" in c.name]


@pytest.mark.rule("SGD-ARMT-18", "SGD-ARMT-19", "SG-CG-89", "SG-CG-90")
def test_gun_records_carry_small_arms_damage_and_range() -> None:
    rating = rate(
        design(
            weapons=[
                {"weapon": "Sweeper", "mount": "forward"},
                {"weapon": "Heavy Gun", "mount": "stern tower"},
            ]
        )
    )
    sweeper, heavy = rating.guns
    assert sweeper.personnel_only
    assert not heavy.personnel_only
    assert (heavy.damage_value, heavy.range_close, heavy.range_long) == (2, 2, 4)


@pytest.mark.rule("SGD-ARMT-22", "SG-CG-81")
def test_martian_cannon_weights_crews_and_costs_for_design() -> None:
    figures = {
        name: (catalog.weapon(name).weight_tons, catalog.weapon(name).crew, catalog.weapon(name).cost_pounds)
        for name in ("Sweeper", "Light Gun", "Rod Gun", "Heavy Gun", "Rogue", "Lob Gun")
    }
    assert figures == {
        "Sweeper": (10, 1, 200),
        "Light Gun": (20, 2, 400),
        "Rod Gun": (30, 2, 800),
        "Heavy Gun": (40, 2, 1000),
        "Rogue": (60, 3, 2000),
        "Lob Gun": (200, 3, 2000),
    }
    rating = rate(
        design(
            hull_size=4,
            weapons=[{"weapon": name, "mount": "port broadside"} for name in ("Light Gun", "Rod Gun")]
            + [{"weapon": name, "mount": "starboard broadside"} for name in ("Light Gun", "Rod Gun")],
        )
    )
    assert rating.tonnage - rate(design(hull_size=4)).tonnage == 100


@pytest.mark.rule("SGD-ARMT-23", "SG-CG-82")
def test_other_martian_ordnance_for_design() -> None:
    loads = rate(
        design(
            weapons=[{"weapon": "Power Grapnel", "mount": "forward"}],
            exotics=[
                {"weapon": "Drogue Torpedo", "count": 2},
                {"weapon": "Liquid Fire", "count": 1},
                {"weapon": "Tether Mine", "count": 1},
            ],
        )
    )
    assert component(loads, "1 x Power Grapnel") == (20, 200)
    assert component(loads, "2 x Drogue Torpedo") == (20, 40)
    assert component(loads, "1 x Martian Liquid Fire") == (20, 200)
    # The table leaves the tether mine's weight blank: it weighs nothing on the bill.
    assert component(loads, "1 x Tether Mine (Martian)") == (0, 200)


@pytest.mark.rule("SGD-ARMT-24", "SG-CG-80", "SG-CG-05")
def test_royal_navy_guns_come_from_the_consolidated_list() -> None:
    guns = [
        {"weapon": '4" L', "mount": "forward"},
        {"weapon": '5"', "mount": "port wing"},
        {"weapon": '5"', "mount": "starboard wing"},
        {"weapon": "3-pdr HRC", "mount": "stern tower"},
    ]
    rating = rate(steamer(hull_size=6, weapons=guns))
    assert component(rating, '1 x 4" L') == (40, 400)
    assert component(rating, '1 x 5" [port wing]') == (80, 800)
    assert component(rating, "1 x 3-pdr HRC") == (10, 180)


@pytest.mark.rule("SGD-ARMT-25", "SG-CG-83", "SG-CG-84")
def test_other_royal_navy_ordnance_uses_the_consolidated_prices() -> None:
    rating = rate(
        steamer(
            weapons=[
                {"weapon": "Nordenfelt 5-barrel", "mount": "port broadside"},
                {"weapon": "Nordenfelt 5-barrel", "mount": "starboard broadside"},
                {"weapon": "Smutts Discharger", "mount": "fixed bow"},
            ],
            exotics=[{"weapon": "Hale Rockets", "count": 2}, {"weapon": "Smutts Torpedo", "count": 2}],
        )
    )
    assert component(rating, "1 x Nordenfelt 5-barrel [port broadside]") == (5, 100)
    assert component(rating, "2 x Hale Rocket Battery") == (10, 100)  # C&G 50 each, not SGoM's 100
    assert component(rating, "1 x Smutts Discharger") == (200, 1000)
    assert component(rating, "2 x Smutts Aerial Torpedo") == (0, 1000)


# --- exotics -------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-EXO-01", "SGD-EXO-06", "SGD-EXO-07")
def test_hale_rockets_and_liquid_fire_share_the_deck_spaces() -> None:
    within = steamer(
        hull_size=3, exotics=[{"weapon": "Hale Rockets", "count": 2}, {"weapon": "Liquid Fire", "count": 1}]
    )
    assert rate(within).deck_spaces == (3, 3)
    assert "SGD-EXO-07" not in clauses(rate(within))
    over = steamer(hull_size=3, exotics=[{"weapon": "Hale Rockets", "count": 2}, {"weapon": "Liquid Fire", "count": 2}])
    assert "SGD-EXO-07" in clauses(rate(over))


@pytest.mark.rule("SGD-EXO-07")
def test_bomb_racks_and_spike_droppers_take_deck_space_too() -> None:
    rating = rate(
        steamer(
            hull_size=2,
            exotics=[{"weapon": "Bomb Rack", "count": 2}, {"weapon": "Spike Dropper", "count": 1}],
        )
    )
    assert rating.deck_spaces == (3, 2)
    assert "SGD-EXO-07" in clauses(rating)


@pytest.mark.rule("SGD-EXO-02", "SGD-EXO-09")
def test_no_hale_rockets_on_wooden_hulls() -> None:
    wooden = rate(design(yard="british", exotics=[{"weapon": "Hale Rockets", "count": 1}]))
    assert "SGD-EXO-02" in clauses(wooden)
    assert "SGD-EXO-02" not in clauses(rate(steamer(exotics=[{"weapon": "Hale Rockets", "count": 1}])))


@pytest.mark.rule("SGD-EXO-03", "SGD-EXO-08", "SG-CG-85")
def test_smutts_torpedoes_and_tether_mines_share_the_internal_spaces() -> None:
    within = steamer(
        hull_size=3, exotics=[{"weapon": "Smutts Torpedo", "count": 2}, {"weapon": "Tether Mine", "count": 1}]
    )
    assert rate(within).internal_spaces == (3, 3)
    # Tether mines are internal (design text), so they leave the deck spaces free.
    assert rate(within).deck_spaces == (0, 3)
    over = steamer(
        hull_size=3, exotics=[{"weapon": "Smutts Torpedo", "count": 2}, {"weapon": "Tether Mine", "count": 2}]
    )
    assert "SGD-EXO-08" in clauses(rate(over))


@pytest.mark.rule("SGD-EXO-06")
def test_deck_and_internal_spaces_are_separate_pools() -> None:
    both = steamer(
        hull_size=2,
        exotics=[{"weapon": "Hale Rockets", "count": 2}, {"weapon": "Smutts Torpedo", "count": 2}],
    )
    rating = rate(both)
    assert (rating.deck_spaces, rating.internal_spaces) == ((2, 2), (2, 2))
    assert rating.errors == ()


@pytest.mark.rule("SGD-EXO-04", "SGD-EXO-09")
def test_one_smutts_discharger_firing_to_the_bow_only() -> None:
    one = rate(steamer(weapons=[{"weapon": "Smutts Discharger", "mount": "fixed bow"}]))
    assert one.errors == ()
    assert one.guns[0].arcs == ("bow",)
    two = rate(
        steamer(
            hull_size=6,
            weapons=[
                {"weapon": "Smutts Discharger", "mount": "fixed bow"},
                {"weapon": "Smutts Discharger+ (improved)", "mount": "fixed bow"},
            ],
        )
    )
    assert "SGD-EXO-04" in clauses(two)
    broadside = rate(steamer(weapons=[{"weapon": "Smutts Discharger", "mount": "forward"}]))
    assert "SGD-EXO-04" in clauses(broadside)


@pytest.mark.rule("SGD-EXO-05", "SGD-EXO-09")
def test_one_lob_gun_firing_to_every_aspect() -> None:
    lob = rate(design(hull_size=5, weapons=[{"weapon": "Lob Gun", "mount": "amidships"}]))
    assert set(lob.guns[0].arcs) == {"bow", "stern", "port", "starboard"}
    assert lob.errors == ()
    two = rate(design(hull_size=6, weapons=[{"weapon": "Lob Gun", "mount": "amidships", "count": 2}]))
    assert "SGD-EXO-05" in clauses(two)
    not_a_lob = rate(design(weapons=[{"weapon": "Heavy Gun", "mount": "amidships"}]))
    assert "SGD-EXO-05" in clauses(not_a_lob)


def test_exotic_stores_and_guns_go_in_their_own_lists() -> None:
    with pytest.raises(DesignInputError, match="list it under exotics"):
        parse_design(design(weapons=[{"weapon": "Liquid Fire", "mount": "forward"}]))
    with pytest.raises(DesignInputError, match="list it under weapons"):
        parse_design(design(exotics=[{"weapon": "Heavy Gun", "count": 1}]))


# --- additional crew -----------------------------------------------------------------------------------


@pytest.mark.rule("SGD-XCREW-01", "SGD-XCREW-03")
def test_each_marine_needs_2_5_tons_and_20_pounds_of_quarters() -> None:
    rating = rate(design(marines=3))
    assert component(rating, "3 marines") == (Fraction(15, 2), 60)
    assert rating.to_json()["tonnage"] == 127.5


@pytest.mark.rule("SGD-XCREW-02", "SGD-XCREW-03")
def test_only_marines_are_additional_crew_and_passengers_use_the_same_allowance() -> None:
    rating = rate(design(marines=2, passengers=10))
    assert component(rating, "10 passengers") == (25, 200)
    assert rating.crew.marines == 2
    assert rating.crew.passengers == 10
    assert rating.crew.total == rate(design(marines=2)).crew.total


@pytest.mark.rule("SG-ERR-03", "SGD-CREW-10")
def test_five_marines_per_hull_size_at_most_and_every_tenth_an_officer() -> None:
    assert rate(design(marines=15)).errors == ()
    assert "SG-ERR-03" in clauses(rate(design(marines=16)))
    crew = rate(design(hull_size=4, marines=20)).crew
    assert (crew.marine_officers, crew.marine_ratings) == (2, 18)
    assert rate(design(marines=9)).crew.marine_officers == 0


@pytest.mark.rule("SG-ERR-02")
def test_armament_must_balance_port_and_starboard_by_weight() -> None:
    unbalanced = rate(
        design(
            weapons=[
                {"weapon": "Heavy Gun", "mount": "port wing"},
                {"weapon": "Light Gun", "mount": "starboard wing"},
            ]
        )
    )
    assert "SG-ERR-02" in clauses(unbalanced)
    assert unbalanced.broadside_tons == (40, 20)
    # Centreline mounts count for neither side; two light guns balance one heavy only by weight.
    balanced = rate(
        design(
            weapons=[
                {"weapon": "Rogue", "mount": "forward"},
                {"weapon": "Heavy Gun", "mount": "port wing"},
                {"weapon": "Light Gun", "mount": "starboard wing"},
                {"weapon": "Light Gun", "mount": "starboard broadside"},
            ]
        )
    )
    assert balanced.errors == ()


# --- lift value and altitude ---------------------------------------------------------------------------


@pytest.mark.rule("SGD-ALT-01", "SGD-ALT-07")
def test_lift_value_is_hull_capacity_over_tons() -> None:
    assert lift_value(7, 695) == Fraction(700, 695)
    assert rate(design()).lift_value == Fraction(300, 120)


@pytest.mark.rule("SGD-ALT-02", "SGD-ALT-03", "SGD-ALT-04", "SGD-ALT-05", "SGD-ALT-06", "SGD-ALT-07")
@pytest.mark.parametrize(
    ("tons", "ceiling"),
    [
        (250, "VH"),  # LV 1.2 exactly
        (251, "H"),
        (300, "H"),  # 1.0
        (301, "M"),
        (375, "M"),  # 0.8
        (376, "L"),
        (500, "L"),  # 0.6
        (501, None),  # cannot fly
    ],
)
def test_altitude_thresholds(tons: int, ceiling: str | None) -> None:
    assert max_altitude_for(lift_value(3, tons)) == ceiling


@pytest.mark.rule("SGD-ALT-06")
def test_a_ship_that_cannot_fly_is_reported() -> None:
    # 140 t of protection and 40 t of turncranks on a 100 t hull: LV 0.56.
    brick = design(hull_size=1, armor=7, propulsion={"type": "screw_galley", "turncranks": 4})
    rating = rate(brick)
    assert rating.max_altitude is None
    assert not rating.can_fly
    assert "SGD-ALT-06" in clauses(rating)
    assert rating.hull_rows == ()
    assert rating.to_json()["max_altitude"] is None


# --- speed ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-SPD-01")
def test_steam_speed_is_6_engine_over_hull_rounded_down() -> None:
    assert steam_speed(4, 4) == 6
    assert steam_speed(2, 3) == 4
    assert steam_speed(5, 10) == 3
    assert steam_speed(3, 4) == 4  # 4.5 rounds down
    assert rate(steamer()).speed == 6


@pytest.mark.rule("SGD-SPD-06")
def test_sky_galleons_kite_speed_against_the_wind_was_half_a_die_rounded_up() -> None:
    # The SGoM wording (1D6/2 up) and the C&G reading chosen (SGD-SPD-08) give the same speeds.
    sgom = [-(-die // 2) for die in range(1, 7)]
    assert [kite_speed(die, with_wind=False) for die in range(1, 7)] == sgom
    assert [kite_speed(die, with_wind=True) for die in range(1, 7)] == [2, 3, 4, 5, 6, 7]


@pytest.mark.rule("SGD-SPD-08")
def test_kite_speed_against_the_wind_is_one_plus_a_die_halved_down() -> None:
    assert [kite_speed(die, with_wind=False) for die in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    kite = rate(design(propulsion={"type": "kite"}))
    assert kite.speed == "K"
    assert kite.kite_speed is not None
    assert kite.kite_speed.against_wind == (1, 1, 2, 2, 3, 3)
    with pytest.raises(ValueError, match=r"1\.\.6"):
        kite_speed(7, with_wind=True)


# --- hull hits -----------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-HITS-01", "SGD-HITS-03", "SG-DMG-11")
def test_each_hull_size_of_hits_costs_an_altitude_level() -> None:
    assert altitude_after_hull_hits(3, "H", 2) == "H"
    assert altitude_after_hull_hits(3, "H", 3) == "M"
    assert altitude_after_hull_hits(3, "H", 8) == "L"
    rows = hull_rows(3, "H")
    assert [row.altitude for row in rows] == ["VL", "L", "M", "H"]


@pytest.mark.rule("SGD-HITS-02", "SGD-HITS-03")
def test_below_very_low_the_ship_crashes() -> None:
    assert altitude_after_hull_hits(3, "H", 11) == "VL"
    assert altitude_after_hull_hits(3, "H", 12) is None


# --- crew ----------------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-CREW-02", "SGD-CREW-12", "SG-CG-93")
def test_gunners_are_the_gun_crews_and_parenthesised_crews_are_not_added() -> None:
    rating = rate(
        steamer(
            weapons=[
                {"weapon": '4" L', "mount": "forward"},
                {"weapon": "Maxim", "mount": "port broadside"},
                {"weapon": "Maxim", "mount": "starboard broadside"},
            ],
            exotics=[{"weapon": "Bomb Rack", "count": 1}, {"weapon": "Hale Rockets", "count": 1}],
        )
    )
    # 4" L needs 2; the Maxims' (1) and the bomb rack's (4) come from other stations.
    assert rating.crew.gunners == 2
    maxims = [g for g in rating.guns if g.weapon_id == "maxim"]
    assert [g.crew_provided for g in maxims] == [False, False]


@pytest.mark.rule("SGD-CREW-03", "SGD-CREW-12")
def test_one_engineer_per_engine_size() -> None:
    crew = rate(steamer()).crew
    assert (crew.maneuver_kind, crew.maneuver) == ("engineers", 4)


@pytest.mark.rule("SGD-CREW-04", "SGD-CREW-12")
def test_one_turncrank_per_position() -> None:
    crew = rate(design()).crew
    assert (crew.maneuver_kind, crew.maneuver) == ("turncranks", 12)


@pytest.mark.rule("SGD-CREW-05", "SGD-CREW-12")
def test_one_topman_per_hull_size() -> None:
    crew = rate(design(hull_size=7, propulsion={"type": "kite"})).crew
    assert (crew.maneuver_kind, crew.maneuver) == ("topmen", 7)


@pytest.mark.rule("SGD-CREW-06", "SGD-CREW-11")
def test_a_new_design_has_a_three_man_bridge() -> None:
    # The Sky Galleons four-man bridge (with a signalman) is superseded for new designs.
    crew = rate(design()).crew
    assert crew.bridge[:3] == ("C", "H", "T")
    assert crew.signalman == 0
    # 3 bridge + 2 deckhands + 9 turncranks = 14 -> no additional officer (a 4-man bridge would make 15 -> 1).
    assert crew_complement(hull_size=2, maneuver_kind="turncranks", maneuver=9, gunners=0).additional_officers == 0
    # The catalog's stat blocks add a signalman as a rating, outside the /15 count.
    with_signalman = crew_complement(hull_size=2, maneuver_kind="turncranks", maneuver=9, gunners=0, signalman=True)
    assert with_signalman.additional_officers == 0
    assert with_signalman.bridge == ("C", "H", "T", "S")
    assert with_signalman.ratings == 2 + 9 + 1


@pytest.mark.rule("SGD-CREW-07", "SGD-CREW-12")
def test_one_deckhand_per_hull_size() -> None:
    assert rate(design(hull_size=5, propulsion={"type": "screw_galley", "turncranks": 15})).crew.deckhands == 5


@pytest.mark.rule("SGD-CREW-08", "SGD-CREW-12")
def test_one_additional_officer_per_15_crew() -> None:
    # 3 bridge + 3 deckhands + 12 turncranks + 12 gunners = 30 -> 2 additional officers.
    guns = [{"weapon": "Light Gun", "mount": m} for m in ("forward", "stern tower", "port wing", "starboard wing")]
    guns += [
        {"weapon": "Light Gun", "mount": "port broadside"},
        {"weapon": "Light Gun", "mount": "starboard broadside"},
    ]
    crew = rate(design(weapons=guns)).crew
    assert crew.gunners == 12
    assert crew.officer_basis == 30
    assert crew.additional_officers == 2
    assert crew.bridge == ("C", "H", "T", "O", "O")


@pytest.mark.rule("SGD-CREW-09", "SGD-CREW-12")
def test_additional_petty_officers_in_earth_navies_only() -> None:
    british = rate(
        steamer(
            hull_size=6,
            propulsion={"type": "steam", "engine_size": 5, "forced_draught": False, "bunker_size": 10},
        )
    )
    # Crew excluding officers: helmsman, trimsman, 6 deckhands, 5 engineers = 13 -> 1.
    assert british.crew.petty_officer_basis == 13
    assert british.crew.additional_petty_officers == 1
    martian = rate(design(hull_size=6, propulsion={"type": "screw_galley", "turncranks": 18}))
    assert martian.crew.additional_petty_officers == 0
    hired = rate(design(hull_size=6, propulsion={"type": "screw_galley", "turncranks": 18}, earth_navy=True))
    assert hired.crew.additional_petty_officers == 2


def test_crew_totals_add_up() -> None:
    crew = rate(steamer(marines=12, weapons=[{"weapon": '4" L', "mount": "forward"}])).crew
    assert crew.total == crew.officers + crew.petty_officers + crew.ratings
    assert crew.summary == f"{crew.officers}+{crew.petty_officers}+{crew.ratings}"


# --- maneuvering crew hits -----------------------------------------------------------------------------


@pytest.mark.rule("SGD-MCH-01", "SGD-MCH-05")
def test_steam_ships_and_kites_lose_one_speed_per_engineer_or_topman() -> None:
    assert speed_after_engineer_or_topman_losses(6, 2) == 4
    assert speed_after_engineer_or_topman_losses(3, 5) == 0
    assert rate(steamer()).maneuver_rows is None
    assert rate(design(propulsion={"type": "kite"})).maneuver_rows is None


@pytest.mark.rule("SGD-MCH-02", "SGD-MCH-06")
def test_galley_turncrank_boxes_in_rows_of_hull_size_excess_on_top() -> None:
    # Clearsight: 12 turncranks, Hs 2, speed 5 -> 5 rows of 2 and 2 more on the top row.
    assert maneuver_rows(12, 2, 5) == (4, 2, 2, 2, 2)
    assert rate(design()).maneuver_rows == (3, 3, 3, 3)


@pytest.mark.rule("SGD-MCH-04", "SGD-MCH-06", "SGD-MCH-08")
def test_turncrank_casualties_fill_rows_from_the_top() -> None:
    rows = (6, 4, 4)
    assert speed_after_turncrank_losses(rows, 5) == 3
    assert speed_after_turncrank_losses(rows, 6) == 2
    assert speed_after_turncrank_losses(rows, 10) == 1
    assert speed_after_turncrank_losses(rows, 14) == 0  # all boxes gone: it cannot move


# --- background ----------------------------------------------------------------------------------------


@pytest.mark.rule("SGD-BG-01", "SGD-BG-02", "SGD-BG-03")
def test_knots_and_horsepower() -> None:
    rating = rate(steamer())
    assert (rating.knots, rating.horsepower) == (30, 500)
    assert rate(design(propulsion={"type": "kite"})).knots is None


# --- input validation and JSON -------------------------------------------------------------------------


def test_every_input_problem_is_reported_with_its_field() -> None:
    bad = design(
        hull="iron",
        hull_size=0,
        propulsion={"type": "steam", "engine_size": "big"},
        weapons=[{"weapon": "Heavy Gun", "mount": "forward", "count": 0}],
        marines=-1,
        colour="red",
    )
    with pytest.raises(DesignInputError) as error:
        parse_design(bad)
    problems = error.value.problems
    fields = [problem.split(":", 1)[0] for problem in problems]
    for expected in (
        "colour",
        "hull",
        "hull_size",
        "propulsion.engine_size",
        "propulsion.bunker_size",
        "weapons[0].count",
        "marines",
    ):
        assert expected in fields, problems


def test_json_output_has_the_keys_the_app_needs() -> None:
    output = rate_design_json(
        {
            "yard": "martian",
            "hull": "wood",
            "hull_size": 3,
            "ram": False,
            "armor": 0,
            "propulsion": {"type": "screw_galley", "turncranks": 12},
            "weapons": [
                {"weapon": "Heavy Gun", "mount": "forward"},
                {"weapon": "Light Gun", "mount": "port wing"},
                {"weapon": "Light Gun", "mount": "starboard wing"},
            ],
            "exotics": [{"weapon": "Liquid Fire", "count": 2}],
            "marines": 0,
        }
    )
    for key in (
        "tonnage",
        "lift_value",
        "max_altitude",
        "speed",
        "endurance_days",
        "price",
        "crew",
        "errors",
    ):
        assert key in output
    assert output["tonnage"] == 240
    assert output["max_altitude"] == "VH"
    assert output["speed"] == 4
    assert output["price"] == 15000 + 1200 + 1000 + 800 + 400
    assert output["errors"] == []
    json.dumps(output)  # plain JSON all the way down
    again = rate_design_json(output["design"])
    assert again == output


# --- the command ---------------------------------------------------------------------------------------


def test_command_rates_a_design_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "galley.json"
    path.write_text(json.dumps(design(weapons=[{"weapon": "Heavy Gun", "mount": "forward"}])), encoding="utf-8")
    call_command("rate_design", str(path))
    output = json.loads(capsys.readouterr().out)
    assert output["tonnage"] == 160
    assert output["crew"]["gunners"] == 2


def test_command_rates_a_catalog_class(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("rate_design", "--class", "Whisperdeath")
    output = json.loads(capsys.readouterr().out)
    assert output["name"] == "Whisperdeath"
    assert output["rating"]["tonnage"] == 695
    assert [d["figure"] for d in output["differences"]] == ["price"]
    assert output["price_with_ram_100_per_hull_size"] == 59340


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        (
            json.dumps(design(weapons=[{"weapon": "Death Ray", "mount": "forward"}])),
            "unknown weapon 'Death Ray'",
        ),
        (json.dumps([1, 2]), "expected a JSON object"),
    ],
)
def test_command_refuses_bad_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        call_command("rate_design", str(path))


def test_command_refuses_a_missing_file_an_unknown_class_and_no_arguments(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("rate_design", str(tmp_path / "nowhere.json"))
    with pytest.raises(CommandError, match="unknown ship class 'Flying Dutchman'"):
        call_command("rate_design", "--class", "Flying Dutchman")
    with pytest.raises(CommandError, match="no design figures"):
        call_command("rate_design", "--class", "intrepid")
    with pytest.raises(CommandError, match="exactly one"):
        call_command("rate_design")
