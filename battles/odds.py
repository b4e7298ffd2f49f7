"""Odds before you commit: "simulate 500 times" from a scenario or a battle, in a Celery task with progress.

A battle's odds are those of its scenario and options from the start: playing on from the current position
would use what the requesting player may not know (the enemy's crew, orders) and could hint at it. The
dice of every run derive from the odds run's own random number (battles.engine.simulate.seed_for), never
from a real battle's seed.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from battles import engine_io
from battles.engine import simulate
from battles.engine.events import JSON, plain
from battles.models import Battle, OddsRun, OddsStatus
from battles.selectors import visible_battles
from battles.services import BattleRefused, shipped_scenarios
from campaign.models import Campaign, Membership
from config import task_queue

MAX_RUNS = 1000
CHUNK = 10  # runs between saves: the progress bar's step, and what a killed worker may have to redo


@transaction.atomic
def odds_request(
    *,
    user: User,
    campaign: Campaign,
    runs: int = 500,
    battle: Battle | None = None,
    scenario_slug: str = "",
    options: Mapping[str, JSON] | None = None,
) -> OddsRun:
    """Queue an odds run for a campaign member: a battle's scenario, or a shipped scenario by slug."""
    if not Membership.objects.filter(campaign=campaign, user=user).exists():
        raise Http404("No such campaign.")
    if not 1 <= runs <= MAX_RUNS:
        raise BattleRefused(f"Simulate between 1 and {MAX_RUNS} battles.")
    if battle is not None:
        if battle.campaign_id != campaign.pk or not battle.scenario_slug:
            raise BattleRefused("This battle's scenario cannot be simulated.")
        scenario_slug, ruleset_key, options = battle.scenario_slug, battle.ruleset_key, battle.options
    else:
        ruleset_key = campaign_ruleset(campaign)
        if scenario_slug not in shipped_scenarios(ruleset_key):
            raise BattleRefused(f"No scenario {scenario_slug!r}.")
    run = OddsRun.objects.create(
        campaign=campaign,
        battle=battle,
        scenario_slug=scenario_slug,
        ruleset_key=ruleset_key,
        options=plain(dict(options or {})),
        runs=runs,
        number=secrets.randbits(48),
        requested_by=user,
    )
    transaction.on_commit(lambda: _start(run.pk))
    return run


def campaign_ruleset(campaign: Campaign) -> str:
    """The ruleset a campaign's scenario odds are run under: its tactical ruleset."""
    return campaign.tactical_ruleset or str(settings.DEFAULT_RULESET)


def _start(run_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # The embedded default has no worker: play in a thread so the request that asked does not wait
        # minutes; the page's progress bar polls the row like it would with a worker.
        threading.Thread(target=_run_in_thread, args=(run_id,), daemon=True).start()
    else:
        task_queue.after_commit("battles.run_odds", run_id)  # by name: battles.tasks imports this module


def _run_in_thread(run_id: int) -> None:
    try:
        odds_play(run_id=run_id)
    finally:
        close_old_connections()


def odds_play(*, run_id: int, chunk: int = CHUNK) -> OddsRun:
    """Play the runs still to play, saving every ``chunk``; safe to run twice or after a killed worker."""
    run = OddsRun.objects.get(pk=run_id)
    if run.status in (OddsStatus.DONE, OddsStatus.FAILED):
        return run
    OddsRun.objects.filter(pk=run_id).update(status=OddsStatus.RUNNING)
    rs = engine_io.ruleset_for(run.ruleset_key)
    scenario = shipped_scenarios(run.ruleset_key)[run.scenario_slug]
    try:
        while True:
            run = OddsRun.objects.get(pk=run_id)
            start = len(run.outcomes)
            if start >= run.runs:
                break
            batch = [
                _summary(
                    simulate.simulate(rs, scenario, seed=simulate.seed_for(run.number, n), options=run.options).outcome
                )
                for n in range(start, min(start + chunk, run.runs))
            ]
            with transaction.atomic():
                locked = OddsRun.objects.select_for_update().get(pk=run_id)
                if len(locked.outcomes) != start:
                    continue  # another runner saved this chunk first
                locked.outcomes = [*locked.outcomes, *batch]
                locked.save(update_fields=["outcomes"])
    except Exception as error:  # a scenario the AI cannot play: say so on the page rather than spin forever
        OddsRun.objects.filter(pk=run_id).update(status=OddsStatus.FAILED, error=str(error)[:300])
        raise
    summary = simulate.distribution(run.outcomes)
    OddsRun.objects.filter(pk=run_id).update(status=OddsStatus.DONE, summary=summary, finished_at=timezone.now())
    return OddsRun.objects.get(pk=run_id)


def _summary(outcome: Mapping[str, Any]) -> JSON:
    """What the distribution needs of one battle (the per-ship detail stays out of the row)."""
    keep = ("winner", "reason", "turns", "sides")
    return plain({key: outcome[key] for key in keep if key in outcome})


def odds_for_user(*, user: User, run_id: int) -> OddsRun:
    # A run of a battle the user may not know of (a private encounter at sea) is no run to him either.
    runs = OddsRun.objects.filter(campaign__memberships__user=user).filter(
        Q(battle__isnull=True) | Q(battle__in=visible_battles(user=user).values("pk"))
    )
    run = runs.filter(pk=run_id).select_related("campaign").first()
    if run is None:
        raise Http404("No such simulation.")
    return run
