"""The campaign's dice (campaign/dice.py): deterministic from the secret seed, numbered, logged with a purpose."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import transaction

from campaign import dice, locks
from campaign.models import CampaignRoll
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_rolls_are_numbered_logged_and_follow_from_the_seed():
    campaign = CampaignFactory()
    with transaction.atomic():
        first = dice.roll(locks.campaign(campaign.pk), "cargo of the Warm Winds")
        second = dice.roll(locks.campaign(campaign.pk), "experience of the Jackdaw's crew", sides=6)
    assert [r.seq for r in CampaignRoll.objects.filter(campaign=campaign)] == [1, 2]
    assert first.purpose == "cargo of the Warm Winds"
    assert first.result == dice.die_for(campaign.seed, 1, 6)
    assert second.result == dice.die_for(campaign.seed, 2, 6)
    other = CampaignFactory()
    assert other.seed != campaign.seed


def test_the_die_is_fair_enough_over_many_rolls():
    counts = Counter(dice.die_for("ab" * 32, seq, 6) for seq in range(6_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1_150 for n in counts.values())
    assert dice.die_for("ab" * 32, 7, 6) == dice.die_for("ab" * 32, 7, 6)


def test_a_die_is_rolled_only_with_the_campaign_locked_first():
    # campaign.locks' order: a roll that locked the campaign row itself, after other rows, could deadlock.
    campaign = CampaignFactory()
    with transaction.atomic(), pytest.raises(AssertionError, match="locked first"):
        dice.roll(campaign, "cargo of the Warm Winds")
    assert not CampaignRoll.objects.exists()
