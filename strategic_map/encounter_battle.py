"""The encounter's battle (SGC-ENC-19/20/21): a scenario document built from the encounter, opened through the
battle app. Run by the task strategic_map.encounter_tasks.encounter_battle_open after the tick commits.

The set-up the campaign rules leave open (SGC-ENC-21) is DESIGN.md 4.3's, rolled with the campaign's logged dice:
the wind (1D6, 1 = north, clockwise), the sighting distance (2D6 + 4 hexes between the two lines), every ship at
Medium (or her ceiling, if damage has brought it lower), the player's line on the west heading east, the ships
met on the east: fighting ships heading at him, merchants heading away. The player's ships enter with their
campaign record (scenario "record" entries: damage, crew, spent ordnance carry over); prizes in tow are
noncombatants (SG-SCN-17) astern of their tower. The last side with a ship in the fight wins (SG-SCN-06).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from battles.models import Battle, BattleShip, Controller
from battles.services import SideControl, battle_create
from campaign import dice, locks
from campaign.models import Campaign, CampaignShip, EncounterControl, Membership, Role, ShipStatus
from galleons.record import ShipRecord, altitude_level
from strategic_map import encounter_rules as rules
from strategic_map import news
from strategic_map.encounter_clock import encounter_window
from strategic_map.models import Encounter, EncounterShip

PLAYER_SIDE, ENEMY_SIDE = "captain", "encountered"
CRUISING_ALTITUDE = "M"
# The AI's tuning per category (scenario format's sides[].ai): the High Martians as in Hearts of Oak (they
# board), pirates keep the prizes they take; warships and merchants the AI's defaults.
AI_BY_CATEGORY: dict[str, dict[str, Any]] = {
    "High Martian Pirate": {"board": True, "caution": 0.0, "flee_hull": 0.95, "flee_crew": 0.15, "prizes": "keep"},
    "Pirate Ship": {"prizes": "keep"},
    "Cloud Captain": {"prizes": "keep"},
}
HIGH_MARTIAN_ARMS = "bow"  # the kings' marines' bows (SG-SAF-05), as in Hearts of Oak


def _umpire(campaign: Campaign) -> Membership:
    umpire = (
        Membership.objects.filter(campaign=campaign, role=Role.UMPIRE).select_related("user").order_by("pk").first()
    )
    if umpire is None:
        raise ValueError(f"{campaign} has no umpire to open the encounter's battle")
    return umpire


def _altitude(record: ShipRecord) -> str:
    ceiling = record.max_altitude
    if ceiling is not None and altitude_level(ceiling) < altitude_level(CRUISING_ALTITUDE):
        return ceiling
    return CRUISING_ALTITUDE


def _enemy_entry(ship: EncounterShip, role: str, placement: rules.Placement) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": ship.name,
        "class": ship.class_id,
        "crew_quality": ship.crew_quality,
        "position": list(placement.position),
        "facing": placement.facing,
        "altitude": CRUISING_ALTITUDE,
        "role": rules.BATTLE_ROLE[role],
    }
    if ship.high_martian:
        entry.update(high_martian=True, boarding_quality=ship.boarding_quality, marine_arms=HIGH_MARTIAN_ARMS)
    elif ship.boarding_quality and ship.boarding_quality != ship.crew_quality:
        entry["boarding_quality"] = ship.boarding_quality
    return entry


def _roles(encounter: Encounter, ships: list[EncounterShip]) -> list[str]:
    """Each ship's part (raider, escort, merchant, prize), read again from the table's line: the ships were drawn
    in the line's order (encounters_draw), so the n-th ship is the line's n-th."""
    wanted = rules.parse_line(encounter.result)
    if len(wanted) != len(ships):
        raise ValueError(f"encounter {encounter.pk}: {len(ships)} ships for the line {encounter.result!r}")
    return [ship.role for ship in wanted]


NUMBER_WORDS = ("two", "three", "four")


def met_words(line: str) -> str:
    """A table line as the object of "meets": its categories and classes keep their capitals ("a High Martian
    Pirate", "two Pirate Ships", "an Enemy Merchantman"); only a leading number word is lower-cased."""
    line = " ".join(line.split())
    first = line.split(" ", 1)[0]
    if first.casefold() in NUMBER_WORDS:
        return first.casefold() + line[len(first) :]
    return f"{'an' if line[:1].casefold() in 'aeiou' else 'a'} {line}" if line else line


def scenario_document(
    encounter: Encounter,
    player_ships: list[CampaignShip],
    player_prizes: list[CampaignShip],
    captain_name: str,
    *,
    wind: int,
    distance: int,
) -> dict[str, Any]:
    """The scenario (docs/scenarios.md) of an encounter: the player's ships and prizes in tow against the ships
    drawn, placed by encounter_rules.placements."""
    theirs = list(encounter.ships.order_by("pk"))
    their_roles = _roles(encounter, theirs)
    index = {ship.name: n for n, ship in enumerate(theirs)}
    their_towed_by = [index.get(ship.towed_by) if ship.towed_by else None for ship in theirs]
    # The player's line: each ship, then her prizes in tow astern of her.
    ours: list[tuple[CampaignShip, str, int | None]] = []
    for ship in player_ships:
        ours.append((ship, rules.RAIDER, None))
        tower = len(ours) - 1
        ours.extend((prize, rules.PRIZE, tower) for prize in player_prizes if prize.towed_by_id == ship.pk)
    our_places, their_places = rules.placements(
        [role for _, role, _ in ours],
        their_roles,
        distance,
        our_towed_by=[tower for _, _, tower in ours],
        their_towed_by=their_towed_by,
    )
    our_entries = []
    for (ship, role, _), place in zip(ours, our_places, strict=True):
        record = ShipRecord.from_json(ship.record)
        our_entries.append(
            {
                "name": ship.name,
                "record": ship.record,
                "position": list(place.position),
                "facing": place.facing,
                "altitude": _altitude(record),
                "role": rules.BATTLE_ROLE[role],
            }
        )
    their_entries = [
        _enemy_entry(ship, role, place) for ship, role, place in zip(theirs, their_roles, their_places, strict=True)
    ]
    prizes = [ship.name for ship, role, _ in ours if role == rules.PRIZE] + [
        ship.name for ship, role in zip(theirs, their_roles, strict=True) if role == rules.PRIZE
    ]
    lead = theirs[0].category if theirs else ""
    territory = f"{encounter.territory}, day {encounter.day}"
    return {
        "format": "red-captain/sky-galleons-scenario",
        "version": 1,
        "slug": f"encounter-{encounter.pk}",
        "title": f"{encounter.result} ({territory})",
        "source": "Red Captain campaign encounter (SGC-ENC-15..21)",
        "clauses": ["SGC-ENC-19", "SGC-ENC-21"],
        "description": (
            f"{captain_name} meets {met_words(encounter.result)} in {territory}. The ships sighted each other "
            f"{distance} hexes apart. The last side with a ship in the fight wins."
        ),
        "wind": wind,
        "turn_limit": 40,
        "crew_quality": "trained",
        "setup": {"kind": "fixed", "note": "Rolled by the campaign (DESIGN.md 4.3): sighting distance 2D6+4."},
        "special_rules": [{"rule": "noncombatant", "ship": name} for name in prizes],
        "victory": {"kind": "last_flying", "turn_limit_winner": None},
        "options": {},
        "sides": [
            {"id": PLAYER_SIDE, "name": captain_name, "ai": {"prizes": "keep"}, "ships": our_entries},
            {
                "id": ENEMY_SIDE,
                "name": encounter.result,
                "ai": dict(AI_BY_CATEGORY.get(lead, {})),
                "ships": their_entries,
            },
        ],
    }


@transaction.atomic
def encounter_battle_open(*, encounter_id: int) -> Battle | None:
    """Open the encounter's battle: roll its set-up, build the scenario, create the battle with the player's side
    his and the other the AI's or the umpire's (Campaign.encounter_control), on the campaign's clock (its window,
    strategic_map.encounter_clock), link the campaign ships, and tell the player when the AI takes over. Idempotent:
    an encounter that has its battle (or is gone) gets nothing new; None then."""
    campaign = locks.campaign_of(Encounter, encounter_id)  # first: the set-up dice are numbered under it
    encounter = (
        None
        if campaign is None
        else Encounter.objects.select_for_update(no_key=True, of=("self",)).filter(pk=encounter_id).first()
    )
    if campaign is None or encounter is None or encounter.battle_id is not None:
        return None
    encounter.campaign = campaign
    days = list(encounter.voyage_days.select_related("voyage__ship", "voyage__captain__player").order_by("voyage_id"))
    if not days:
        raise ValueError(f"encounter {encounter_id} has no voyage day")
    captain = days[0].voyage.captain
    player_ships = [day.voyage.ship for day in days]
    prizes = list(
        CampaignShip.objects.filter(towed_by__in=player_ships, status=ShipStatus.PRIZE).order_by("towed_by_id", "pk")
    )
    rolls = dice.roll_many(
        campaign,
        [
            (f"Encounter {encounter.pk} set-up: wind", 6, captain),
            (f"Encounter {encounter.pk} set-up: sighting distance, first die", 6, captain),
            (f"Encounter {encounter.pk} set-up: sighting distance, second die", 6, captain),
        ],
        day=encounter.day,
    )
    document = scenario_document(
        encounter,
        player_ships,
        prizes,
        captain.name,
        wind=rules.wind_from(rolls[0].result),
        distance=rules.sighting_distance([rolls[1].result, rolls[2].result]),
    )
    window = encounter_window(campaign, encounter.day)
    enemy = (
        SideControl(Controller.UMPIRE)
        if campaign.encounter_control == EncounterControl.UMPIRE
        else SideControl(Controller.AI)
    )
    battle = battle_create(
        campaign=campaign,
        created_by=_umpire(campaign).user,
        scenario=document,
        title=str(document["title"])[:160],
        # The campaign's battle rules and their options, chosen when it was founded (or on its settings page).
        ruleset_key=campaign.tactical_ruleset,
        options=campaign.tactical_options,
        sides={PLAYER_SIDE: SideControl(Controller.PLAYER, captain.player), ENEMY_SIDE: enemy},
        # Fog of war: the battle places the captain's ship; the rest of the club never learns of it.
        private=True,
        # The campaign's clock (strategic_map.encounter_clock): a deadline per turn, the AI at the window's end.
        turn_minutes=window.turn_minutes,
        hand_over_at=window.hand_over_at,
    )
    encounter.battle = battle
    encounter.window_ends_day = window.ends_day
    encounter.save(update_fields=["battle", "window_ends_day"])
    news.tell_encounter_battle(
        campaign,
        captain,
        battle_id=battle.pk,
        title=battle.title,
        day=encounter.day,
        ends_day=window.ends_day,
        hand_over_at=window.hand_over_at,
        turn_minutes=window.turn_minutes,
    )
    for ship in (*player_ships, *prizes):
        BattleShip.objects.filter(battle=battle, name=ship.name).update(campaign_ship=ship)
    return battle
