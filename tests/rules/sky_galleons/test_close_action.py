"""Boarding parties, ramming, grappling and boarding combat as pure functions (SG-BRD, SG-RAM, SG-GRAP, SG-CREW,
SG-CQ). The dice are fixed, so every number below is the rule's arithmetic."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battles.rules.sky_galleons import close_action
from battles.rules.sky_galleons.close_action import PartyError, boarding_round
from battles.rules.sky_galleons.combat import FixedDice, lose_trim
from galleons.record import (
    Moment,
    Party,
    ShipRecord,
    assign_gun_crew,
    assign_relief,
    ship_record_from_class,
)


def endtime(name: str = "Endtime", **changes: object) -> ShipRecord:
    """Hull 5: captain, 2 officers, 5 deckhands, a marine officer and 9 marines."""
    return replace(ship_record_from_class("Endtime", name=name), **changes)  # type: ignore[arg-type]


def boarded(attacker: ShipRecord, target: str, party: Party) -> ShipRecord:
    return replace(attacker, boarders=party, boarding=target)


@pytest.mark.rule("SG-BRD-01", "SG-BRD-02", "SG-SEQ-02")
def test_forming_a_party_marks_off_its_men_as_if_they_were_casualties() -> None:
    ship = endtime()
    formed = close_action.form_party(ship, {"officers": 1, "deckhands": 5})
    assert (formed.crew.officers, formed.crew.deckhands) == (ship.crew.officers - 1, ship.crew.deckhands - 5)
    assert (formed.party.officers, formed.party.seamen, formed.party.men) == (1, 5, 6)
    assert formed.crew_aboard == ship.crew_aboard - 6
    assert formed.men_alive == ship.men_alive  # marked off, not dead
    assert formed.party.posts == (("officers", 1), ("deckhands", 5))


@pytest.mark.rule("SG-CREW-01", "SG-MAR-02")
def test_a_boarding_party_must_include_an_officer() -> None:
    with pytest.raises(PartyError) as refused:
        close_action.form_party(endtime(), {"deckhands": 5, "marines": 4})
    assert refused.value.clause == "SG-CREW-01"
    led_by_marines = close_action.form_party(endtime(), {"marine_officers": 1, "marines": 9})
    assert led_by_marines.party.officers == 1  # a marine officer leads
    # ... and aboard, a marine officer alone keeps the ship from striking, but never takes the helm.
    ship = endtime()
    only_marine = replace(ship, crew=replace(ship.crew, captain=0, officers=0, helmsman=0))
    assert not only_marine.all_officers_lost
    with pytest.raises(ValueError, match="relieve"):
        assign_relief(only_marine, "helm", "marine_officer")
    with pytest.raises(ValueError, match="nobody"):
        assign_relief(only_marine, "helm", "officer")


@pytest.mark.rule("SG-BRD-01", "SG-MAR-01")
def test_a_party_cannot_take_more_men_than_a_post_has_or_the_key_petty_officers() -> None:
    with pytest.raises(PartyError, match="deckhands"):
        close_action.form_party(endtime(), {"officers": 1, "deckhands": 6})
    with pytest.raises(PartyError, match="helmsman"):
        close_action.form_party(endtime(), {"officers": 1, "helmsman": 1})


@pytest.mark.rule("SG-BRD-03")
def test_men_in_a_party_do_nothing_else_they_cannot_be_sent_to_the_guns() -> None:
    formed = close_action.form_party(endtime(), {"officers": 1, "deckhands": 5})
    gun = next(g for g in formed.guns if g.crew > 0)
    stripped = formed.with_gun(replace(gun, manned=0))
    with pytest.raises(ValueError, match="deckhands"):
        assign_gun_crew(stripped, gun.id, 1)


@pytest.mark.rule("SG-BRD-04")
def test_disbanding_returns_the_survivors_to_their_posts() -> None:
    ship = endtime()
    formed = close_action.form_party(ship, {"officers": 1, "deckhands": 5, "marines": 3})
    bloodied = replace(formed, party=replace(formed.party, seamen=3, marines=1))  # four of them fell
    home = close_action.disband_party(bloodied)
    assert home.party.men == 0
    assert home.crew.officers == ship.crew.officers
    assert home.crew.deckhands == ship.crew.deckhands - 2
    assert home.crew.marines == ship.crew.marines - 2
    assert home.men_alive == ship.men_alive - 4


@pytest.mark.rule("SG-BRD-07", "SG-BRD-08", "SG-BRD-09")
def test_five_men_per_hull_size_of_the_smaller_ship_cross_half_over_a_bow_or_stern() -> None:
    size_two, size_five = ship_record_from_class("Aphid (original)", name="a"), endtime()
    assert (size_two.hull_size, size_five.hull_size) == (2, 5)
    assert close_action.crossing_limit(size_two, size_five, over_bow_or_stern=False) == 10
    assert close_action.crossing_limit(size_five, size_two, over_bow_or_stern=True) == 5
    sky_runner = ship_record_from_class("Sky Runner", name="s")  # hull 3: 15, half rounded up is 8
    assert close_action.crossing_limit(sky_runner, size_five, over_bow_or_stern=True) == 8


@pytest.mark.rule("SG-BRD-05", "SG-BRD-17")
def test_leaders_cross_first_and_boarders_come_home_to_the_party() -> None:
    formed = close_action.form_party(endtime(), {"officers": 1, "deckhands": 5, "marines": 9})
    across, sent = close_action.send_across(formed, "Prize", 4)
    assert sent == 4
    assert (across.boarders.officers, across.boarders.marines, across.boarders.seamen) == (1, 3, 0)
    assert across.boarding == "Prize"
    assert across.party.men == 11
    home = close_action.bring_home(across)
    assert home.party.men == 15
    assert home.boarding is None
    assert home.boarders.men == 0


@pytest.mark.rule("SG-BRD-10", "SG-BRD-11")
def test_crew_hits_in_the_phase_fall_on_the_men_crossing() -> None:
    formed = close_action.form_party(endtime(), {"officers": 1, "deckhands": 5, "marines": 4})
    crew = formed.crew
    # Six crew hits from small arms while ten men cross: the posts hit get their men back, six boarders fall.
    hit = replace(formed, crew=replace(crew, marines=crew.marines - 4, signalman=0, marine_officers=0))
    record, fell = close_action.crossing_casualties(formed, hit, 10)
    assert fell == 6
    assert record.crew == formed.crew
    assert (record.party.officers, record.party.seamen, record.party.marines) == (1, 0, 3)  # seamen first
    assert record.men_alive == formed.men_alive - 6
    # More hits than men crossing: the rest stay crew casualties.
    record, fell = close_action.crossing_casualties(formed, hit, 4)
    assert fell == 4
    assert record.men_alive == formed.men_alive - 6


@pytest.mark.rule("SG-RAM-05", "SG-RAM-07", "SG-RAM-08", "SG-RAM-10")
def test_avoiding_costs_half_the_allowance_and_comes_off_the_ram_number() -> None:
    assert [close_action.avoidance_mp(speed) for speed in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 2, 3, 3]
    rammer, target = endtime("Rammer"), endtime("Target")
    mods = close_action.ram_modifiers(rammer, target, close_action.avoidance_mp(5))
    # The worked example: 4 or less, less 3 for avoiding, leaves 1: only a natural 1 rams.
    number = close_action.cint("ram", "succeeds_at_most") - sum(mods.values())
    assert number == 1
    assert close_action.ram_modifiers(rammer, target, 0) == {}


@pytest.mark.rule("SG-CQ-03", "SG-CQ-07")
def test_crew_quality_moves_the_chance_to_ram_and_to_avoid() -> None:
    green = endtime("Green", crew_quality="green")
    crack = endtime("Crack", crew_quality="crack")
    trained = endtime("Trained")
    assert sum(close_action.ram_modifiers(green, trained, 0).values()) == 1  # rams on 3 or less
    assert sum(close_action.ram_modifiers(crack, trained, 0).values()) == -1  # on 5 or less
    assert sum(close_action.ram_modifiers(trained, green, 2).values()) == 2 - 1  # green avoids worse
    assert sum(close_action.ram_modifiers(trained, crack, 2).values()) == 2 + 1  # crack avoids better
    assert sum(close_action.ram_modifiers(trained, crack, 0).values()) == 0  # only when avoiding


@pytest.mark.rule("SG-RAM-11", "SG-RAM-15")
def test_a_fitted_ram_does_half_the_rammers_hull_size_with_an_odd_half_rolled_for() -> None:
    hullcutter = ship_record_from_class("Hullcutter", name="h")  # hull 7
    assert close_action.ram_hits(hullcutter) == (3, True)
    skyfire = ship_record_from_class("Skyfire", name="s")  # hull 14
    assert close_action.ram_hits(skyfire) == (7, False)


@pytest.mark.rule("SG-RAM-09")
def test_a_ship_stopped_by_damage_is_immobilized() -> None:
    ship = endtime()
    assert not close_action.immobilized(ship)
    stopped = replace(ship, crew=replace(ship.crew, maneuver_lost=sum(ship.crew.maneuver_rows)))
    assert close_action.immobilized(stopped)


@pytest.mark.rule("SG-GRAP-02", "SG-GRAP-03")
def test_half_the_deckhands_throw_grapnels_fewer_against_an_avoiding_ship() -> None:
    hullcutter = ship_record_from_class("Hullcutter", name="h")  # 7 deckhands
    assert close_action.grapple_attempts(hullcutter, 0) == 4
    assert close_action.grapple_attempts(hullcutter, 2) == 2
    assert close_action.grapple_attempts(hullcutter, 9) == 0


# --- boarding combat -------------------------------------------------------------------------------------


def fight(
    attacker_party: Party, defender: ShipRecord, *faces: int, officers_only: bool = False, quality: str = "trained"
) -> tuple[close_action.BoardingRound, FixedDice]:
    attacker = boarded(endtime("Boarder", crew_quality=quality), defender.name, attacker_party)
    dice = FixedDice(*faces)
    return boarding_round([attacker], defender, roller=dice, officers_only=officers_only), dice


def sky_runner(**crew: int) -> ShipRecord:
    """A Sky Runner with its defenders set: deckhands, marines, extra petty officers."""
    ship = ship_record_from_class("Sky Runner", name="Prize")
    return replace(ship, crew=replace(ship.crew, **crew))


@pytest.mark.rule("SG-BRD-12", "SG-BRD-14", "SG-BRD-15", "SG-SEQ-07")
def test_every_man_rolls_officers_and_marines_kill_on_five_and_the_dead_fall_together() -> None:
    defender = sky_runner(deckhands=3, marines=2)
    party = Party(officers=1, seamen=5)
    # Attacker: the officer rolls 5 (kills), the five seamen 6,5,1,1,1 (one kill: a seaman needs a 6).
    # Defender: two marines roll 5,6 (two kills), three deckhands 6,1,1 (one kill). Everyone rolled before
    # anyone fell: the seamen killed still struck back.
    # Rank dice: attackers 3 casualties roll 4 (no rank), defenders 2 casualties roll 6 (no rank).
    result, dice = fight(party, defender, 5, 6, 5, 1, 1, 1, 5, 6, 6, 1, 1, 4, 6)
    assert dice.left == ()
    assert (result.attackers_lost, result.defenders_lost) == (3, 2)
    boarders = result.records["Boarder"].boarders
    assert (boarders.officers, boarders.seamen) == (1, 2)
    prize = result.records["Prize"]
    assert (prize.crew.deckhands, prize.crew.marines) == (1, 2)  # seamen fall before marines
    assert not result.taken


@pytest.mark.rule("SG-CQ-09")
def test_a_crack_crew_adds_one_to_every_boarding_die() -> None:
    defender = sky_runner(deckhands=1, marines=0)
    # Crack seamen kill on 5: two 5s kill. Officer 4 kills (4+). The lone deckhand misses. Ranks: 6, 6.
    result, _ = fight(Party(officers=1, seamen=2), defender, 4, 5, 5, 1, 6, quality="crack")
    assert result.defenders_lost == 1  # only one defender to kill
    trained, _ = fight(Party(officers=1, seamen=2), sky_runner(deckhands=3, marines=0), 4, 5, 5, 1, 1, 1, 6)
    assert trained.defenders_lost == 0


@pytest.mark.rule("SG-BRD-16")
def test_a_rank_die_at_most_the_casualties_kills_a_leader_and_a_one_an_officer() -> None:
    defender = sky_runner(deckhands=6, marines=0)
    party = Party(officers=1, petty_officers=2, seamen=3)
    # Defenders: six deckhands roll 6,6,6,1,1,1: three kills. Attackers roll no kills.
    misses = (1, 1, 1, 1, 1, 1)  # officer; then two petty officers and three seamen
    result, _ = fight(party, defender, 1, *misses[:5], 6, 6, 6, 1, 1, 1, 3, 6)  # rank die 3 <= 3
    left = result.records["Boarder"].boarders
    assert (left.officers, left.petty_officers, left.seamen) == (1, 1, 1)  # a petty officer among them
    result, _ = fight(party, defender, 1, *misses[:5], 6, 6, 6, 1, 1, 1, 1, 6)  # exactly 1: an officer
    left = result.records["Boarder"].boarders
    assert (left.officers, left.petty_officers, left.seamen) == (0, 2, 1)
    result, _ = fight(party, defender, 1, *misses[:5], 6, 6, 6, 1, 1, 1, 4, 6)  # 4 > 3: men of his choosing
    left = result.records["Boarder"].boarders
    assert (left.officers, left.petty_officers, left.seamen) == (1, 2, 0)


@pytest.mark.rule("SG-BRD-16")
def test_with_nobody_of_the_rank_rolled_the_casualty_is_an_ordinary_man() -> None:
    defender = sky_runner(deckhands=2, marines=0)
    # The boarders' officer kills one (6), the seamen miss; the defenders miss; their rank die is 1, but no
    # officer is among the defenders (the ship's officers are not on deck): a deckhand falls.
    result, dice = fight(Party(officers=1, seamen=3), defender, 6, 1, 1, 1, 1, 1, 1)
    assert dice.left == ()
    prize = result.records["Prize"]
    assert prize.crew.deckhands == 1
    assert (prize.crew.captain, prize.crew.officers) == (defender.crew.captain, defender.crew.officers)


@pytest.mark.rule("SG-BRD-17", "SG-BRD-20")
def test_a_party_without_an_officer_or_petty_officer_retreats() -> None:
    defender = sky_runner(deckhands=3, marines=0)
    # The defenders kill one (6); the rank die 1 makes it the officer; the petty officer keeps them aboard.
    result, _ = fight(Party(officers=1, petty_officers=1, seamen=2), defender, 1, 1, 1, 1, 6, 1, 1, 1, 6)
    assert result.retreated == ()
    assert result.records["Boarder"].boarding == "Prize"
    alone, _ = fight(Party(officers=1, seamen=2), defender, 1, 1, 1, 6, 1, 1, 1, 6)
    assert alone.retreated == ("Boarder",)
    home = alone.records["Boarder"]
    assert home.boarding is None
    assert home.party.seamen == 2


@pytest.mark.rule("SG-CREW-02")
def test_with_the_basic_rule_a_party_whose_officers_fall_retreats() -> None:
    defender = sky_runner(deckhands=3, marines=0)
    result, _ = fight(
        Party(officers=1, petty_officers=1, seamen=2), defender, 1, 1, 1, 1, 6, 1, 1, 1, 6, officers_only=True
    )
    assert result.retreated == ("Boarder",)


@pytest.mark.rule("SG-BRD-13")
def test_when_every_defender_is_dead_the_deck_is_secured_and_the_ship_taken() -> None:
    defender = sky_runner(deckhands=2, marines=0)
    result, _ = fight(Party(officers=1, seamen=2), defender, 5, 6, 1, 1, 1, 6)
    assert result.defenders_lost == 2
    assert result.taken
    helm = result.records["Prize"].crew
    assert helm.helmsman == 1  # the rest of the crew surrenders: it is not killed


@pytest.mark.rule("SG-BRD-18")
def test_a_defending_ship_without_an_officer_or_petty_officer_surrenders() -> None:
    leaderless = sky_runner(captain=0, officers=0, helmsman=0, trimsman=0, deckhands=3, marines=0)
    result, _ = fight(Party(officers=1, seamen=2), leaderless, 1, 1, 1, 1, 1, 1, 6)
    assert result.defenders_lost == 0
    assert result.taken
    led = sky_runner(deckhands=3, marines=0)
    result, _ = fight(Party(officers=1, seamen=2), led, 1, 1, 1, 1, 1, 1, 6)
    assert not result.taken


@pytest.mark.rule("SG-BRD-14")
def test_boarders_all_killed_leave_nothing_aboard() -> None:
    defender = sky_runner(deckhands=3, marines=0)
    result, _ = fight(Party(officers=1), defender, 1, 6, 1, 1, 1)
    assert result.records["Boarder"].boarders.men == 0
    assert result.records["Boarder"].boarding is None
    assert not result.taken


@pytest.mark.rule("SG-GRAP-09")
def test_a_grappled_ship_ignores_a_loss_of_trim() -> None:
    ship = replace(endtime(), grappled_with=("Other",))
    dice = FixedDice()
    after, happened = lose_trim(ship, 6, now=Moment(1), roller=dice)
    assert after == ship
    assert dice.calls == []
    assert happened[0]["clauses"] == ["SG-GRAP-09"]
    free, _ = lose_trim(endtime(), 6, now=Moment(1), roller=FixedDice(1, 1, 6))
    assert free.altitude != endtime().altitude  # the same blow drops a ship that is not grappled


@pytest.mark.rule("SG-TOW-04", "SG-TOW-06", "SG-TOW-07", "SG-TOW-08")
def test_towing_halves_the_allowance_rounding_up_then_takes_off_the_weight() -> None:
    assert close_action.tow_speed(5, 2, 5) == 3 - 2  # hull 2 towing hull 5: halved, then 5/2 = 2 off
    assert close_action.tow_speed(5, 2, 3) == 3 - 1  # the formula governs the second example (3/2 = 1 off)
    assert close_action.tow_speed(4, 5, 3) == 2  # a lighter tow costs only the halving
    assert close_action.tow_speed(1, 1, 7) == 0


@pytest.mark.rule("SG-TOW-05")
def test_a_towing_kite_halves_its_die_and_again_upwind() -> None:
    assert [close_action.tow_kite_die(d, upwind=False) for d in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [close_action.tow_kite_die(d, upwind=True) for d in range(1, 7)] == [1, 1, 1, 1, 2, 2]


@pytest.mark.rule("SG-TOW-09", "SG-TOW-10")
def test_a_ship_in_tow_needs_an_officer_or_petty_officer_at_her_trim() -> None:
    prize = ship_record_from_class("Dauntless (original design)", name="Prize")  # British
    assert close_action.tow_trim_manned(prize)
    empty = replace(prize, crew=replace(prize.crew, trimsman=0, captain=0, officers=0, petty_officers=0, helmsman=0))
    empty = replace(empty, crew=replace(empty.crew, marine_officers=0))
    assert not close_action.tow_trim_manned(empty)
    martians = boarded(endtime("Captor"), "Prize", Party(officers=1, seamen=3))  # a Martian prize crew
    assert close_action.tow_trim_manned(empty, martians)
    assert not close_action.tow_trim_manned(empty, boarded(endtime("Captor"), "Prize", Party(seamen=3)))
