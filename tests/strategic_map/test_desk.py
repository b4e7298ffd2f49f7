"""The umpire's desk (strategic_map.desk, desk_selectors, desk_views): audited services that are the umpire's
alone, the map's stand-in numbers read back through strategic_map.map_rules, and the desk page (the umpire's page to
a player, 404 to a stranger, everything on it, the same queries however many ships)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, BattleSide, BattleStatus, Controller
from campaign import captains, dice, locks
from campaign.models import Auction, AuditEntry, CampaignRoll, CampaignShip, Captain, CaptainStatus, Role, ShipStatus
from strategic_map import calendar, desk, desk_selectors, map_rules, mapdata, trek_rules
from strategic_map.models import (
    CampaignDay,
    CampaignMapRules,
    DayKind,
    Encounter,
    EncounterShip,
    EpicTrek,
    OrderExtension,
    TrekRoll,
    Voyage,
    VoyageDay,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PARHOON = (7, 8)  # 0812, British
SHASTAPSH_HEX = (13, 3)  # 1410


@pytest.fixture
def club():
    umpire = UserFactory(username="umpire")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis", hours_per_day=24, order_deadline_hours=20)
    campaign.next_tick_at = timezone.now() + timedelta(hours=10)
    campaign.save(update_fields=["next_tick_at"])
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    for player in (alice, bob):
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    jack = captains.captain_found(campaign=campaign, user=alice, name="Jack")
    mary = captains.captain_found(campaign=campaign, user=bob, name="Mary")
    return type(
        "Club", (), {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob, "jack": jack, "mary": mary}
    )


def audits(campaign, action):
    return list(AuditEntry.objects.filter(campaign=campaign, action=action))


# --- pause and resume ------------------------------------------------------------------------------------------------


def test_pausing_stops_the_calendar_and_is_audited_with_its_reason(club):
    before = club.campaign.next_tick_at
    desk.campaign_pause(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Christmas")
    club.campaign.refresh_from_db()
    assert club.campaign.paused
    assert calendar.next_tick_at(club.campaign) is None
    assert calendar.order_deadline(club.campaign) is None
    (entry,) = audits(club.campaign, "campaign paused")
    assert entry.reason == "Christmas"
    assert entry.actor == club.umpire
    assert entry.data["before"] == {"paused": False, "next_tick_at": before.isoformat()}
    assert entry.data["after"]["paused"] is True
    # A second pause finds the work done.
    desk.campaign_pause(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Again")
    assert len(audits(club.campaign, "campaign paused")) == 1


def test_resuming_after_the_tick_fell_due_schedules_it_a_campaign_day_from_now(club):
    desk.campaign_pause(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Holiday")
    now = club.campaign.next_tick_at + timedelta(days=3)  # the tick fell due while paused
    campaign = desk.campaign_resume(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Back", now=now)
    assert not campaign.paused
    assert campaign.next_tick_at == now + timedelta(hours=24)
    (entry,) = audits(club.campaign, "campaign resumed")
    assert entry.data["before"]["paused"] is True
    assert entry.data["after"] == {"paused": False, "next_tick_at": (now + timedelta(hours=24)).isoformat()}


def test_resuming_before_the_tick_falls_due_keeps_it(club):
    scheduled = club.campaign.next_tick_at
    desk.campaign_pause(campaign_id=club.campaign.pk, umpire=club.umpire, reason="A moment")
    campaign = desk.campaign_resume(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Done")
    assert campaign.next_tick_at == scheduled


def test_only_the_umpire_pauses_and_a_reason_is_needed(club):
    with pytest.raises(PermissionDenied, match="umpire"):
        desk.campaign_pause(campaign_id=club.campaign.pk, umpire=club.alice, reason="Mutiny")
    with pytest.raises(ValidationError, match="reason"):
        desk.campaign_pause(campaign_id=club.campaign.pk, umpire=club.umpire, reason="   ")
    club.campaign.refresh_from_db()
    assert not club.campaign.paused
    assert not AuditEntry.objects.filter(campaign=club.campaign).exists()


# --- extensions -----------------------------------------------------------------------------------------------------


def test_an_extension_for_one_captain_moves_his_deadline_and_the_tick_not_the_others(club):
    campaign = club.campaign
    scheduled = calendar.order_deadline(campaign)
    until = campaign.next_tick_at + timedelta(hours=2)
    extension = desk.order_extension_grant(
        campaign_id=campaign.pk, umpire=club.umpire, captain_id=club.jack.pk, until=until, reason="At sea himself"
    )
    assert extension.day == campaign.day + 1
    assert calendar.order_deadline(campaign, club.jack) == until
    assert calendar.order_deadline(campaign, club.mary) == scheduled
    assert calendar.next_tick_at(campaign) == until  # the tick waits for the last extension
    (entry,) = audits(campaign, "orders extended")
    assert entry.captain == club.jack
    assert entry.data["who"] == "Captain Jack"
    assert entry.data["before"]["order_deadline"] == scheduled.isoformat()
    assert entry.data["after"]["order_deadline"] == until.isoformat()


def test_an_extension_for_everyone(club):
    campaign = club.campaign
    until = calendar.order_deadline(campaign) + timedelta(hours=1)
    desk.order_extension_grant(campaign_id=campaign.pk, umpire=club.umpire, until=until, reason="Club night moved")
    assert calendar.order_deadline(campaign, club.jack) == until
    assert calendar.order_deadline(campaign, club.mary) == until
    assert audits(campaign, "orders extended")[0].data["who"] == "everyone"


def test_an_extension_is_refused_in_words_when_it_makes_no_sense(club):
    campaign = club.campaign
    deadline = calendar.order_deadline(campaign)
    grant = {"campaign_id": campaign.pk, "umpire": club.umpire, "reason": "Why not"}
    with pytest.raises(ValidationError, match=r"due by .* already"):
        desk.order_extension_grant(**grant, until=deadline - timedelta(minutes=1))
    with pytest.raises(ValidationError, match="future"):
        desk.order_extension_grant(**grant, until=timezone.now() - timedelta(hours=1))
    with pytest.raises(ValidationError, match="30 days at most"):
        desk.order_extension_grant(**grant, until=timezone.now() + timedelta(days=60))
    elsewhere = captains.captain_found(
        campaign=MembershipFactory(user=club.alice, role=Role.PLAYER).campaign, user=club.alice, name="Other"
    )
    with pytest.raises(ValidationError, match="no such captain"):
        desk.order_extension_grant(**grant, captain_id=elsewhere.pk, until=deadline + timedelta(hours=1))
    with pytest.raises(PermissionDenied):
        desk.order_extension_grant(
            campaign_id=campaign.pk, umpire=club.bob, until=deadline + timedelta(hours=1), reason="Please"
        )
    assert not OrderExtension.objects.exists()


# --- the territory numbers ----------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-MAP-03")
def test_british_territory_gets_encounter_numbers_only_from_the_umpire(club):
    campaign = club.campaign
    assert map_rules.territory_numbers(campaign)["British"].move_through is None
    desk.territory_numbers_set(
        campaign_id=campaign.pk,
        umpire=club.umpire,
        territory="British",
        move_through=1,
        patrol=2,
        reason="Raiders off the plateau",
    )
    campaign.refresh_from_db()
    numbers = map_rules.territory_numbers(campaign)
    assert (numbers["British"].move_through, numbers["British"].patrol) == (1, 2)
    assert numbers["Shastapsh"].move_through == mapdata.mars_map().territories["Shastapsh"].move_through
    (entry,) = audits(campaign, "territory numbers set")
    assert entry.data == {
        "before": {"move_through": None, "patrol": None},
        "after": {"move_through": 1, "patrol": 2},
        "territory": "British",
    }


@pytest.mark.rule("SGC-MAP-03")
def test_numbers_set_back_to_the_maps_are_no_edit_and_a_territory_may_lose_its_roll(club):
    campaign = club.campaign
    change = {"campaign_id": campaign.pk, "umpire": club.umpire, "territory": "oenotria", "reason": "Quiet"}
    desk.territory_numbers_set(**change, move_through=None, patrol=None)
    campaign.refresh_from_db()
    assert map_rules.territory_numbers(campaign)["Oenotria"].move_through is None
    reference = mapdata.mars_map().territories["Oenotria"]
    desk.territory_numbers_set(**change, move_through=reference.move_through, patrol=reference.patrol)
    assert CampaignMapRules.objects.get(campaign=campaign).territory_numbers == {}
    assert len(audits(campaign, "territory numbers set")) == 2


@pytest.mark.parametrize(
    ("move_through", "patrol", "words"),
    [
        (0, 3, "move-through number is a die's face, 1 to 6"),
        (2, 7, "patrol number is a die's face, 1 to 6"),
        ("3", 3, "not '3'"),
        (True, 3, "move-through"),
    ],
)
def test_territory_numbers_are_a_dies_faces(club, move_through, patrol, words):
    with pytest.raises(ValidationError, match=words):
        desk.territory_numbers_set(
            campaign_id=club.campaign.pk,
            umpire=club.umpire,
            territory="Astusapes",
            move_through=move_through,
            patrol=patrol,
            reason="Typo",
        )
    assert not AuditEntry.objects.exists()


def test_an_unknown_territory_and_a_player_are_refused(club):
    with pytest.raises(ValidationError, match="not a territory of the map: one of Neutral West"):
        desk.territory_numbers_set(
            campaign_id=club.campaign.pk, umpire=club.umpire, territory="Atlantis", move_through=1, patrol=1, reason="?"
        )
    with pytest.raises(PermissionDenied):
        desk.territory_numbers_set(
            campaign_id=club.campaign.pk, umpire=club.alice, territory="British", move_through=1, patrol=1, reason="!"
        )


# --- the trek table -----------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-TREK-11")
def test_one_cell_of_the_trek_table_is_changed_and_read_back(club):
    campaign = club.campaign
    desk.trek_table_set(
        campaign_id=campaign.pk,
        umpire=club.umpire,
        reason="Hostile hills are deadlier",
        cell=desk.TrekCell(allegiance="hostile", row="hills", die=1, code=" a 3 "),
    )
    campaign.refresh_from_db()
    table = map_rules.trek_table(campaign)
    assert table.result(allegiance="hostile", row="hills", die=1) == "A:3"
    reference = mapdata.mars_map().epic_trek_table
    assert table.result(allegiance="hostile", row="hills", die=2) == reference.result(
        allegiance="hostile", row="hills", die=2
    )
    (entry,) = audits(campaign, "trek table set")
    assert entry.data == {"before": {"hostile hills 1": "P"}, "after": {"hostile hills 1": "A:3"}}


@pytest.mark.rule("SGC-TREK-11", "SGC-TREK-12")
def test_the_whole_trek_table_is_set_and_the_maps_own_again_is_no_edit(club):
    campaign = club.campaign
    reference = {
        allegiance: {row: list(codes) for row, codes in rows.items()}
        for allegiance, rows in mapdata.mars_map().epic_trek_table.table.items()
    }
    harsher = {allegiance: {row: list(codes) for row, codes in rows.items()} for allegiance, rows in reference.items()}
    harsher["friendly"]["city"] = ["F", "F", "F", "P", "P", "l2"]
    harsher["neutral"]["snow"][0] = "L"
    desk.trek_table_set(campaign_id=campaign.pk, umpire=club.umpire, reason="A harder Mars", table=harsher)
    campaign.refresh_from_db()
    table = map_rules.trek_table(campaign)
    assert table.table["friendly"]["city"] == ("F", "F", "F", "P", "P", "L:2")
    assert table.result(allegiance="neutral", row="snow", die=1) == "L"
    (entry,) = audits(campaign, "trek table set")
    assert entry.data["after"] == {"friendly city 4": "P", "friendly city 6": "L:2", "neutral snow 1": "L"}
    desk.trek_table_set(campaign_id=campaign.pk, umpire=club.umpire, reason="Back to the map", table=reference)
    assert CampaignMapRules.objects.get(campaign=campaign).trek_table == {}


@pytest.mark.rule("SGC-TREK-12")
@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("X", "'X' is not a trek table code: P, F, C, L, L:n or A:n"),
        ("L:7", "1 to 6, not 7"),
        ("A:0", "1 to 6, not 0"),
        ("A", "not a trek table code"),
        ("", "not a trek table code"),
        ("P:1", "not a trek table code"),
    ],
)
def test_trek_codes_are_checked_and_refused_in_words(club, code, words):
    with pytest.raises(ValidationError, match=words):
        desk.trek_table_set(
            campaign_id=club.campaign.pk,
            umpire=club.umpire,
            reason="Typo",
            cell=desk.TrekCell(allegiance="neutral", row="clear", die=3, code=code),
        )
    assert not CampaignMapRules.objects.filter(campaign=club.campaign).exclude(trek_table={}).exists()


@pytest.mark.rule("SGC-TREK-12")
def test_the_desk_keeps_the_maps_codes_and_writes_only_codes_the_trek_rules_read():
    reference = mapdata.mars_map().epic_trek_table.table
    for rows in reference.values():
        for codes in rows.values():
            for code in codes:
                assert desk.trek_code(code) == code
    for typed in ("P", "f", "C", "L", "l2", " a : 3 ", "A:6", "L:1"):
        written = desk.trek_code(typed)
        assert str(trek_rules.parse_code(written)) == written


def test_a_whole_table_of_the_wrong_shape_or_with_bad_codes_is_refused_naming_the_cells(club):
    reference = {
        allegiance: {row: list(codes) for row, codes in rows.items()}
        for allegiance, rows in mapdata.mars_map().epic_trek_table.table.items()
    }
    change = {"campaign_id": club.campaign.pk, "umpire": club.umpire, "reason": "Typo"}
    with pytest.raises(ValidationError, match="columns friendly, neutral, hostile"):
        desk.trek_table_set(**change, table={"friendly": reference["friendly"]})
    short = {**reference, "hostile": {**reference["hostile"], "city": ["P"]}}
    with pytest.raises(ValidationError, match="hostile city: six codes"):
        desk.trek_table_set(**change, table=short)
    bad = {**reference, "neutral": {**reference["neutral"], "hills": ["P", "Q", "P", "P", "P", "A:9"]}}
    with pytest.raises(ValidationError) as refused:
        desk.trek_table_set(**change, table=bad)
    assert refused.value.messages == [
        "neutral hills, die 2: 'Q' is not a trek table code: P, F, C, L, L:n or A:n (n from 1 to 6).",
        "neutral hills, die 6: 'A:9': the men lost in every six are 1 to 6, not 9.",
    ]
    with pytest.raises(ValidationError, match="row"):
        desk.trek_table_set(**change, cell=desk.TrekCell(allegiance="neutral", row="jungle", die=1, code="P"))
    with pytest.raises(PermissionDenied):
        desk.trek_table_set(campaign_id=club.campaign.pk, umpire=club.bob, reason="Mine", table=reference)
    assert not AuditEntry.objects.exists()


# --- the desk page ------------------------------------------------------------------------------------------------


def signed_in(client, user):
    client.force_login(user)
    return client


def desk_url(campaign) -> str:
    return reverse("campaign_desk", kwargs={"slug": campaign.slug})


def ship(campaign, captain, name: str) -> CampaignShip:
    return CampaignShip.objects.create(
        campaign=campaign,
        captain=captain,
        name=name,
        record={"name": name},
        original_price=40_000,
        status=ShipStatus.AT_SEA,
    )


def fleet_at_sea(club, count: int) -> None:
    """``count`` voyages under way, each met in an encounter with a battle of three sides, and as many captains
    walking home on epic treks, each his own player's (one Red Captain per player, SGC-START-14)."""
    campaign = club.campaign
    mars = mapdata.mars_map()
    start = Voyage.objects.filter(campaign=campaign).count()
    for index in range(start, start + count):
        player, walking = UserFactory(username=f"sailor{index}"), UserFactory(username=f"walker{index}")
        for member in (player, walking):
            MembershipFactory(campaign=campaign, user=member, role=Role.PLAYER)
        captain = Captain.objects.create(
            campaign=campaign, player=player, name=f"Sailor {index:02d}", status=CaptainStatus.AT_SEA
        )
        here = mars.hexes[40 + index]
        voyage = Voyage.objects.create(
            campaign=campaign,
            captain=captain,
            ship=ship(campaign, captain, f"Ship {index:02d}"),
            start_city="Parhoon",
            started_day=0,
            q=here.q,
            r=here.r,
            plan=[{"kind": "patrol"}] * (index % 3),
        )
        battle = Battle.objects.create(
            campaign=campaign,
            title=f"Battle {index:02d}",
            scenario={},
            ruleset_key="sky_galleons",
            ruleset_version="1",
            seed="00",
            seed_commitment="00",
            initial_state="",
            state="",
            created_by=club.umpire,
            deadline=timezone.now() + timedelta(hours=5 + index),
        )
        BattleSide.objects.create(
            battle=battle, key="red", name="Red Captain", controller=Controller.PLAYER, user=player, order=0
        )
        BattleSide.objects.create(battle=battle, key="pirates", name="Pirates", controller=Controller.AI, order=1)
        BattleSide.objects.create(
            battle=battle, key="clouds", name="Cloud captains", controller=Controller.UMPIRE, order=2
        )
        encounter = Encounter.objects.create(
            campaign=campaign, day=1, q=here.q, r=here.r, territory=here.territory, result="Pirate", battle=battle
        )
        encounter.voyages.add(voyage)
        EncounterShip.objects.create(
            encounter=encounter, category="pirate", class_id="x", name=f"Raider {index:02d}", crew_quality="green"
        )
        walker = Captain.objects.create(
            campaign=campaign, player=walking, name=f"Walker {index:02d}", status=CaptainStatus.TREKKING
        )
        EpicTrek.objects.create(
            campaign=campaign,
            captain=walker,
            cause="crash_landing",
            started_day=1,
            q=here.q,
            r=here.r,
            party_start=10,
            party=8,
            route=[[here.q, here.r + 1]],
        )


@pytest.fixture
def busy_desk(club):
    """Two ships at sea (one without orders), an encounter with its battle, a trek, an auction, an extension."""
    campaign = club.campaign
    fleet_at_sea(club, 2)
    prize = CampaignShip.objects.create(
        campaign=campaign,
        name="Warm Winds",
        record={"name": "Warm Winds"},
        original_price=100_000,
        status=ShipStatus.PRIZE,
        captured_by=club.jack,
    )
    Auction.objects.create(
        campaign=campaign, ship=prize, captor=club.jack, reserve=50_000, closes_at=timezone.now() + timedelta(hours=12)
    )
    desk.order_extension_grant(
        campaign_id=campaign.pk,
        umpire=club.umpire,
        captain_id=club.mary.pk,
        until=campaign.next_tick_at + timedelta(hours=1),
        reason="Mary's player is at the club",
    )
    return club


def test_the_desk_tells_a_player_it_is_the_umpires_answers_a_stranger_404_and_asks_a_visitor_to_sign_in(client, club):
    assert client.get(desk_url(club.campaign)).status_code == 302
    player = signed_in(client, club.alice).get(desk_url(club.campaign))
    assert player.status_code == 403
    assert "The umpire&#x27;s desk is the umpire&#x27;s page" in player.content.decode()
    stranger = UserFactory(username="stranger")
    for slug in (club.campaign.slug, "no-such-campaign"):
        refused = signed_in(client, stranger).get(reverse("campaign_desk", kwargs={"slug": slug}))
        assert refused.status_code == 404
        assert "umpire" not in refused.content.decode().lower()  # nothing says there is a campaign here
    assert signed_in(client, club.umpire).get(desk_url(club.campaign)).status_code == 200


def test_every_desk_form_refuses_a_player_and_a_stranger_and_changes_nothing(client, club):
    stranger = UserFactory(username="stranger")
    for name in (
        "desk_pause",
        "desk_resume",
        "desk_extend",
        "desk_run_day",
        "desk_territory_numbers",
        "desk_trek_cell",
        "desk_trek_table",
    ):
        url = reverse(name, kwargs={"slug": club.campaign.slug})
        assert signed_in(client, club.alice).post(url, {"reason": "Mine now"}).status_code == 403, name
        assert signed_in(client, stranger).post(url, {"reason": "Mine now"}).status_code == 404, name
    assert not AuditEntry.objects.exists()


def test_the_campaign_page_links_the_desk_for_the_umpire_only(client, club):
    page = signed_in(client, club.umpire).get(reverse("campaign_detail", kwargs={"slug": club.campaign.slug}))
    assert desk_url(club.campaign) in page.content.decode()
    page = signed_in(client, club.alice).get(reverse("campaign_detail", kwargs={"slug": club.campaign.slug}))
    assert desk_url(club.campaign) not in page.content.decode()


def test_the_desk_shows_the_calendar_the_fleet_encounters_battles_treks_auctions_and_audit(client, busy_desk):
    club = busy_desk
    page = signed_in(client, club.umpire).get(desk_url(club.campaign)).content.decode()
    campaign = club.campaign
    # The calendar: the day, the next tick (after Mary's extension) and everyone's deadline.
    assert f'data-desk="day">{campaign.day}<' in page
    assert f"{calendar.next_tick_at(campaign):%d %b %Y %H:%M} UTC" in page
    assert f"{calendar.order_deadline(campaign):%d %b %Y %H:%M} UTC" in page
    assert "Running" in page
    assert "Captain Mary until" in page
    # Every ship at sea: captain, ship, hex, territory, plan length, orders.
    mars = mapdata.mars_map()
    for voyage in Voyage.objects.filter(campaign=campaign):
        here = mars.hex_at(voyage.q, voyage.r)
        row = page.split(f'data-desk-voyage="{voyage.pk}"')[1].split("</tr>")[0]
        assert voyage.ship.name in row
        assert f"Captain {voyage.captain.name}" in row
        assert here.label in row
        assert here.territory in row
        assert f'<td class="num">{len(voyage.plan)}</td>' in row
        assert ("In" if voyage.plan else "None") in row
    # The umpire's map beside the table: every captain's ship on it, whoever's they are.
    svg = page.split('class="smap"')[1].split("</svg>")[0]
    for voyage in Voyage.objects.filter(campaign=campaign):
        assert f'data-ship="{voyage.ship_id}"' in svg
    # Open encounters and battles, with the deadline and who controls each side.
    encounter = Encounter.objects.filter(campaign=campaign).first()
    row = page.split(f'data-desk-encounter="{encounter.pk}"')[1].split("</tr>")[0]
    assert "Raider 00" in row
    assert f"{encounter.battle.deadline:%d %b %Y %H:%M} UTC" in row
    assert "Red Captain: Captain Sailor0; Pirates: the AI; Cloud captains: the umpire" in row  # its player by name
    assert f'data-desk-battle="{encounter.battle.pk}"' in page
    # The trek under way, the auction closing, the audit of the extension.
    for trek in EpicTrek.objects.filter(campaign=campaign).select_related("captain__player"):
        row = page.split(f'data-desk-trek="{trek.pk}"')[1].split("</li>")[0]
        assert f"Captain {trek.captain.name}</a>" in row
        assert f"8 of 10 walking from {mars.hex_at(trek.q, trek.r).label}" in row
    assert "Warm Winds" in page
    assert "Mary&#x27;s player is at the club" in page
    deadline, until = calendar.scheduled_deadline(campaign), calendar.order_deadline(campaign, club.mary)
    assert f"order deadline: {deadline:%d %b %Y %H:%M} → {until:%d %b %Y %H:%M}" in page
    assert "who: Captain Mary" in page
    # The map rules with their stand-in labels.
    assert "designed stand-in" in page
    assert 'data-desk-territory="British"' in page
    assert 'name="trek-hostile-hills-1" value="P"' in page


def test_the_desk_shows_the_campaigns_dice_newest_first_and_only_the_last_ones(client, club):
    with transaction.atomic():
        campaign = locks.campaign(club.campaign.pk)
        dice.roll(campaign, "an encounter for the Gull", captain=club.jack)
        dice.roll_many(campaign, [(f"a cargo's price {n}", 6, None) for n in range(desk_selectors.DICE_ROWS)])
    newest = CampaignRoll.objects.filter(campaign=club.campaign).order_by("-seq").first()

    page = signed_in(client, club.umpire).get(desk_url(club.campaign)).content.decode()

    shown = [int(seq) for seq in re.findall(r'data-desk-roll="(\d+)"', page)]
    assert shown == list(range(desk_selectors.DICE_ROWS + 1, 1, -1))  # the first roll is older than the last 50
    row = page.split(f'data-desk-roll="{newest.seq}"')[1].split("</tr>")[0]
    assert f"a cargo&#x27;s price {desk_selectors.DICE_ROWS - 1}" in row
    assert f"<td>{newest.result}</td>" in row
    assert "an encounter for the Gull" not in page


def test_a_finished_battle_and_a_resolved_encounter_leave_the_desk(client, busy_desk):
    club = busy_desk
    encounter = Encounter.objects.filter(campaign=club.campaign).first()
    Encounter.objects.filter(pk=encounter.pk).update(status="resolved")
    Battle.objects.filter(pk=encounter.battle_id).update(status=BattleStatus.FINISHED, finished_at=timezone.now())
    page = signed_in(client, club.umpire).get(desk_url(club.campaign)).content.decode()
    assert f'data-desk-encounter="{encounter.pk}"' not in page
    assert f'data-desk-battle="{encounter.battle_id}"' not in page


def test_the_desk_takes_as_many_queries_for_20_ships_at_sea_as_for_2(client, club):
    signed_in(client, club.umpire)
    fleet_at_sea(club, 2)
    client.get(desk_url(club.campaign))  # warm the session and the map
    with CaptureQueriesContext(connection) as few:
        assert client.get(desk_url(club.campaign)).status_code == 200
    fleet_at_sea(club, 18)
    with CaptureQueriesContext(connection) as many:
        page = client.get(desk_url(club.campaign)).content.decode()
    for row in (
        "data-desk-voyage=",
        "data-desk-encounter=",
        "data-desk-battle=",
        "data-desk-clock=",
        "data-desk-trek=",
    ):
        assert page.count(row) == 20, row
    assert len(many.captured_queries) == len(few.captured_queries)


# --- the desk's forms -------------------------------------------------------------------------------------------


def test_pause_and_resume_from_the_desk(client, club):
    signed_in(client, club.umpire)
    url = reverse("desk_pause", kwargs={"slug": club.campaign.slug})
    response = client.post(url, {"reason": "Easter"}, follow=True)
    assert "The campaign is paused" in response.content.decode()
    assert "Paused" in response.content.decode()
    club.campaign.refresh_from_db()
    assert club.campaign.paused
    response = client.post(reverse("desk_resume", kwargs={"slug": club.campaign.slug}), {"reason": ""}, follow=True)
    assert "This field is required" in response.content.decode()
    response = client.post(reverse("desk_resume", kwargs={"slug": club.campaign.slug}), {"reason": "Over"}, follow=True)
    assert "The campaign runs again" in response.content.decode()
    assert [entry.action for entry in AuditEntry.objects.filter(campaign=club.campaign)] == [
        "campaign resumed",
        "campaign paused",
    ]


def test_an_extension_from_the_desk_for_one_captain(client, club):
    signed_in(client, club.umpire)
    until = (club.campaign.next_tick_at + timedelta(hours=3)).replace(second=0, microsecond=0)
    response = client.post(
        reverse("desk_extend", kwargs={"slug": club.campaign.slug}),
        {"captain": club.jack.pk, "until": f"{until:%Y-%m-%dT%H:%M}", "reason": "Flu"},
        follow=True,
    )
    assert f"Captain Jack may send orders for day 1 until {until:%d %b %Y %H:%M} UTC." in response.content.decode()
    assert calendar.order_deadline(club.campaign, club.jack) == until
    response = client.post(
        reverse("desk_extend", kwargs={"slug": club.campaign.slug}),
        {"captain": "", "until": "2001-01-01T00:00", "reason": "Oops"},
        follow=True,
    )
    assert "An extension must run out in the future." in response.content.decode()


def test_territory_numbers_from_the_desk_and_a_bad_number_in_words(client, club):
    signed_in(client, club.umpire)
    url = reverse("desk_territory_numbers", kwargs={"slug": club.campaign.slug})
    response = client.post(url, {"territory": "British", "move_through": "7", "patrol": "", "reason": "x"}, follow=True)
    assert "Moving through: A number is a die&#x27;s face, 1 to 6, or empty for no roll." in response.content.decode()
    response = client.post(
        url, {"territory": "British", "move_through": "1", "patrol": "3", "reason": "Raids"}, follow=True
    )
    assert "British: an encounter on 1 or less moving through, 3 or less patrolling." in response.content.decode()
    club.campaign.refresh_from_db()
    assert map_rules.territory_numbers(club.campaign)["British"].patrol == 3
    assert '<tr data-desk-territory="British">' in response.content.decode()


def test_the_trek_table_from_the_desk_by_cell_and_by_grid(client, club):
    signed_in(client, club.umpire)
    slug = club.campaign.slug
    response = client.post(
        reverse("desk_trek_cell", kwargs={"slug": slug}),
        {"allegiance": "friendly", "row": "grand_canal", "die": "6", "code": "C", "reason": "Canal pirates"},
        follow=True,
    )
    assert "The trek table&#x27;s friendly grand canal row reads C on a 6." in response.content.decode()
    response = client.post(
        reverse("desk_trek_cell", kwargs={"slug": slug}),
        {"allegiance": "friendly", "row": "grand_canal", "die": "6", "code": "Z", "reason": "Typo"},
        follow=True,
    )
    assert "&#x27;Z&#x27; is not a trek table code" in response.content.decode()
    grid = {"reason": "The club's table"}
    for allegiance, rows in mapdata.mars_map().epic_trek_table.table.items():
        for row, codes in rows.items():
            for die, code in enumerate(codes, start=1):
                grid[f"trek-{allegiance}-{row}-{die}"] = code
    grid["trek-hostile-city-1"] = "C"
    response = client.post(reverse("desk_trek_table", kwargs={"slug": slug}), grid, follow=True)
    assert "The trek table is saved." in response.content.decode()
    club.campaign.refresh_from_db()
    table = map_rules.trek_table(club.campaign)
    assert table.result(allegiance="hostile", row="city", die=1) == "C"
    # The grid sends the whole table: the cell changed before is back to the map's.
    assert table.result(allegiance="friendly", row="grand_canal", die=6) == "P"


def test_run_the_day_now_ticks_the_next_day_once_and_is_audited(client, club):
    signed_in(client, club.umpire)
    url = reverse("desk_run_day", kwargs={"slug": club.campaign.slug})
    response = client.post(url, {"day": 1, "reason": "Everyone's orders are in"}, follow=True)
    assert "Day 1 has run." in response.content.decode()
    club.campaign.refresh_from_db()
    assert club.campaign.day == 1
    (entry,) = audits(club.campaign, "day run now")
    assert entry.data["before"] == {"day": 0}
    assert entry.data["days_run"] == [1]
    # The same form again (a second click) runs nothing more.
    response = client.post(url, {"day": 1, "reason": "Everyone's orders are in"}, follow=True)
    assert "Day 1 has run already" in response.content.decode()
    club.campaign.refresh_from_db()
    assert club.campaign.day == 1
    assert len(audits(club.campaign, "day run now")) == 1


def test_a_day_already_run_is_not_run_again_and_a_day_ahead_is_refused(club):
    club.campaign.day = 3
    club.campaign.save(update_fields=["day"])
    assert desk.day_run_now(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Resent", day=3) == []
    with pytest.raises(ValidationError, match="The next day to run is day 4, not day 6"):
        desk.day_run_now(campaign_id=club.campaign.pk, umpire=club.umpire, reason="Skip ahead", day=6)
    club.campaign.refresh_from_db()
    assert club.campaign.day == 3
    assert not audits(club.campaign, "day run now")


def test_running_the_day_is_the_umpires_alone(club):
    with pytest.raises(PermissionDenied):
        desk.day_run_now(campaign_id=club.campaign.pk, umpire=club.alice, reason="Hurry up")


# --- the Django admin ---------------------------------------------------------------------------------------------

MAP_TABLES = (
    "voyage",
    "voyageday",
    "campaignday",
    "encounter",
    "encountership",
    "epictrek",
    "trekroll",
    "orderextension",
    "campaignmaprules",
)


@pytest.fixture
def map_rows(busy_desk):
    """One row at least of every issue 7 table."""
    club = busy_desk
    campaign = club.campaign
    voyage = Voyage.objects.filter(campaign=campaign).first()
    trek = EpicTrek.objects.filter(campaign=campaign).first()
    with transaction.atomic():
        die = dice.roll(locks.campaign(campaign.pk), "Encounter die, day 1")
        VoyageDay.objects.create(
            campaign=campaign,
            voyage=voyage,
            day=1,
            kind=DayKind.PATROL,
            from_q=voyage.q,
            from_r=voyage.r,
            to_q=voyage.q,
            to_r=voyage.r,
            territory="Neutral West",
            encounter_number=3,
            encounter_roll=die,
        )
        TrekRoll.objects.create(
            trek=trek,
            seq=1,
            day=1,
            q=trek.q,
            r=trek.r,
            row="hills",
            allegiance="neutral",
            roll=dice.roll(locks.campaign(campaign.pk), "Trek roll"),
            result="P",
            party_after=8,
        )
    CampaignDay.objects.create(campaign=campaign, day=1)
    desk.territory_numbers_set(
        campaign_id=campaign.pk, umpire=club.umpire, territory="British", move_through=1, patrol=1, reason="Raids"
    )
    return club


@pytest.mark.parametrize("table", MAP_TABLES)
def test_every_map_table_lists_and_opens_in_the_admin_and_none_can_be_changed_there(admin_client, map_rows, table):
    listing = admin_client.get(reverse(f"admin:strategic_map_{table}_changelist"))
    assert listing.status_code == 200
    model = apps.get_model("strategic_map", table)
    row = model.objects.first()
    page = admin_client.get(reverse(f"admin:strategic_map_{table}_change", args=[row.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()  # view-only: no save button
    assert admin_client.post(reverse(f"admin:strategic_map_{table}_change", args=[row.pk]), {}).status_code == 403
    assert admin_client.get(reverse(f"admin:strategic_map_{table}_add")).status_code == 403
    deleted = admin_client.post(reverse(f"admin:strategic_map_{table}_delete", args=[row.pk]), {"post": "yes"})
    assert deleted.status_code == 403
    assert model.objects.filter(pk=row.pk).exists()
