"""Ship record sheets: a printable page and a PDF for one ship of a battle, as the user may see her.

Thin: the battle through ``battle_for_user`` (404 outside the user's campaigns), the viewer through
``viewer_for`` (an umpire may ask for a side's view with ``?side=``), the ship through ``ship_for_viewer`` (404
for a ship that side's board does not show), then drawing. A player's own ship comes whole; another side's as
seen, with what that side may not know drawn as unknown.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from accounts.models import User
from battles import engine_io
from battles.drawing.pdf import sheet_pdf
from battles.engine.presentation import RecordSheet
from battles.selectors import battle_for_user, ship_for_viewer, viewer_for


def _user(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Sign in first.")
    return user


def _sheet(request: HttpRequest, battle_id: int, name: str) -> tuple[RecordSheet, dict[str, object]]:
    user = _user(request)
    battle = battle_for_user(user=user, battle_id=battle_id)
    viewer = viewer_for(battle=battle, user=user, side=request.GET.get("side") or None)
    seen = ship_for_viewer(viewer, name)
    sheet = engine_io.rules_of(battle).record_sheet(seen.board, name, start=seen.start, turn=seen.turn)
    if sheet is None:
        raise Http404("No such ship on the board you see.")
    return sheet, {"battle": battle, "viewer": viewer, "turn": seen.turn}


@login_required
@require_GET
def ship_sheet(request: HttpRequest, battle_id: int, name: str) -> HttpResponse:
    """The record sheet as a page of its own, laid out to print."""
    sheet, context = _sheet(request, battle_id, name)
    return render(request, "battles/ship_sheet.html", {**context, "sheet": sheet, "side": request.GET.get("side")})


@login_required
@require_GET
def ship_sheet_pdf(request: HttpRequest, battle_id: int, name: str) -> HttpResponse:
    """The record sheet as a PDF to print."""
    sheet, _ = _sheet(request, battle_id, name)
    response = HttpResponse(sheet_pdf([sheet]), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slugify(name) or "ship"}-record-sheet.pdf"'
    # What a side may see changes as the battle goes on and differs between users: never shared or kept.
    response["Cache-Control"] = "private, no-store"
    return response
