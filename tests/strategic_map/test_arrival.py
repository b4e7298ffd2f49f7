"""Arrival at a friendly city (strategic_map.arrival.voyage_arrive): the voyage ends, the ship is in port, prizes in
tow go to auction, the crew's experience is checked once, steam ships coal, and the yard can repair her."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign import economy, ledger, yard
from campaign import yard_selectors as sel
from campaign.models import (
    Auction,
    AuctionStatus,
    CampaignShip,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    EntryKind,
    LedgerEntry,
    LotKind,
    ShipStatus,
    VoyageExperience,
)
from galleons import catalog
from galleons import design as sg_design
from galleons.record import ShipRecord, ship_record_from_class
from strategic_map import arrival
from strategic_map.models import Voyage, VoyageStatus
from tests.strategic_map import arrival_fixtures
from tests.strategic_map.arrival_fixtures import SEA, fates

pytestmark = pytest.mark.django_db

table = arrival_fixtures.table
fight = arrival_fixtures.fight

PIRATE = ("Pirate Ship", "clearsight", "Black Wing", "Trained")
PRIZE_IN_TOW = ("Prize Ship in Tow", "warm_winds", "Golden Dawn", "")
MERCHANT = ("Enemy Merchantman", "warm_winds", "Golden Dawn", "Green")


@pytest.mark.rule("SGC-MONEY-08", "SGC-EXP-01")
def test_home_from_a_fight_the_prize_to_the_auction_room_experience_once_then_repaired_at_parhoon(fight, table):
    # Seed arrival_fixtures.BOARDING: the Gull boards the prize the pirate towed, sends the pirate down, and is
    # knocked about doing it.
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed=arrival_fixtures.BOARDING)
    assert fates(encounter) == {"Black Wing": "crashed", "Golden Dawn": "captured", "Gull": "fighting"}, (
        "the engine changed: pick a seed where the Gull boards the Golden Dawn"
    )
    losses = table.voyage.losses
    assert ShipRecord.from_json(table.gull.record).hull_hits > 0

    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=5)
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=6)  # the tick run twice: nothing more
    table.refresh()

    assert (table.voyage.status, table.voyage.end_city, table.voyage.ended_day) == (VoyageStatus.ARRIVED, "Parhoon", 5)
    assert (table.gull.status, table.gull.city) == (ShipStatus.IN_PORT, "parhoon")
    assert (table.jack.status, table.jack.city, table.jack.voyages) == (CaptainStatus.ASHORE, "parhoon", 1)

    # The prize cast off and in the auction room, the crown's reserve half her price; her cargo its own lot.
    prize = CampaignShip.objects.get(status=ShipStatus.PRIZE)
    assert (prize.name, prize.towed_by_id, prize.city) == ("Golden Dawn", None, "parhoon")
    lots = {(a.ship.name, a.lot): a for a in Auction.objects.select_related("ship")}
    assert set(lots) == {("Golden Dawn", LotKind.SHIP), ("Golden Dawn", LotKind.CARGO)}
    assert lots["Golden Dawn", LotKind.SHIP].reserve == economy.crown_price(112_600) == 56_300
    assert lots["Golden Dawn", LotKind.CARGO].cargo_tons == 390
    assert all(a.status == AuctionStatus.OPEN and a.captor_id == table.jack.pk for a in lots.values())  # Drake may bid

    # The experience check, once, with the prize and the voyage's losses.
    check = VoyageExperience.objects.get(ship=table.gull)
    assert (check.voyage_key, check.prize, check.losses) == (table.voyage.key, True, losses)
    assert ChronicleEntry.objects.filter(kind=ChronicleKind.VOYAGE_ENDED).count() == 1
    homecoming = ChronicleEntry.objects.get(kind=ChronicleKind.VOYAGE_ENDED).text
    assert "with a prize in tow" in homecoming
    assert "Parhoon" not in homecoming  # where she put in is for the prize court's notice, not this line

    # In port at Parhoon, her captain ashore: the yard repairs her.
    bill = sel.repair_bill(table.gull)
    assert "hull" in {line.key for line in bill.lines}
    yard.ship_repair(ship_id=table.gull.pk, user=table.alice, lines=["hull"], idempotency_key="after-the-fight")
    table.gull.refresh_from_db()
    assert ShipRecord.from_json(table.gull.record).hull_hits == 0
    assert LedgerEntry.objects.filter(captain=table.jack, kind=EntryKind.REPAIR).count() == 1
    ledger.check(table.jack)
    ledger.check(table.drake)


@pytest.mark.rule("SGC-MONEY-08", "SGC-MONEY-05")
def test_alone_in_the_campaign_the_crown_buys_the_prize_brought_home_and_pays_the_captain_his_tenth(fight, table):
    table.drake.status = CaptainStatus.LOST  # no rival bidder: the crown buys at once
    table.drake.save(update_fields=["status"])
    fight([MERCHANT], result="Enemy Merchantman", surrender="oenotrians", enemy_side="oenotrians")
    before = table.jack.balance

    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="parhoon", day=4)
    table.refresh()

    prize = CampaignShip.objects.get(name="Golden Dawn")
    assert prize.status == ShipStatus.CROWN
    shares = LedgerEntry.objects.filter(captain=table.jack, kind__in=[EntryKind.PRIZE_SHARE, EntryKind.CARGO_SHARE])
    assert {e.kind for e in shares} == {EntryKind.PRIZE_SHARE, EntryKind.CARGO_SHARE}
    assert table.jack.balance == before + sum(e.amount for e in shares)
    assert LedgerEntry.objects.get(captain=table.jack, kind=EntryKind.PRIZE_SHARE).amount == 5_630
    ledger.check(table.jack)


def test_a_voyage_without_a_prize_ends_with_the_check_and_no_auction(table):
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Meepsoor", day=3)
    table.refresh()

    assert (table.gull.status, table.gull.city, table.jack.city) == (ShipStatus.IN_PORT, "meepsoor", "meepsoor")
    assert not Auction.objects.exists()
    check = VoyageExperience.objects.get(ship=table.gull)
    assert (check.prize, check.losses) == (False, 0)
    assert "with no prize" in ChronicleEntry.objects.get(kind=ChronicleKind.VOYAGE_ENDED).text


def test_only_a_friendly_city_ends_a_voyage(table):
    for city in ("Shastapsh", "Crocea", "Atlantis"):
        with pytest.raises(ValidationError):
            arrival.voyage_arrive(voyage_id=table.voyage.pk, city=city, day=3)
    table.refresh()
    assert table.voyage.status == VoyageStatus.UNDER_WAY
    assert table.jack.voyages == 0
    with pytest.raises(ValidationError):
        arrival.voyage_arrive(voyage_id=999_999, city="Parhoon", day=3)


def test_a_ship_still_in_battle_does_not_put_in(table):
    CampaignShip.objects.filter(pk=table.gull.pk).update(status=ShipStatus.IN_BATTLE)
    with pytest.raises(ValidationError, match="in battle"):
        arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=3)
    table.refresh()
    assert (table.voyage.status, table.gull.status) == (VoyageStatus.UNDER_WAY, ShipStatus.IN_BATTLE)


def test_a_captain_with_another_ship_still_at_sea_stays_at_sea(table):
    other = _ship(table, "bloodrunner", "Kestrel", status=ShipStatus.AT_SEA, city="")
    Voyage.objects.create(
        campaign=table.campaign, captain=table.jack, ship=other, start_city="parhoon", started_day=1, q=SEA[0], r=SEA[1]
    )

    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=3)
    table.refresh()

    assert table.gull.status == ShipStatus.IN_PORT
    assert (table.jack.status, table.jack.voyages) == (CaptainStatus.AT_SEA, 1)


def test_a_steam_ship_coals_to_her_endurance_in_port(table):
    steamer = _ship(table, "ranger", "Vulcan", status=ShipStatus.AT_SEA, city="", coal_days=1)
    voyage = Voyage.objects.create(
        campaign=table.campaign, captain=table.jack, ship=steamer, start_city="parhoon", started_day=1, q=0, r=0
    )
    endurance = sg_design.rate_design(sg_design.design_from_catalog(catalog.ship_class("ranger"))).endurance_days
    assert endurance is not None
    assert endurance > 1

    arrival.voyage_arrive(voyage_id=voyage.pk, city="Parhoon", day=3)

    steamer.refresh_from_db()
    assert steamer.coal_days == endurance
    table.gull.refresh_from_db()
    assert table.gull.coal_days is None  # a kite burns no coal


def _ship(table, class_id: str, name: str, **fields) -> CampaignShip:
    """A ship of the class already Jack's (as tests/campaign/test_yard.py makes them)."""
    record = ship_record_from_class(class_id, name=name, crew_quality="green")
    ship_class = catalog.ship_class(class_id)
    rating = sg_design.rate_design(sg_design.design_from_catalog(ship_class))
    return CampaignShip.objects.create(
        campaign=table.campaign,
        captain=table.jack,
        name=name,
        class_id=class_id,
        record=record.to_json(),
        original_price=ship_class.price or 0,
        hull_price=sel.hull_price(rating),
        crew_quality=record.crew_quality,
        original_crew=record.men_alive,
        **fields,
    )
