"""The AI captain of a bombarding side (Scenario 4, Slash and Run: SG-SCN-24/25): the height it holds over
the hexes, the dangers it weighs there (mine carriers, the batteries' high-angle fire, lob guns), the prizes
it leaves alone, the city it stays over, how its guns share the hexes out and where its rockets go."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.engine import hexgrid
from battles.rules.sky_galleons import ai_fire, ai_moves, ai_reading, ordnance_play, scenario_ai
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.kinds import MOVE, ORDERS
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS as RS
from battles.rules.sky_galleons.tactics import Captain
from tests.rules.sky_galleons.test_ordnance_ai import State, advance, begin, ship, small


def raid(a: list[dict[str, Any]], b: list[dict[str, Any]], hexes: list[list[int]], **side_b: Any) -> dict[str, Any]:
    """Side a must bombard side b's city hexes (SG-SCN-25)."""
    data = small(a, b, ground_targets=[{"name": "Town", "hexes": hexes, "points": 15}], **side_b)
    data["victory"] = {"kind": "bombardment", "side": "a"}
    return data


def hex_(col: int, row: int) -> hexgrid.Hex:
    return hexgrid.from_odd_q(col, row)


@pytest.mark.rule("SG-SCN-25", "SG-FIRE-13")
def test_a_gunship_bombards_as_high_as_it_flies_and_its_guns_still_reach_the_ground_a_bomber_lower() -> None:
    state = begin(
        raid(
            [ship("Reliant", "Reliant", (3, 8)), ship("Eagle", "Eagle", (3, 4), altitude="H")],
            [ship("Gull", "Endtime", (18, 1))],
            [[10, 8]],
        ),
        b"bombard height",
    )
    reliant, eagle = state.board.ship("Reliant"), state.board.ship("Eagle")
    # The Reliant's 6" and 5" hit at close range out to 5 hexes: from High, four levels up, a hex below is
    # fired at from 4 hexes off, still close.
    assert ordnance_play.bombard_height(reliant, "G") == "H"
    assert ai_reading.ship_target(state.board, reliant).altitude == "H"  # type: ignore[union-attr]
    # Her High row filled, her ceiling is Medium: she holds that (SG-DMG-14).
    rows = tuple(replace(r, hits=r.boxes) if r.altitude == "H" else r for r in reliant.hull_rows)
    assert ordnance_play.bombard_height(replace(reliant, hull_rows=rows), "G") == "M"
    # The Eagle's bombs tell less the higher she drops them (SG-ERR-19): two levels over the ground.
    assert ordnance_play.bombard_height(eagle, "G") == "L"


@pytest.mark.rule("SG-SCN-24", "SG-SCN-25", "SG-ALT-05")
def test_a_bombarding_captain_climbs_to_its_height_before_it_comes_over_the_hexes() -> None:
    seed = b"bombard climb"
    state = begin(
        raid([ship("Reliant", "Reliant", (3, 8), facing=2)], [ship("Gull", "Endtime", (18, 1))], [[10, 8]]), seed
    )
    state, request = advance(state, seed, MOVE, "a")
    choice = Captain(seed, "a").propose(RS, state, request)
    assert isinstance(choice, list)
    assert "climb" in choice  # Medium to High: 2 of the Reliant's 4 movement points


@pytest.mark.rule("SG-SCN-24")
def test_a_bombarding_captain_chases_no_prize_it_gets_on_with_the_bombardment() -> None:
    seed = b"bombard prize"
    ships = ([ship("Reliant", "Reliant", (8, 8), facing=1)], [ship("Kite", "Bloodrunner", (9, 8), facing=1)])
    fight = begin(small(*ships), seed)
    fight, _ = advance(fight, seed, ORDERS, "a")
    assert ai_reading.prize_for(fight, fight.board.ship("Reliant")) is not None  # her marines would take the kite
    bombard = begin(raid(*ships, [[15, 8]]), seed)
    bombard, _ = advance(bombard, seed, ORDERS, "a")
    assert ai_reading.prize_for(bombard, bombard.board.ship("Reliant")) is None


def view_of(state: State, name: str) -> ai_moves.Sight:
    return ai_moves.sight(state, state.board.ship(name))


@pytest.mark.rule("SG-TM-03", "SG-TM-07", "SG-SCN-25")
def test_a_bombarding_captain_keeps_out_of_a_mine_carriers_reach() -> None:
    # An Endtime at Medium with mines aboard: raised they hang at High, where the Reliant bombards from.
    state = begin(
        raid(
            [ship("Reliant", "Reliant", (3, 8), altitude="H")],
            [ship("Gull", "Endtime", (10, 4), altitude="M", tether_mines=2)],
            [[10, 12]],
        ),
        b"bombard mines",
    )
    view = view_of(state, "Reliant")
    [carrier] = view.mine_reach
    assert carrier.level == carrier.ceiling == 4  # a level over Medium, and she flies no higher
    reach = carrier.mp
    near = ai_reading.Spot(hexgrid.neighbour(carrier.hex, 3), 0, "H")
    far = ai_reading.Spot(hex_(10, 4 + reach + 2), 0, "H")
    assert hexgrid.distance(far.hex, carrier.hex) > reach
    assert (
        ai_moves.bombard_exposure(view, near, "H") - ai_moves.bombard_exposure(view, far, "H")
        >= ordnance_play.MINE_RISK
    )
    below = ai_reading.Spot(far.hex, 0, "M")
    assert ai_moves.bombard_exposure(view, below, "H") > ai_moves.bombard_exposure(view, far, "H")  # under her height


@pytest.mark.rule("SG-GB-02", "SG-LOB-04", "SG-SCN-25")
def test_a_bombarding_captain_weighs_the_batteries_high_angle_fire_and_a_lob_guns_loss_of_trim() -> None:
    state = begin(
        raid(
            [ship("Reliant", "Reliant", (3, 8), altitude="H")],
            [ship("Gull", "Endtime", (18, 1))],
            [[10, 8]],
            batteries=[{"name": "Lobber", "gun": "Lob Gun", "position": [10, 8]}],
        ),
        b"bombard batteries",
    )
    view = view_of(state, "Reliant")
    # Altitude does nothing to a lob gun: two hexes off, four levels up, it reaches her all the same.
    over = ai_moves.ground_fire(view, ai_reading.Spot(hex_(10, 6), 0, "H"))
    assert over == pytest.approx(ai_reading.hit_chance(6, 0) * ai_moves.TRIM_LOSS)
    assert ai_moves.ground_fire(view, ai_reading.Spot(hex_(10, 2), 0, "H")) == 0.0  # six hexes: out of its range


@pytest.mark.rule("SG-SCN-24")
def test_a_ship_the_enemys_reinforcements_watch_for_is_worth_more_over_the_city() -> None:
    data = small([ship("Reliant", "Reliant", (3, 8))], [ship("Gull", "Endtime", (10, 8), landed=True)])
    data["map"]["zones"] = {"city": [[10, 8], [11, 8]]}
    data["special_rules"] = [
        {
            "rule": "reinforcements",
            "side": "b",
            "watch": "a",
            "zone": "city",
            "every": 5,
            "classes": ["Endtime"],
            "arrive": "city",
        },
    ]
    state = begin(data, b"bombard watch")
    board = state.board
    assert scenario_ai.over_watched_zone(board, "a", hex_(10, 8)) == scenario_ai.OVER_WATCHED_ZONE
    assert scenario_ai.over_watched_zone(board, "a", hex_(5, 8)) == 0.0
    assert scenario_ai.over_watched_zone(board, "b", hex_(10, 8)) == 0.0  # nobody counts the Martians' turns


def shot(target: str, dv: int, gun: str) -> FireSolution:
    return FireSolution(
        "Reliant",
        gun,
        target,
        True,
        distance=4,
        band="close",
        shots=1,
        needed=3,
        modifiers={"altitude": -1},
        damage_value=dv,
    )


@pytest.mark.rule("SG-BOMB-01", "SG-BOMB-02")
def test_the_guns_share_the_hexes_out_so_that_no_hit_is_spent_beyond_a_hexs_points() -> None:
    state = begin(
        raid(
            [ship("Reliant", "Reliant", (3, 8), altitude="H")], [ship("Gull", "Endtime", (18, 1))], [[10, 8], [10, 9]]
        ),
        b"bombard share",
    )
    board = state.board
    almost = board.ship("Town (10,8)")
    rows = tuple(replace(r, hits=9) for r in almost.hull_rows)
    board = board.with_ship(replace(almost, hull_rows=rows))  # 9 of its 15 points: 6 wanted
    guns = {("Reliant", "1"): 6, ("Reliant", "2"): 6, ("Reliant", "3"): 4}
    options = {key: [shot("Town (10,8)", dv, key[1]), shot("Town (10,9)", dv, key[1])] for key, dv in guns.items()}
    best = {key: (1.0, options[key][0]) for key in guns}  # each gun alone likes the hex half done best
    shared = ai_fire.share_bombardment(board, best, options)
    targets = {key[1]: solution.target for key, (_, solution) in shared.items()}
    # The first 6" would add as much on either hex: it takes the one nearer done. An even chance of a hit
    # there leaves 3 points wanted on the average, so the second 6" and the 5" add more on the other hex.
    assert targets == {"1": "Town (10,8)", "2": "Town (10,9)", "3": "Town (10,9)"}


@pytest.mark.rule("SG-HALE-01", "SG-HALE-03", "SG-BOMB-02")
def test_a_bombarding_side_keeps_its_rockets_for_the_hexes() -> None:
    # The Endtime below and the hex far off: no salvo at the ship.
    far = begin(
        raid([ship("Reliant", "Reliant", (8, 9), altitude="H")], [ship("Gull", "Endtime", (7, 8))], [[16, 2]]),
        b"bombard rockets",
    )
    assert not [s for s in ordnance_play.ai_special_shots(far, "a") if isinstance(s, dict) and "battery" in s]
    # The hex two hexes to starboard, four levels down: the rockets go at it (range within the levels, SG-HALE-03).
    near = begin(
        raid([ship("Reliant", "Reliant", (8, 9), altitude="H")], [ship("Gull", "Endtime", (7, 8))], [[10, 9]]),
        b"bombard rockets",
    )
    salvoes = [s for s in ordnance_play.ai_special_shots(near, "a") if isinstance(s, dict) and "battery" in s]
    assert salvoes
    assert {s["target"] for s in salvoes} == {"Town"}
