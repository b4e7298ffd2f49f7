"""Hit location and damage (battles/rules/sky_galleons/combat.py): hull, crew and gun hits, casualties."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.engine.hexgrid import ORIGIN, Hex
from battles.rules.sky_galleons.combat import FixedDice, Shot, apply_hit, crew_casualties, fire
from battles.rules.sky_galleons.combat import hull_hits as mark_hull
from galleons.record import Moment, ShipRecord, ship_record_from_class

NOW = Moment(3, 1)
ALL = ("bow", "starboard", "stern", "port")
HULL, CREW, GUN, CRITICAL = 1, 3, 5, 6


def ship(name: str = "Target", cls: str = "Swiftwood", *, at: Hex = ORIGIN, altitude: str = "M") -> ShipRecord:
    return ship_record_from_class(cls, name=name, position=at, facing=0, altitude=altitude)


@pytest.fixture
def target() -> ShipRecord:
    return ship()


def rows_hit(record: ShipRecord) -> list[int]:
    return [row.hits for row in record.hull_rows]


# --- hit location ---------------------------------------------------------------------------------------


@pytest.mark.rule("SG-DMG-01", "SG-DMG-02", "SG-DMG-03", "SG-DMG-04", "SG-DMG-05")
@pytest.mark.parametrize(
    ("face", "location", "then"),
    [
        (1, "hull", ()),
        (2, "hull", ()),
        (3, "crew", (1,)),  # the officer check
        (4, "crew", (1,)),
        (5, "gun", (1, 1)),  # which gun, then the officer check for the extra casualty
        (6, "critical", (4, 3)),  # 7: Fire
    ],
)
def test_hit_location_table(target: ShipRecord, face: int, location: str, then: tuple[int, ...]) -> None:
    dice = FixedDice(face, *then)
    _, happened = apply_hit(target, Shot(2, incoming=ALL), now=NOW, roller=dice)
    assert happened[0]["purpose"] == "hit location on Target"
    assert happened[0]["outcome"] == location
    assert dice.left == ()


# --- hull -----------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-DMG-11", "SG-DMG-13", "SG-DMG-14", "SG-DMG-15")
def test_hull_hits_fill_the_highest_row_and_lower_the_ceiling() -> None:
    # Swiftwood: Hs 3, rows VH H M L VL. At its ceiling (VH).
    at_ceiling = ship(altitude="VH")
    hit, happened = apply_hit(at_ceiling, Shot(4), now=NOW, roller=FixedDice(HULL))
    assert rows_hit(hit) == [3, 1, 0, 0, 0]
    assert hit.max_altitude == "H"
    assert hit.must_drop == 1
    assert "ceiling now H" in happened[-1]["outcome"]
    # Below its ceiling nothing forces a drop.
    lower, _ = apply_hit(ship(altitude="M"), Shot(4), now=NOW, roller=FixedDice(HULL))
    assert lower.must_drop == 0


@pytest.mark.rule("SG-DMG-16", "SGD-HITS-02")
def test_every_hull_box_checked_the_ship_crashes(target: ShipRecord) -> None:
    rows = (*(replace(row, hits=row.boxes) for row in target.hull_rows[:-1]), target.hull_rows[-1])
    battered = replace(target, hull_rows=rows)
    crashed, happened = apply_hit(battered, Shot(16), now=NOW, roller=FixedDice(HULL))
    assert crashed.status == "crashed"
    assert crashed.hull_hits == crashed.hull_boxes
    assert "crashes" in happened[-1]["outcome"]
    # A crashed ship takes no more damage.
    assert apply_hit(crashed, Shot(2), now=NOW, roller=FixedDice())[0] == crashed


# --- crew -----------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-DMG-17", "SG-DMG-18", "SG-CREW-16")
@pytest.mark.parametrize(("damage_value", "killed"), [(1, 1), (2, 1), (3, 2), (4, 2), (7, 4)])
def test_crew_hit_kills_half_the_damage_value_rounded_up_deckhands_first(damage_value: int, killed: int) -> None:
    target = ship("Big", "Skylord")  # 14 deckhands
    hit, happened = apply_hit(target, Shot(damage_value), now=NOW, roller=FixedDice(CREW, 1))
    assert target.crew_aboard - hit.crew_aboard == killed
    assert target.crew.deckhands - hit.crew.deckhands == killed
    assert happened[-1]["outcome"] == f"deckhands {killed}"


@pytest.mark.rule("SG-DMG-18")
def test_casualties_follow_the_owners_standing_order(target: ShipRecord) -> None:
    # Marines first, then the rogue's crew; the rest of the default order after.
    ordered = replace(target, casualty_order=("marines", "gun:1"))
    hit, _ = apply_hit(ordered, Shot(24), now=NOW, roller=FixedDice(CREW, 1))
    # 12 men: the 9 marines, then the rogue's 3 gunners.
    assert hit.crew.marines == 0
    assert hit.gun("1").manned == 0
    assert hit.crew.deckhands == target.crew.deckhands


@pytest.mark.rule("SG-DMG-19")
def test_officer_check_once_a_phase_on_a_6(target: ShipRecord) -> None:
    hit, happened = apply_hit(target, Shot(2), now=NOW, roller=FixedDice(CREW, 6))
    assert happened[1]["purpose"].startswith("officer casualty check")
    # The first officer or petty officer in the default order: the marine officer (no extra petty officers).
    assert hit.crew.marine_officers == 0
    assert hit.crew.deckhands == target.crew.deckhands
    # Checked once this phase: the next crew hit rolls no check.
    again, happened = apply_hit(hit, Shot(2), now=NOW, roller=FixedDice(CREW))
    assert len(happened) == 2
    assert again.crew.deckhands == target.crew.deckhands - 1
    # Next phase, a new check.
    dice = FixedDice(CREW, 2)
    apply_hit(again, Shot(2), now=Moment(3, 2), roller=dice)
    assert dice.left == ()


@pytest.mark.rule("SG-DMG-07")
def test_crew_hits_on_a_higher_target_become_hull_hits(target: ShipRecord) -> None:
    hit, happened = apply_hit(target, Shot(3, from_below=True), now=NOW, roller=FixedDice(CREW))
    assert hit.crew_aboard == target.crew_aboard
    assert hit.hull_hits == 3
    assert happened[1]["clauses"] == ["SG-DMG-07"]


# --- guns -----------------------------------------------------------------------------------------------


@pytest.mark.rule("SG-DMG-08", "SG-DMG-09")
def test_gun_hit_destroys_a_bearing_gun_and_the_excess_kills_its_crew_first(target: ShipRecord) -> None:
    # From astern: the light guns (2, 3, wing pivots) and the sweeper (4, stern tower) bear; the rogue does not.
    dice = FixedDice(GUN, 3, 1)
    hit, happened = apply_hit(target, Shot(3, incoming=("stern",)), now=NOW, roller=dice)
    assert happened[1]["purpose"] == "which of Target's guns bearing stern is hit"
    assert dice.calls[1] == (happened[1]["purpose"], (3,), 3)
    sweeper = hit.gun("4")
    assert sweeper.destroyed
    # Damage value 3: 2 casualties, the sweeper's one gunner first, then a deckhand.
    assert sweeper.manned == 0
    assert hit.crew.deckhands == target.crew.deckhands - 1
    assert not hit.gun("1").destroyed


@pytest.mark.rule("SG-DMG-08")
def test_gun_hit_of_damage_value_1_only_destroys_the_gun(target: ShipRecord) -> None:
    hit, _ = apply_hit(target, Shot(1, incoming=("bow",)), now=NOW, roller=FixedDice(GUN, 1))
    assert hit.gun("1").destroyed
    assert hit.gun("1").manned == 3
    assert hit.crew_aboard == target.crew_aboard


@pytest.mark.rule("SG-DMG-10")
def test_no_gun_bearing_rerolls_the_location(target: ShipRecord) -> None:
    guns = tuple(replace(gun, destroyed=True) for gun in target.guns)
    bare = replace(target, guns=guns)
    hit, happened = apply_hit(bare, Shot(2), now=NOW, roller=FixedDice(GUN, GUN, HULL))
    assert [h["outcome"] for h in happened[:4]] == ["gun", "reroll", "gun", "reroll"]
    assert hit.hull_hits == 2


# --- a whole shot ---------------------------------------------------------------------------------------


@pytest.mark.rule("SG-DMG-05", "SG-FIRE-11")
def test_fire_resolves_the_hits_on_the_target_and_a_stray(target: ShipRecord) -> None:
    firer = ship("Firer", at=Hex(0, 2))
    other = ship("Other")
    ships = {s.name: s for s in (firer, target, other)}
    # The rogue (DV 3) at 2 hexes: hit (4) -> hull (1): 3 hull hits on the target.
    after, happened = fire(ships, "Firer", "1", "Target", now=NOW, roller=FixedDice(4, HULL))
    assert after["Target"].hull_hits == 3
    assert after["Firer"].gun("1").last_fired == NOW.turn
    assert after["Other"] == other
    assert [h["outcome"] for h in happened][:2] == ["hit", "hull"]
    # Miss (1), second roll hits (5): the other ship takes it, a Hull hit.
    after, _ = fire(ships, "Firer", "1", "Target", now=NOW, roller=FixedDice(1, 5, HULL))
    assert after["Target"] == target
    assert after["Other"].hull_hits == 3


# --- crew losses and what they do ----------------------------------------------------------------------


@pytest.mark.rule("SG-CREW-10", "SG-CREW-11", "SG-DMG-18")
def test_gun_crew_losses_slow_the_gun() -> None:
    aphid = ship("Aphid", "Aphid (original)")
    hrc = next(gun.id for gun in aphid.guns if gun.weapon_id == "1pdr_hrc")
    four_inch = next(gun.id for gun in aphid.guns if gun.weapon_id == "4in_short")
    ordered = replace(aphid, casualty_order=(f"gun:{four_inch}",))
    hit, _ = crew_casualties(ordered, 1, now=NOW, roller=FixedDice(1), source="test")
    assert hit.gun(four_inch).manned == 1
    # The 4" (ROF 1) now reloads a turn between shots.
    assert hit.gun(four_inch).rate is not None
    assert hit.gun(four_inch).rate.reload_turns == 1
    assert aphid.gun(hrc).rate is not None
    assert aphid.gun(hrc).rate.shots == 3


@pytest.mark.rule("SG-CREW-12", "SG-CREW-14", "SG-DMG-18")
def test_maneuvering_crew_losses_cut_speed() -> None:
    galley = replace(ship("Runner", "Sky Runner"), casualty_order=("maneuver",))  # rows 3/3/3/3, speed 4
    hit, _ = crew_casualties(galley, 4, now=NOW, roller=FixedDice(1), source="test")
    assert hit.crew.maneuver_lost == 4
    assert hit.effective_speed() == 3
    steamer = replace(ship("Hamburg", "Hamburg"), casualty_order=("maneuver",))  # speed 5
    hit, _ = crew_casualties(steamer, 2, now=NOW, roller=FixedDice(1), source="test")
    assert hit.effective_speed() == 3


def test_casualties_beyond_the_crew_stop_at_nobody(target: ShipRecord) -> None:
    hit, happened = crew_casualties(target, 500, now=NOW, roller=FixedDice(1), source="test")
    assert hit.crew_aboard == 0
    assert happened[-1]["purpose"].startswith(f"{target.crew_aboard} crew casualties")


@pytest.mark.rule("SG-DMG-11")
def test_hull_hits_without_a_shot(target: ShipRecord) -> None:
    hit, happened = mark_hull(target, 2)
    assert rows_hit(hit) == [2, 0, 0, 0, 0]
    assert happened[0]["outcome"] == "2 hull hits"
