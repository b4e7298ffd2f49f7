"""A ship's page and record sheet read as the campaign stands: a lost ship says lost (not the last battle's
"Flying") and offers no repair bill; a ship in port says where (campaign/yard_views.py, campaign/yard_api.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.urls import reverse

from campaign import captains, yard
from campaign import yard_selectors as sel
from campaign.models import CampaignShip, Role, ShipStatus
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def gull():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    ship = yard.ship_buy_class(captain_id=jack.pk, user=alice, class_id="swiftwood", name="Gull")
    # Shot about in her last battle: her record says what the battle left her, "flying" among it.
    record = sel.ship_record(ship)
    first, *rest = record.hull_rows
    ship.record = replace(record, hull_rows=(replace(first, hits=1), *rest)).to_json()
    assert ship.record["status"] == "flying"
    ship.save(update_fields=["record"])
    return alice, ship


def _facts(html: str) -> str:
    return " ".join(html.split())


@pytest.mark.rule("SGC-REPAIR-01")
def test_a_lost_ship_reads_lost_and_offers_no_repair_bill(client, gull):
    alice, ship = gull
    CampaignShip.objects.filter(pk=ship.pk).update(status=ShipStatus.LOST, city="")
    client.force_login(alice)

    page = _facts(client.get(reverse("ship_detail", args=[ship.pk])).content.decode())

    assert "<dt>Status</dt><dd>Lost</dd>" in page
    assert "Flying" not in page
    assert "She is lost: no yard will mend her." in page
    assert "Everything Parhoon can do" not in page
    assert 'name="line"' not in page
    data = client.get(reverse("api_ship_detail", args=[ship.pk])).json()
    assert (data["status"], data["bill"], data["sale_price"]) == ("lost", None, None)


def test_a_ship_in_port_reads_in_port_where_she_lies_with_her_bill(client, gull):
    alice, ship = gull
    client.force_login(alice)

    page = _facts(client.get(reverse("ship_detail", args=[ship.pk])).content.decode())

    assert "<dt>Status</dt><dd>In port at Parhoon</dd>" in page
    assert "Flying" not in page
    assert "<dt>Hex</dt>" not in page  # the battle's hex means nothing off the board
    assert "Everything Parhoon can do" in page
