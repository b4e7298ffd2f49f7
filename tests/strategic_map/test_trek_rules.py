"""The epic trek's rules (strategic_map.trek_rules), pure: the table's codes and rows, losses per six under both
readings (the text's worked example is golden under its own reading), the captain last to die, Lost, Found,
Passage, Attacked, Captured, a friendly city, the route and the shortest way home."""

from __future__ import annotations

import itertools
import random

import pytest

from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from strategic_map import trek_rules
from strategic_map.mapdata import mars_map
from strategic_map.trek_rules import Ending, LossReading, Outcome, TrekCode

MARS = mars_map()
PER_SIX = LossReading.PER_SIX
EXAMPLE = LossReading.WORKED_EXAMPLE


def at(label: str):
    return MARS.hex_by_label(label)


def axial(label: str) -> Hex:
    hex_ = at(label)
    return Hex(hex_.q, hex_.r)


# --- codes and the table ----------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-12", "SGC-TREK-14", "SGC-TREK-19")
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("P", TrekCode(Outcome.PASSAGE)),
        ("F", TrekCode(Outcome.FOUND)),
        ("C", TrekCode(Outcome.CAPTURED)),
        ("L", TrekCode(Outcome.LOST)),
        ("L:1", TrekCode(Outcome.LOST, 1)),
        ("A:2", TrekCode(Outcome.ATTACKED, 2)),
        ("L2", TrekCode(Outcome.LOST, 2)),  # as the rules' text writes it
        ("a:3", TrekCode(Outcome.ATTACKED, 3)),
    ],
)
def test_the_tables_codes_are_read(text, code):
    assert trek_rules.parse_code(text) == code
    assert trek_rules.parse_code(str(code)) == code


@pytest.mark.rule("SGC-TREK-12")
@pytest.mark.parametrize("text", ["", "X", "P:1", "F:2", "C:1", "A:7", "L:-1", "A:", "PP"])
def test_anything_else_is_refused(text):
    with pytest.raises(trek_rules.BadTrekCode):
        trek_rules.parse_code(text)


@pytest.mark.rule("SGC-TREK-04", "SGC-TREK-11")
def test_the_row_is_the_city_canal_or_terrain_and_the_column_the_hexs_allegiance():
    table = MARS.epic_trek_table
    parhoon, crocea, astrapsk_canal, hostile_hills = at("0812"), at("0614"), at("0617"), at("1311")
    assert (parhoon.trek_row, parhoon.allegiance) == ("city", "friendly")
    assert (crocea.trek_row, crocea.allegiance) == ("city", "neutral")
    assert (astrapsk_canal.trek_row, astrapsk_canal.allegiance) == ("petty_canal", "hostile")
    for die in range(1, 7):
        assert str(trek_rules.table_code(table, parhoon, die)) == table.table["friendly"]["city"][die - 1]
        assert str(trek_rules.table_code(table, crocea, die)) == table.table["neutral"]["city"][die - 1]
        assert str(trek_rules.table_code(table, hostile_hills, die)) == table.table["hostile"]["clear"][die - 1]
    assert trek_rules.hex_words(crocea) == "0614 (Crocea, city, neutral)"


@pytest.mark.rule("SGC-TREK-11")
def test_an_umpires_trek_table_is_checked_whole():
    reference = MARS.epic_trek_table.table
    rows = sorted(reference["friendly"])
    assert trek_rules.table_problems(reference, rows) == []
    broken = {allegiance: dict(columns) for allegiance, columns in reference.items() if allegiance != "hostile"}
    broken["neutral"]["hills"] = ("P", "P", "Q", "A:1", "A:2", "C")
    broken["friendly"]["snow"] = ("P",)
    problems = trek_rules.table_problems(broken, rows)
    assert "the hostile column is missing" in problems
    assert "friendly snow: six results are needed, one for each die" in problems
    assert any(p.startswith("neutral hills, die 3: 'Q'") for p in problems)


@pytest.mark.rule("SGC-TREK-05", "SGC-TREK-06", "SGC-TREK-07", "SGC-TREK-08", "SGC-TREK-09")
def test_friendly_cities_are_the_british_ones_and_those_north_of_the_line():
    names = {city.name for city in trek_rules.friendly_cities(MARS)}
    assert {"Parhoon", "Syrtis Major", "Gorovaan", "Thoth", "Polodar", "Alclyon"} <= names
    # Shastapsh (and its six neighbours), the hostile south-west and the Astusapes Highlands are not.
    assert not names & {"Shastapsh", "Crocea", "Oenotria", "Boreosyrtis", "Astrapsk"}


# --- losses -------------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-24", "SGC-TREK-23", "SGC-TREK-25")
def test_golden_the_worked_example_fifteen_men_two_in_six():
    """The text: 15 men at 2 in 6 lose 2 at once from the first 12, then a die each for the other 3, lost on 1-2."""
    assert trek_rules.fixed_losses(15, 2, EXAMPLE) == 2
    assert trek_rules.loss_dice_count(15, 2) == 3
    assert trek_rules.losses(party=15, loss=2, reading=EXAMPLE, dice=[1, 2, 3]) == 4
    assert trek_rules.losses(party=15, loss=2, reading=EXAMPLE, dice=[3, 4, 6]) == 2
    assert trek_rules.losses(party=15, loss=2, reading=EXAMPLE, dice=[2, 5, 6]) == 3


@pytest.mark.rule("SGC-TREK-22", "SGC-TREK-23", "SGC-TREK-25")
def test_the_rule_loses_n_of_every_full_six_then_a_die_for_each_man_left():
    """DESIGN.md section 8, the default: n men of every six; the same 15 men at 2 in 6 lose 4 at once."""
    assert trek_rules.fixed_losses(15, 2, PER_SIX) == 4
    assert trek_rules.losses(party=15, loss=2, reading=PER_SIX, dice=[1, 2, 3]) == 6
    assert trek_rules.losses(party=15, loss=2, reading=PER_SIX, dice=[3, 3, 3]) == 4
    assert trek_rules.losses(party=12, loss=3, reading=PER_SIX, dice=[]) == 6
    assert trek_rules.losses(party=12, loss=1, reading=PER_SIX, dice=[]) == 2
    # Fewer than six: a die for every man.
    assert trek_rules.loss_dice_count(4, 1) == 4
    assert trek_rules.losses(party=4, loss=1, reading=PER_SIX, dice=[1, 2, 1, 6]) == 2
    # No loss number, no dice.
    assert trek_rules.loss_dice_count(15, 0) == 0
    assert trek_rules.losses(party=15, loss=0, reading=PER_SIX, dice=[]) == 0


@pytest.mark.rule("SGC-TREK-23")
def test_the_loss_dice_must_be_the_ones_the_rule_asks_for():
    with pytest.raises(ValueError, match="3 loss dice"):
        trek_rules.losses(party=15, loss=2, reading=PER_SIX, dice=[1])
    with pytest.raises(ValueError, match=r"1\.\.6"):
        trek_rules.losses(party=3, loss=2, reading=PER_SIX, dice=[1, 7, 2])


# --- one roll -----------------------------------------------------------------------------------------------------


def result(label: str, code: str, party: int, dice=(), reading=PER_SIX):
    return trek_rules.roll_result(
        mars=MARS, hex_=at(label), code=trek_rules.parse_code(code), party=party, loss_dice=list(dice), reading=reading
    )


@pytest.mark.rule("SGC-TREK-26", "SGC-TREK-22")
def test_the_captain_is_the_last_to_die():
    # Three men at 3 in 6: a die each; two fall, the captain lives on with one man... or alone.
    survived = result("1311", "A:3", 3, dice=[1, 2, 6])
    assert (survived.losses, survived.party_after, survived.ending) == (2, 1, None)
    assert survived.moves_on
    # All three dice fall: the whole party is lost, the captain last of all.
    dead = result("1311", "A:3", 3, dice=[1, 2, 3])
    assert (dead.losses, dead.party_after, dead.ending) == (3, 0, Ending.PERISHED)
    assert "captain last of all" in dead.words
    # The captain alone: his own die.
    alone = result("0603", "L:2", 1, dice=[2])
    assert alone.ending is Ending.PERISHED
    # Losses never exceed the party, whatever the sixes say.
    assert result("1311", "A:6", 12).party_after == 0


@pytest.mark.rule("SGC-TREK-13", "SGC-TREK-14")
def test_lost_stays_for_another_roll_of_the_same_hex_with_its_losses_first():
    lost = result("0409", "L:2", 8, dice=[1, 5])
    assert (lost.losses, lost.party_after, lost.ending, lost.moves_on) == (3, 5, None, False)
    assert "tries this hex again" in lost.words
    assert result("0409", "L", 8).losses == 0


@pytest.mark.rule("SGC-TREK-18", "SGC-TREK-19", "SGC-TREK-28")
def test_passage_and_a_survived_attack_go_on_to_the_next_hex():
    passage = result("0409", "P", 8)
    assert (passage.losses, passage.ending, passage.moves_on) == (0, None, True)
    attacked = result("0409", "A:1", 8, dice=[1, 4])
    assert (attacked.losses, attacked.party_after, attacked.ending, attacked.moves_on) == (2, 6, None, True)


@pytest.mark.rule("SGC-TREK-20")
def test_captured_ends_the_captains_sailing():
    captured = result("1311", "C", 8)
    assert (captured.ending, captured.party_after) == (Ending.CAPTURED, 8)


@pytest.mark.rule("SGC-TREK-10", "SGC-TREK-03")
def test_a_friendly_city_ends_the_trek_safely_after_its_own_roll():
    for code in ("P", "F"):
        home = result("0812", code, 5)
        assert (home.ending, home.end_city) == (Ending.SAFE, "Parhoon")
    attacked = result("0812", "A:1", 5, dice=[6, 6, 6, 6, 6])
    assert (attacked.ending, attacked.end_city) == (Ending.SAFE, "Parhoon")
    # Lost in a friendly city: no way through yet, the city is rolled for again.
    assert result("0812", "L:1", 5, dice=[6, 6, 6, 6, 6]).ending is None
    # Passage through a neutral city is not home.
    assert result("0614", "P", 5).ending is None


@pytest.mark.rule("SGC-TREK-16")
def test_found_in_a_neutral_city_the_british_send_the_party_home():
    found = result("0614", "F", 5)
    assert found.ending is Ending.SAFE
    assert "British representatives in Crocea" in found.words
    assert found.end_city in {city.name for city in trek_rules.friendly_cities(MARS)}


@pytest.mark.rule("SGC-TREK-15")
def test_found_on_a_canal_the_party_is_led_along_it_to_the_nearest_city():
    # A hostile stretch of the Nilosyrtis canal by Boreosyrtis: the finders pass the hostile city by.
    assert trek_rules.found_rescue(MARS, at("1005")).city == "Gorovaan"
    # The spice canal north of Shastapsh, neutral: Alclyon is nearer along it than Meepsoor.
    rescue = trek_rules.found_rescue(MARS, at("1510"))
    assert rescue.city == "Alclyon"
    assert "led along it to Alclyon" in rescue.words
    assert result("1510", "F", 5).end_city == "Alclyon"


@pytest.mark.rule("SGC-TREK-17")
def test_found_where_the_canal_leads_nowhere_friendly_the_nearest_friendly_city():
    # On the Crocea canal the nearest city is neutral Crocea: from there the British send them home.
    crocea = trek_rules.found_rescue(MARS, at("0515"))
    assert "led along it to Crocea; British representatives in Crocea" in crocea.words
    assert crocea.city == trek_rules.way_home(MARS, axial("0614")).city
    # Only hostile cities along the Oenotria canals: taken to the nearest friendly city instead.
    south = trek_rules.found_rescue(MARS, at("0322"))
    assert south.city == trek_rules.way_home(MARS, axial("0322")).city
    assert "only hostile cities" in south.words
    # Away from any canal: the nearest friendly city.
    snow = trek_rules.found_rescue(MARS, at("0101"))
    assert (snow.city, "away from any canal" in snow.words) == (trek_rules.way_home(MARS, axial("0101")).city, True)


# --- the route and the way home -----------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-28")
def test_a_route_is_a_walk_of_neighbours_on_the_map():
    here = axial("0409")
    first = hexgrid.neighbour(here, 2)
    second = hexgrid.neighbour(first, 2)
    assert trek_rules.route_check(MARS, here, [first, second]) == (first, second)
    assert trek_rules.route_check(MARS, here, []) == ()
    with pytest.raises(trek_rules.RouteRefused, match=r"hex 1 of the route, .* is not next to the party's hex"):
        trek_rules.route_check(MARS, here, [second])
    with pytest.raises(trek_rules.RouteRefused, match="hex 2 of the route"):
        trek_rules.route_check(MARS, here, [first, first])
    with pytest.raises(trek_rules.RouteRefused, match="not on the map"):
        trek_rules.route_check(MARS, axial("0101"), [Hex(0, -1)])
    with pytest.raises(trek_rules.RouteRefused, match="at most"):
        trek_rules.route_check(MARS, here, [first, here] * 40)


@pytest.mark.rule("SGC-TREK-28")
def test_the_next_hex_is_the_players_choice_else_the_shortest_way_home():
    here = axial("0409")
    chosen = hexgrid.neighbour(here, 3)
    step = trek_rules.next_hex(MARS, here, [chosen, hexgrid.neighbour(chosen, 3)])
    assert (step.hex, step.route, step.by_way_home) == (chosen, (hexgrid.neighbour(chosen, 3),), False)
    home = trek_rules.next_hex(MARS, here, [])
    assert (home.hex, home.by_way_home) == (trek_rules.way_home(MARS, here).path[0], True)


def test_the_shortest_way_home_is_a_walk_to_a_friendly_city_avoiding_hostile_ground():
    start = axial("0618")  # Astrapsk, hostile
    home = trek_rules.way_home(MARS, start)
    assert home.city in {city.name for city in trek_rules.friendly_cities(MARS)}
    walk = [start, *home.path]
    assert all(hexgrid.distance(a, b) == 1 for a, b in itertools.pairwise(walk))
    assert MARS.hex_at(home.path[-1].q, home.path[-1].r).city == home.city
    # Deterministic, and from a friendly city there is nowhere to walk.
    assert trek_rules.way_home(MARS, start) == home
    assert trek_rules.way_home(MARS, axial("0812")).path == ()
    # It prefers friendly and canal hexes: from a hostile hex it never steps onto more hostile ground than the
    # straight walk to the same city would.
    straight = hexgrid.line(start, home.path[-1])[1:]
    hostile = lambda path: sum(MARS.hex_at(h.q, h.r).allegiance == "hostile" for h in path)  # noqa: E731
    assert hostile(home.path) <= hostile(straight)


@pytest.mark.rule("SGC-TREK-04", "SGC-TREK-12")
def test_every_hex_of_the_map_has_a_row_in_every_column_of_the_table():
    table = MARS.epic_trek_table
    for hex_ in MARS.hexes:
        for die in range(1, 7):
            assert isinstance(trek_rules.table_code(table, hex_, die), TrekCode)


def test_treks_walked_with_random_dice_always_end_and_never_break_the_rules():
    """Walk 40 treks from random hexes by the shortest way home with random dice: each ends within 200 rolls,
    the party never grows, and every ending is where the rules put it."""
    rng = random.Random(1889)
    table = MARS.epic_trek_table
    for start in rng.sample(MARS.hexes, 40):
        here, party, route = Hex(start.q, start.r), rng.randint(1, 20), ()
        moves_on = False
        for _roll in range(200):
            if moves_on:
                step = trek_rules.next_hex(MARS, here, route)
                here, route = step.hex, step.route
            hex_ = MARS.hex_at(here.q, here.r)
            code = trek_rules.table_code(table, hex_, rng.randint(1, 6))
            dice = [rng.randint(1, 6) for _ in range(trek_rules.loss_dice_count(party, code.loss))]
            result = trek_rules.roll_result(
                mars=MARS, hex_=hex_, code=code, party=party, loss_dice=dice, reading=PER_SIX
            )
            assert 0 <= result.party_after <= party
            party, moves_on = result.party_after, result.moves_on
            if result.ending is not None:
                if result.ending is Ending.SAFE:
                    assert result.end_city in {city.name for city in trek_rules.friendly_cities(MARS)}
                if result.ending is Ending.PERISHED:
                    assert party == 0
                break
        else:
            pytest.fail(f"a trek from {start.label} never ended")
