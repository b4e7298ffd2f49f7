"""The Sky Galleons ship record (galleons/record.py): layout, derived figures, JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from battles.engine.hexgrid import Hex
from galleons import catalog
from galleons.record import (
    Criticals,
    FireRate,
    Moment,
    ShipRecord,
    assign_gun_crew,
    assign_relief,
    combat_tables,
    fire_rate,
    record_problems,
    ship_record_from_class,
    ship_record_from_design,
)


def galley(**overrides: Any) -> dict[str, Any]:
    """Hs 4, 14 turncranks (raw speed 3.5 -> 3): the SGD-MCH-03 example galley, with a rogue forward."""
    data: dict[str, Any] = {
        "yard": "martian",
        "hull": "wood",
        "hull_size": 4,
        "ram": False,
        "armor": 0,
        "propulsion": {"type": "screw_galley", "turncranks": 14},
        "weapons": [{"weapon": "Rogue", "mount": "forward"}],
        "exotics": [],
        "marines": 0,
    }
    data.update(overrides)
    return data


def steamer(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "yard": "british",
        "hull": "steel",
        "hull_size": 4,
        "ram": False,
        "armor": 2,
        "propulsion": {"type": "steam", "engine_size": 4, "forced_draught": True, "bunker_size": 8},
        "weapons": [
            {"weapon": "4in_long", "mount": "fixed bow"},
            {"weapon": "4in_short", "mount": "forward port"},
            {"weapon": "6in", "mount": "stern tower", "turret_armor": 4},
        ],
        "exotics": [],
        "marines": 0,
    }
    data.update(overrides)
    return data


@pytest.fixture
def swiftwood() -> ShipRecord:
    return ship_record_from_class("Swiftwood", name="Swiftwood")


# --- the hull boxes and the ceiling -----------------------------------------------------------------


@pytest.mark.rule("SG-DMG-11", "SG-DMG-12", "SG-ALT-03")
def test_hull_rows_one_per_altitude_highest_first() -> None:
    record = ship_record_from_class("Sky Runner", name="X")
    # Hs 3 with a High ceiling: rows H, M, L, VL of 3 boxes, highest first as the record sheet draws them.
    assert [(row.altitude, row.boxes, row.hits) for row in record.hull_rows] == [
        ("H", 3, 0),
        ("M", 3, 0),
        ("L", 3, 0),
        ("VL", 3, 0),
    ]
    assert record.hull_boxes == 12
    assert record.max_altitude == "H"
    assert record.altitude == "H"


@pytest.mark.rule("SG-DMG-14", "SG-DMG-15", "SGD-HITS-01")
def test_ceiling_is_the_highest_row_not_yet_full(swiftwood: ShipRecord) -> None:
    rows = list(swiftwood.hull_rows)
    rows[0] = replace(rows[0], hits=rows[0].boxes)
    hit = replace(swiftwood, hull_rows=tuple(rows))
    assert swiftwood.max_altitude == "VH"
    assert hit.max_altitude == "H"
    # At its old ceiling when the row filled: it must drop one level, free, next movement phase.
    assert hit.must_drop == 1
    assert replace(hit, altitude="M").must_drop == 0


@pytest.mark.rule("SG-DMG-16", "SGD-HITS-02")
def test_no_ceiling_once_every_box_is_checked(swiftwood: ShipRecord) -> None:
    full = tuple(replace(row, hits=row.boxes) for row in swiftwood.hull_rows)
    assert replace(swiftwood, hull_rows=full).max_altitude is None


@pytest.mark.rule("SG-COL-05", "SG-ARM-02")
def test_catalog_class_keeps_its_published_figures() -> None:
    # Hullcutter: published ceiling High where the rater computes Medium (DESIGN.md section 8).
    hullcutter = ship_record_from_class("hullcutter", name="Cutter")
    assert hullcutter.max_altitude == "H"
    assert hullcutter.hull_size == 7
    assert hullcutter.speed == 3
    aphid = ship_record_from_class("Aphid (original)", name="Aphid")
    assert aphid.armor == 2
    assert aphid.propulsion == "steam"
    assert aphid.engine_size == 2
    assert aphid.hull_material == "steel"


def test_unknown_or_figureless_class_is_refused() -> None:
    with pytest.raises(catalog.UnknownShipClass):
        ship_record_from_class("Flying Dutchman", name="X")
    with pytest.raises(ValueError, match="no crew"):
        ship_record_from_class("intrepid", name="X")
    with pytest.raises(ValueError, match="crew quality"):
        ship_record_from_class("Swiftwood", name="X", crew_quality="legendary")


# --- crew ---------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-05", "SG-DMG-20", "SG-CREW-15", "SG-CREW-06")
def test_catalog_crew_boxes_follow_the_stat_block(swiftwood: ShipRecord) -> None:
    crew = swiftwood.crew
    stat = catalog.ship_class("Swiftwood").crew
    assert stat is not None
    # Bridge C, H, T, S, O: captain, one more officer, helmsman, trimsman, signalman.
    assert (crew.captain, crew.officers, crew.helmsman, crew.trimsman, crew.signalman) == (1, 1, 1, 1, 1)
    assert crew.deckhands == stat.deckhands == 3
    assert crew.maneuver_kind == "topmen"
    assert crew.maneuver == 3
    assert (crew.marine_officers, crew.marines) == (1, 9)
    assert crew.officers_aboard == stat.officers == 3
    assert swiftwood.crew_aboard == stat.total == 29


def test_every_catalog_class_builds_and_counts_its_published_crew() -> None:
    for ship in catalog.ship_classes():
        if ship.crew is None:
            continue
        record = ship_record_from_class(ship, name=ship.name)
        assert record.crew_aboard == ship.crew.total, ship.name
        assert record.crew.officers_aboard == ship.crew.officers, ship.name
        assert record.crew.petty_officers_aboard == ship.crew.petty_officers, ship.name
        assert record_problems(record) == []


@pytest.mark.rule("SGD-CREW-11", "SGD-MCH-06", "SGD-MCH-07")
def test_design_record_has_the_three_man_bridge_and_turncrank_rows() -> None:
    record = ship_record_from_design(galley(), name="Example")
    crew = record.crew
    assert (crew.captain, crew.helmsman, crew.trimsman, crew.signalman) == (1, 1, 1, 0)
    # 14 turncranks, Hs 4, speed 3: rows 6/4/4, the excess on the top row.
    assert crew.maneuver_rows == (6, 4, 4)
    assert record.speed == 3
    assert record.class_name == "Example"


@pytest.mark.rule("SG-FIRE-03", "SG-CG-93")
def test_gun_crews_are_circles_by_each_gun_and_parenthesised_crews_start_empty(swiftwood: ShipRecord) -> None:
    rogue = swiftwood.gun("1")
    assert (rogue.weapon_id, rogue.crew, rogue.manned) == ("rogue", 3, 3)
    grapnel = next(gun for gun in swiftwood.guns if gun.weapon_id == "power_grapnel")
    # The power grapnel's crew (2) comes from other posts (SG-CG-93): it starts with nobody at it.
    assert (grapnel.crew, grapnel.manned) == (2, 0)
    manned = assign_gun_crew(swiftwood, grapnel.id, 2)
    assert manned.gun(grapnel.id).manned == 2
    assert manned.crew.deckhands == swiftwood.crew.deckhands - 2
    with pytest.raises(ValueError, match="empty crew circles"):
        assign_gun_crew(manned, grapnel.id, 1)
    with pytest.raises(ValueError, match="only 0 captain"):
        assign_gun_crew(
            replace(swiftwood, crew=swiftwood.crew.with_count("captain", 0)), grapnel.id, 1, source="captain"
        )


# --- guns: aspects, armor, rate of fire ---------------------------------------------------------------


@pytest.mark.rule("SG-FIRE-02", "SG-ARM-10", "SG-ARM-11", "SGD-ARMT-09", "SGD-ARMT-12")
def test_gun_arcs_and_armored_mounts() -> None:
    record = ship_record_from_design(steamer(), name="Steamer")
    bow, forward_port, stern = record.guns
    assert bow.arcs == ("bow",)
    assert forward_port.arcs == ("bow", "port")
    assert stern.arcs == ("stern", "port", "starboard")
    # Fixed under the hull armor: the ship's armor. A turret: its own value. A plain pivot: none.
    assert bow.armor == 2
    assert stern.armor == 4
    assert forward_port.armor is None


@pytest.mark.rule("SG-FIRE-04", "SG-FIRE-05", "SG-CG-91")
def test_rate_of_fire_as_printed() -> None:
    assert fire_rate(catalog.weapon("1pdr_hrc")) == FireRate(3, 0)
    assert fire_rate(catalog.weapon("heavy_gun")) == FireRate(1, 0)
    assert fire_rate(catalog.weapon("rogue")) == FireRate(1, 1)
    assert fire_rate(catalog.weapon("16in")) == FireRate(1, 2)
    # Rockets roll a die for hits: not gunfire (SG-CG-94).
    assert fire_rate(catalog.weapon("hale_rockets")) is None


@pytest.mark.rule("SG-CREW-10", "SG-CREW-11", "SGD-ARMT-21", "SG-CG-92")
def test_missing_gunners_slow_the_gun() -> None:
    # ROF 3 short one: 2 shots. ROF 1 short one: reloads a turn. ROF (1) short one: (2).
    assert fire_rate(catalog.weapon("1pdr_hrc"), 1) == FireRate(2, 0)
    assert fire_rate(catalog.weapon("heavy_gun"), 1) == FireRate(1, 1)
    assert fire_rate(catalog.weapon("rod_gun"), 1) == FireRate(1, 2)
    # The 4.7" QF (ROF 2, crew 2) short both men would be 0 shots: one shot, a turn of reloading.
    assert fire_rate(catalog.weapon("4_7in_qf"), 2) == FireRate(1, 1)


@pytest.mark.rule("SG-FIRE-06", "SG-SEQ-06", "SG-CREW-11")
def test_gun_ready_turns_follow_reload_and_crew(swiftwood: ShipRecord) -> None:
    rogue = replace(swiftwood.gun("1"), last_fired=1)  # ROF (1)
    assert [turn for turn in range(1, 6) if rogue.ready(turn)] == [3, 4, 5]
    light = replace(swiftwood.gun("2"), last_fired=2)  # ROF 1: once a turn, every turn
    assert not light.ready(2)
    assert light.ready(3)
    # A gunner lost while it reloads slows the reload: the light gun now fires every other turn.
    assert not replace(light, manned=1).ready(3)
    assert replace(light, manned=1).ready(4)
    assert not replace(light, manned=0).ready(9)
    assert not replace(light, destroyed=True).ready(9)
    assert not replace(light, jammed=True).ready(9)


# --- speed --------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-12", "SG-CREW-13", "SGD-MCH-04")
def test_galley_loses_one_speed_per_full_row_of_turncranks() -> None:
    record = ship_record_from_design(galley(), name="G")
    speeds = [replace(record, crew=replace(record.crew, maneuver_lost=lost)).effective_speed() for lost in range(15)]
    # Rows 6/4/4 from the top: 3 until the sixth man, 2 until the tenth, 1 until the fourteenth, then 0.
    assert speeds == [3] * 6 + [2] * 4 + [1] * 4 + [0]


@pytest.mark.rule("SG-CREW-14", "SGD-MCH-01", "SG-CREW-13")
def test_steam_ship_loses_one_speed_per_engineer() -> None:
    record = ship_record_from_class("Hamburg", name="Hamburg")  # speed 5, 5 engineers
    speeds = [replace(record, crew=replace(record.crew, maneuver_lost=lost)).effective_speed() for lost in range(6)]
    assert speeds == [5, 4, 3, 2, 1, 0]


@pytest.mark.rule("SGD-MCH-05", "SG-KITE-02", "SG-KITE-03", "SG-KITE-04")
def test_kite_speed_is_rolled_and_topmen_cost_one_each(swiftwood: ShipRecord) -> None:
    assert swiftwood.effective_speed(4) == 5
    assert swiftwood.effective_speed(4, with_wind=False) == 2
    lost_two = replace(swiftwood, crew=replace(swiftwood.crew, maneuver_lost=2))
    assert lost_two.effective_speed(4) == 3
    with pytest.raises(ValueError, match="movement die"):
        swiftwood.effective_speed()


@pytest.mark.rule("SG-CRIT-28", "SG-CRIT-29", "SG-CRIT-27", "SG-CRIT-26")
def test_screw_mast_and_boiler_damage_cut_speed(swiftwood: ShipRecord) -> None:
    hamburg = ship_record_from_class("Hamburg", name="Hamburg")
    assert replace(hamburg, criticals=Criticals(screw_mast_hits=2)).effective_speed() == 3
    assert replace(hamburg, criticals=Criticals(boiler_loss=3)).effective_speed() == 2
    assert replace(hamburg, criticals=Criticals(boiler_blown=True)).effective_speed() == 0
    # A kite's mast hit comes off the die: a 4 counts as a 3.
    assert replace(swiftwood, criticals=Criticals(screw_mast_hits=1)).effective_speed(4) == 4


@pytest.mark.rule("SG-CRIT-30")
def test_jury_rig_only_when_screw_hits_stopped_the_ship() -> None:
    hamburg = ship_record_from_class("Hamburg", name="Hamburg")  # speed 5
    four = replace(hamburg, criticals=Criticals(screw_mast_hits=4))
    five = replace(hamburg, criticals=Criticals(screw_mast_hits=5))
    assert not four.jury_rig_possible
    assert five.jury_rig_possible
    assert five.effective_speed() == 0
    rigged = replace(five, criticals=replace(five.criticals, jury_rigged=True))
    assert rigged.effective_speed() == 1
    assert not rigged.jury_rig_possible
    # Stopped by its engineers' loss, not by screw hits: no jury-rig.
    no_crew = replace(five, crew=replace(five.crew, maneuver_lost=5))
    assert not no_crew.jury_rig_possible


# --- stations -----------------------------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-04", "SG-CREW-07", "SG-CREW-08", "SG-CREW-09")
def test_empty_helm_and_trim_stations_and_their_reliefs() -> None:
    aphid = ship_record_from_class("Aphid (original)", name="Aphid")  # one extra petty officer
    now = Moment(3)
    no_helm = replace(aphid, crew=aphid.crew.with_count("helmsman", 0))
    assert not no_helm.helm_manned
    assert not no_helm.can_change_course(now)
    assert not no_helm.can_change_speed(now)
    relieved = assign_relief(no_helm, "helm", "petty_officer")
    assert relieved.helm_manned
    assert relieved.can_change_course(now)
    # The relief still counts as a petty officer aboard.
    assert relieved.crew.petty_officers_aboard == no_helm.crew.petty_officers_aboard
    no_trim = replace(relieved, crew=relieved.crew.with_count("trimsman", 0))
    assert not no_trim.trim_manned
    assert not no_trim.can_change_altitude(now)
    # The only extra petty officer is at the helm: the trim station needs an officer (the captain here).
    with pytest.raises(ValueError, match="nobody of rank petty_officer"):
        assign_relief(no_trim, "trim", "petty_officer")
    both = assign_relief(no_trim, "trim", "captain")
    assert both.trim_manned
    with pytest.raises(ValueError, match="still manned"):
        assign_relief(aphid, "helm", "officer")
    with pytest.raises(ValueError, match="only petty_officer"):
        assign_relief(no_helm, "helm", "deckhands")
    # The relief dies: the station is empty again.
    dead_relief = replace(both, crew=both.crew.with_count("captain", 0))
    assert not dead_relief.trim_manned


@pytest.mark.rule("SG-CRIT-16", "SG-CRIT-37", "SG-CRIT-38", "SG-CRIT-42")
def test_what_the_ship_may_do_after_criticals(swiftwood: ShipRecord) -> None:
    now = Moment(4, 2)
    assert swiftwood.can_change_course(now)
    assert not replace(swiftwood, criticals=Criticals(rudder_jam=2)).can_change_course(now)
    assert swiftwood.can_change_altitude(now)
    assert not replace(swiftwood, criticals=Criticals(lifters_jam=1)).can_change_altitude(now)
    bridged = replace(swiftwood, criticals=Criticals(helm_locked_turn=4))
    assert not bridged.can_change_course(now)
    assert not bridged.can_change_altitude(now)
    assert bridged.can_change_course(Moment(5))
    stunned = replace(swiftwood, criticals=Criticals(stunned_from=now.index, stunned_through=now.index + 1))
    assert stunned.stunned(now)
    assert stunned.stunned(Moment(5, 1))
    assert not stunned.stunned(Moment(5, 2))


@pytest.mark.rule("SG-CREW-03")
def test_all_officers_lost(swiftwood: ShipRecord) -> None:
    crew = swiftwood.crew.with_count("captain", 0).with_count("officers", 0)
    assert not replace(swiftwood, crew=crew).all_officers_lost
    assert replace(swiftwood, crew=crew.with_count("marine_officers", 0)).all_officers_lost


def test_moment_counts_movement_phases() -> None:
    assert [Moment(1, 1).index, Moment(1, 2).index, Moment(2, 1).index] == [1, 2, 3]
    with pytest.raises(ValueError, match=r"movement phase 1\.\.2"):
        Moment(1, 3)
    # Three captains, three movement phases a turn (SG-SCN-05): turn 2's first phase is the fourth.
    assert [Moment(1, 3, phases=3).index, Moment(2, 1, phases=3).index] == [3, 4]


# --- JSON ---------------------------------------------------------------------------------------------


def test_json_round_trips_exactly_for_every_catalog_class() -> None:
    for ship in catalog.ship_classes():
        if ship.crew is None:
            continue
        record = ship_record_from_class(ship, name=ship.name, position=Hex(3, -1), facing=2, crew_quality="crack")
        data = json.loads(json.dumps(record.to_json()))
        again = ShipRecord.from_json(data)
        assert again == record, ship.name
        assert again.to_json() == data, ship.name


def test_json_round_trip_keeps_damage_and_state(swiftwood: ShipRecord) -> None:
    rows = (replace(swiftwood.hull_rows[0], hits=2), *swiftwood.hull_rows[1:])
    damaged = replace(
        swiftwood.with_gun(replace(swiftwood.gun("1"), last_fired=3, manned=1, destroyed=True)),
        hull_rows=rows,
        fire=4,
        criticals=Criticals(rudder_jam=3, lifters_jam=1, screw_mast_hits=1, stunned_from=5, stunned_through=6),
        crew=replace(swiftwood.crew, maneuver_lost=2, helm_relief="officer"),
        altitude="M",
        status="flying",
        casualty_order=("gun:1", "deckhands"),
    )
    text = json.dumps(damaged.to_json(), sort_keys=True)
    assert ShipRecord.from_json(json.loads(text)) == damaged
    assert json.dumps(ShipRecord.from_json(json.loads(text)).to_json(), sort_keys=True) == text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(extra=1), "unknown keys"),
        (lambda d: d.pop("fire"), "missing keys"),
        (lambda d: d.update(altitude="XX"), "altitude"),
        (lambda d: d["hull_rows"][0].update(hits=99), "hits in"),
        (lambda d: d["guns"][0].update(weapon="ray gun"), "ray gun"),
        (lambda d: d["guns"][0].update(arcs=["up"]), "firing aspects"),
        (lambda d: d.update(casualty_order=["cook"]), "unknown post"),
        (lambda d: d.update(facing=7), "facing"),
        (lambda d: d.update(speed=3), "kites, and only kites"),
        (lambda d: d["crew"].update(deckhands=-1), "at least 0"),
        (lambda d: d["crew"].update(helm_relief="deckhand"), "helm_relief"),
        (lambda d: d.update(position=[1]), "axial hex"),
    ],
)
def test_json_refuses_malformed_records(swiftwood: ShipRecord, change: Any, message: str) -> None:
    data = json.loads(json.dumps(swiftwood.to_json()))
    change(data)
    with pytest.raises((ValueError, KeyError), match=message):
        ShipRecord.from_json(data)


def test_tables_cite_checklist_clauses() -> None:
    from battles.checklist import checklist_clauses

    known = checklist_clauses()
    for key, entry in combat_tables().items():
        if key == "meta":
            continue
        assert entry["clauses"], key
        assert all(clause in known for clause in entry["clauses"]), key


@pytest.mark.rule("SG-BRD-01", "SG-MAR-02")
def test_a_party_is_led_by_a_marine_officer_then_a_sea_officer_then_the_captain(swiftwood: ShipRecord) -> None:
    crew = swiftwood.crew.with_count("marine_officers", 1).with_count("officers", 1)
    assert crew.party_leader == "marine_officers"
    crew = crew.with_count("marine_officers", 0)
    assert crew.party_leader == "officers"
    crew = crew.with_count("officers", 0)
    assert crew.party_leader == "captain"
    assert crew.with_count("captain", 0).party_leader is None
