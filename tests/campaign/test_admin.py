"""The umpire's admin: every campaign table is listed and opens; money, dice and the audit are read-only there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import captains, yard
from campaign.models import AuditEntry, LedgerEntry, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

TABLES = (
    "captain",
    "campaignship",
    "ledgerentry",
    "auction",
    "bid",
    "auditentry",
    "chronicleentry",
    "campaignroll",
    "voyageexperience",
    "campaign",
)


@pytest.fixture
def captain():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    gull = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="clearsight", name="Gull")
    yard.voyage_end_experience(ship_id=gull.pk, voyage_key="v1", prize=True, losses=0)
    captains.captain_adjust_money(captain_id=jack.pk, umpire=umpire, amount=100, reason="Found on the quay")
    return jack


@pytest.mark.parametrize("table", TABLES)
def test_every_campaign_table_lists_and_opens_in_the_admin(admin_client, captain, table):
    listing = admin_client.get(reverse(f"admin:campaign_{table}_changelist"))
    assert listing.status_code == 200


def test_the_ledger_and_the_audit_cannot_be_edited_in_the_admin(admin_client, captain):
    entry = LedgerEntry.objects.filter(captain=captain).first()
    audit = AuditEntry.objects.get(captain=captain)
    page = admin_client.get(reverse("admin:campaign_ledgerentry_change", args=[entry.pk]))
    assert page.status_code == 200
    assert 'name="amount"' not in page.content.decode()
    changed = admin_client.post(reverse("admin:campaign_ledgerentry_change", args=[entry.pk]), {"amount": 1})
    assert changed.status_code == 403
    assert (
        admin_client.post(reverse("admin:campaign_auditentry_delete", args=[audit.pk]), {"post": "yes"}).status_code
        == 403
    )
    captain_page = admin_client.get(reverse("admin:campaign_captain_change", args=[captain.pk])).content.decode()
    assert 'name="balance"' not in captain_page  # money moves through the ledger, with a reason
