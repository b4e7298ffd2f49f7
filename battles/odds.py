"""Odds before you commit: "simulate 500 times" from a scenario or a battle, on every core, with a first
estimate within seconds and the player free to stop once it is good enough.

A battle's odds are those of its scenario and options from the start: playing on from the current position
would use what the requesting player may not know (the enemy's crew, orders) and could hint at it. The
dice of every run derive from the odds run's own random number (battles.engine.simulate.seed_for), never
from a real battle's seed.

A run is split into chunks (``simulate.chunk_plan``: a first wave of small ones, then bigger). Each chunk is
played by whichever process takes it (``simulate.play_chunk``) and stored once as an ``OddsChunk``; the save that
completes the set marks the run done with its distribution. Who plays the chunks:

- with Celery (production), one task per chunk (``battles.run_odds_chunk``), so the worker's processes play
  chunks side by side; a redelivered task finds its chunk stored and does nothing;
- in the embedded default (eager, no broker), a pool of spawned processes, one per core (started when the odds
  form is shown), fed battle by battle by a thread of the web process that stores each chunk once its battles
  are back (``odds_in_pool``);
- ``manage.py simulate_battle --runs N --processes P`` plays the same chunks on a pool of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import threading
from collections import deque
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

import django
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from battles.engine import simulate
from battles.engine.events import JSON, plain
from battles.models import Battle, OddsChunk, OddsRun, OddsStatus
from battles.selectors import visible_battles
from battles.services import BattleRefused, shipped_scenarios
from campaign.models import Campaign, Membership
from config import task_queue
from config.celery import app as celery_app

MAX_RUNS = 1000
PLAYING = (OddsStatus.QUEUED, OddsStatus.RUNNING)


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
        chunking=simulate.CHUNKING,
        requested_by=user,
    )
    transaction.on_commit(lambda: _start(run.pk))
    return run


def campaign_ruleset(campaign: Campaign) -> str:
    """The ruleset a campaign's scenario odds are run under: its tactical ruleset."""
    return campaign.tactical_ruleset or str(settings.DEFAULT_RULESET)


def _start(run_id: int) -> None:
    # The Celery app's own setting (CELERY_TASK_ALWAYS_EAGER at start), which a test with a live worker turns off.
    if celery_app.conf.task_always_eager:
        # The embedded default has no worker: a thread hands the chunks to the process pool and stores what comes
        # back, so the request that asked returns at once and the page polls the rows as it would with a worker.
        threading.Thread(target=_drive, args=(run_id,), daemon=True, name=f"odds-{run_id}").start()
    else:
        queue_chunks(run_id)


def queue_chunks(run_id: int) -> int:
    """Queue one Celery task per chunk not yet stored, first chunk first; returns how many were queued."""
    run = OddsRun.objects.get(pk=run_id)
    if run.finished:
        return 0
    stored = set(run.chunks.values_list("index", flat=True))
    missing = [index for index in range(len(plan_of(run))) if index not in stored]
    for index in missing:  # by name: battles.tasks imports this module
        task_queue.after_commit("battles.run_odds_chunk", run_id, index)
    return len(missing)


def plan_of(run: OddsRun) -> list[tuple[int, int]]:
    """The chunks of ``run``, by the plan it was split by (a run begun before the plan changed keeps its own)."""
    return simulate.chunk_plan(run.runs, run.chunking)


def chunk_job(run: OddsRun, index: int) -> simulate.ChunkJob:
    """Chunk ``index`` of ``run`` as plain data any process can play."""
    start, stop = plan_of(run)[index]
    scenario = plain(shipped_scenarios(run.ruleset_key)[run.scenario_slug])
    assert isinstance(scenario, dict)
    return simulate.ChunkJob(run.ruleset_key, scenario, dict(run.options), int(run.number), start, stop)


def odds_chunk(*, run_id: int, index: int) -> int:
    """Play and store chunk ``index`` of a run, unless the run is over (done, failed, stopped) or the chunk is
    stored already (a redelivered task): the check comes before the chunk is played. Returns the runs stored."""
    run = OddsRun.objects.filter(pk=run_id).first()
    if run is None or run.finished or run.chunks.filter(index=index).exists():
        return 0
    OddsRun.objects.filter(pk=run_id, status=OddsStatus.QUEUED).update(status=OddsStatus.RUNNING)
    try:
        outcomes = simulate.play_chunk(chunk_job(run, index))
    except Exception as error:  # a scenario the AI cannot play: say so on the page rather than spin forever
        _fail(run_id, error)
        raise
    return len(outcomes) if save_chunk(run_id=run_id, index=index, outcomes=outcomes) else 0


def save_chunk(*, run_id: int, index: int, outcomes: list[dict[str, Any]]) -> bool:
    """Store a played chunk once; the save that completes the set marks the run done with its distribution.
    False when the chunk was stored already or the run is over (a chunk finishing after a stop is not counted)."""
    with transaction.atomic():
        # The UPDATE comes first: it takes the run's row lock (PostgreSQL) or the write lock (SQLite) at once, so a
        # run's chunk saves and its stop queue up here, short, and exactly one save sees the set complete.
        if not OddsRun.objects.filter(pk=run_id, status__in=PLAYING).update(status=OddsStatus.RUNNING):
            return False
        run = OddsRun.objects.get(pk=run_id)
        plan = plan_of(run)
        start, stop = plan[index]
        if len(outcomes) != stop - start:
            raise ValueError(f"chunk {index} of odds run {run_id} holds {len(outcomes)} runs, not {stop - start}")
        _, created = OddsChunk.objects.get_or_create(
            run=run, index=index, defaults={"start": start, "stop": stop, "outcomes": outcomes}
        )
        if created and run.chunks.count() == len(plan):
            OddsRun.objects.filter(pk=run_id).update(
                status=OddsStatus.DONE, summary=simulate.distribution(outcomes_of(run_id)), finished_at=timezone.now()
            )
    return created


def outcomes_of(run_id: int) -> list[dict[str, Any]]:
    """Every stored run's summary, in run order."""
    chunks = OddsChunk.objects.filter(run_id=run_id).order_by("index").values_list("outcomes", flat=True)
    return [outcome for chunk in chunks for outcome in chunk]


def estimate(run: OddsRun) -> dict[str, Any]:
    """The distribution so far: the stored summary of a finished run, else that of the chunks stored yet."""
    if run.finished and run.summary is not None:
        return dict(run.summary)
    return simulate.distribution(outcomes_of(run.pk))


def _fail(run_id: int, error: BaseException) -> None:
    message = str(error)[:300] or type(error).__name__
    OddsRun.objects.filter(pk=run_id, status__in=PLAYING).update(
        status=OddsStatus.FAILED, error=message, finished_at=timezone.now()
    )


def odds_play(*, run_id: int) -> OddsRun:
    """Play every chunk not yet stored, one after another in this process (a resumed run, the tests); the run's
    status is read again before each chunk, so a stop is heeded."""
    run = OddsRun.objects.get(pk=run_id)
    for index in range(len(plan_of(run))):
        odds_chunk(run_id=run_id, index=index)
    return OddsRun.objects.get(pk=run_id)


@transaction.atomic
def odds_stop(*, user: User, run_id: int) -> OddsRun:
    """The requester stops his run: no more chunks are played or counted, and the distribution is that of the
    battles fought so far. Anyone else is told there is no such run. Stopping a finished run changes nothing."""
    run = odds_for_user(user=user, run_id=run_id)
    if run.requested_by_id != user.pk:
        raise Http404("No such simulation.")
    # The same UPDATE-first as save_chunk: a chunk being saved now is either in the summary or not counted.
    if OddsRun.objects.filter(pk=run_id, status__in=PLAYING).update(
        status=OddsStatus.STOPPED, finished_at=timezone.now()
    ):
        OddsRun.objects.filter(pk=run_id).update(summary=simulate.distribution(outcomes_of(run_id)))
    return OddsRun.objects.select_related("campaign").get(pk=run_id)


def odds_for_user(*, user: User, run_id: int) -> OddsRun:
    # A run of a battle the user may not know of (a private encounter at sea) is no run to him either.
    runs = OddsRun.objects.filter(campaign__memberships__user=user).filter(
        Q(battle__isnull=True) | Q(battle__in=visible_battles(user=user).values("pk"))
    )
    run = runs.filter(pk=run_id).select_related("campaign").first()
    if run is None:
        raise Http404("No such simulation.")
    return run


# --- the process pool (the embedded default and the command line) ---

_shared_pool: ProcessPoolExecutor | None = None
_shared_pool_lock = threading.Lock()


def process_pool(processes: int | None = None) -> ProcessPoolExecutor:
    """A pool of ``processes`` (default: one per core) ready to play chunks. Spawned, not forked: forking a
    threaded web server copies its locks in whatever state they are; each process sets Django up once (the
    settings module comes with the environment) before its first chunk."""
    return ProcessPoolExecutor(
        max_workers=processes or os.cpu_count() or 1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=django.setup,
    )


def shared_pool() -> ProcessPoolExecutor:
    """The web process's pool, started on the first odds run it plays."""
    global _shared_pool
    with _shared_pool_lock:
        if _shared_pool is None:
            _shared_pool = process_pool()
        return _shared_pool


def warm_pool() -> None:
    """In the embedded default, start the shared pool's processes before the first run is asked for (the odds
    form's page calls this): setting Django up in a spawned process takes seconds, and the first estimate should
    not wait for it. With Celery the worker's processes are up already."""
    if celery_app.conf.task_always_eager:
        pool = shared_pool()
        for _ in range(os.cpu_count() or 1):
            pool.submit(simulate.prepare)


def _forget_pool(broken: ProcessPoolExecutor) -> None:
    global _shared_pool
    with _shared_pool_lock:
        if _shared_pool is broken:
            _shared_pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def _drive(run_id: int) -> None:
    pool = shared_pool()
    try:
        odds_in_pool(run_id=run_id, pool=pool)
    except BrokenProcessPool:
        _forget_pool(pool)  # a pool process died (killed, out of memory): the next run starts a fresh pool
    finally:
        connection.close()  # this thread's own connection


def odds_in_pool(*, run_id: int, pool: ProcessPoolExecutor, ahead: int | None = None) -> OddsRun | None:
    """Play the run's missing chunks on ``pool`` battle by battle, ``ahead`` battles at a time (default: one per
    core), and store each chunk once its battles are all back, from this thread (short transactions; the pool's
    processes never touch the database). One battle to a pool task, not one chunk: the first chunk's battles play
    on every core at once, and a stop frees the cores within a battle. The run's status is read each time battles
    come back (at least every second): once it is stopped (or gone), the battles not yet started are cancelled and
    those playing are left to finish unheard. None when the run is gone."""
    run = OddsRun.objects.filter(pk=run_id).first()
    if run is None:
        return None
    plan = plan_of(run)
    stored = set(run.chunks.values_list("index", flat=True))
    todo = deque(
        (index, n) for index, (start, stop) in enumerate(plan) if index not in stored for n in range(start, stop)
    )
    job = chunk_job(run, 0)  # the run's job, narrowed to one battle by replace() below
    back: dict[int, dict[int, dict[str, Any]]] = {}  # chunk index -> run -> outcome, until the chunk is whole
    playing: dict[Future[list[dict[str, Any]]], tuple[int, int]] = {}
    OddsRun.objects.filter(pk=run_id, status=OddsStatus.QUEUED).update(status=OddsStatus.RUNNING)
    try:
        while todo or playing:
            if not OddsRun.objects.filter(pk=run_id, status__in=PLAYING).exists():
                break
            while todo and len(playing) < (ahead or os.cpu_count() or 1):
                index, n = todo.popleft()
                playing[pool.submit(simulate.play_chunk, replace(job, start=n, stop=n + 1))] = (index, n)
            finished, _ = wait(playing, timeout=1.0, return_when=FIRST_COMPLETED)
            for future in finished:
                index, n = playing.pop(future)
                whole = _chunk_whole(back, plan[index], index, n, future.result()[0])
                if whole is not None:
                    save_chunk(run_id=run_id, index=index, outcomes=whole)
    except Exception as error:
        _fail(run_id, error)
        raise
    finally:
        for future in playing:
            future.cancel()
    return OddsRun.objects.filter(pk=run_id).first()


def _chunk_whole(
    back: dict[int, dict[int, dict[str, Any]]], runs: tuple[int, int], index: int, n: int, outcome: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """Add run ``n``'s outcome to chunk ``index`` (runs ``[start, stop)``); once all its runs are back, the chunk's
    outcomes in run order, and the chunk is forgotten here."""
    chunk = back.setdefault(index, {})
    chunk[n] = outcome
    start, stop = runs
    if len(chunk) < stop - start:
        return None
    del back[index]
    return [chunk[k] for k in range(start, stop)]
