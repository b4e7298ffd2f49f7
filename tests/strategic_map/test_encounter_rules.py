"""Encounter rules as pure functions (strategic_map/encounter_rules.py): the encounter die, every line of every
territory's table read as the ships to draw, the class pools with the umpire's hold-back, the crews, the names,
the set-up. No database."""

from __future__ import annotations

import pytest

from battles.rules.sky_galleons.scenario import ScenarioError, parse
from galleons import catalog
from galleons.record import ship_record_from_class
from strategic_map import encounter_rules as rules
from strategic_map.encounter_rules import ESCORT, MERCHANT, PRIZE, RAIDER, WantedShip

HM, PIRATE, CLOUD, WAR, MERCH, TOWED = (
    "High Martian Pirate",
    "Pirate Ship",
    "Cloud Captain",
    "Warship",
    "Enemy Merchantman",
    "Prize Ship in Tow",
)


def raiders(category: str, n: int = 1) -> tuple[WantedShip, ...]:
    return tuple(WantedShip(category, RAIDER) for _ in range(n))


def towing(category: str) -> tuple[WantedShip, ...]:
    return (WantedShip(category, RAIDER), WantedShip(TOWED, PRIZE, towed_by=0))


def escorting(warships: int, merchants: int = 1) -> tuple[WantedShip, ...]:
    return tuple(WantedShip(WAR, ESCORT) for _ in range(warships)) + tuple(
        WantedShip(MERCH, MERCHANT) for _ in range(merchants)
    )


def merchants(n: int = 1) -> tuple[WantedShip, ...]:
    return tuple(WantedShip(MERCH, MERCHANT) for _ in range(n))


# Every line of every table, as the checklist numbers them: territory, die, the ships, the clause (a literal, so
# that rules_coverage, which reads the tests without running them, sees it).
LINES = [
    pytest.param(
        "Neutral West", 1, raiders(HM), id="Neutral West-1", marks=pytest.mark.rule("SGC-ENCT-01", "SGC-ENC-17")
    ),
    pytest.param(
        "Neutral West", 2, raiders(HM), id="Neutral West-2", marks=pytest.mark.rule("SGC-ENCT-02", "SGC-ENC-17")
    ),
    pytest.param(
        "Neutral West", 3, raiders(HM), id="Neutral West-3", marks=pytest.mark.rule("SGC-ENCT-03", "SGC-ENC-17")
    ),
    pytest.param(
        "Neutral West", 4, raiders(HM, 2), id="Neutral West-4", marks=pytest.mark.rule("SGC-ENCT-04", "SGC-ENC-17")
    ),
    pytest.param(
        "Neutral West", 5, raiders(HM, 2), id="Neutral West-5", marks=pytest.mark.rule("SGC-ENCT-05", "SGC-ENC-17")
    ),
    pytest.param(
        "Neutral West", 6, towing(HM), id="Neutral West-6", marks=pytest.mark.rule("SGC-ENCT-06", "SGC-ENC-17")
    ),
    pytest.param(
        "Neutral Northeast",
        1,
        raiders(PIRATE),
        id="Neutral Northeast-1",
        marks=pytest.mark.rule("SGC-ENCT-07", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Northeast",
        2,
        raiders(PIRATE),
        id="Neutral Northeast-2",
        marks=pytest.mark.rule("SGC-ENCT-08", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Northeast",
        3,
        raiders(CLOUD),
        id="Neutral Northeast-3",
        marks=pytest.mark.rule("SGC-ENCT-09", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Northeast",
        4,
        towing(PIRATE),
        id="Neutral Northeast-4",
        marks=pytest.mark.rule("SGC-ENCT-10", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Northeast",
        5,
        towing(CLOUD),
        id="Neutral Northeast-5",
        marks=pytest.mark.rule("SGC-ENCT-11", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Northeast",
        6,
        merchants(),
        id="Neutral Northeast-6",
        marks=pytest.mark.rule("SGC-ENCT-12", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Southeast",
        1,
        raiders(WAR),
        id="Neutral Southeast-1",
        marks=pytest.mark.rule("SGC-ENCT-13", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Southeast",
        2,
        raiders(WAR),
        id="Neutral Southeast-2",
        marks=pytest.mark.rule("SGC-ENCT-14", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Southeast",
        3,
        raiders(WAR),
        id="Neutral Southeast-3",
        marks=pytest.mark.rule("SGC-ENCT-15", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Southeast",
        4,
        escorting(1),
        id="Neutral Southeast-4",
        marks=pytest.mark.rule("SGC-ENCT-16", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Southeast",
        5,
        merchants(),
        id="Neutral Southeast-5",
        marks=pytest.mark.rule("SGC-ENCT-17", "SGC-ENC-17"),
    ),
    pytest.param(
        "Neutral Southeast",
        6,
        merchants(),
        id="Neutral Southeast-6",
        marks=pytest.mark.rule("SGC-ENCT-18", "SGC-ENC-17"),
    ),
    pytest.param("Astusapes", 1, towing(HM), id="Astusapes-1", marks=pytest.mark.rule("SGC-ENCT-19", "SGC-ENC-17")),
    pytest.param("Astusapes", 2, towing(HM), id="Astusapes-2", marks=pytest.mark.rule("SGC-ENCT-20", "SGC-ENC-17")),
    pytest.param("Astusapes", 3, towing(HM), id="Astusapes-3", marks=pytest.mark.rule("SGC-ENCT-21", "SGC-ENC-17")),
    pytest.param("Astusapes", 4, raiders(HM), id="Astusapes-4", marks=pytest.mark.rule("SGC-ENCT-22", "SGC-ENC-17")),
    pytest.param("Astusapes", 5, raiders(HM, 2), id="Astusapes-5", marks=pytest.mark.rule("SGC-ENCT-23", "SGC-ENC-17")),
    pytest.param("Astusapes", 6, raiders(HM, 3), id="Astusapes-6", marks=pytest.mark.rule("SGC-ENCT-24", "SGC-ENC-17")),
    pytest.param("Shastapsh", 1, raiders(WAR), id="Shastapsh-1", marks=pytest.mark.rule("SGC-ENCT-25", "SGC-ENC-17")),
    pytest.param("Shastapsh", 2, raiders(WAR), id="Shastapsh-2", marks=pytest.mark.rule("SGC-ENCT-26", "SGC-ENC-17")),
    pytest.param("Shastapsh", 3, raiders(WAR), id="Shastapsh-3", marks=pytest.mark.rule("SGC-ENCT-27", "SGC-ENC-17")),
    pytest.param(
        "Shastapsh", 4, raiders(PIRATE), id="Shastapsh-4", marks=pytest.mark.rule("SGC-ENCT-28", "SGC-ENC-17")
    ),
    pytest.param("Shastapsh", 5, towing(PIRATE), id="Shastapsh-5", marks=pytest.mark.rule("SGC-ENCT-29", "SGC-ENC-17")),
    pytest.param("Shastapsh", 6, merchants(), id="Shastapsh-6", marks=pytest.mark.rule("SGC-ENCT-30", "SGC-ENC-17")),
    pytest.param("Oenotria", 1, raiders(WAR), id="Oenotria-1", marks=pytest.mark.rule("SGC-ENCT-31", "SGC-ENC-17")),
    pytest.param("Oenotria", 2, raiders(WAR), id="Oenotria-2", marks=pytest.mark.rule("SGC-ENCT-32", "SGC-ENC-17")),
    pytest.param("Oenotria", 3, escorting(2), id="Oenotria-3", marks=pytest.mark.rule("SGC-ENCT-33", "SGC-ENC-17")),
    pytest.param("Oenotria", 4, escorting(1), id="Oenotria-4", marks=pytest.mark.rule("SGC-ENCT-34", "SGC-ENC-17")),
    pytest.param("Oenotria", 5, merchants(2), id="Oenotria-5", marks=pytest.mark.rule("SGC-ENCT-35", "SGC-ENC-17")),
    pytest.param("Oenotria", 6, merchants(3), id="Oenotria-6", marks=pytest.mark.rule("SGC-ENCT-36", "SGC-ENC-17")),
    pytest.param("Shistomik", 1, raiders(CLOUD), id="Shistomik-1", marks=pytest.mark.rule("SGC-ENCT-37", "SGC-ENC-17")),
    pytest.param("Shistomik", 2, raiders(CLOUD), id="Shistomik-2", marks=pytest.mark.rule("SGC-ENCT-38", "SGC-ENC-17")),
    pytest.param("Shistomik", 3, raiders(CLOUD), id="Shistomik-3", marks=pytest.mark.rule("SGC-ENCT-39", "SGC-ENC-17")),
    pytest.param("Shistomik", 4, towing(CLOUD), id="Shistomik-4", marks=pytest.mark.rule("SGC-ENCT-40", "SGC-ENC-17")),
    pytest.param("Shistomik", 5, towing(CLOUD), id="Shistomik-5", marks=pytest.mark.rule("SGC-ENCT-41", "SGC-ENC-17")),
    pytest.param("Shistomik", 6, towing(CLOUD), id="Shistomik-6", marks=pytest.mark.rule("SGC-ENCT-42", "SGC-ENC-17")),
]


@pytest.mark.parametrize(("territory", "die", "ships"), LINES)
def test_every_line_of_every_table_names_the_ships_to_draw(territory, die, ships):
    line = catalog.encounter_table(territory).encounter_for(die)
    assert rules.parse_line(line) == ships


def test_the_tables_tested_are_all_the_catalogs_tables():
    lines = {(param.values[0], param.values[1]) for param in LINES}
    assert lines == {(table.territory, die) for table in catalog.encounter_tables() for die in range(1, 7)}
    assert all(len(table.type_roll) == 6 for table in catalog.encounter_tables())


def test_a_line_with_an_unknown_ship_is_a_data_error():
    with pytest.raises(rules.EncounterLineError, match="Zeppelin"):
        rules.parse_line("Two Zeppelins")
    with pytest.raises(rules.EncounterLineError, match="one ship tows one Prize Ship"):
        rules.parse_line("Two Warships with Prize Ship in tow")


@pytest.mark.rule("SGC-ENC-03", "SGC-ENC-04", "SGC-ENC-07", "SGC-ENC-11")
def test_astusapes_worked_example_moving_hits_on_1_2_and_patrolling_on_1_to_5():
    table = catalog.encounter_table("Astusapes")
    assert (table.move_through, table.patrol) == (2, 5)
    assert [die for die in range(1, 7) if rules.encounter_happens(die, table.move_through)] == [1, 2]
    assert [die for die in range(1, 7) if rules.encounter_happens(die, table.patrol)] == [1, 2, 3, 4, 5]


@pytest.mark.rule("SGC-ENC-12", "SGC-ENC-13")
def test_patrolling_shastapsh_or_oenotria_always_meets_someone_and_british_territory_never():
    for territory in ("Shastapsh", "Oenotria"):
        patrol = catalog.encounter_table(territory).patrol
        assert all(rules.encounter_happens(die, patrol) for die in range(1, 7))
    assert not any(rules.encounter_happens(die, None) for die in range(1, 7))
    with pytest.raises(ValueError, match=r"1\.\.6"):
        rules.encounter_happens(7, 3)


# --- pools ---------------------------------------------------------------------------------------------------

SIZES = {ship.id: ship.hull_size or 0 for ship in catalog.ship_classes()}


@pytest.mark.rule("SGC-ENC-16", "SGC-ETYPE-01", "SGC-ETYPE-04", "SGC-ETYPE-06", "SGC-ETYPE-09", "SGC-ETYPE-11")
def test_the_pools_are_the_catalogs_classes_and_every_class_in_them_can_be_built():
    pools = {category.name: category.class_ids for category in catalog.encounter_categories()}
    assert pools == {
        HM: ("clearsight", "small_bird"),
        PIRATE: ("clearsight", "small_bird", "bloodrunner", "swiftwood"),
        CLOUD: ("fenian_ram", "glory_sled", "endtime", "whisperdeath", "hullcutter"),
        WAR: ("whisperdeath", "swiftwood", "hullcutter", "endtime"),
        MERCH: ("warm_winds",),
        TOWED: ("warm_winds",),
    }
    for class_ids in pools.values():
        for class_id in class_ids:
            record = ship_record_from_class(class_id, name=class_id, crew_quality="green")
            assert record.max_altitude in ("M", "H", "VH")  # each can start at Medium


@pytest.mark.rule("SGC-ETYPE-08")
def test_the_fenian_ram_and_glory_sled_are_drawn_from_their_reconstructed_records():
    for class_id in ("fenian_ram", "glory_sled"):
        ship = catalog.ship_class(class_id)
        assert ship.data_status == "reconstructed"
        assert ship.has_figures


@pytest.mark.rule("SGC-ENC-18")
def test_the_hold_back_keeps_every_class_above_the_pools_smallest_hull_for_the_first_voyages():
    cloud = catalog.encounter_category(CLOUD).class_ids
    assert rules.held_back(cloud, SIZES) == ("glory_sled", "whisperdeath", "hullcutter")
    first = rules.class_pool(cloud, SIZES, voyages_made=0, holdback_voyages=2)
    second = rules.class_pool(cloud, SIZES, voyages_made=1, holdback_voyages=2)
    third = rules.class_pool(cloud, SIZES, voyages_made=2, holdback_voyages=2)
    assert first == second == ("fenian_ram", "endtime")
    assert third == cloud
    assert rules.class_pool(cloud, SIZES, voyages_made=0, holdback_voyages=0) == cloud  # the option off
    pirates = catalog.encounter_category(PIRATE).class_ids
    assert rules.class_pool(pirates, SIZES, voyages_made=0, holdback_voyages=1) == ("bloodrunner",)
    warships = catalog.encounter_category(WAR).class_ids
    assert rules.class_pool(warships, SIZES, voyages_made=0, holdback_voyages=1) == ("swiftwood",)
    # A pool of one hull size holds nothing back.
    high_martians = catalog.encounter_category(HM).class_ids
    assert rules.class_pool(high_martians, SIZES, voyages_made=0, holdback_voyages=3) == high_martians


def test_a_draw_is_a_die_of_the_pools_size():
    pool = ("endtime", "fenian_ram")
    assert [rules.drawn_class(pool, die) for die in (1, 2)] == ["endtime", "fenian_ram"]
    with pytest.raises(ValueError, match=r"1\.\.2"):
        rules.drawn_class(pool, 3)


# --- crews ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-ETYPE-02", "SGC-ETYPE-03")
def test_high_martians_are_green_but_board_as_trained_on_1_to_3_and_crack_on_4_to_6():
    category = catalog.encounter_category(HM)
    assert rules.needs_crew_die(category)
    crews = [rules.crew_for(category, RAIDER, die) for die in range(1, 7)]
    assert {crew.quality for crew in crews} == {"green"}
    assert all(crew.high_martian for crew in crews)
    assert [crew.boarding_quality for crew in crews] == ["trained"] * 3 + ["crack"] * 3
    with pytest.raises(ValueError, match="boarding die"):
        rules.crew_for(category, RAIDER)


@pytest.mark.rule("SGC-ETYPE-05", "SGC-ETYPE-07", "SGC-ETYPE-10", "SGC-ETYPE-12", "SGC-ETYPE-14")
def test_pirates_trained_cloud_captains_crack_warships_trained_merchants_green_with_contraband_prizes_green():
    def crew(name: str, role: str) -> rules.Crew:
        category = catalog.encounter_category(name)
        assert not rules.needs_crew_die(category)
        return rules.crew_for(category, role)

    assert crew(PIRATE, RAIDER) == rules.Crew("trained", "trained")
    assert crew(CLOUD, RAIDER) == rules.Crew("crack", "crack")
    assert crew(WAR, ESCORT) == rules.Crew("trained", "trained")
    assert crew(MERCH, MERCHANT) == rules.Crew("green", "green", contraband=True)
    assert crew(TOWED, PRIZE) == rules.Crew("green", "green")
    # A prize in tow of High Martians is crewed by their prize crew, not by kings' warriors.
    assert rules.crew_for(catalog.encounter_category(HM), PRIZE) == rules.Crew("green", "green")


# --- names and set-up -------------------------------------------------------------------------------------------


def test_names_are_unique_in_the_encounter_and_apart_from_the_players_ships():
    assert rules.ship_names(["Small Bird", "Clearsight"]) == ["Small Bird", "Clearsight"]
    assert rules.ship_names(["Small Bird", "Small Bird", "Clearsight"], taken=["clearsight"]) == [
        "Small Bird 1",
        "Small Bird 2",
        "Clearsight 2",
    ]
    assert rules.ship_names(["Warm Winds"] * 3, taken=["Warm Winds 2"]) == [
        "Warm Winds 1",
        "Warm Winds 3",
        "Warm Winds 4",
    ]


@pytest.mark.rule("SGC-ENC-21")
def test_the_set_up_sighting_distance_is_2d6_plus_4_and_the_lines_close_or_run():
    assert rules.sighting_distance([1, 1]) == 6
    assert rules.sighting_distance([6, 6]) == 16
    assert [rules.wind_from(die) for die in range(1, 7)] == [0, 1, 2, 3, 4, 5]
    ours, theirs = rules.placements(
        [RAIDER, PRIZE], [ESCORT, ESCORT, MERCHANT], 16, our_towed_by=[None, 0], their_towed_by=[None, None, None]
    )
    assert [p.position[0] for p in theirs] == [23, 23, 23]
    assert ours[0].position == (7, 11)
    assert ours[1].position == (6, 11)  # the prize astern of her tower
    assert [p.facing for p in theirs] == [
        rules.WESTWARD,
        rules.WESTWARD,
        rules.EASTWARD,
    ]  # escorts close, the merchant runs
    assert len({p.position for p in theirs}) == 3
    with pytest.raises(ValueError, match="towed by ship 0"):
        rules.placements([PRIZE], [], 10, our_towed_by=[0])


# --- the scenario's "record" ship entry --------------------------------------------------------------------------


def record_scenario(record_json: dict, **entry: object) -> dict:
    return {
        "slug": "record-entry",
        "title": "A campaign ship enters",
        "setup": {"kind": "fixed"},
        "sides": [
            {"id": "captain", "ships": [{"name": "Gull", "record": record_json, "position": [5, 5], **entry}]},
            {"id": "pirates", "ships": [{"name": "Small Bird", "class": "Small Bird", "position": [20, 5]}]},
        ],
    }


def test_a_record_entry_carries_damage_and_crew_and_resets_what_belongs_to_one_battle():
    from dataclasses import replace

    from galleons.record import Criticals, Party

    record = ship_record_from_class("clearsight", name="Old Gull", crew_quality="crack")
    hit_row = replace(record.hull_rows[0], hits=1)
    record = replace(
        record,
        hull_rows=(hit_row, *record.hull_rows[1:]),
        guns=(
            replace(record.guns[0], destroyed=True, last_fired=9),
            replace(record.guns[1], jammed=True),
            *record.guns[2:],
        ),
        criticals=Criticals(stunned_from=3, stunned_through=4, rudder_jam=2, screw_mast_hits=1, helm_locked_turn=5),
        fire=3,
        agility_speed=4,
        grappled_with=("Someone",),
        status="flying",
    )
    deck = record.crew.count("deckhands")
    record = replace(
        record, crew=record.crew.with_count("deckhands", deck - 2), party=Party(seamen=2, posts=(("deckhands", 2),))
    )
    scenario = parse(record_scenario(record.to_json(), facing=2, altitude="M"))
    entered = scenario.sides[0].ships[0].record
    assert (entered.name, entered.side, entered.facing, entered.altitude) == ("Gull", "captain", 2, "M")
    assert entered.crew_quality == "crack"
    assert entered.hull_hits == 1
    assert entered.guns[0].destroyed
    assert entered.guns[0].last_fired is None
    assert not entered.guns[1].jammed
    assert entered.criticals == Criticals(screw_mast_hits=1)
    assert (entered.fire, entered.agility_speed, entered.grappled_with) == (0, None, ())
    assert entered.party.men == 0
    assert entered.crew.count("deckhands") == deck  # the party back at its posts


def test_a_record_entry_keeps_high_martians_and_refuses_a_bad_record():
    record = ship_record_from_class("small_bird", name="Bird", crew_quality="green")
    from dataclasses import replace

    record = replace(record, high_martian=True, boarding_quality="crack")
    entered = parse(record_scenario(record.to_json())).sides[0].ships[0].record
    assert (entered.high_martian, entered.boarding_quality, entered.crew_quality) == (True, "crack", "green")
    with pytest.raises(ScenarioError, match="ships\\[0\\]"):
        parse(record_scenario({"name": "nothing"}))
    with pytest.raises(ScenarioError, match="one of them"):
        parse(record_scenario(record.to_json(), **{"class": "Clearsight"}))
