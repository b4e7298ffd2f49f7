"""A campaign at sea for the arrival and battle-result tests: an umpire, Alice's Captain Jack in his Parhoon-built
Swiftwood the Gull (bought through the yard, paid from the advance), Bob's Captain Drake ashore (a rival bidder,
so a prize goes to a real auction), a voyage under way, and encounters fought as real battles (battles.services,
the AI deciding, Celery eager)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from battles import services
from battles.models import Battle, BattleMode, BattleShip
from battles.services import SideControl
from campaign import captains, yard
from campaign.models import Campaign, CampaignShip, Captain, CaptainStatus, Role, ShipStatus
from galleons.record import ship_record_from_class
from strategic_map.models import Encounter, EncounterShip, Voyage
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

# Where the battles are fought: a hex in the Neutral Northeast, never shown to anyone but Jack's player.
SEA = (12, 2)


def scenario(
    enemies: Sequence[tuple[str, str]],
    *,
    enemy_side: str = "pirates",
    player_ai: bool = True,
    in_tow: Sequence[tuple[str, str]] = (),
) -> dict:
    """A scenario document: the Gull (and any prizes she has in tow, by name and class) against the ships named
    (name, class), on the canal map."""
    return {
        "format": "red-captain/sky-galleons-scenario",
        "version": 1,
        "slug": "encounter-at-sea",
        "title": "An encounter at sea",
        "source": "tests",
        "description": "Captain Jack's Gull meets what the encounter table drew.",
        "map": {"base": "canal"},
        "wind": None,
        "turn_limit": 30,
        "crew_quality": "trained",
        "setup": {"kind": "placement", "order": [enemy_side, "british"]},
        "victory": {"kind": "last_flying"},
        "options": {},
        "sides": [
            {
                "id": enemy_side,
                "name": "The ships met",
                "ai": {"never_leave": True},
                "ships": [
                    {"name": name, "class": class_name, "position": [13 + n, 11 + n], "facing": 0, "altitude": "M"}
                    for n, (name, class_name) in enumerate(enemies)
                ],
            },
            {
                "id": "british",
                "name": "Captain Jack",
                "ai": {"never_leave": True} if player_ai else {},
                "ships": [
                    {"name": "Gull", "class": "Swiftwood", "position": [13, 7], "facing": 3, "altitude": "M"},
                    *(
                        {"name": name, "class": class_name, "position": [13, 5 - n], "facing": 3, "altitude": "M"}
                        for n, (name, class_name) in enumerate(in_tow)
                    ),
                ],
            },
        ],
    }


@dataclass
class Table:
    campaign: Campaign
    umpire: Any
    alice: Any
    bob: Any
    jack: Captain
    drake: Captain
    gull: CampaignShip
    voyage: Voyage

    def refresh(self) -> None:
        for obj in (self.jack, self.drake, self.gull, self.voyage):
            obj.refresh_from_db()


@pytest.fixture
def table(db: None) -> Table:
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, recruit_cost_per_man=5, day=2)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    drake = captains.captain_found(campaign=campaign, user=bob, name="Drake")
    gull = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="swiftwood", name="Gull")
    # She sails: the voyage the tick would have been moving.
    gull.status = ShipStatus.AT_SEA
    gull.city = ""
    gull.save(update_fields=["status", "city"])
    jack.refresh_from_db()
    jack.status = CaptainStatus.AT_SEA
    jack.city = ""
    jack.save(update_fields=["status", "city"])
    voyage = Voyage.objects.create(
        campaign=campaign, captain=jack, ship=gull, start_city="parhoon", started_day=1, q=SEA[0], r=SEA[1]
    )
    return Table(campaign, umpire, alice, bob, jack, drake, gull, voyage)


def fixed_seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


@pytest.fixture
def fight(
    table: Table, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Encounter]:
    """Fight an encounter: the ships drawn (EncounterShip rows), a battle opened from a scenario document with the
    Gull linked to Jack's campaign ship, resolved as the services resolve it (Celery eager, on commit). ``seed``
    fixes the battle's dice (as tests/battles does) so the AI's battle comes out the same every run;
    ``surrender`` names a side the umpire controls and surrenders at once (its ships strike their colours)."""

    def run(
        drawn: Sequence[tuple[str, str, str, str]],
        *,
        result: str = "Pirate Ship towing a Prize Ship",
        seed: str | None = None,
        surrender: str | None = None,
        enemy_side: str = "pirates",
        in_tow: Sequence[CampaignShip] = (),
    ) -> Encounter:
        if seed is not None:
            monkeypatch.setattr(services.dice, "new_seed", lambda: fixed_seed(seed))
        encounter = Encounter.objects.create(
            campaign=table.campaign, day=2, q=SEA[0], r=SEA[1], territory="Neutral Northeast", result=result
        )
        encounter.voyages.add(table.voyage)
        for category, class_id, name, quality in drawn:
            EncounterShip.objects.create(
                encounter=encounter, category=category, class_id=class_id, name=name, crew_quality=quality
            )
        classes = {"warm_winds": "Warm Winds", "clearsight": "Clearsight", "swiftwood": "Swiftwood"}
        doc = scenario(
            [(name, classes[class_id]) for _, class_id, name, _ in drawn],
            enemy_side=enemy_side,
            in_tow=[(prize.name, classes[prize.class_id]) for prize in in_tow],
        )
        sides = {surrender: SideControl("umpire")} if surrender else {}
        with django_capture_on_commit_callbacks(execute=True):
            battle = services.battle_create(
                campaign=table.campaign,
                created_by=table.umpire,
                scenario=doc,
                mode=BattleMode.ASYNC if surrender else BattleMode.AUTO,
                sides=sides,
            )
            BattleShip.objects.filter(battle=battle, name="Gull").update(campaign_ship=table.gull)
            for prize in in_tow:
                BattleShip.objects.filter(battle=battle, name=prize.name).update(campaign_ship=prize)
            encounter.battle = battle
            encounter.save(update_fields=["battle"])
            CampaignShip.objects.filter(pk=table.gull.pk).update(status=ShipStatus.IN_BATTLE)
            Captain.objects.filter(pk=table.jack.pk).update(status=CaptainStatus.IN_BATTLE)
        if surrender:
            with django_capture_on_commit_callbacks(execute=True):
                services.battle_leave(battle_id=battle.pk, user=table.umpire, side_key=surrender, how="surrender")
        encounter.refresh_from_db()
        table.refresh()
        return encounter

    return run


def prize_in_tow(table: Table, name: str = "Fair Wind") -> CampaignShip:
    """A Warm Winds Jack took on an earlier day of this voyage, in the Gull's tow."""
    record = ship_record_from_class("warm_winds", name=name, crew_quality="green")
    return CampaignShip.objects.create(
        campaign=table.campaign,
        captain=None,
        name=name,
        class_id="warm_winds",
        record=record.to_json(),
        original_price=112_600,
        original_crew=record.men_alive,
        cargo_tons=390,
        status=ShipStatus.PRIZE,
        city="",
        captured_by=table.jack,
        towed_by=table.gull,
    )


def battle_of(encounter: Encounter) -> Battle:
    assert encounter.battle is not None
    encounter.battle.refresh_from_db()
    return encounter.battle


def fates(encounter: Encounter) -> dict[str, str]:
    return {ship["name"]: ship["fate"] for ship in battle_of(encounter).result.data["ships"]}


# The seed of a fight where the Gull boards and takes the Golden Dawn (a marine detailed to guard her prisoners)
# and sends the Black Wing down, knocked about herself. Issue 18's engine (lob guns on a 6, kites' allowance fixed
# at the roll, simultaneous fire) ended the double capture of "arrival-11"; a search of arrival-0..199 found a
# boarding capture on 57, 90 and 116, never beside a second prize, so the tests take one prize and one wreck.
BOARDING = "arrival-116"
