"""Real row locking on PostgreSQL: many spenders racing for one captain's money never overspend it, and money
moving between captains in opposite directions at once never deadlocks (locks in pk order)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections, transaction

from campaign import captains, ledger
from campaign.models import Captain, EntryKind, LedgerEntry, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 16


def race(work, count: int) -> list[str]:
    start = threading.Barrier(count)

    def run(i: int) -> str:
        start.wait()
        try:
            work(i)
            return "paid"
        except ledger.InsufficientFunds:
            return "refused"
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def founded(count: int) -> list[Captain]:
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    found = []
    for i in range(count):
        player = UserFactory(username=f"player{i}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found.append(captains.captain_found(campaign=campaign, user=player, name=f"Captain {i}"))
    return found


def test_spenders_racing_for_one_balance_never_overspend_it():
    (captain,) = founded(1)  # 30,000 in the bank

    def spend(i: int) -> None:
        with transaction.atomic():
            ledger.post(ledger.lock_captain(captain.pk), -7_000, EntryKind.REPAIR, memo=f"yard bill {i}")

    outcomes = race(spend, RACERS)

    assert outcomes.count("paid") == 4  # 4 x 7,000 fits in 30,000; a fifth would not
    captain.refresh_from_db()
    assert captain.balance == 2_000
    assert LedgerEntry.objects.filter(captain=captain, kind=EntryKind.REPAIR).count() == 4
    ledger.check(captain)


def test_money_moving_both_ways_between_captains_at_once_is_never_lost():
    one, two = founded(2)

    def transfer(i: int) -> None:
        payer, payee = (one, two) if i % 2 else (two, one)
        with transaction.atomic():
            locked = ledger.lock_captains([payee.pk, payer.pk])  # pk order whatever the caller asks
            ledger.post(locked[payer.pk], -1_000, EntryKind.ADJUSTMENT, reason="wager lost")
            ledger.post(locked[payee.pk], 1_000, EntryKind.ADJUSTMENT, reason="wager won")

    outcomes = race(transfer, RACERS)

    assert outcomes.count("paid") == RACERS
    one.refresh_from_db()
    two.refresh_from_db()
    assert one.balance + two.balance == 60_000
    assert one.balance == two.balance == 30_000  # as many each way
    ledger.check(one)
    ledger.check(two)
