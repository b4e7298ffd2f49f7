"""The encounter's battle (SGC-ENC-19/20/21): the encounter set up by the campaign, made a scenario by the
campaign's tactical ruleset (its campaign bridge, battles/engine/bridge.py), opened through the battle app. Run
by the task strategic_map.encounter_tasks.encounter_battle_open after the tick commits.

The set-up the campaign rules leave open (SGC-ENC-21) is DESIGN.md 4.3's, rolled with the campaign's logged dice:
the wind (1D6, 1 = north, clockwise), the sighting distance (2D6 + 4 hexes between the two lines), the player's
line on the west heading east, the ships met on the east: fighting ships heading at him, merchants heading away.
The player's ships enter with their campaign record (damage, crew, spent ordnance carry over); prizes in tow sail
astern of their tower. The ruleset's bridge says the rest (for Sky Galleons, battles/rules/sky_galleons/campaign.py:
heights, noncombatant prizes, the AI's temper, the victory).
"""

from __future__ import annotations

from django.db import transaction

from battles import engine_io
from battles.engine import bridge
from battles.models import Battle, BattleShip, Controller
from battles.services import SideControl, battle_create
from campaign import dice, locks
from campaign.models import Campaign, CampaignShip, EncounterControl, Membership, Role, ShipStatus
from strategic_map import encounter_rules as rules
from strategic_map import news
from strategic_map.encounter_clock import encounter_window
from strategic_map.models import Encounter, EncounterShip

PLAYER_SIDE, ENEMY_SIDE = "captain", "encountered"


def _umpire(campaign: Campaign) -> Membership:
    umpire = (
        Membership.objects.filter(campaign=campaign, role=Role.UMPIRE).select_related("user").order_by("pk").first()
    )
    if umpire is None:
        raise ValueError(f"{campaign} has no umpire to open the encounter's battle")
    return umpire


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


def encounter_described(
    encounter: Encounter,
    player_ships: list[CampaignShip],
    player_prizes: list[CampaignShip],
    captain_name: str,
    *,
    wind: int,
    distance: int,
) -> bridge.Encounter:
    """The encounter as the campaign sets it up (DESIGN.md 4.3, SGC-ENC-21), in the bridge's words: the player's
    ships and prizes in tow with their records against the ships drawn, placed by encounter_rules.placements."""
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
    our_ships = tuple(
        bridge.EncounterShip(
            name=ship.name,
            role=role,
            position=place.position,
            facing=place.facing,
            record=ship.record,
            crew_quality=ship.crew_quality,
            towed_by=tower,
        )
        for (ship, role, tower), place in zip(ours, our_places, strict=True)
    )
    their_ships = tuple(
        bridge.EncounterShip(
            name=ship.name,
            role=role,
            position=place.position,
            facing=place.facing,
            class_id=ship.class_id,
            crew_quality=ship.crew_quality,
            boarding_quality=ship.boarding_quality,
            high_martian=ship.high_martian,
            towed_by=towed_by,
        )
        for ship, role, place, towed_by in zip(theirs, their_roles, their_places, their_towed_by, strict=True)
    )
    territory = f"{encounter.territory}, day {encounter.day}"
    return bridge.Encounter(
        slug=f"encounter-{encounter.pk}",
        title=f"{encounter.result} ({territory})",
        description=(
            f"{captain_name} meets {met_words(encounter.result)} in {territory}. The ships sighted each other "
            f"{distance} hexes apart."
        ),
        sides=(
            bridge.EncounterSide(PLAYER_SIDE, captain_name, our_ships, player=True),
            bridge.EncounterSide(
                ENEMY_SIDE, encounter.result, their_ships, category=theirs[0].category if theirs else ""
            ),
        ),
        wind=wind,
        distance=distance,
    )


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
    described = encounter_described(
        encounter,
        player_ships,
        prizes,
        captain.name,
        wind=rules.wind_from(rolls[0].result),
        distance=rules.sighting_distance([rolls[1].result, rolls[2].result]),
    )
    document = engine_io.campaign_bridge(campaign.tactical_ruleset).scenario(described)
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
        title=described.title[:160],
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
