"""campaign.locks: the one lock order for a campaign's rows (campaign, auctions, captains, ships), kept by every
service. The PostgreSQL race that proves it is tests/infra/test_lock_order.py."""

import re
from pathlib import Path

import pytest
from django.db import transaction

from campaign import captains, locks
from campaign.models import Captain, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

PROJECT = Path(__file__).resolve().parents[2]
ORDERED = ("Campaign", "Captain", "Auction", "CampaignShip")


@pytest.mark.django_db
def test_captains_auctions_and_ships_are_locked_only_after_their_campaign():
    campaign = CampaignFactory()
    with transaction.atomic():
        with pytest.raises(AssertionError, match="lock the campaign row first"):
            locks.captains(campaign, [1])
        with pytest.raises(AssertionError, match="lock the campaign row first"):
            locks.ships(campaign, [1])
        with pytest.raises(AssertionError, match="lock the campaign row first"):
            locks.auctions(campaign, [1])


@pytest.mark.django_db
def test_only_the_locked_campaigns_own_rows_are_locked():
    here, there = CampaignFactory(), CampaignFactory()
    found = []
    for campaign in (here, there):
        player = UserFactory()
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        found.append(captains.captain_found(campaign=campaign, user=player, name="Jack"))
    with transaction.atomic():
        locked = locks.campaign(here.pk)
        mine = locks.captains(locked, [c.pk for c in found])
    assert list(mine) == [found[0].pk]
    assert mine[found[0].pk].campaign is locked
    assert isinstance(mine[found[0].pk], Captain)


def test_no_service_locks_a_campaign_captain_auction_or_ship_row_but_through_campaign_locks():
    # One place states the order; a select_for_update of these models anywhere else could take them out of it.
    pattern = re.compile(
        r"\b(" + "|".join(ORDERED) + r")\.objects((\.\w+\([^()]*(\([^()]*\))?[^()]*\))*)\.select_for_update"
    )
    offenders = []
    for folder in ("accounts", "battles", "campaign", "strategic_map"):
        for path in (PROJECT / folder).rglob("*.py"):
            if path == PROJECT / "campaign" / "locks.py" or "migrations" in path.parts:
                continue
            flat = re.sub(r"\s*([.()])\s*", r"\1", re.sub(r"\s+", " ", path.read_text()))
            offenders += [f"{path.relative_to(PROJECT)}: {m.group(1)}" for m in pattern.finditer(flat)]
    assert offenders == []


def test_no_lock_reaches_a_joined_row_unasked():
    # select_for_update() without of= locks every row select_related joins in: a notification's lock would take
    # its campaign's row (FOR UPDATE, and for as long as the e-mail takes to send), after the notification's.
    chain = re.compile(r"[\w.]+\.objects(?:\.\w+\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))+")
    offenders = []
    for folder in ("accounts", "battles", "campaign", "strategic_map"):
        for path in (PROJECT / folder).rglob("*.py"):
            flat = re.sub(r"\s*([.()])\s*", r"\1", re.sub(r"\s+", " ", path.read_text()))
            for found in chain.finditer(flat):
                calls = found.group(0)
                lock = re.search(r"\.select_for_update\(([^()]*(?:\([^()]*\))?[^()]*)\)", calls)
                if lock and ".select_related(" in calls and "of=" not in lock.group(1):
                    offenders.append(f"{path.relative_to(PROJECT)}: {calls[:100]}")
    assert offenders == []
