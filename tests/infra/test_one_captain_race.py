"""SGC-START-14 under real row locks on PostgreSQL: a player sending "found a captain" many times at once (a double
click, two tabs) gets one captain and one advance; and the database refuses a second living captain by itself."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connections, transaction

from accounts.models import User
from campaign import captains
from campaign.models import Captain, CaptainStatus, LedgerEntry, Role
from campaign.services import campaign_create
from tests.factories import MembershipFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.rule("SGC-START-14")]

RACERS = 8


def test_founding_at_once_gives_one_captain_and_one_advance():
    umpire = User.objects.create_user("umpire", password="x-Parhoon-1889")
    campaign = campaign_create(name="Two tabs open", created_by=umpire)
    bob = User.objects.create_user("bob", password="x-Parhoon-1889")
    MembershipFactory(campaign=campaign, user=bob, role=Role.PLAYER)
    start = threading.Barrier(RACERS)

    def found(i: int) -> str:
        start.wait()
        try:
            captains.captain_found(campaign=campaign, user=bob, name=f"Drummond {i}")
            return "founded"
        except ValidationError:
            return "refused"
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        outcomes = list(pool.map(found, range(RACERS)))

    assert outcomes.count("founded") == 1
    assert Captain.objects.filter(player=bob).count() == 1
    assert LedgerEntry.objects.filter(captain__player=bob, kind="advance").count() == 1


def test_the_database_refuses_a_second_living_captain_but_not_one_after_a_loss():
    umpire = User.objects.create_user("umpire", password="x-Parhoon-1889")
    campaign = campaign_create(name="Belt and braces", created_by=umpire)
    bob = User.objects.create_user("bob", password="x-Parhoon-1889")
    first = Captain.objects.create(campaign=campaign, player=bob, name="Robert Drummond")
    with pytest.raises(IntegrityError), transaction.atomic():
        Captain.objects.create(campaign=campaign, player=bob, name="Hugh Drummond")
    first.status = CaptainStatus.LOST
    first.save(update_fields=["status"])
    Captain.objects.create(campaign=campaign, player=bob, name="Hugh Drummond")
    assert Captain.objects.filter(player=bob).count() == 2
