"""A campaign for the map's tests: an umpire, Alice (Captain Jack) and Bob (Captain Mary), each with a ship from
the Parhoon yard, and helpers to put ships to sea, log encounters and start treks straight in the tables (the
voyages, tick and trek services are other parts' work; the map only reads their rows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts.models import User
from campaign import captains, yard
from campaign.models import Campaign, CampaignShip, Captain, Role, ShipStatus
from strategic_map.models import Encounter, EpicTrek, Voyage, VoyageDay, VoyageStatus
from tests.factories import CampaignFactory, MembershipFactory, UserFactory


@dataclass
class Club:
    campaign: Campaign
    umpire: User
    alice: User
    bob: User
    carol: User
    jack: Captain
    mary: Captain
    dart: CampaignShip
    gull: CampaignShip


def map_club(slug: str = "syrtis") -> Club:
    umpire = UserFactory(username=f"{slug}-umpire")
    campaign = CampaignFactory(created_by=umpire, slug=slug, name="Syrtis Major")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob, carol = (UserFactory(username=f"{slug}-{n}") for n in ("alice", "bob", "carol"))
    for player in (alice, bob, carol):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    dart = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="clearsight", name="Dart")
    gull = yard.ship_buy_class(captain_id=mary.pk, user=bob, class_id="clearsight", name="Gull")
    return Club(campaign, umpire, alice, bob, carol, jack, mary, dart, gull)


def extra_ship(captain: Captain, like: CampaignShip, name: str) -> CampaignShip:
    """Another ship for the captain, a copy of ``like`` (query-count tests want many)."""
    return CampaignShip.objects.create(
        campaign=captain.campaign,
        captain=captain,
        name=name,
        class_id=like.class_id,
        record=like.record,
        original_price=like.original_price,
        original_crew=like.original_crew,
    )


def to_sea(ship: CampaignShip, q: int, r: int, plan: list[dict[str, Any]] | None = None) -> Voyage:
    """Put the ship at sea at (q, r) with a standing plan."""
    assert ship.captain is not None
    ship.status = ShipStatus.AT_SEA
    ship.save(update_fields=["status"])
    return Voyage.objects.create(
        campaign=ship.campaign,
        captain=ship.captain,
        ship=ship,
        status=VoyageStatus.UNDER_WAY,
        start_city="Parhoon",
        started_day=1,
        q=q,
        r=r,
        plan=plan or [],
    )


def meet(voyage: Voyage, result: str, *, day: int = 2, by_day: bool = False) -> Encounter:
    """An encounter of this voyage, linked through Encounter.voyages or (``by_day``) through a VoyageDay."""
    encounter = Encounter.objects.create(
        campaign=voyage.campaign, day=day, q=voyage.q, r=voyage.r, territory="Astusapes", result=result
    )
    if by_day:
        VoyageDay.objects.create(
            campaign=voyage.campaign,
            voyage=voyage,
            day=day,
            kind="move",
            from_q=voyage.q,
            from_r=voyage.r,
            to_q=voyage.q,
            to_r=voyage.r,
            territory="Astusapes",
            encounter=encounter,
        )
    else:
        encounter.voyages.add(voyage)
    return encounter


def trek(captain: Captain, q: int, r: int, party: int = 12) -> EpicTrek:
    return EpicTrek.objects.create(
        campaign=captain.campaign,
        captain=captain,
        cause="crash_landing",
        started_day=3,
        q=q,
        r=r,
        party_start=party,
        party=party,
    )
