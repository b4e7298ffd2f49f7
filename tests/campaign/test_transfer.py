"""A campaign exported to its JSON document and imported back is the same campaign: exporting the import gives
the same document (campaign/transfer.py, export_campaign / import_campaign)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

from battles import services as battle_services
from battles.models import Battle, BattleEvent, BattleMode
from campaign import captains, dice, ledger, yard
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
from campaign.transfer import FORMAT, ImportRefused, export_campaign, import_campaign
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy_campaign(django_capture_on_commit_callbacks):
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", auction_hours=12)
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
        dice.roll(campaign, "cargo of the Warm Winds", captain=jack)
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
    """A model added to the campaign or battle apps must be exported too, or left out here on purpose."""
    from django.apps import apps

    from campaign.transfer import TABLES

    exported = {model for _, model, _ in TABLES}
    not_campaign_data = {"ShipClass", "WeaponType"}  # reference tables, loaded from data files
    for app in ("campaign", "battles"):
        for model in apps.get_app_config(app).get_models():
            assert model in exported or model.__name__ in not_campaign_data, f"{model.__name__} is not exported"
