"""A campaign exported to its JSON document and imported back is the same campaign: exporting the import gives
the same document (campaign_transfer/document.py, export_campaign / import_campaign)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

from battles import services as battle_services
from battles.models import Battle, BattleEvent, BattleMode
from campaign import captains, dice, ledger, locks, yard
from campaign.models import (
    Auction,
    Bid,
    Campaign,
    CampaignShip,
    EntryKind,
    Invitation,
    LedgerEntry,
    Notification,
    Role,
)
from campaign_transfer.document import FORMAT, ImportRefused, export_campaign, import_campaign
from strategic_map import desk
from strategic_map.models import (
    CampaignDay,
    DayKind,
    Encounter,
    EncounterShip,
    EpicTrek,
    TrekRoll,
    Voyage,
    VoyageDay,
)
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy_campaign(django_capture_on_commit_callbacks):
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", auction_days=3)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    InvitationFactory(campaign=campaign, created_by=umpire)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    gull = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="clearsight", name="Gull")
    yard.voyage_end_experience(ship_id=gull.pk, voyage_key="voyage-1", prize=True, losses=3)
    captains.captain_adjust_money(captain_id=mary.pk, umpire=umpire, amount=-1_500, reason="Dock fees")
    prize = CampaignShip.objects.create(
        campaign=campaign,
        name="Warm Winds",
        record={"name": "Warm Winds"},
        original_price=112_600,
        status="prize",
        captured_by=jack,
        cargo_tons=40,
    )
    auction = Auction.objects.create(
        campaign=campaign, ship=prize, captor=jack, reserve=56_300, closes_at=timezone.now() + timedelta(hours=12)
    )
    with transaction.atomic():
        ledger.post(ledger.lock_captain(mary.pk), -28_000, EntryKind.ESCROW_HOLD, auction=auction)
        Bid.objects.create(auction=auction, captain=mary, amount=28_000)
        dice.roll(locks.campaign(campaign.pk), "cargo of the Warm Winds", captain=jack)
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.battle_create(
            campaign=campaign, created_by=umpire, scenario_slug="thieves-fall-out", mode=BattleMode.AUTO, sides={}
        )
    Notification.objects.create(user=alice, campaign=campaign, kind="battle_ended", title="Over", dedupe_key="k")
    return campaign


def test_an_imported_campaign_exports_to_the_same_document(busy_campaign):
    first = export_campaign(busy_campaign)
    assert first["format"] == FORMAT
    assert len(first["tables"]["battle_event"]) == BattleEvent.objects.filter(battle__campaign=busy_campaign).count()
    assert first["tables"]["battle"][0]["seed"]  # the umpire's document keeps every secret
    # Make room beside the original: its invitation link and notifications are unique in a database.
    Invitation.objects.filter(campaign=busy_campaign).delete()
    Notification.objects.filter(campaign=busy_campaign).delete()

    restored = import_campaign(json.loads(json.dumps(first)), slug="syrtis-restored")

    second = export_campaign(restored)
    assert second["tables"]["campaign"][0].pop("slug") == "syrtis-restored"
    assert first["tables"]["campaign"][0].pop("slug") == "syrtis"
    assert second == first
    assert restored.seed == busy_campaign.seed
    assert Battle.objects.filter(campaign=restored).count() == 1
    for captain in restored.captains.all():
        ledger.check(captain)
    assert LedgerEntry.objects.filter(captain__campaign=restored).count() == 5
    assert first["tables"]["voyage_experience"]


def test_the_commands_write_and_read_the_document(busy_campaign, tmp_path):
    path = tmp_path / "syrtis.json"
    call_command("export_campaign", "syrtis", "--output", str(path))
    Invitation.objects.filter(campaign=busy_campaign).delete()
    Notification.objects.filter(campaign=busy_campaign).delete()
    call_command("import_campaign", str(path), "--slug", "syrtis-2")
    assert Campaign.objects.get(slug="syrtis-2").name == busy_campaign.name
    with pytest.raises(CommandError, match="exists"):
        call_command("import_campaign", str(path))
    with pytest.raises(CommandError, match="no campaign"):
        call_command("export_campaign", "atlantis")


def test_a_document_of_another_kind_or_version_is_refused():
    with pytest.raises(ImportRefused, match="not a"):
        import_campaign({"format": "something else"})
    with pytest.raises(ImportRefused, match="version"):
        import_campaign({"format": FORMAT, "version": 99, "tables": {}})


def test_every_campaign_model_is_in_the_document():
    """A model added to the campaign, battle or strategic map apps must be exported too (and the rows of its
    many-to-many fields), or left out here on purpose."""
    from django.apps import apps

    from campaign_transfer.document import TABLES

    exported = {model for _, model, _ in TABLES}
    # Reference tables, loaded from data files.
    not_campaign_data = {"ShipClass", "WeaponType", "Territory", "MapHex", "City"}
    for app in ("campaign", "battles", "strategic_map"):
        for model in apps.get_app_config(app).get_models():
            if model.__name__ in not_campaign_data:
                continue
            assert model in exported, f"{model.__name__} is not exported"
            for field in model._meta.many_to_many:
                assert field.remote_field.through in exported, f"{model.__name__}.{field.name} is not exported"


@pytest.fixture
def campaign_at_sea(busy_campaign):
    """The busy campaign with the strategic map's rows: a voyage with her days, an encounter with its ships, the
    voyages that met it and its battle, a prize in tow, a trek with its rolls, an extension and the map rules."""
    campaign = busy_campaign
    umpire = campaign.memberships.get(role=Role.UMPIRE).user
    jack, mary = campaign.captains.get(name="Jack"), campaign.captains.get(name="Mary")
    gull = CampaignShip.objects.get(campaign=campaign, name="Gull")
    kestrel = CampaignShip.objects.create(
        campaign=campaign, captain=mary, name="Kestrel", record={"name": "Kestrel"}, original_price=40_000
    )
    campaign.next_tick_at = timezone.now() + timedelta(hours=10)
    campaign.save(update_fields=["next_tick_at"])
    first = Voyage.objects.create(
        campaign=campaign,
        captain=jack,
        ship=gull,
        start_city="Parhoon",
        started_day=0,
        q=5,
        r=3,
        plan=[{"kind": "move", "path": [[5, 4], [5, 5]]}, {"kind": "patrol"}],
    )
    second = Voyage.objects.create(
        campaign=campaign, captain=mary, ship=kestrel, start_city="Parhoon", started_day=0, q=5, r=4
    )
    CampaignDay.objects.create(campaign=campaign, day=1, finished_at=timezone.now(), ships_moved=2, encounters=1)
    battle = Battle.objects.get(campaign=campaign)
    Battle.objects.filter(pk=battle.pk).update(private=True)  # an encounter's battle: its sides' and the umpire's
    with transaction.atomic():
        table_roll = dice.roll(locks.campaign(campaign.pk), "Encounter table, day 1", captain=jack)
        encounter = Encounter.objects.create(
            campaign=campaign,
            day=1,
            q=5,
            r=4,
            territory="Neutral West",
            table_roll=table_roll,
            result="Enemy Merchantman",
            battle=battle,
        )
        encounter.voyages.set([second, first])
        EncounterShip.objects.create(
            encounter=encounter,
            category="merchant",
            class_id="clearsight",
            name="Warm Winds",
            crew_quality="green",
            draw_roll=dice.roll(locks.campaign(campaign.pk), "Merchant drawn"),
            campaign_ship=CampaignShip.objects.get(name="Warm Winds"),
        )
        for voyage in (first, second):
            VoyageDay.objects.create(
                campaign=campaign,
                voyage=voyage,
                day=1,
                kind=DayKind.MOVE,
                path=[[5, 4]],
                from_q=5,
                from_r=3,
                to_q=5,
                to_r=4,
                territory="Neutral West",
                encounter_number=1,
                encounter_roll=dice.roll(locks.campaign(campaign.pk), "Encounter die", captain=voyage.captain),
                encounter=encounter,
            )
        trek = EpicTrek.objects.create(
            campaign=campaign,
            captain=mary,
            cause="crash_landing",
            started_day=1,
            q=4,
            r=6,
            party_start=12,
            party=10,
            rolls=2,
            route=[[4, 7]],
            encounter=encounter,
        )
        for seq in (1, 2):
            TrekRoll.objects.create(
                trek=trek,
                seq=seq,
                day=seq,
                q=4,
                r=6,
                row="hills",
                allegiance="neutral",
                roll=dice.roll(locks.campaign(campaign.pk), f"Trek roll {seq}", captain=mary),
                result="A:1",
                losses=1,
                party_after=12 - seq,
            )
    # A prize in tow of a ship listed after her: the import sets the reference once both are in.
    CampaignShip.objects.filter(name="Warm Winds").update(towed_by=kestrel)
    desk.order_extension_grant(
        campaign_id=campaign.pk,
        umpire=umpire,
        captain_id=jack.pk,
        until=timezone.now() + timedelta(hours=30),
        reason="Jack's player is travelling",
    )
    desk.territory_numbers_set(
        campaign_id=campaign.pk, umpire=umpire, territory="British", move_through=1, patrol=1, reason="Raiders"
    )
    desk.trek_table_set(
        campaign_id=campaign.pk,
        umpire=umpire,
        reason="Harsher hills",
        cell=desk.TrekCell(allegiance="neutral", row="hills", die=1, code="A:2"),
    )
    return campaign


def test_a_campaign_at_sea_exports_and_imports_to_the_same_document(campaign_at_sea):
    first = export_campaign(campaign_at_sea)
    tables = first["tables"]
    for label, rows in (
        ("voyage", 2),
        ("voyage_day", 2),
        ("campaign_day", 1),
        ("encounter", 1),
        ("encounter_voyage", 2),
        ("encounter_ship", 1),
        ("epic_trek", 1),
        ("trek_roll", 2),
        ("order_extension", 1),
        ("campaign_map_rules", 1),
    ):
        assert len(tables[label]) == rows, label
    Invitation.objects.filter(campaign=campaign_at_sea).delete()
    Notification.objects.filter(campaign=campaign_at_sea).delete()

    restored = import_campaign(json.loads(json.dumps(first)), slug="syrtis-at-sea")

    second = export_campaign(restored)
    second["tables"]["campaign"][0].pop("slug")
    first["tables"]["campaign"][0].pop("slug")
    assert second == first
    encounter = Encounter.objects.get(campaign=restored)
    assert {voyage.ship.name for voyage in encounter.voyages.all()} == {"Gull", "Kestrel"}
    assert encounter.battle.campaign == restored
    assert [row["private"] for row in first["tables"]["battle"]] == [True]
    assert encounter.battle.private
    assert CampaignShip.objects.get(campaign=restored, name="Warm Winds").towed_by.name == "Kestrel"
    assert restored.map_rules.territory_numbers["British"] == {"move_through": 1, "patrol": 1}
    assert restored.order_extensions.get().captain.name == "Jack"
