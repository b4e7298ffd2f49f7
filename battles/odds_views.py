"""Pages for the odds calculator: ask for 500 battles, watch the progress bar, read the distribution."""

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
    choices = sorted((slug_, str(data.get("title", slug_))) for slug_, data in scenarios.items())
    return render(request, "battles/odds_new.html", {"campaign": campaign, "scenarios": choices})


@login_required
@require_GET
def odds_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    run = odds.odds_for_user(user=_user(request), run_id=run_id)
    template = "battles/_odds_progress.html" if request.headers.get("HX-Request") == "true" else "battles/odds.html"
    return render(request, template, {"run": run, "rows": _rows(run)})


def _rows(run: OddsRun) -> list[dict[str, object]]:
    """The distribution as table rows: each side (or a draw) with its battles and share."""
    if not run.summary:
        return []
    names: dict[str, str] = {}
    if run.battle is not None:
        names = dict(run.battle.sides.values_list("key", "name"))
    else:
        # The sides as the scenario's own ruleset names them (its setup and roster), whatever its format.
        scenario = shipped_scenarios(run.ruleset_key).get(run.scenario_slug)
        names = dict(scenario_sides(run.ruleset_key, scenario)) if scenario is not None else {}
    return [
        {"side": names.get(key, key), "battles": figures["battles"], "percent": round(100 * figures["share"], 1)}
        for key, figures in run.summary["winners"].items()
    ]
