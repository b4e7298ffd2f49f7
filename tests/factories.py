"""factory_boy factories shared by the test suites."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign, Invitation, Membership, Role

DEFAULT_PASSWORD = "correct-horse-battery-1889"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"captain{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: f"Captain {user.username.title()}")
    password = factory.django.Password(DEFAULT_PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n:03d}")
    slug = factory.Sequence(lambda n: f"campaign-{n:03d}")
    description = "Privateers out of Parhoon."
    created_by = factory.SubFactory(UserFactory)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.PLAYER


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invitation

    campaign = factory.SubFactory(CampaignFactory)
    created_by = factory.SelfAttribute("campaign.created_by")
    role = Role.PLAYER
    max_uses = 1
    uses = 0
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))
