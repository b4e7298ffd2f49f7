"""The trek page: the party, its weeks, the log of its rolls in words, and the choice of the next hex (a small map of
the neighbourhood, its six hexes clickable) or the shortest way home. Thin: selectors read, services write; another
player's trek answers 404."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from campaign.refusals import refusal_words
from campaign.selectors import membership_for_user
from strategic_map import mapdata, trek_rules, trek_selectors, treks
from strategic_map.models import EpicTrek, TrekStatus

# Centre to corner of a hex on the trek page's small map, in SVG units.
HEX_SIZE = 46.0


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _trek(request: HttpRequest, slug: str, pk: int) -> EpicTrek:
    membership = membership_for_user(user=_user(request), slug=slug)
    trek = trek_selectors.trek_for_user(user=_user(request), trek_id=pk)
    if trek.campaign_id != membership.campaign_id:
        raise Http404("No such trek.")
    return trek


class StepForm(forms.Form):
    q = forms.IntegerField()
    r = forms.IntegerField()


@dataclass(frozen=True)
class DrawnHex:
    """One hex of the neighbourhood map: where it is drawn and what it is."""

    points: str
    x: float
    label_y: float
    terrain_y: float
    codes_y: float
    codes2_y: float
    label: str
    terrain: str
    allegiance: str
    city: str
    neighbour: trek_selectors.Neighbour | None
    here: bool


def _corners(x: float, y: float) -> str:
    return " ".join(
        f"{x + HEX_SIZE * math.cos(math.radians(60 * i)):.1f},{y + HEX_SIZE * math.sin(math.radians(60 * i)):.1f}"
        for i in range(6)
    )


def _neighbourhood(trek: EpicTrek, neighbours: list[trek_selectors.Neighbour]) -> tuple[list[DrawnHex], str]:
    """The party's hex and the two rings around it that are on the map, drawn flat-top around the party; the
    first ring carries the choices."""
    mars = mapdata.mars_map()
    here = Hex(trek.q, trek.r)
    by_hex = {Hex(n.q, n.r): n for n in neighbours}
    cx, cy = hexgrid.to_pixel(here, HEX_SIZE)
    drawn = []
    for step in hexgrid.within(here, 2):
        if not trek_rules.on_map(mars, step):
            continue
        hex_ = mars.hex_at(step.q, step.r)
        px, py = hexgrid.to_pixel(step, HEX_SIZE)
        x, y = px - cx, py - cy
        drawn.append(
            DrawnHex(
                points=_corners(x, y),
                x=round(x, 1),
                label_y=round(y - 18, 1),
                terrain_y=round(y - 4, 1),
                codes_y=round(y + 11, 1),
                codes2_y=round(y + 23, 1),
                label=hex_.label,
                terrain=hex_.terrain,
                allegiance=hex_.allegiance,
                city=hex_.city or "",
                neighbour=by_hex.get(step),
                here=step == here,
            )
        )
    reach = HEX_SIZE * 4.6
    return drawn, f"{-reach:.0f} {-reach:.0f} {2 * reach:.0f} {2 * reach:.0f}"


@login_required
@require_GET
def trek_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    trek = _trek(request, slug, pk)
    mars = mapdata.mars_map()
    under_way = trek.status == TrekStatus.UNDER_WAY
    way_home = trek_rules.way_home(mars, Hex(trek.q, trek.r)) if under_way else None
    neighbours = trek_selectors.trek_neighbours(trek=trek, way_home=way_home) if under_way else []
    drawn, viewbox = _neighbourhood(trek, neighbours) if under_way else ([], "")
    route = [mars.hex_at(step[0], step[1]).label for step in trek.route]
    context = {
        "campaign": trek.campaign,
        "trek": trek,
        "here": mars.hex_at(trek.q, trek.r),
        "here_words": trek_rules.hex_words(mars.hex_at(trek.q, trek.r)),
        "rolls": trek_selectors.trek_rolls(trek=trek),
        "under_way": under_way,
        "next_roll_day": trek_selectors.trek_next_roll_day(trek=trek),
        "may_choose": under_way and trek.captain.player_id == _user(request).pk,
        "way_home": way_home,
        "way_home_labels": [mars.hex_at(h.q, h.r).label for h in way_home.path] if way_home else [],
        "neighbours": neighbours,
        "drawn": drawn,
        "viewbox": viewbox,
        "route": route,
        "table_is_stand_in": mars.epic_trek_table.is_stand_in,
    }
    return render(request, "strategic_map/trek.html", context)


def _back(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Back to the trek page: a redirect, or for HTMX (the clickable map) a client-side one."""
    url = reverse("trek_detail", kwargs={"slug": slug, "pk": pk})
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=200)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
@require_POST
def trek_step_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The player chooses the hex his party walks into next (SGC-TREK-28)."""
    trek = _trek(request, slug, pk)
    form = StepForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of the six hexes around the party.")
        return _back(request, slug, pk)
    step = [form.cleaned_data["q"], form.cleaned_data["r"]]
    try:
        trek = treks.trek_route_set(trek_id=trek.pk, user=_user(request), route=[step])
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        label = mapdata.mars_map().hex_at(step[0], step[1]).label
        messages.success(request, f"The party will walk into {label} next.")
    return _back(request, slug, pk)


@login_required
@require_POST
def trek_home_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The player asks for the shortest way home: it becomes the party's route."""
    trek = _trek(request, slug, pk)
    try:
        trek = treks.trek_route_home(trek_id=trek.pk, user=_user(request))
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        if trek.route:
            messages.success(request, f"The party takes the shortest way home: {len(trek.route)} hexes.")
        else:
            messages.success(request, "The party is in a friendly city already.")
    return _back(request, slug, pk)
