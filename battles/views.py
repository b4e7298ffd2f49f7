"""Battle pages: the lists, the umpire's new battle, the battle itself with its decision forms, leaving, the
umpire's corrections and the replay.

Thin: parse, call one selector or service, render. Every battle lookup goes through ``battle_for_user``, so a
battle outside the user's campaigns is a 404 whatever the URL; the engine judges every answer, and a refused
one comes back in place with the rule's reason (HTMX swaps a 422 like the campaign forms).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import User
from battles import announcements, changes, decision_forms, engine_io, narration, regions, selectors, services
from battles.decision_forms import DecisionForm, FormError
from battles.engine.presentation import pieces_of
from battles.engine.words import and_list
from battles.forms import BattleCreateForm, CorrectionForm, LeaveForm, PaceForm
from battles.models import Battle, BattleMode, BattleSide
from battles.services import BattleRefused
from campaign.selectors import membership_for_user


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _user(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Sign in first.")
    return user


def _battle(request: HttpRequest, pk: int) -> Battle:
    return selectors.battle_for_user(user=_user(request), battle_id=pk)


# --- lists ---------------------------------------------------------------------------------------------------


@login_required
@require_GET
def my_battles(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    battles = selectors.battles_for_user(user=user).filter(Q(mine=True) | Q(umpired=True))
    rows = selectors.battle_rows(battles=battles, user=user)
    return render(request, "battles/mine.html", {"rows": rows})


@login_required
@require_GET
def campaign_battles(request: HttpRequest, slug: str) -> HttpResponse:
    user = _user(request)
    membership = membership_for_user(user=user, slug=slug)
    battles = selectors.battles_for_user(user=user).filter(campaign=membership.campaign)
    rows = selectors.battle_rows(battles=battles, user=user)
    return render(
        request, "battles/list.html", {"campaign": membership.campaign, "membership": membership, "rows": rows}
    )


# --- the umpire's new battle ----------------------------------------------------------------------------------


def _umpire_membership(request: HttpRequest, slug: str) -> Any:
    membership = membership_for_user(user=_user(request), slug=slug)
    if not membership.is_umpire:
        raise PermissionDenied("Only the umpire starts battles.")
    return membership


@login_required
@require_http_methods(["GET", "POST"])
def battle_new(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _umpire_membership(request, slug)
    campaign = membership.campaign
    if request.method == "POST":
        form = BattleCreateForm(request.POST, campaign=campaign)
        if form.is_valid():
            try:
                battle = services.battle_create(
                    campaign=campaign,
                    created_by=_user(request),
                    **form.scenario_source(),  # the shipped scenario, or with ships the umpire changed
                    title=form.battle_title(),
                    ruleset_key=form.cleaned_data["ruleset"],
                    options=form.options(),
                    mode=form.cleaned_data["mode"],
                    sides=form.sides(),
                    decision_hours=form.cleaned_data["decision_hours"],
                    live_minutes=form.cleaned_data["live_minutes"],
                    deadline_default=form.cleaned_data["deadline_default"],
                )
            except BattleRefused as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(request, f"{battle.title} has begun.")
                return redirect("battle_detail", pk=battle.pk)
        return render(request, "battles/new.html", {"campaign": campaign, "form": form}, status=422)
    form = BattleCreateForm(campaign=campaign, initial=_chosen(request))
    return render(request, "battles/new.html", {"campaign": campaign, "form": form})


def _chosen(request: HttpRequest) -> dict[str, str]:
    return {name: request.GET.get(name, "") for name in ("ruleset", "scenario")}


@login_required
@require_GET
def battle_new_sides(request: HttpRequest, slug: str) -> HttpResponse:
    """HTMX: the fields that depend on the ruleset and scenario chosen: the scenarios, the sides, the options."""
    membership = _umpire_membership(request, slug)
    form = BattleCreateForm(campaign=membership.campaign, initial=_chosen(request))
    return render(request, "battles/_new_ruleset.html", {"campaign": membership.campaign, "form": form})


# --- the battle -----------------------------------------------------------------------------------------------


def _plan(request: HttpRequest) -> list[str] | None:
    """The move being built, from the query: ``plan`` (JSON list) with ``step`` added or ``undo`` taken off."""
    text = request.GET.get("plan")
    if text is None and "step" not in request.GET:
        return None
    try:
        plan = json.loads(text or "[]")
    except ValueError:
        plan = []
    if not isinstance(plan, list):
        plan = []
    plan = [str(t) for t in plan][: decision_forms.MAX_PLAN]
    if request.GET.get("clear"):
        return []
    if request.GET.get("undo"):
        return plan[:-1]
    step = request.GET.get("step")
    return [*plan, step] if step else plan


def _page_context(request: HttpRequest, battle: Battle, forms: list[DecisionForm] | None = None) -> dict[str, Any]:
    user = _user(request)
    viewer = selectors.viewer_for(battle=battle, user=user, side=request.GET.get("as") or None)
    # The change mark first, then the battle read again: what the page shows is never older than its mark (a
    # turn resolved in between would otherwise be marked as seen and never sent).
    mark = changes.change_mark(user=user, battle_id=battle.pk, side=_side_asked(viewer))
    battle.refresh_from_db()
    compose = request.GET.get("compose", "")
    if forms is None:
        forms = selectors.decision_forms_for(viewer, compose=compose, plan=_plan(request))
    state = engine_io.current_state(battle)
    board = engine_io.rules_of(battle).board_view(state, None if viewer.sees_all else viewer.side)
    details = request.GET.get("details") == "1"
    ships = pieces_of(board)  # a board view's "ships" or "pieces", whichever the ruleset keeps
    sides = list(battle.sides.select_related("user"))
    leaving = [s for s in sides if not s.left and services.may_decide_for(battle, s, user)]
    awaited = set(selectors.awaited_sides(battle))
    names = selectors.battle_names(battle, board)
    return {
        **_live_context(viewer, forms, details=details, mark=mark),
        "phase": narration.phase_words(state.phase, names),
        "turn": state.turn,
        "winner_name": names.side(battle.winner) if battle.winner else "",
        "battle": battle,
        "campaign": battle.campaign,
        "viewer": viewer,
        "board": board,
        "ships": ships,
        "sheets": _sheets(ships, selectors.ships_at_start(viewer)),
        # The sheets' board holds the viewer's own answers awaiting the rest of their batch: his orders on his sheets.
        "sheet_board": selectors.sheet_board(viewer),
        "sides": sides,
        "awaited": awaited,
        # "Waiting for the Pirates and the Oenotrians": the awaited sides' names joined in Python, in the battle's
        # order (a template loop joined on every side and left "Waiting for Pirates, ." when the last was not).
        "awaited_words": and_list(
            [*(side.name for side in sides if side.key in awaited), *selectors.umpire_awaited_words(battle, state)]
        ),
        "forms": forms,
        "log": selectors.narrated_log(viewer, details=details),
        "details": details,
        "can_leave": bool(leaving) and not battle.is_finished,
        "leaving_sides": leaving,
        "is_umpire": viewer.is_umpire,
        # A battle on the campaign's clock: when the AI captains take over (empty otherwise, and once over).
        "hand_over": announcements.hand_over_text(battle),
    }


def _sheets(ships: Any, starts: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """Each ship on the board with herself at the start, for the record sheets' crossed-off boxes."""
    return [(ship, starts.get(str(ship.get("name")))) for ship in ships if isinstance(ship, Mapping)]


@login_required
@require_GET
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    return render(request, "battles/detail.html", _page_context(request, battle))


def _decision_fragment(request: HttpRequest, battle: Battle, form: DecisionForm, status: int = 200) -> HttpResponse:
    return render(request, "battles/_decision.html", {"battle": battle, "form": form}, status=status)


def _keep_posted(form: DecisionForm, data: Any) -> None:
    """A refused form comes back as it was filled in."""
    drops = form.move.drops if form.move is not None else []
    for item in [f for top in [*(f for g in form.groups for f in g.fields), *drops] for f in (top, *top.parts)]:
        if item.control in ("number", "text", "json") and item.name in data:
            item.value = str(data[item.name])
        elif item.options and item.name in data:
            chosen = set(data.getlist(item.name))
            item.options = [decision_forms.Option(o.value, o.label, o.value in chosen) for o in item.options]
    form.use_default = bool(data.get("use_default"))


@login_required
@require_http_methods(["GET", "POST"])
def battle_decision(request: HttpRequest, pk: int, request_id: str) -> HttpResponse:
    """GET: the decision's form (a move built a step further with HTMX). POST: answer it."""
    battle = _battle(request, pk)
    user = _user(request)
    viewer = selectors.viewer_for(battle=battle, user=user)
    if request.method == "GET":
        if not _is_htmx(request):
            query = urlencode({**request.GET.dict(), "compose": request_id})
            return redirect(f"{reverse('battle_detail', kwargs={'pk': pk})}?{query}#decision-{request_id}")
        try:
            tries, instead = request.GET.getlist("try"), request.GET.getlist("instead")
            form = _tried(viewer, request_id, _plan(request), tries, instead)
        except Http404:  # answered meanwhile (another tab, the deadline, the umpire): show where the battle stands
            return _answered(request, battle, "That decision is no longer open.")
        return _decision_fragment(request, battle, form)
    data = decision_forms.own_fields(request.POST, request_id)
    # A path's form is built on the posted plan: what it may end with depends on where it ends.
    plan = decision_forms.posted_plan(data) if data.get("form") == "move" else None
    try:
        if data.get("use_default"):
            choice = engine_io.current_state(battle).request(request_id)
            if choice is None:
                raise BattleRefused(f"There is no open decision {request_id!r}.", status=409)
            answer = choice.default
        else:
            try:
                posted_form = selectors.decision_form(viewer, request_id, plan=plan)
            except Http404:  # answered meanwhile: the page says where the battle stands
                return _answered(request, battle, "That decision is no longer open.", error=True)
            answer = decision_forms.choice_from_post(posted_form, data)
        services.battle_submit_decision(
            battle_id=battle.pk,
            user=user,
            request_id=request_id,
            choice=answer,
            idempotency_key=data.get("idempotency_key", ""),
        )
    except (BattleRefused, FormError) as refused:
        try:
            form = selectors.decision_form(viewer, request_id, plan=plan)
        except Http404:  # answered meanwhile, or the battle moved on: the page says where it stands
            return _answered(request, battle, str(getattr(refused, "message", refused)), error=True)
        form.error = str(getattr(refused, "message", refused))
        form.error_clause = getattr(refused, "clause", "")
        _keep_posted(form, data)
        if _is_htmx(request):
            return _decision_fragment(request, battle, form, status=422)
        others = [f for f in selectors.decision_forms_for(viewer) if f.id != request_id]
        return render(request, "battles/detail.html", _page_context(request, battle, [form, *others]), status=422)
    return _answered(request, battle, "")


# --- the orders form: every open decision of the viewer answered at once ---------------------------------------


def _orders_plans(data: Any) -> dict[str, list[str]]:
    """The moves being built on the orders form, by request: each named in ``moves`` as "request:field"."""
    plans = {}
    for entry in data.getlist("moves"):
        request_id, _, name = str(entry).partition(":")
        plan = decision_forms.posted_plan(data, f"{request_id}:{name}")
        if plan is not None:
            plans[request_id] = plan
    return plans


def _step_on(plans: dict[str, list[str]], data: Any) -> bool:
    """A step button of the orders form pressed where no board script runs: that move built a step further
    (``step`` is "request|token"), or a step back, or started again. False: no step button was pressed."""
    if step := data.get("step"):
        request_id, _, token = str(step).partition("|")
        plans[request_id] = [*plans.get(request_id, []), token][: decision_forms.MAX_PLAN]
    elif undo := data.get("undo"):
        plans[undo] = plans.get(undo, [])[:-1]
    elif clear := data.get("clear"):
        plans[clear] = []
    else:
        return False
    return True


def _answers_of(forms: list[DecisionForm], data: Any) -> list[tuple[DecisionForm, Any, str]]:
    """Each form's answer as posted, with its idempotency key; a form that spells none keeps the reason."""
    answers = []
    for form in forms:
        own = decision_forms.own_fields(data, form.id)
        try:
            answer = form.request.default if own.get("use_default") else decision_forms.choice_from_post(form, own)
        except FormError as error:
            form.error = str(error)
            continue
        answers.append((form, answer, own.get("idempotency_key", "")))
    return answers


@login_required
@require_http_methods(["POST"])
def battle_orders(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's one orders form: every open decision it holds answered in one transaction, so a refusal of
    any answer leaves them all open and the form comes back as filled in, with the rule's reason (422). A step
    button pressed where no board script runs builds that move a step further instead."""
    battle = _battle(request, pk)
    user = _user(request)
    data = request.POST
    plans = _orders_plans(data)
    building = _step_on(plans, data)
    forms = selectors.decision_forms_for(selectors.viewer_for(battle=battle, user=user), plans=plans)
    for form in forms:
        _keep_posted(form, decision_forms.own_fields(data, form.id))
    if building:
        return _orders_page(request, battle, forms)
    posted = set(data.getlist("requests"))
    chosen = [form for form in forms if form.id in posted]
    if not posted or len(chosen) < len(posted):
        if posted and selectors.answered_requests(battle, posted) == posted:  # a second click on Send orders
            return _answered(request, battle, "")
        # answered meanwhile (another tab, the deadline, the umpire), or the battle moved on
        return _answered(request, battle, "Those orders are no longer open.", error=True)
    answers = _answers_of(chosen, data)
    if len(answers) == len(chosen):
        try:
            with transaction.atomic():
                for form, answer, key in answers:
                    failed = form
                    services.battle_submit_decision(
                        battle_id=battle.pk, user=user, request_id=form.id, choice=answer, idempotency_key=key
                    )
        except BattleRefused as refused:
            failed.error, failed.error_clause = refused.message, refused.clause
        else:
            return _answered(request, battle, "")
    return _orders_page(request, battle, forms, status=422)


def _orders_page(request: HttpRequest, battle: Battle, forms: list[DecisionForm], status: int = 200) -> HttpResponse:
    """The orders form again (a refusal, or a move built a step further without the board script): the whole
    page, or for the page's own HTMX post the orders region alone, swapped in place (the page is not reloaded)."""
    if not _is_htmx(request):
        return render(request, "battles/detail.html", _page_context(request, battle, forms), status=status)
    page = render_to_string("battles/detail.html", _page_context(request, battle, forms), request=request)
    return HttpResponse(regions.out_of_band(page, (DECISIONS_REGION,)), status=status)


def _tried(
    viewer: Any, request_id: str, plan: list[str] | None, tries: list[str], instead: list[str] | None = None
) -> DecisionForm:
    """The move built on ``plan``, then on as many of the steps ``tries`` (a hex clicked on the board, as the
    board script spells it in steps) as the rules accept one after the other; the first refused stops it. Where
    the rules refuse some of ``tries`` and take the whole of ``instead`` (the same hex spelled another way: a turn
    of two hexsides as one step rather than two), that is the move."""
    form = _stepped(viewer, request_id, plan, tries)
    if form.notice and instead:
        other = _stepped(viewer, request_id, plan, instead)
        if not other.notice:
            return other
    return form


def _stepped(viewer: Any, request_id: str, plan: list[str] | None, tries: list[str]) -> DecisionForm:
    form = selectors.decision_form(viewer, request_id, plan=plan)
    for token in tries[: decision_forms.MAX_PLAN]:
        move = form.move
        if move is None:
            break
        if token not in {step.value for step in move.steps}:
            form.notice = f"The rules do not take {token!r} after {move.plan_words or 'no steps'}"
            break
        form = selectors.decision_form(viewer, request_id, plan=[*move.plan, token])
    return form


def _answered(request: HttpRequest, battle: Battle, message: str, *, error: bool = False) -> HttpResponse:
    if message:
        (messages.error if error else messages.info)(request, message)
    if _is_htmx(request) and not message:  # the page updates itself in place, the answered form gone
        return HttpResponse(_fresh_regions(request, battle))
    if _is_htmx(request):  # a message to show: the page reloads with it
        response = HttpResponse(status=200)
        response["HX-Refresh"] = "true"
        return response
    return redirect("battle_detail", pk=battle.pk)


# --- leaving, corrections -------------------------------------------------------------------------------------


def _leaving_sides(battle: Battle, user: User) -> list[BattleSide]:
    return [s for s in battle.sides.all() if not s.left and services.may_decide_for(battle, s, user)]


@login_required
@require_http_methods(["GET", "POST"])
def battle_leave(request: HttpRequest, pk: int) -> HttpResponse:
    """Concede, surrender or withdraw, after a confirmation."""
    battle = _battle(request, pk)
    user = _user(request)
    sides = _leaving_sides(battle, user)
    if not sides or battle.is_finished:
        raise PermissionDenied("You have no side to take out of this battle.")
    choices = [(s.key, s.name) for s in sides]
    form = LeaveForm(request.POST or None, sides=choices)
    if request.method == "POST" and form.is_valid():
        try:
            side = services.battle_leave(
                battle_id=battle.pk, user=user, side_key=form.cleaned_data["side"], how=form.cleaned_data["how"]
            )
        except BattleRefused as refused:
            form.add_error(None, refused.message)
        else:
            messages.info(request, f"{side.name}: {side.left}.")
            return redirect("battle_detail", pk=battle.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "battles/leave.html", {"battle": battle, "form": form}, status=status)


@login_required
@require_http_methods(["POST"])
def battle_hand_to_ai(request: HttpRequest, pk: int) -> HttpResponse:
    """The player lets the AI captain fight on for his side (auto-resolve)."""
    battle = _battle(request, pk)
    try:
        side = services.battle_hand_to_ai(
            battle_id=battle.pk, user=_user(request), side_key=request.POST.get("side", "")
        )
    except BattleRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.info(request, f"The AI captain fights on for {side.name}.")
    return redirect("battle_detail", pk=battle.pk)


@login_required
@require_http_methods(["GET", "POST"])
def battle_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """The umpire's correction of a wrong entry this turn: pick the decision, give the right answer and why."""
    battle = _battle(request, pk)
    user = _user(request)
    viewer = selectors.viewer_for(battle=battle, user=user)
    if not viewer.is_umpire:
        raise PermissionDenied("Only the umpire corrects a battle.")
    decisions = selectors.correctable_decisions(battle=battle)
    choices = [
        (d.request_id, f"{d.side.name}: {d.kind} ({narration.choice_words(d.kind, d.choice)})") for d in decisions
    ]
    data = request.POST if request.method == "POST" else None
    chosen = (data or request.GET).get("decision") or (choices[0][0] if choices else "")
    form = CorrectionForm(data, decisions=choices, initial={"decision": chosen})
    answer_form = selectors.correction_form(battle=battle, request_id=chosen) if chosen in dict(choices) else None
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            try:
                text = form.cleaned_data["answer_json"]
                if text:
                    answer = json.loads(text)
                elif answer_form is not None:
                    answer = decision_forms.choice_from_post(answer_form, request.POST)
                else:
                    raise FormError("Give the right answer.")
                services.battle_correct_decision(
                    battle_id=battle.pk,
                    user=user,
                    request_id=form.cleaned_data["decision"],
                    choice=answer,
                    reason=form.cleaned_data["reason"],
                )
            except (BattleRefused, FormError) as refused:
                form.add_error(None, str(getattr(refused, "message", refused)))
            else:
                messages.success(request, "Corrected: the battle goes on from that decision with the right answer.")
                return redirect("battle_detail", pk=battle.pk)
    template = (
        "battles/_correct_answer.html" if _is_htmx(request) and request.method == "GET" else "battles/correct.html"
    )
    context = {"battle": battle, "form": form, "answer_form": answer_form, "decisions": decisions}
    return render(request, template, context, status=status)


# --- the replay -----------------------------------------------------------------------------------------------


@login_required
@require_GET
def battle_replay(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    viewer = selectors.viewer_for(battle=battle, user=_user(request))
    try:
        turn = int(request.GET.get("turn", ""))
    except ValueError:
        turn = None
    frame = selectors.replay_frame(viewer, turn)
    index = frame.turns.index(frame.turn)
    context = {
        "battle": battle,
        "frame": frame,
        "board": frame.board,
        "sheets": _sheets(pieces_of(frame.board), selectors.ships_at_start(viewer)),
        "previous": frame.turns[index - 1] if index > 0 else None,
        "next": frame.turns[index + 1] if index + 1 < len(frame.turns) else None,
        "first": frame.turns[0],
        "last": frame.turns[-1],
    }
    # The slider fetches a frame; HTMX restoring a page from its history asks for the whole page.
    frame_only = _is_htmx(request) and request.headers.get("HX-History-Restore-Request") != "true"
    template = "battles/_replay_frame.html" if frame_only else "battles/replay.html"
    return render(request, template, context)


# --- live play: the page keeps itself up to date ----------------------------------------------------------------

# The regions of the battle page that move as the battle goes on (templates/battles/detail.html keeps these ids),
# and the element that asks for changes, sent back with its new mark.
MOVING_REGIONS = ("battle-status", "battle-map", "battle-log", "battle-changes")
DECISIONS_REGION = "decisions"


def _side_asked(viewer: selectors.Viewer) -> str | None:
    """The side a page names when it asks for changes: the one it shows (None: the umpire's whole battle or a
    member's public view, which the viewer is without naming one)."""
    if viewer.sees_all or viewer.side == selectors.PUBLIC_ONLY:
        return None
    return viewer.side


def _live_context(
    viewer: selectors.Viewer, forms: list[DecisionForm], *, details: bool, mark: changes.ChangeMark
) -> dict[str, Any]:
    """What the page's changes element needs: where to ask, how often, and the pace switch for the umpire."""
    battle = viewer.battle
    query = {"since": mark.mark, "open": ",".join(form.id for form in forms)}
    side = _side_asked(viewer)
    if side is not None:
        query["as"] = side
    if details:
        query["details"] = "1"
    changes_url = f"{reverse('battle_changes', kwargs={'pk': battle.pk})}?{urlencode(query)}"
    may_pace = viewer.is_umpire and battle.mode in (BattleMode.ASYNC, BattleMode.LIVE) and not battle.is_finished
    pace = PaceForm(initial={"live": battle.mode == BattleMode.LIVE, "live_minutes": battle.live_minutes})
    return {
        "changes_url": changes_url,
        "poll_seconds": changes.poll_seconds(battle.mode),
        "pace_form": pace if may_pace else None,
    }


def _fresh_regions(request: HttpRequest, battle: Battle, *, shown: frozenset[str] | None = None) -> str:
    """The page's moving regions as a reload would show them, as out-of-band swaps (never older than the mark they
    carry: _page_context reads the mark before the battle). The decisions go with them
    only when the set of open ones differs from those the page ``shown`` (None: always), or none is open (the
    waiting words): a form the viewer is filling in stays as he left it while its decision is still open."""
    context = _page_context(request, battle)
    now_open = frozenset(form.id for form in context["forms"])
    moving = (
        (*MOVING_REGIONS, DECISIONS_REGION) if shown is None or now_open != shown or not now_open else MOVING_REGIONS
    )
    page = render_to_string("battles/detail.html", context, request=request)
    return regions.out_of_band(page, moving)


@login_required
@require_GET
def battle_changes(request: HttpRequest, pk: int) -> HttpResponse:
    """HTMX, every few seconds: 204 while nothing the viewer may see has changed since the page's mark
    (``since``), else the page's moving regions swapped in place, without a reload. A live battle whose window has
    passed gets its defaults here, through the service under its row lock, so a club night needs no worker."""
    user = _user(request)
    side = request.GET.get("as") or None
    mark = changes.change_mark(user=user, battle_id=pk, side=side)
    if mark.mode == BattleMode.LIVE and services.past_deadline_at(mark.status, mark.deadline):
        services.battle_apply_deadline(battle_id=pk)  # idempotent: it re-reads the locked row
        mark = changes.change_mark(user=user, battle_id=pk, side=side)
    if mark.mark == request.GET.get("since"):
        return HttpResponse(status=204)
    shown = changes.open_ids(request.GET.get("open", ""))
    return HttpResponse(_fresh_regions(request, _battle(request, pk), shown=shown))


@login_required
@require_http_methods(["POST"])
def battle_pace(request: HttpRequest, pk: int) -> HttpResponse:
    """The umpire switches the battle between live play (minutes per decision) and web play (hours)."""
    battle = _battle(request, pk)
    form = PaceForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of the live windows offered.")
        return redirect("battle_detail", pk=battle.pk)
    try:
        battle = services.battle_set_pace(
            battle_id=battle.pk,
            user=_user(request),
            live=form.cleaned_data["live"],
            live_minutes=form.cleaned_data["live_minutes"],
        )
    except BattleRefused as refused:
        messages.error(request, refused.message)
    else:
        pace = f"live, {battle.live_minutes} minutes a decision" if battle.mode == BattleMode.LIVE else "web play"
        messages.info(request, f"{battle.title} is now played {pace}.")
    return redirect("battle_detail", pk=battle.pk)
