"""A small campaign with one of everything the API serves, so a walk over the whole schema meets real objects:
an umpire and three players with a captain each; Alice also has a ship in port (the Dart), a ship at sea on a
voyage that met something (the Gull) and a captain on an epic trek; a battle between Alice and Bob and an auction
of a prize Alice took. ``ids`` maps each path parameter of the API (its name in the URLconf) to an object's id."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from accounts.models import User
from battles import services as battle_services
from battles.models import Battle, BattleMode
from battles.services import SideControl
from campaign import captains, yard
from campaign.models import Auction, Campaign, Role
from strategic_map.models import Encounter, EpicTrek, Voyage
from tests.campaign.auction_tables import land
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.strategic_map.map_club import meet, to_sea, trek


@dataclass
class World:
    campaign: Campaign
    umpire: User
    alice: User
    bob: User
    carol: User
    battle: Battle
    auction: Auction
    voyage: Voyage
    encounter: Encounter
    trek: EpicTrek
    ids: dict[str, Any] = field(default_factory=dict)


def api_world(run_on_commit: Callable[[], AbstractContextManager[Any]] | None = None, slug: str = "syrtis") -> World:
    """The campaign; ``run_on_commit`` (django_capture_on_commit_callbacks(execute=True)) lets the battle's first
    resolution run, so it waits for real decisions."""
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug=slug)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    players = {}
    for name in ("alice", "bob", "carol"):
        players[name] = UserFactory(username=name)
        MembershipFactory(campaign=campaign, user=players[name], role=Role.PLAYER)
    found = {
        name: captains.captain_found(campaign=campaign, user=players[name], name=f"Captain {name.title()}")
        for name in players
    }
    # Alice, the player the fuzzing signs in as, has one of each thing, so her requests meet her own objects
    # (another player's would only ever answer 404): a ship in port, a ship at sea who met something, and a trek
    # record. One Red Captain per player (SGC-START-14): they are all her one captain's, the voyage and the trek
    # made as rows (tests.strategic_map.map_club), not by sailing and losing.
    alice = found["alice"]
    dart = yard.ship_buy_class(captain_id=alice.pk, user=players["alice"], class_id="clearsight", name="Dart")
    gull = yard.ship_buy_class(captain_id=alice.pk, user=players["alice"], class_id="clearsight", name="Gull")
    voyage = to_sea(gull, 5, 10, plan=[{"kind": "patrol"}])
    encounter = meet(voyage, "Pirate Ship")
    walking = trek(alice, 5, 10)
    auction = land({"campaign": campaign, "captains": found}, captor="alice")

    def start() -> Battle:
        return battle_services.battle_create(
            campaign=campaign,
            created_by=umpire,
            scenario_slug="john-bulls-tyranny",
            mode=BattleMode.ASYNC,
            sides={"irish": SideControl("player", players["alice"]), "british": SideControl("player", players["bob"])},
        )

    if run_on_commit is None:
        battle = start()
    else:
        with run_on_commit():
            battle = start()
    battle.refresh_from_db()
    world = World(campaign, umpire, *players.values(), battle, auction, voyage, encounter, walking)
    world.ids = {
        "slug": campaign.slug,
        "captain_id": found["alice"].pk,
        "ship_id": dart.pk,
        "battle_id": battle.pk,
        "auction_id": auction.pk,
        "voyage_id": voyage.pk,
        "encounter_id": encounter.pk,
        "trek_id": walking.pk,
        # query parameters naming objects
        "ship": dart.pk,
    }
    return world
