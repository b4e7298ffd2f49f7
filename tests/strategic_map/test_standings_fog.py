"""The standings keep the fog of war (DESIGN.md section 5): what another player sees of a captain is his name and
player, his fortune, the prizes he landed, the weeks of epic trek he survived, and whether he is alive, dead or on
a trek once the chronicle has told it; never where he is, that he sailed, or that he fights a battle that is
private (an encounter's, SGC-ENC-19).

Carol, a third player, reads the standings page, the standings API (leaderboard, wealth, chronicle), the captains
API and the campaign's page before Alice's Captain Jack sails, once he is at sea (the real voyage service), and
once the daily tick (the real one) has made him meet an encounter whose private battle is open: nothing she is
shown of Jack differs. Alice (his player) and the umpire still see that he is in battle."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign import auctions, captains
from campaign.models import Campaign, CampaignShip, Captain, CaptainStatus, ShipStatus
from strategic_map import tick, treks, voyages
from strategic_map.mapdata import mars_map
from strategic_map.models import Voyage
from tests.strategic_map.map_club import Club, map_club
from tests.strategic_map.tick_fleet import HOME, back_and_forth, quiet_seas

pytestmark = pytest.mark.django_db

SLUG = "standing-fog"
# What the captain's own page says of him at sea and in battle: never on anything Carol reads of Jack.
TOLD_ONLY_TO_HIS_OWN = (CaptainStatus.AT_SEA.label, CaptainStatus.IN_BATTLE.label)


@pytest.fixture
def club(settings: Any) -> Club:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    found = map_club(SLUG)
    captains.captain_found(campaign=found.campaign, user=found.carol, name="Anne")
    quiet_seas(found.campaign, 6)  # every die hits: a ship out of British skies meets an encounter on day 1
    Campaign.objects.filter(pk=found.campaign.pk).update(seed="f0" * 32)  # the same encounter every run
    return found


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def carol_sees(club: Club) -> dict[str, Any]:
    """Everything Carol is shown of Captain Jack, field by field (the campaign's day aside, which every member
    sees move)."""
    client = Client()
    client.force_login(club.carol)
    page = client.get(reverse("campaign_standings", args=[SLUG])).content.decode()
    board = page[page.index('<table class="table leaderboard">') : page.index("</table>")]
    rows = {
        name: _text(row)
        for name, row in re.findall(r'<tr><td>\d+</td><th scope="row">([^<]+)</th>(.*?)</tr>', board, re.S)
    }
    chronicle = page[page.index('<ol class="chronicle">') :]
    api = client.get(reverse("api_standings", args=[SLUG])).json()
    detail = client.get(reverse("campaign_detail", args=[SLUG])).content.decode()
    captains_panel = detail[detail.index('id="captains-heading"') :]
    return {
        "page row": rows["Jack"],
        "page rank": list(rows).index("Jack"),
        "page chart": re.findall(r"<title>(Jack: [^<]+)</title>", page),
        "page chronicle": _text(chronicle[: chronicle.index("</ol>")]),
        "api row": next(row for row in api["leaderboard"] if row["name"] == "Jack"),
        "api wealth": api["wealth"].get("Jack"),
        "api chronicle": api["chronicle"],
        "api winner": (api["winner"], api["reason"]),
        "captains api": client.get(reverse("api_captain_list", args=[SLUG])).json(),
        "campaign page captains": _text(captains_panel[: captains_panel.index("</section>")]),
        "said of his whereabouts": [
            word for word in TOLD_ONLY_TO_HIS_OWN for text in (board, repr(api)) if word.lower() in text.lower()
        ],
    }


@pytest.mark.rule("SGC-ENC-19")
def test_carol_sees_nothing_of_jack_change_when_he_sails_and_fights_a_private_battle(
    club, django_capture_on_commit_callbacks
):
    before = carol_sees(club)
    assert before["said of his whereabouts"] == []

    # Alice sends Jack to sea in the Dart through the real service: he is at sea from now.
    voyage, created = voyages.voyage_start(
        captain_id=club.jack.pk, ship_id=club.dart.pk, user=club.alice, plan=[{"kind": "patrol"}]
    )
    assert created
    assert Captain.objects.get(pk=club.jack.pk).status == CaptainStatus.AT_SEA
    assert carol_sees(club) == before, "Carol learns that Jack sailed"

    # Out in the Neutral Northeast (British skies meet no encounters), the tick makes him meet one.
    Voyage.objects.filter(pk=voyage.pk).update(q=HOME.q, r=HOME.r, plan=back_and_forth(HOME, 3))
    with django_capture_on_commit_callbacks(execute=True):
        assert tick.campaign_tick(campaign_id=club.campaign.pk) == [1]
    encounter = voyage.days.get(day=1).encounter
    assert encounter is not None
    battle = encounter.battle
    assert battle is not None
    assert battle.private
    assert Captain.objects.get(pk=club.jack.pk).status == CaptainStatus.IN_BATTLE
    assert carol_sees(club) == before, "Carol learns that Jack is in battle"

    # His own player and the umpire see more.
    for user in (club.alice, club.umpire):
        own = Client()
        own.force_login(user)
        page = own.get(reverse("captain_detail", args=[club.jack.pk])).content.decode()
        assert CaptainStatus.IN_BATTLE.label in page


@pytest.mark.rule("SGC-ENC-19")
def test_carol_is_not_told_that_jack_at_sea_missed_his_orders_but_alice_and_the_umpire_are(
    club, django_capture_on_commit_callbacks
):
    quiet_seas(club.campaign, 0)  # no encounter: the day is only his ship holding her station
    before = carol_sees(club)
    voyage, _ = voyages.voyage_start(
        captain_id=club.jack.pk, ship_id=club.dart.pk, user=club.alice, plan=[{"kind": "patrol"}]
    )
    # Out in the Neutral Northeast with no plan left: the tick finds him without orders for day 1.
    Voyage.objects.filter(pk=voyage.pk).update(q=HOME.q, r=HOME.r, plan=[])
    with django_capture_on_commit_callbacks(execute=True):
        assert tick.campaign_tick(campaign_id=club.campaign.pk) == [1]
    assert voyage.days.get(day=1).kind == "hold"

    assert carol_sees(club) == before, "Carol learns that Jack is at sea"
    for user in (club.alice, club.umpire):
        own = Client()
        own.force_login(user)
        told = [e["text"] for e in own.get(reverse("api_standings", args=[SLUG])).json()["chronicle"]]
        assert any("Captain Jack sent no orders for day 1" in text for text in told), user


@pytest.mark.rule("SGC-TREK-01")
def test_the_standings_say_a_captain_is_on_an_epic_trek_only_once_the_chronicle_has_told_it(club):
    treks.trek_start(captain_id=club.jack.pk, cause="crash_landing", q=HOME.q, r=HOME.r, party=5, day=0)
    seen = carol_sees(club)
    assert seen["api row"]["status"] == "On an epic trek"
    told = [entry["text"] for entry in seen["api chronicle"]]
    assert any("Captain Jack" in text and "epic trek" in text for text in told), told
    # Told without a hex: the party's whereabouts are his own.
    assert not any(mars_map().hex_at(HOME.q, HOME.r).label in text for text in told)


def test_an_umpires_ruling_on_a_captains_fate_is_told_in_the_chronicle_and_his_whereabouts_are_not(club):
    before = carol_sees(club)
    # Where he is, the umpire's to set: nothing for Carol to learn.
    captains.captain_set_status(
        captain_id=club.jack.pk, umpire=club.umpire, status=CaptainStatus.AT_SEA, reason="Sailed on day 0 by post"
    )
    assert carol_sees(club) == before

    captains.captain_set_status(
        captain_id=club.jack.pk, umpire=club.umpire, status=CaptainStatus.CAPTURED, reason="Taken off Syrtis Major"
    )
    seen = carol_sees(club)
    assert seen["api row"]["status"] == "Captive"
    new = seen["api chronicle"][: len(seen["api chronicle"]) - len(before["api chronicle"])]
    assert [entry["text"] for entry in new] == ["Captain Jack is taken captive."]  # not the umpire's reason

    captains.captain_set_status(
        captain_id=club.jack.pk, umpire=club.umpire, status=CaptainStatus.ASHORE, reason="Exchanged", city="parhoon"
    )
    seen = carol_sees(club)
    assert seen["api row"]["status"] == "Alive"
    assert seen["api chronicle"][0]["text"] == "Captain Jack is free again."


@pytest.mark.rule("SGC-MONEY-01", "SGC-MONEY-08")
def test_a_prize_counts_on_the_standings_once_landed_not_while_in_tow_at_sea(club):
    before = carol_sees(club)
    assert before["api row"]["prizes"] == 0
    # Taken in a battle (as strategic_map.arrival writes her): a prize in the Dart's tow, still at sea.
    prize = CampaignShip.objects.create(
        campaign=club.campaign,
        name="Warm Winds",
        class_id="clearsight",
        record=club.dart.record,
        original_price=club.dart.original_price,
        status=ShipStatus.PRIZE,
        captured_by=club.jack,
        towed_by=club.dart,
    )
    assert carol_sees(club) == before, "Carol learns that Jack took a prize at sea"

    CampaignShip.objects.filter(pk=prize.pk).update(towed_by=None)  # cast off at Parhoon (arrival)
    auctions.prize_land(ship_id=prize.pk, city="Parhoon")
    landed = carol_sees(club)
    assert landed["api row"]["prizes"] == 1
    assert any("brings the prize Warm Winds into Parhoon" in e["text"] for e in landed["api chronicle"])
