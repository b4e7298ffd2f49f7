"""Real row locking on PostgreSQL: people racing for the last uses of an invitation link."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import IntegrityError, connection, connections, transaction

from accounts.models import User
from campaign.models import Invitation, Membership, Role
from campaign.services import (
    InvitationClosedError,
    campaign_create,
    invitation_accept,
    invitation_create,
    user_register_with_invitation,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 12


def race(work, count: int) -> list[str]:
    """Run ``work(i)`` in ``count`` threads released at once; each thread's outcome as a word."""
    start = threading.Barrier(count)

    def run(i: int) -> str:
        start.wait()
        try:
            work(i)
            return "joined"
        except InvitationClosedError:
            return "closed"
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def test_registrations_never_exceed_the_uses_of_the_link():
    umpire = User.objects.create_user("umpire", password="x-Parhoon-1889")
    campaign = campaign_create(name="Race for the last berth", created_by=umpire)
    invitation = invitation_create(campaign=campaign, created_by=umpire, max_uses=3)

    outcomes = race(
        lambda i: user_register_with_invitation(
            token=invitation.token, username=f"captain{i}", password="a-long-Martian-password"
        ),
        RACERS,
    )

    assert outcomes.count("joined") == 3
    assert outcomes.count("closed") == RACERS - 3
    invitation.refresh_from_db()
    assert invitation.uses == 3
    assert Membership.objects.filter(campaign=campaign, role=Role.PLAYER).count() == 3
    assert User.objects.filter(username__startswith="captain").count() == 3


def test_signed_in_users_accepting_at_once_consume_one_use_each():
    umpire = User.objects.create_user("umpire", password="x-Parhoon-1889")
    campaign = campaign_create(name="Crowded gangway", created_by=umpire)
    invitation = invitation_create(campaign=campaign, created_by=umpire, max_uses=5)
    users = [User.objects.create_user(f"aeronaut{i}", password="x-Parhoon-1889") for i in range(RACERS)]

    outcomes = race(lambda i: invitation_accept(token=invitation.token, user=users[i]), RACERS)

    assert outcomes.count("joined") == 5
    invitation.refresh_from_db()
    assert invitation.uses == 5
    assert Membership.objects.filter(campaign=campaign).count() == 6  # five players and the umpire


def test_the_database_itself_refuses_more_uses_than_allowed():
    umpire = User.objects.create_user("umpire", password="x-Parhoon-1889")
    campaign = campaign_create(name="Belt and braces", created_by=umpire)
    invitation = invitation_create(campaign=campaign, created_by=umpire, max_uses=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.filter(pk=invitation.pk).update(uses=2)
    assert connection.vendor == "postgresql"
