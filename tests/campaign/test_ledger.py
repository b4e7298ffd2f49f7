"""Captains and their money (campaign/captains.py, campaign/ledger.py): the advance, the umpire's audited
adjustments, a balance that never goes below nothing, books that always add up."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from campaign import captains, ledger
from campaign.models import AuditEntry, CaptainStatus, ChronicleEntry, EntryKind, LedgerEntry, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob}


@pytest.mark.rule("SGC-START-09", "SGC-START-10", "SGC-START-12", "SGC-START-14")
def test_a_new_captain_starts_ashore_at_parhoon_with_the_advance_in_the_bank(table):
    captain = captains.captain_found(campaign=table["campaign"], user=table["alice"], name="  Jack   Harkness ")

    assert (captain.name, captain.status, captain.city) == ("Jack Harkness", CaptainStatus.ASHORE, "parhoon")
    assert captain.balance == 30_000
    (entry,) = LedgerEntry.objects.filter(captain=captain)
    assert (entry.kind, entry.amount, entry.balance_after) == (EntryKind.ADVANCE, 30_000, 30_000)
    assert captain.advance_owed == 0  # the rules never ask for it back (DESIGN.md section 8)
    assert ChronicleEntry.objects.filter(captain=captain).count() == 1
    second = captains.captain_found(campaign=table["campaign"], user=table["bob"], name="Mary Read")
    assert second.balance == 30_000  # several players, a captain each
    ledger.check_campaign(table["campaign"])


def test_the_umpire_may_make_the_advance_a_loan(table):
    campaign = table["campaign"]
    campaign.advance_is_loan = True
    campaign.save()
    captain = captains.captain_found(campaign=campaign, user=table["alice"], name="Jack")
    assert (captain.balance, captain.advance_owed) == (30_000, 30_000)


def test_only_players_found_captains_and_names_are_unique(table):
    with pytest.raises(PermissionDenied):
        captains.captain_found(campaign=table["campaign"], user=table["umpire"], name="Umpire's pet")
    with pytest.raises(PermissionDenied):
        captains.captain_found(campaign=table["campaign"], user=UserFactory(username="stranger"), name="Stowaway")
    captains.captain_found(campaign=table["campaign"], user=table["alice"], name="Jack")
    with pytest.raises(ValidationError, match="already a Captain Jack"):
        captains.captain_found(campaign=table["campaign"], user=table["bob"], name="Jack")
    with pytest.raises(ValidationError, match="needs a name"):
        captains.captain_found(campaign=table["campaign"], user=table["bob"], name="   ")


def test_the_umpires_adjustment_needs_a_reason_is_audited_and_never_overdraws(table):
    captain = captains.captain_found(campaign=table["campaign"], user=table["alice"], name="Jack")

    captains.captain_adjust_money(captain_id=captain.pk, umpire=table["umpire"], amount=-5_000, reason="Bar bill")

    captain.refresh_from_db()
    assert captain.balance == 25_000
    entry = LedgerEntry.objects.filter(captain=captain).last()
    assert (entry.kind, entry.reason) == (EntryKind.ADJUSTMENT, "Bar bill")
    audit = AuditEntry.objects.get(captain=captain)
    assert (audit.action, audit.reason, audit.data["amount"]) == ("money adjusted", "Bar bill", -5_000)
    with pytest.raises(ValidationError, match="reason"):
        captains.captain_adjust_money(captain_id=captain.pk, umpire=table["umpire"], amount=100, reason="  ")
    with pytest.raises(ValidationError, match="25,000"):
        captains.captain_adjust_money(captain_id=captain.pk, umpire=table["umpire"], amount=-25_001, reason="Fine")
    with pytest.raises(PermissionDenied):
        captains.captain_adjust_money(captain_id=captain.pk, umpire=table["bob"], amount=1_000, reason="Gift")
    captain.refresh_from_db()
    assert captain.balance == 25_000
    ledger.check(captain)


def test_a_status_change_by_the_umpire_is_audited(table):
    captain = captains.captain_found(campaign=table["campaign"], user=table["alice"], name="Jack")
    captains.captain_set_status(
        captain_id=captain.pk, umpire=table["umpire"], status=CaptainStatus.CAPTURED, reason="Taken at Thoth"
    )
    captain.refresh_from_db()
    assert captain.status == CaptainStatus.CAPTURED
    audit = AuditEntry.objects.get(captain=captain, action="status changed")
    assert audit.data["before"]["status"] == CaptainStatus.ASHORE
    with pytest.raises(ValidationError, match="status"):
        captains.captain_set_status(captain_id=captain.pk, umpire=table["umpire"], status="drunk", reason="Shore leave")


def test_the_same_idempotency_key_moves_money_once(table):
    captain = captains.captain_found(campaign=table["campaign"], user=table["alice"], name="Jack")
    with transaction.atomic():
        locked = ledger.lock_captain(captain.pk)
        first = ledger.post(locked, -1_000, EntryKind.REPAIR, idempotency_key="repair-1")
        again = ledger.post(locked, -1_000, EntryKind.REPAIR, idempotency_key="repair-1")
    assert first.pk == again.pk
    captain.refresh_from_db()
    assert captain.balance == 29_000


def test_the_database_refuses_a_negative_balance_even_past_the_service(table):
    captain = captains.captain_found(campaign=table["campaign"], user=table["alice"], name="Jack")
    with pytest.raises(IntegrityError), transaction.atomic():
        type(captain).objects.filter(pk=captain.pk).update(balance=-1)


def test_books_that_do_not_add_up_fail_loudly(table):
    captain = captains.captain_found(campaign=table["campaign"], user=table["alice"], name="Jack")
    LedgerEntry.objects.filter(captain=captain).update(amount=29_999)
    with pytest.raises(ledger.LedgerMismatch, match="sum to 29999"):
        ledger.check(captain)
