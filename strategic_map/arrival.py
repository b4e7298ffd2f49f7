"""Arrival at a friendly city, and a finished encounter battle's result carried back into the campaign.

``voyage_arrive`` ends a voyage in a friendly city: the ship in port, the captain ashore, each prize in tow to
auction (SGC-MONEY-08, campaign.auctions.prize_land), the crew experience check (campaign.yard), a steam ship
coaled. ``encounter_result_apply`` reads the battle's typed outcome (battles/engine/outcome.py, through
battles.engine_io.battle_outcome) and writes, through the campaign's tactical ruleset's bridge
(battles/engine/bridge.py), what the campaign keeps: damage and casualties, ships lost, captains sent on an epic
trek, enemy ships taken as prizes in tow. Both are idempotent: a second run finds the work done.

The decisions where the rules are silent are in docs/strategic-map.md, "Arrival and battle results"; the
reasoning for each is kept beside the code that makes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from battles import engine_io
from battles.engine.bridge import CampaignBridge
from battles.engine.outcome import (
    ABOARD,
    AWAY,
    CAPTURED,
    CRASH_LANDED,
    CRASHED,
    ESCAPED,
    FIGHTING,
    KILLED,
    LANDED,
    SCUTTLED,
    STRUCK,
    ShipOutcome,
)
from battles.models import Battle, BattleShip, BattleStatus
from campaign import auctions, locks, yard
from campaign import yard_selectors as yard_sel
from campaign.auctions import friendly_city, prize_land
from campaign.models import (
    Campaign,
    CampaignShip,
    Captain,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    CrewQuality,
    ShipStatus,
)
from galleons import catalog
from galleons import design as sg_design
from strategic_map import news, treks
from strategic_map.encounter_locks import encounter_locked
from strategic_map.models import (
    Encounter,
    EncounterShip,
    EncounterStatus,
    EpicTrek,
    Voyage,
    VoyageStatus,
)

# --- the outcome's words (battles/engine/outcome.py) ------------------------------------------------------------

# A ship with one of these fates is still her side's at the end.
STILL_HERS = (FIGHTING, LANDED, ESCAPED)
# Ships that may take a prize in tow: in the fight at the end (one that escaped over the edge left it).
ON_THE_FIELD = (FIGHTING, LANDED)
DESTROYED = (CRASHED, CRASH_LANDED, SCUTTLED)
CAPTAIN_KILLED, CAPTAIN_AWAY, CAPTAIN_CAPTURED, CAPTAIN_ABOARD = KILLED, AWAY, CAPTURED, ABOARD

# The epic trek's causes (strategic_map.models.EpicTrek.cause, SGC-TREK-01).
CRASH_LANDING, OVER_THE_SIDE = "crash_landing", "over_the_side"

# Legitimate prey (SGC-START-01): pirates and Oenotrian shipping, which is every category the encounter tables
# draw from (pirates of three kinds, Oenotrian warships and merchantmen, and a prize in tow taken back from them).
MERCHANT_CATEGORIES = ("Enemy Merchantman", "Prize Ship in Tow")


def prey_categories() -> frozenset[str]:
    return frozenset(category.name.casefold() for category in catalog.encounter_categories())


# --- arrival ------------------------------------------------------------------------------------------------------


@transaction.atomic
def voyage_arrive(*, voyage_id: int, city: str, day: int) -> None:
    """The ship ended her day in a friendly city: the voyage ends, prizes in tow go to auction
    (campaign.auctions.prize_land), the crew experience check is made (campaign.yard.voyage_end_experience),
    she is in port (repairs possible), steam ships coal. Idempotent."""
    campaign = locks.campaign_of(Voyage, voyage_id)  # campaign.locks' order: campaign, voyage, captains, ships
    voyage = (
        None
        if campaign is None
        else Voyage.objects.select_for_update(no_key=True, of=("self",)).filter(pk=voyage_id).first()
    )
    if campaign is None or voyage is None:
        raise ValidationError({"voyage": f"There is no voyage {voyage_id}."})
    if voyage.status == VoyageStatus.ARRIVED:
        return
    if voyage.status != VoyageStatus.UNDER_WAY:
        raise ValidationError({"voyage": f"Voyage {voyage_id} is {voyage.get_status_display().lower()}."})
    landing = friendly_city(city)  # refuses a city that is not friendly (SGC-MONEY-06)
    # The prizes in tow go to auction below, which pays their captors: captains (his and theirs), then the ships
    # (hers and the prizes'), each in pk order.
    towed = dict(
        CampaignShip.objects.filter(towed_by_id=voyage.ship_id, status=ShipStatus.PRIZE).values_list(
            "pk", "captured_by_id"
        )
    )
    captains = locks.captains(campaign, {voyage.captain_id, *(c for c in towed.values() if c is not None)})
    captain = captains[voyage.captain_id]
    ships = locks.ships(campaign, {voyage.ship_id, *towed})
    ship = ships[voyage.ship_id]
    if ship.status == ShipStatus.IN_BATTLE:
        # Her battle's result is carried back first (encounter_result_apply): it may yet cost her the voyage.
        raise ValidationError({"voyage": f"The {ship.name} is in battle: she cannot put in until it is over."})

    voyage.status = VoyageStatus.ARRIVED
    voyage.end_city = landing.name  # the map's name, as the voyage's start_city is kept
    voyage.ended_day = day
    voyage.save(update_fields=["status", "end_city", "ended_day"])

    ship.status = ShipStatus.IN_PORT
    ship.city = landing.key
    fields = ["status", "city"]
    coal = _bunkers_full(ship)
    if coal is not None:
        ship.coal_days = coal
        ship.record = replace(yard_sel.ship_record(ship), endurance_used=0).to_json()
        fields += ["coal_days", "record"]
    ship.save(update_fields=fields)

    captain.voyages += 1
    captain_fields = ["voyages"]
    at_sea = captain.status in (CaptainStatus.AT_SEA, CaptainStatus.IN_BATTLE, CaptainStatus.ASHORE)
    if at_sea and not Voyage.objects.filter(captain=captain, status=VoyageStatus.UNDER_WAY).exists():
        captain.status = CaptainStatus.ASHORE
        captain.city = landing.key
        captain_fields += ["status", "city"]
    captain.save(update_fields=captain_fields)

    # Bringing a prize home (SGC-MONEY-08): each ship in tow is cast off and goes to auction; her prize crew and
    # the man guarding her prisoners, handed over to the prize court, come back aboard the ship that brought her.
    prizes = [
        ships[pk] for pk in sorted(towed) if ships[pk].towed_by_id == ship.pk and ships[pk].status == ShipStatus.PRIZE
    ]
    back = 0
    for prize in prizes:
        back += sum(_men_aboard_prize(prize).values())
        prize.towed_by = None
        prize.save(update_fields=["towed_by"])
        prize_land(ship_id=prize.pk, city=landing.key)
    if back:
        record = yard_sel.ship_record(ship)
        ship.record = replace(record, crew=replace(record.crew, deckhands=record.crew.deckhands + back)).to_json()
        ship.save(update_fields=["record"])

    yard.voyage_end_experience(ship_id=ship.pk, voyage_key=voyage.key, prize=voyage.took_prize, losses=voyage.losses)

    # The public chronicle: who came home and with how many prizes; never where (fog of war).
    count = len(prizes)
    what = "with no prize" if count == 0 else ("with a prize in tow" if count == 1 else f"with {count} prizes in tow")
    if captain.status == CaptainStatus.LOST:
        text = f"The {ship.name} comes home {what}, without Captain {captain.name}."
    else:
        text = f"Captain {captain.name} brings the {ship.name} home {what}."
    _chronicle(campaign, ChronicleKind.VOYAGE_ENDED, text, captain)
    news.tell_arrival(
        campaign,
        captain,
        ship_id=ship.pk,
        ship_name=ship.name,
        city=landing.name,
        prizes=[p.name for p in prizes],
        day=day,
    )


def _bunkers_full(ship: CampaignShip) -> int | None:
    """Her days of coal with the bunkers filled (a steam ship's endurance; None for a ship that burns none).
    Bunker boxes lost in battle hold no coal until the yard mends them (SGC-REPAIR-06)."""
    rating = sg_design.rate_design(yard_sel.fitted_design(ship))
    days = rating.endurance_days
    if days is None:
        return None
    record = yard_sel.ship_record(ship)
    if record.endurance and record.coal_lost:
        days = days * max(record.endurance - record.coal_lost, 0) // record.endurance
    return days


def _chronicle(campaign: Campaign, kind: str, text: str, captain: Captain | None) -> None:
    ChronicleEntry.objects.create(campaign=campaign, day=campaign.day, kind=kind, text=text[:300], captain=captain)


# --- the battle's result ------------------------------------------------------------------------------------------


@dataclass
class _Taken:
    """What the players' side came away with and what it lost, for the chronicle."""

    prizes: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    sunk: list[str] = field(default_factory=list)


@dataclass
class _Action:
    """One encounter's battle as the campaign reads it: the outcome's ships by name, the bridge that writes their
    records back, and the campaign's rows locked for the apply (captains before ships, as every campaign service
    locks them)."""

    encounter: Encounter
    entries: dict[str, ShipOutcome]
    bridge: CampaignBridge
    standing: _Standing
    voyages: dict[int, Voyage]
    captains: dict[int, Captain]
    # A captain's own ships in the battle, and the prizes already in tow that were in it, by battle name.
    own: dict[str, CampaignShip]
    in_tow: dict[str, CampaignShip]
    taken: _Taken

    def lost_to_him(self, entry: ShipOutcome) -> bool:
        """Destroyed, or taken by a side that is not the players'."""
        taker = self.standing.taker(entry)
        return entry.fate in DESTROYED or (taker is not None and taker not in self.standing.player_sides)

    def captain_of(self, ship: CampaignShip) -> Captain | None:
        return self.captains.get(ship.captain_id) if ship.captain_id else None


@transaction.atomic
def encounter_result_apply(*, encounter_id: int) -> bool:
    """Carry a finished encounter battle's result back into the campaign (damage, casualties, prizes in tow,
    ships lost, treks). Idempotent (Encounter.applied_at); False when there was nothing to do."""
    # campaign.locks' order: campaign, encounter, voyages, captains, ships.
    campaign, encounter = encounter_locked(encounter_id)
    if campaign is None or encounter is None or encounter.applied_at is not None or encounter.battle is None:
        return False
    encounter.campaign = campaign
    if not encounter.battle.is_finished:
        return False
    outcome = engine_io.battle_outcome(encounter.battle)
    if outcome is None:
        return False
    action = _action(encounter, outcome.ships, outcome.winner)
    for name, ship in action.own.items():
        _own_ship_after(action, name, ship)
    for name, prize in action.in_tow.items():
        _prize_in_tow_after(action, name, prize)
    drawn = {
        s.name: s
        for s in EncounterShip.objects.select_for_update(no_key=True, of=("self",)).filter(encounter=encounter)
    }
    for name, entry in action.entries.items():
        if name in action.own or name in action.in_tow:
            continue
        taker = action.standing.taker(entry)
        if taker is None or taker not in action.standing.player_sides or entry.fate in DESTROYED:
            # Sunk, crashed or driven off: nothing is paid for it (SGC-MONEY-05); only a prize brought home earns.
            if entry.fate in (CRASHED, CRASH_LANDED, SCUTTLED) and name in drawn:
                action.taken.sunk.append(name)
            continue
        _take_prize(action, drawn.get(name), entry)

    # Prizes in tow of a ship that was lost, and not in the battle themselves, are lost with her.
    lost_towers = [s.pk for s in action.own.values() if s.status == ShipStatus.LOST]
    # Locked now, under the campaign's row that the whole apply holds (campaign.locks).
    gone = CampaignShip.objects.filter(towed_by_id__in=lost_towers, status=ShipStatus.PRIZE).values_list(
        "pk", flat=True
    )
    for prize in locks.ships(encounter.campaign, gone).values():
        if prize.towed_by_id not in lost_towers or prize.status != ShipStatus.PRIZE:
            continue
        prize.status = ShipStatus.LOST
        prize.towed_by = None
        prize.save(update_fields=["status", "towed_by"])

    # The survivors sail on with the voyage.
    for ship in action.own.values():
        captain = action.captain_of(ship)
        if ship.status == ShipStatus.AT_SEA and captain is not None and captain.status == CaptainStatus.IN_BATTLE:
            captain.status = CaptainStatus.AT_SEA
            captain.save(update_fields=["status"])

    encounter.status = EncounterStatus.RESOLVED
    encounter.applied_at = timezone.now()
    encounter.save(update_fields=["status", "applied_at"])
    fought = sorted({s.captain_id for s in action.own.values() if s.captain_id})
    _chronicle_action(encounter, [action.captains[c] for c in fought], action.taken)
    _tell_action(encounter, [action.captains[c] for c in fought], action)
    return True


def _action(encounter: Encounter, outcomes: Sequence[ShipOutcome], winner: str | None) -> _Action:
    battle = encounter.battle
    assert battle is not None
    entries = {entry.name: entry for entry in outcomes}
    links = {bs.name: bs for bs in BattleShip.objects.filter(battle=battle).select_related("side")}
    voyages = {v.ship_id: v for v in encounter.voyages.select_for_update(no_key=True, of=("self",)).order_by("pk")}
    linked_ids = [bs.campaign_ship_id for bs in links.values() if bs.campaign_ship_id is not None]
    owners = CampaignShip.objects.filter(pk__in=linked_ids).values_list("captain_id", flat=True)
    captain_ids = [c for c in owners if c is not None] + [v.captain_id for v in voyages.values()]
    # A captain may die or set out on a trek here, and his bids are released then: the auctions they are on are
    # locked before the captains (campaign.locks' order; after the voyages, which is safe under the campaign row).
    auctions.auctions_lock_for_captains(encounter.campaign, captain_ids)
    captains = locks.captains(encounter.campaign, captain_ids)
    ships = locks.ships(encounter.campaign, linked_ids)
    linked = {name: ships[bs.campaign_ship_id] for name, bs in links.items() if bs.campaign_ship_id in ships}
    # A captain's own ships; the players' sides are those they fought on.
    own = {name: ship for name, ship in linked.items() if ship.status != ShipStatus.PRIZE and ship.captain_id}
    in_tow = {name: ship for name, ship in linked.items() if ship.status == ShipStatus.PRIZE}
    player_sides = {links[name].side.key for name in own}
    return _Action(
        encounter=encounter,
        entries=entries,
        # The bridge of the ruleset the battle was fought with (the campaign's choice may have changed since).
        bridge=engine_io.campaign_bridge(battle.ruleset_key),
        standing=_standing(entries, player_sides, winner),
        voyages=voyages,
        captains=captains,
        own=own,
        in_tow=in_tow,
        taken=_Taken(),
    )


def _own_ship_after(action: _Action, name: str, ship: CampaignShip) -> None:
    """A captain's ship after the battle: her record and losses kept; lost, or back at sea on her voyage."""
    entry = action.entries.get(name)
    if entry is None:
        return
    voyage = action.voyages.get(ship.pk) or _voyage_of(ship)
    captain = action.captain_of(ship)
    _carry_back(action.bridge, ship, entry)
    if voyage is not None:
        voyage.losses += entry.crew_lost
    if action.lost_to_him(entry):
        _ship_lost(action.encounter, ship, voyage, captain, entry, action.taken)
        return
    ship.status = ShipStatus.AT_SEA
    ship.save(update_fields=["record", "status"])
    if voyage is not None:
        voyage.save(update_fields=["losses"])
    if captain is not None and entry.captain == CAPTAIN_KILLED:
        # She fights on under her officers and sails her voyage home; her captain's career is over.
        _captain_lost(action.encounter, captain)


def _prize_in_tow_after(action: _Action, name: str, prize: CampaignShip) -> None:
    """A prize he was already towing home, fought over again: still his, or taken back or gone down."""
    entry = action.entries.get(name)
    if entry is None:
        return
    _carry_back(action.bridge, prize, entry)
    if action.lost_to_him(entry):
        prize.status = ShipStatus.LOST
        prize.towed_by = None
        action.taken.lost.append(prize.name)
    prize.save(update_fields=["record", "status", "towed_by"])


def _voyage_of(ship: CampaignShip) -> Voyage | None:
    return (
        Voyage.objects.select_for_update(no_key=True, of=("self",))
        .filter(ship=ship, status=VoyageStatus.UNDER_WAY)
        .first()
    )


@dataclass(frozen=True)
class _Standing:
    """Who holds the field at the end, for the ships that struck their colours: the outcome leaves a struck ship's
    taker to the campaign (a struck ship is nobody's prize in the battle)."""

    winner: str | None
    # The sides with a ship still in the fight at the end, in the battle's order.
    in_fight: tuple[str, ...]
    player_sides: frozenset[str]

    def taker(self, entry: ShipOutcome) -> str | None:
        """The side that took this ship: her captor for a boarded prize; for a ship that struck, the winner, or with
        no winner the one other side still in the fight (the players' side first if several are); none when
        that is her own side (she hoists her colours again) or nobody is left to take her."""
        if entry.fate == CAPTURED:
            return entry.captured_by or None
        if entry.fate != STRUCK:
            return None
        her_side = entry.side_at_start
        if self.winner:
            return self.winner if self.winner != her_side else None
        others = [side for side in self.in_fight if side != her_side]
        players = [side for side in others if side in self.player_sides]
        candidates = players or others
        return candidates[0] if candidates else None


def _standing(entries: Mapping[str, ShipOutcome], player_sides: set[str], winner: str | None) -> _Standing:
    in_fight: list[str] = []
    for entry in entries.values():
        side = entry.side_at_end
        if entry.fate in ON_THE_FIELD and side not in in_fight:
            in_fight.append(side)
    return _Standing(
        winner=winner or None,
        in_fight=tuple(in_fight),
        player_sides=frozenset(player_sides),
    )


def _carry_back(bridge: CampaignBridge, ship: CampaignShip, entry: ShipOutcome) -> None:
    """Her record after the battle, as the ruleset's bridge writes it on the campaign's record (for Sky Galleons:
    damage, casualties and spent ordnance kept, the battle's positions gone, prize crews back aboard)."""
    record = bridge.record_after(entry, ship.record or None, crew_quality=ship.crew_quality)
    if record is not None:
        ship.record = record


def _ship_lost(
    encounter: Encounter,
    ship: CampaignShip,
    voyage: Voyage | None,
    captain: Captain | None,
    entry: ShipOutcome,
    taken: _Taken,
) -> None:
    """A player's ship destroyed or taken by the enemy: lost to him, the voyage ends lost, and the captain is
    killed, or sets out on an epic trek (SGC-TREK-01) when he crash-landed or was taken and put over the side."""
    ship.status = ShipStatus.LOST
    ship.towed_by = None
    ship.save(update_fields=["record", "status", "towed_by"])
    taken.lost.append(ship.name)
    if voyage is not None:
        voyage.status = VoyageStatus.LOST
        voyage.ended_day = encounter.day
        voyage.save(update_fields=["losses", "status", "ended_day"])
    _chronicle(encounter.campaign, ChronicleKind.SHIP_LOST, f"The {ship.name} is lost.", captain)
    if captain is None:
        return
    word = entry.captain or CAPTAIN_KILLED
    cause, party = _trek_cause(entry, word)
    if cause is None:
        _captain_lost(encounter, captain)
        return
    # trek_start makes him TREKKING (strategic_map.treks).
    treks.trek_start(
        captain_id=captain.pk,
        cause=cause,
        q=encounter.q,
        r=encounter.r,
        party=party,
        day=encounter.day,
        encounter_id=encounter.pk,
    )


def _captain_lost(encounter: Encounter, captain: Captain) -> None:
    """He falls: his career is over, and his bids in escrow go back to his bank (campaign.auctions)."""
    captain.status = CaptainStatus.LOST
    captain.save(update_fields=["status"])
    auctions.captain_bids_release(captain=captain)
    _chronicle(encounter.campaign, ChronicleKind.CAPTAIN_LOST, f"Captain {captain.name} falls in action.", captain)


def _trek_cause(entry: ShipOutcome, word: str) -> tuple[str | None, int]:
    """Which way the captain of a lost ship survives, if he does, and his party, himself included (SGC-TREK-02,
    designed): a crash landing brings down every man still aboard, safe (SG-ALT-12); a captured captain is put
    over the side with the men taken with him (the Martians do not kill prisoners); a captain away from his
    ship (boarding, in a prize crew) when she went down comes down with the men away with him, as a crash
    landing. A captain killed, or aboard when she crashed, starts no trek."""
    if word == CRASH_LANDED:
        return CRASH_LANDING, max(entry.crew_at_start - entry.crew_lost - entry.crew_away, 1)
    if word == CAPTAIN_CAPTURED:
        return OVER_THE_SIDE, max(entry.prisoners, 1)
    if word == CAPTAIN_AWAY:
        return CRASH_LANDING, max(entry.crew_away, 1)
    return None, 0


def _tower(entry: ShipOutcome, own: Mapping[str, CampaignShip]) -> CampaignShip | None:
    """The players' ship that takes the prize home in tow (SGC-MONEY-08): the one towing her at the end, else
    the one that put most men aboard her, else the first still in the fight; none if no ship of the side is."""
    able = {name: ship for name, ship in own.items() if ship.status == ShipStatus.AT_SEA}
    if not able:
        return None
    towing = entry.towed_by
    if towing is not None and towing in able:
        return able[towing]
    for name, _men in sorted(entry.prize_crew.items(), key=lambda item: -item[1]):
        if name in able:
            return able[name]
    return next(iter(able.values()))


def _take_prize(action: _Action, drawn: EncounterShip | None, entry: ShipOutcome) -> None:
    """An enemy ship the players' side took becomes a prize in tow of the capturing ship (SGC-MONEY-08), if she
    is legitimate prey (SGC-START-01): a ship drawn for the encounter from the tables' categories. A prize in tow
    taken back from the pirates is a prize like any other (SGC-ETYPE-14, designed). The Red Captain's crew may
    man Martian and European prizes alike (SGC-START-13, DESIGN.md section 8): none is refused for her make."""
    if drawn is None or drawn.category.casefold() not in prey_categories():
        return  # not his to take (a neutral, a British ship): she is let go
    tower = _tower(entry, action.own)
    if drawn.campaign_ship_id is not None or entry.record is None or tower is None or tower.captain_id is None:
        return  # no ship of his left in the fight to take her home
    encounter = action.encounter
    class_id = entry.class_id or drawn.class_id
    ship_class = catalog.ship_class(class_id)
    prize = CampaignShip(
        campaign=encounter.campaign,
        captain=None,
        name=drawn.name,
        class_id=class_id,
        record=entry.record,
        original_price=ship_class.price or 0,
        hull_price=yard_sel.hull_price(sg_design.rate_design(sg_design.design_from_catalog(ship_class))),
        crew_quality=_quality(drawn.crew_quality),
        original_crew=entry.crew_at_start,
        cargo_tons=_cargo_tons(encounter.campaign, drawn, ship_class),
        status=ShipStatus.PRIZE,
        city="",
        captured_by_id=tower.captain_id,
        towed_by=tower,
    )
    # Her record cleaned as a ship's after battle; her own men away (boarders across) are not brought back.
    _carry_back(action.bridge, prize, replace(entry, detail={}))
    prize.save()
    drawn.campaign_ship = prize
    drawn.save(update_fields=["campaign_ship"])
    voyage = action.voyages.get(tower.pk) or _voyage_of(tower)
    if voyage is not None:
        voyage.took_prize = True
        voyage.save(update_fields=["took_prize", "losses"])
    action.taken.prizes.append(prize.name)
    _prize_company_stays(action, entry)


def _men_in_prize_company(entry: ShipOutcome) -> dict[str, int]:
    """A prize's outcome: the captor ships' men aboard her, by battle name: her prize crew, if she was crewed
    (SG-BRD-21), and the one man detailed to guard her prisoners (SG-BRD-22)."""
    men = {name: count for name, count in entry.prize_crew.items() if count > 0}
    if entry.prize_guard:
        men[entry.prize_guard] = men.get(entry.prize_guard, 0) + 1
    return men


def _prize_company_stays(action: _Action, entry: ShipOutcome) -> None:
    """SGC-MONEY-08: a prize brought home keeps her prize crew and the guard of her prisoners aboard until she is
    landed, so they are off their own ships' records meanwhile (the bridge brought every man away in a prize
    back aboard as a deckhand; those with a prize that is let go do come back)."""
    for name, men in _men_in_prize_company(entry).items():
        ship = action.own.get(name)
        if ship is None or ship.status != ShipStatus.AT_SEA:
            continue  # a ship lost here: her men aboard the prize come home with the prize
        record = yard_sel.ship_record(ship)
        crew = replace(record.crew, deckhands=max(record.crew.deckhands - men, 0))
        ship.record = replace(record, crew=crew).to_json()
        ship.save(update_fields=["record"])


def _men_aboard_prize(prize: CampaignShip) -> dict[str, int]:
    """The captor's men aboard a prize he is landing, by the battle name of their ship, as the battle she was
    taken in left them: the guard, and her prize crew as far as her record still has men alive (a crewed prize's
    record is her prize crew; her own men are prisoners and are not on it)."""
    drawn = EncounterShip.objects.filter(campaign_ship=prize).select_related("encounter").order_by("-pk").first()
    if drawn is None or drawn.encounter.battle_id is None:
        return {}  # not taken in an encounter battle (a prize made by hand): nobody of his is aboard
    battle = Battle.objects.filter(pk=drawn.encounter.battle_id).first()
    outcome = engine_io.battle_outcome(battle) if battle is not None else None
    entry = outcome.ship(drawn.name) if outcome is not None else None
    if entry is None:
        return {}
    men = _men_in_prize_company(entry)
    crew_from = dict(entry.prize_crew)
    # Men of her prize crew killed since (she was fought over again in tow) do not come back.
    dead = max(sum(crew_from.values()) - yard_sel.ship_record(prize).men_alive, 0)
    for name in sorted(crew_from, key=lambda n: -crew_from[n]):
        cut = min(dead, crew_from[name])
        men[name] -= cut
        dead -= cut
    return {name: count for name, count in men.items() if count > 0}


def _quality(word: str) -> str:
    """The prize's crew quality as the campaign keeps it (a High Martian crew fights its guns as Green)."""
    word = word.strip().casefold()
    return word if word in CrewQuality.values else CrewQuality.GREEN


def _cargo_tons(campaign: Campaign, drawn: EncounterShip, ship_class: catalog.ShipClass) -> int:
    """A merchant's cargo: her tonnage times the campaign's cargo fraction, rounded (DESIGN.md section 4)."""
    merchant = drawn.category in MERCHANT_CATEGORIES or ship_class.category.endswith("merchant")
    if not merchant or not ship_class.tonnage:
        return 0
    tons = Decimal(ship_class.tonnage) * Decimal(campaign.merchant_cargo_fraction)
    return int(tons.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _counted(n: int, one: str, many: str) -> str:
    if n == 1:
        return f"{'an' if one[0] in 'aeiou' else 'a'} {one}"
    return f"{n} {many}"


def _chronicle_action(encounter: Encounter, captains: Sequence[Captain], taken: _Taken) -> None:
    """The public chronicle's note of the action: who fought, how many prizes he took and enemies he sent down,
    and his own ships lost. Nothing that would place him: not the territory, the hex, the table's line or the
    enemy's names and classes (the encounter tables differ by territory); a prize is named when she is landed."""
    if not captains:
        return
    names = " and ".join(f"Captain {c.name}" for c in captains)
    parts = [f"{names} fought an action"]
    if taken.prizes:
        parts.append("took " + _counted(len(taken.prizes), "prize", "prizes"))
    if taken.sunk:
        parts.append("sent " + _counted(len(taken.sunk), "enemy", "enemies") + " down")
    if taken.lost:
        parts.append("lost " + " and ".join(f"the {n}" for n in taken.lost))
    text = "; ".join(parts) + "."
    _chronicle(encounter.campaign, ChronicleKind.ACTION, text, captains[0])


def _tell_action(encounter: Encounter, captains: Sequence[Captain], action: _Action) -> None:
    """Each captain who fought hears how it went, by name (his news is his alone), and where to go next: his
    trek when he walks home, else the battle's record."""
    taken = action.taken
    said = []
    if taken.prizes:
        said.append("Taken in tow: " + ", ".join(f"the {name}" for name in taken.prizes) + ".")
    if taken.sunk:
        said.append("Sent down: " + ", ".join(f"the {name}" for name in taken.sunk) + ".")
    if taken.lost:
        said.append("Lost: " + ", ".join(f"the {name}" for name in taken.lost) + ".")
    # The battle's result, its own anchor: the unread "action!" notice of the same page must not swallow it
    # (campaign.notifications keeps one unread notification a page).
    battle_url = reverse("battle_detail", args=[encounter.battle_id]) + "#battle-status"
    for captain in captains:
        lines = list(said)
        url = battle_url
        # trek_start read the captain afresh: the trek this action began is the word on him, not this row.
        trek = EpicTrek.objects.filter(captain=captain, encounter=encounter).first()
        if trek is not None:
            lines.append(f"Captain {captain.name} and his survivors set out on an epic trek home: choose their way.")
            url = news.trek_url(encounter.campaign.slug, trek.pk, 1)
        elif captain.status == CaptainStatus.AT_SEA:
            lines.append("The voyage goes on.")
        news.tell_action(
            encounter.campaign,
            captain,
            encounter_id=encounter.pk,
            day=encounter.day,
            summary=" ".join(lines) or "Nothing taken, nothing lost.",
            url=url,
        )


def encounters_finished_unapplied(*, limit: int = 200) -> list[int]:
    """Encounters whose battle has finished but whose result has not been carried back, oldest first."""
    return list(
        Encounter.objects.filter(applied_at__isnull=True, battle__status=BattleStatus.FINISHED)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
