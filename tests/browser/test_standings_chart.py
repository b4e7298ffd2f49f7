"""The standings page's wealth chart in Chromium, at desktop width and on a 390 px phone: every label of the chart
(the pounds up the side, the days along the bottom, the legend's captains) is drawn whole, none cut off by the
chart's edge or the screen's, with eight captains, long names and a fortune in the millions."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.test import Client

from campaign import captains, ledger
from campaign.models import Campaign, EntryKind, Role
from tests.browser.conftest import DESKTOP, SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "chart"
PHONE = {"width": 390, "height": 844}
NAMES = (
    "Bartholomew Featherstonehaugh-Cholmondeley",
    "Jack",
    "Mary Read",
    "Anne Bonny of the Coral Sky",
    "Calico",
    "Ned Low",
    "Henry Every the Arch-Pirate",
    "Kidd",
)


def club() -> Any:
    umpire = UserFactory(username="chart-umpire")
    campaign = CampaignFactory(created_by=umpire, slug=SLUG)
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    for n, name in enumerate(NAMES):
        player = UserFactory(username=f"chart-player{n}")
        MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
        captain = captains.captain_found(campaign=campaign, user=player, name=name)
        for day in range(1, 4):
            Campaign.objects.filter(pk=campaign.pk).update(day=day * 30)
            with transaction.atomic():
                locked = ledger.lock_captain(captain.pk)
                ledger.post(locked, (n + 1) * 150_000 * day, EntryKind.PRIZE_SHARE)
    return umpire


# Each label's box against the chart's and the window's: a label is cut off when it leaves either.
CUT_OFF = """() => {
  const svg = document.querySelector('.wealth-chart');
  const frame = svg.getBoundingClientRect();
  const cut = [];
  for (const el of document.querySelectorAll('.wealth-chart text, .wealth-legend li')) {
    const box = el.getBoundingClientRect();
    const inSvg = el.closest('svg') !== null;
    const left = inSvg ? frame.left : 0, right = inSvg ? frame.right : document.documentElement.clientWidth;
    if (box.left < left - 0.5 || box.right > right + 0.5 || (inSvg && (box.top < frame.top - 0.5 ||
        box.bottom > frame.bottom + 0.5))) {
      cut.push(`${el.textContent.trim()}: ${Math.round(box.left)}..${Math.round(box.right)} ` +
               `in ${Math.round(left)}..${Math.round(right)}`);
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_label_of_the_wealth_chart_is_drawn_whole(chromium, live_server, size):
    umpire = club()
    context = chromium.new_context(viewport=size)
    try:
        client = Client()
        client.force_login(umpire)
        live = urlsplit(live_server.url)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
        page = context.new_page()
        page.route(
            "**/*",
            lambda route: (
                route.continue_()
                if (urlsplit(route.request.url).hostname, urlsplit(route.request.url).port)
                == (live.hostname, live.port)
                else route.abort()
            ),
        )
        page.goto(f"{live_server.url}/campaigns/{SLUG}/standings/")
        chart = page.locator(".wealth-chart")
        chart.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"standings-chart-{size['width']}.png"), full_page=True)
        names = page.locator(".wealth-legend li")
        assert names.count() == len(NAMES)
        for name in NAMES:
            assert page.locator(".wealth-legend li", has_text=name).is_visible()
        assert page.evaluate(CUT_OFF) == []
        # The chart fits the window: nothing of it is off the side of a phone.
        assert (
            page.evaluate("() => document.querySelector('.wealth-chart').getBoundingClientRect().right")
            <= size["width"]
        )
    finally:
        context.close()
