"""The map page: the campaign's strategic map with what the reader may see on it (the fog of war of
``strategic_map.map_selectors``), the hex details on a click, his encounter reports, and the voyage planner
(``static/strategic_map/planner.js``), which talks to the voyages API. Thin: the selector reads, the drawing draws."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from accounts.models import User
from campaign import sailing_repairs
from strategic_map import map_api, map_selectors, mapdata


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@login_required
@require_GET
def map_page(request: HttpRequest, slug: str) -> HttpResponse:
    sight = map_selectors.map_sight(user=_user(request), slug=slug)
    positions = map_api.positions_json(sight)
    context = {
        "campaign": sight.campaign,
        "membership": sight.membership,
        "sight": sight,
        # Built by strategic_map.drawing, which escapes every name it writes.
        "map_svg": mark_safe(map_selectors.map_svg(sight)),
        "map_data": map_api.map_json(sight),
        "positions": positions,
        "reports": positions["encounters"],
        "cities": [city.name for city in mapdata.mars_map().cities],
        # Before he sends a damaged ship out: what Parhoon repairs first, or that no yard is there (SGC-MONEY-07).
        "sailing_repairs": []
        if sight.is_umpire
        else sailing_repairs.before_sailing(sight.ships_in_port, campaign=sight.campaign),
    }
    return render(request, "strategic_map/map.html", context)
