"""The Parhoon yard's pages: the yard (the classes Parhoon builds and the design editor with its live rating), and
a ship's page (her record sheet and its PDF, her repair bill, a refit, a sale).

Thin: captain_selectors finds the captain or ship the user may open (404 otherwise), campaign.yard_selectors
reads, campaign.yard writes; a service's refusal comes back to the page in its own words. The captain's own
player orders work; the umpire sees the pages but gives no orders (the services refuse him).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from battles import engine_io
from battles.drawing.pdf import sheet_pdf
from battles.engine import bridge as bridge_words
from battles.engine.presentation import RecordSheet
from battles.engine.ruleset import resolve_options
from campaign import captain_selectors, economy, sailing_repairs, yard
from campaign import yard_selectors as sel
from campaign.correction_views import ShipCorrectForm
from campaign.models import CampaignShip, Captain, ShipStatus
from campaign.refusals import refusal_words
from campaign.selectors import membership_of
from campaign.yard_forms import STARTING_DESIGN, BuyForm, CommissionForm, DesignForm, RefitForm, repair_lines


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


# --- the yard -------------------------------------------------------------------------------------------------


def _quote_context(captain: Captain, form: DesignForm) -> dict[str, Any]:
    """The rating of the design on the form (or the form's own errors), and whether it may be commissioned now:
    Parhoon builds it and the captain's budget pays for it (SGC-START-09)."""
    if not form.is_valid():
        return {"quote": None, "form_errors": form.errors, "can_commission": False}
    quote = sel.design_quote(form.design_json())
    parhoon = quote["parhoon"]
    budget = sel.ship_budget(captain)
    affordable = parhoon is not None and parhoon["price"] <= budget
    return {
        "quote": quote,
        "form_errors": None,
        "budget": budget,
        "affordable": affordable,
        "can_commission": bool(parhoon and parhoon["buildable"] and affordable),
    }


def _yard_page(
    request: HttpRequest, captain: Captain, *, design_form: DesignForm | None = None, status: int = 200
) -> HttpResponse:
    design_form = design_form or DesignForm(data=STARTING_DESIGN)
    away = sel.yard_refusal(captain)
    context = {
        "campaign": captain.campaign,
        "captain": captain,
        # The yard offers its forms only to the captain's player, and only while he is ashore at Parhoon.
        "own": captain.player_id == _user(request).pk and away is None,
        "away": away if captain.player_id == _user(request).pk else None,
        "offers": sel.parhoon_catalog(),
        "budget": sel.ship_budget(captain),
        "design_form": design_form,
        # Unbound (no "required" error while the player is still rating), keeping a name already typed.
        "commission_form": CommissionForm(initial={"ship_name": request.POST.get("ship_name", "")}),
        **_quote_context(captain, design_form),
    }
    return render(request, "campaign/yard.html", context, status=status)


@login_required
@require_GET
def yard_page(request: HttpRequest, pk: int) -> HttpResponse:
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    return _yard_page(request, captain)


@login_required
@require_POST
def yard_buy_view(request: HttpRequest, pk: int) -> HttpResponse:
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    form = BuyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a class and give her a name.")
        return redirect("captain_yard", pk=pk)
    try:
        ship = yard.ship_buy_class(captain_id=captain.pk, user=_user(request), **form.cleaned_data)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
        return redirect("captain_yard", pk=pk)
    messages.success(request, f"The {ship.name} is yours, £{ship.original_price:,} paid to the Parhoon yard.")
    return redirect("ship_detail", pk=ship.pk)


@login_required
@require_POST
def yard_quote_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Rate the design on the editor: the partial for HTMX as the player edits, the whole page without JS."""
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    form = DesignForm(request.POST)
    if _is_htmx(request):
        own = captain.player_id == _user(request).pk and sel.yard_refusal(captain) is None
        context = {"captain": captain, "own": own, **_quote_context(captain, form)}
        return render(request, "campaign/_design_quote.html", context)
    return _yard_page(request, captain, design_form=form)


@login_required
@require_POST
def yard_commission_view(request: HttpRequest, pk: int) -> HttpResponse:
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    form, naming = DesignForm(request.POST), CommissionForm(request.POST)
    if not form.is_valid() or not naming.is_valid():
        messages.error(request, "Finish the design and give her a name before commissioning her.")
        return _yard_page(request, captain, design_form=form, status=400)
    try:
        ship = yard.ship_commission_design(
            captain_id=captain.pk, user=_user(request), design=form.design_json(), name=naming.cleaned_data["ship_name"]
        )
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
        return _yard_page(request, captain, design_form=form, status=400)
    messages.success(request, f"The {ship.name} is commissioned, £{ship.original_price:,} paid to the Parhoon yard.")
    return redirect("ship_detail", pk=ship.pk)


# --- a ship ---------------------------------------------------------------------------------------------------


# The campaign keeps its ships as Sky Galleons records (galleons.record, DESIGN.md 3b): their sheet is that ruleset's,
# whatever rules the campaign fights its battles under (those draw her as she enters their battles: _battle_sheet).
RECORD_RULES = "sky_galleons"


def _status(ship: CampaignShip) -> str:
    """Her status the campaign's (in port, at sea, lost...), not the last battle's "Flying"."""
    where = f" at {ship.city.title()}" if ship.city and ship.status == ShipStatus.IN_PORT else ""
    return f"{ship.get_status_display()}{where}"


def _sheet(ship: CampaignShip) -> RecordSheet:
    """Her sheet drawn against the ship she was built as (whole, every man aboard), so her damage is crossed off;
    her status the campaign's."""
    name = str(ship.record.get("name", ship.name))
    sheet = engine_io.ruleset_for(RECORD_RULES).record_sheet(
        {"ships": [ship.record]}, name, start=sel.whole_record(ship).to_json(), status=_status(ship)
    )
    assert sheet is not None  # the view holds her
    return sheet


def _battle_sheet(ship: CampaignShip) -> tuple[str, RecordSheet] | None:
    """When the campaign's battles are fought under other rules than her record's: the rules' title and her sheet as
    she would enter one of their battles, made as an encounter's ship is (the rules' campaign bridge: converted from
    her record, her damage carried across). None under the record's own rules, or rules that cannot fight a
    campaign's battles."""
    key = ship.campaign.tactical_ruleset
    if key == RECORD_RULES:
        return None
    try:
        bridge = engine_io.campaign_bridge(key)
    except (KeyError, engine_io.NoCampaignBridge):
        return None
    rules = engine_io.ruleset_for(key)
    name = str(ship.record.get("name", ship.name))
    alone = bridge_words.EncounterShip(
        name, bridge_words.RAIDER, (0, 0), 1, record=ship.record, crew_quality=ship.crew_quality
    )
    encounter = bridge_words.Encounter(
        slug=f"ship-{ship.pk}",
        title=name,
        description="",
        sides=(
            bridge_words.EncounterSide("captain", ship.captain.name if ship.captain else name, (alone,), player=True),
            bridge_words.EncounterSide("encountered", "", ()),
        ),
        wind=1,
        distance=1,
    )
    board = rules.setup(bridge.scenario(encounter), resolve_options(rules, ship.campaign.tactical_options)).board
    sheet = rules.record_sheet(rules.board_to_json(board), name, status=_status(ship))
    return (rules.title, sheet) if sheet is not None else None


def _own(request: HttpRequest, ship: CampaignShip) -> bool:
    return ship.captain is not None and ship.captain.player_id == _user(request).pk


def _umpire(request: HttpRequest, ship: CampaignShip) -> bool:
    membership = membership_of(campaign=ship.campaign, user=_user(request))
    return membership is not None and membership.is_umpire


def _gun_choices(ship: CampaignShip) -> list[tuple[str, str]]:
    return [(g.id, f"{g.id}: {g.name} [{g.mount}]") for g in sel.ship_record(ship).guns]


@login_required
@require_GET
def ship_detail(request: HttpRequest, pk: int) -> HttpResponse:
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    # A ship lost, or sold, is past the yard's help: no repair bill to read.
    bill = None if ship.status in sel.GONE_FROM_THE_YARD else sel.repair_bill(ship)
    afloat = ship.status == ShipStatus.IN_PORT
    context = {
        "campaign": ship.campaign,
        "ship": ship,
        "captain": ship.captain,
        "own": _own(request, ship),
        "afloat": afloat,
        "sheet": _sheet(ship),
        "battle_sheet": _battle_sheet(ship),
        # Her prizes in tow (SGC-MONEY-08): hers to bring home, shown nowhere else until they land.
        "in_tow": list(CampaignShip.objects.filter(towed_by=ship, status=ShipStatus.PRIZE).order_by("pk")),
        "bill": bill,
        "sale_price": sel.sale_price(ship, bill) if afloat and bill is not None else None,
        # What voyage_start will repair (and leave) if she sails as she is (SGC-MONEY-03/07, SGC-REPAIR-01).
        "sailing": sailing_repairs.plan_for(
            bill, balance=ship.captain.balance, ship_name=ship.name, at_parhoon=ship.city.casefold() == sel.PARHOON
        )
        if afloat and bill is not None and bill.lines and ship.captain is not None and _own(request, ship)
        else None,
        "refit_form": RefitForm(guns=_gun_choices(ship)),
        "correct_form": ShipCorrectForm(initial={"name": ship.name, "crew_quality": ship.crew_quality})
        if _umpire(request, ship)
        else None,
    }
    return render(request, "campaign/ship.html", context)


@login_required
@require_GET
def ship_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    battle = _battle_sheet(ship)
    sheets = [_sheet(ship), *([battle[1]] if battle else [])]
    response = HttpResponse(sheet_pdf(sheets), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slugify(ship.name) or "ship"}-record-sheet.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


def _chosen_repairs(ship: CampaignShip, lines: list[str]) -> tuple[list[sel.RepairLine], dict[str, int], int]:
    bill = sel.repair_bill(ship)
    chosen = sel.chosen_repairs(bill, lines)
    repairs, recruits = sel.repair_costs(bill, chosen)
    picked = [bill.line(key) for key in chosen]
    return picked, chosen, repairs + recruits


@login_required
@require_POST
def ship_repair_total(request: HttpRequest, pk: int) -> HttpResponse:
    """The total of the lines ticked so far, as the player ticks them (HTMX partial)."""
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    lines = repair_lines(request.POST, sel.repair_bill(ship))
    try:
        _, _, total = _chosen_repairs(ship, lines)
    except ValidationError as error:
        return render(request, "campaign/_repair_total.html", {"error": refusal_words(error)})
    balance = ship.captain.balance if ship.captain is not None else 0
    return render(request, "campaign/_repair_total.html", {"total": total, "balance": balance})


@login_required
@require_POST
def ship_repair_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Two steps: the ticked lines and their total to confirm (SGC-MONEY-07: the captain sees the bill first),
    then the order itself, once (its idempotency key is made with the confirmation)."""
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    if "confirm" in request.POST:
        lines = request.POST.getlist("chosen")
        if not lines:
            # An empty list would be an order for nothing; the page never sends one.
            messages.error(request, "Tick the repairs you want done.")
            return redirect("ship_detail", pk=pk)
        try:
            yard.ship_repair(
                ship_id=ship.pk,
                user=_user(request),
                lines=lines,
                idempotency_key=request.POST.get("idempotency_key", ""),
            )
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, refusal_words(error))
        else:
            messages.success(request, f"Parhoon's yard has done the work on the {ship.name}.")
        return redirect("ship_detail", pk=pk)
    lines = repair_lines(request.POST, sel.repair_bill(ship))
    try:
        picked, chosen, total = _chosen_repairs(ship, lines)
    except ValidationError as error:
        messages.error(request, refusal_words(error))
        return redirect("ship_detail", pk=pk)
    if not chosen:
        messages.error(request, "Tick the repairs you want done.")
        return redirect("ship_detail", pk=pk)
    context = {
        "campaign": ship.campaign,
        "ship": ship,
        "captain": ship.captain,
        "rows": [(line, chosen[line.key], line.unit_price * chosen[line.key]) for line in picked],
        "lines": lines,
        "total": total,
        "idempotency_key": uuid.uuid4().hex,
    }
    return render(request, "campaign/ship_repair_confirm.html", context)


@login_required
@require_POST
def ship_refit_view(request: HttpRequest, pk: int) -> HttpResponse:
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    form = RefitForm(request.POST, guns=_gun_choices(ship))
    if not form.is_valid():
        messages.error(request, "The refit form is not complete: " + "; ".join(str(e) for e in form.errors.values()))
        return redirect("ship_detail", pk=pk)
    try:
        yard.ship_refit(ship_id=ship.pk, user=_user(request), changes=form.changes())
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, f"The {ship.name} is refitted.")
    return redirect("ship_detail", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def ship_sell_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what the yard would pay, to confirm; POST: the sale."""
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    if request.method == "POST":
        try:
            sold = yard.ship_sell(ship_id=ship.pk, user=_user(request))
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, refusal_words(error))
            return redirect("ship_detail", pk=pk)
        messages.success(request, f"The {sold.name} is sold to the Parhoon yard.")
        return redirect("captain_detail", pk=sold.captain_id)
    bill = sel.repair_bill(ship)
    context = {
        "campaign": ship.campaign,
        "ship": ship,
        "captain": ship.captain,
        "own": _own(request, ship),
        "bill": bill,
        "half": economy.crown_price(ship.original_price),
        "price": sel.sale_price(ship, bill),
    }
    return render(request, "campaign/ship_sell.html", context)
