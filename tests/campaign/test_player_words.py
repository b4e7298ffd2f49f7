"""Names read as their owners wrote them: a class keeps its capitals on the captain's page and in an encounter's
description, and a ship named with its article is not "the The Gull"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import captains, yard
from campaign.models import ChronicleEntry, Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    return alice, captains.captain_found(campaign=campaign, user=alice, name="Jack")


def test_the_captains_page_names_his_ships_classes_as_the_catalog_spells_them(client, alice):
    user, jack = alice
    yard.ship_buy_class(captain_id=jack.pk, user=user, class_id="sky_runner", name="Dart")
    client.force_login(user)

    html = client.get(reverse("captain_detail", args=[jack.pk])).content.decode()

    assert "<td>Sky Runner</td>" in html
    assert ">sky_runner<" not in html


def test_a_ship_named_with_her_article_is_not_the_the(client, alice):
    user, jack = alice
    ship = yard.ship_buy_class(captain_id=jack.pk, user=user, class_id="fleetfoot", name="The Gull")
    client.force_login(user)

    assert ship.name == "Gull"
    html = client.get(reverse("ship_detail", args=[ship.pk])).content.decode()
    assert "The Gull" in html
    assert "the The" not in html.replace("The The", "the The")
    assert "the The Gull" not in ChronicleEntry.objects.get(text__contains="commissions").text


def test_an_encounter_is_described_with_its_capitals():
    from strategic_map.encounter_battle import met_words

    assert met_words("Pirate Ship with Prize Ship in tow") == "a Pirate Ship with Prize Ship in tow"
    assert met_words("Two High Martian Pirates") == "two High Martian Pirates"
    assert met_words("Enemy Merchantman") == "an Enemy Merchantman"
