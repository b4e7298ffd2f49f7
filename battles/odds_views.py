"""Pages for the odds calculator: ask for 500 battles, watch the estimate firm up as chunks come in, stop it once
its interval is tight enough, read the distribution."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from battles import odds, selectors
from battles.models import OddsRun
from battles.services import BattleRefused, scenario_sides, shipped_scenarios
from campaign.selectors import campaign_for_user


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


def _runs(request: HttpRequest) -> int:
    raw = request.POST.get("runs", "500")
    return int(raw) if raw.isdigit() else 0


@login_required
@require_POST
def odds_for_battle(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle = selectors.battle_for_user(user=_user(request), battle_id=battle_id)
    try:
        run = odds.odds_request(user=_user(request), campaign=battle.campaign, battle=battle, runs=_runs(request))
    except BattleRefused as refused:
        return render(request, "battles/odds_error.html", {"message": refused.message}, status=400)
    return redirect("odds_detail", run_id=run.pk)


@login_required
def odds_for_scenario(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = campaign_for_user(user=_user(request), slug=slug)
    scenarios = shipped_scenarios(odds.campaign_ruleset(campaign))  # the scenarios odds_request accepts
    if request.method == "POST":
        try:
            run = odds.odds_request(
                user=_user(request),
                campaign=campaign,
                scenario_slug=request.POST.get("scenario", ""),
                runs=_runs(request),
            )
        except BattleRefused as refused:
            return render(request, "battles/odds_error.html", {"message": refused.message}, status=400)
        return redirect("odds_detail", run_id=run.pk)
    odds.warm_pool()  # the run asked for next finds the pool's processes ready
    choices = sorted((slug_, str(data.get("title", slug_))) for slug_, data in scenarios.items())
    return render(request, "battles/odds_new.html", {"campaign": campaign, "scenarios": choices})


@login_required
@require_GET
def odds_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    run = odds.odds_for_user(user=_user(request), run_id=run_id)
    return _page(request, run)


@login_required
@require_POST
def odds_stop(request: HttpRequest, run_id: int) -> HttpResponse:
    """The requester's Stop button: the estimate so far is the answer (anyone else: 404)."""
    run = odds.odds_stop(user=_user(request), run_id=run_id)
    if request.headers.get("HX-Request") == "true":
        return _page(request, run)
    return redirect("odds_detail", run_id=run.pk)


def _page(request: HttpRequest, run: OddsRun) -> HttpResponse:
    template = "battles/_odds_progress.html" if request.headers.get("HX-Request") == "true" else "battles/odds.html"
    summary = odds.estimate(run)
    rows = _rows(run, summary)
    context = {
        "run": run,
        "rows": rows,
        "played": summary.get("runs", 0),
        "turns": summary.get("turns"),
        "headline": rows[0] if rows else None,
        "can_stop": not run.finished and run.requested_by_id == _user(request).pk,
    }
    return render(request, template, context)


def _rows(run: OddsRun, summary: dict[str, object]) -> list[dict[str, object]]:
    """The distribution as table rows, most frequent first: each side (or a draw) with its battles, its share and
    the share's 95% interval (Wilson), in whole percent for the words and one decimal for the table."""
    winners = summary.get("winners")
    if not isinstance(winners, dict):
        return []
    names: dict[str, str] = {}
    if run.battle is not None:
        names = dict(run.battle.sides.values_list("key", "name"))
    else:
        # The sides as the scenario's own ruleset names them (its setup and roster), whatever its format.
        scenario = shipped_scenarios(run.ruleset_key).get(run.scenario_slug)
        names = dict(scenario_sides(run.ruleset_key, scenario)) if scenario is not None else {}
    return [
        {
            "side": names.get(key, key),
            "draw": key == "draw",
            "battles": figures["battles"],
            "percent": round(100 * figures["share"], 1),
            "whole": round(100 * figures["share"]),
            "low": round(100 * figures["low"]),
            "high": round(100 * figures["high"]),
        }
        # Most battles first: a stored summary's keys come back in PostgreSQL's (jsonb) order, not the counter's.
        for key, figures in sorted(winners.items(), key=lambda item: (-item[1]["battles"], item[0]))
    ]
