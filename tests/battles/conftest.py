"""Battles in the app: a campaign with an umpire and two players, and helpers that play a battle through the
services the way the web does."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from battles import engine_io, services
from battles.engine import ruleset as ruleset_
from battles.models import Battle, BattleMode
from battles.services import SideControl
from campaign.models import Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory


@pytest.fixture
def club(db: None) -> dict[str, Any]:
    """The Syrtis Major station: an umpire and two players (Alice for the Irish, Bob for the British)."""
    umpire = UserFactory(username="hargreaves")
    campaign = CampaignFactory(created_by=umpire, slug="syrtis")
    MembershipFactory(campaign=campaign, user=umpire, role=Role.UMPIRE)
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    MembershipFactory(campaign=campaign, user=alice, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=bob, role=Role.PLAYER)
    return {"campaign": campaign, "umpire": umpire, "alice": alice, "bob": bob}


@pytest.fixture
def start_battle(club: dict[str, Any], django_capture_on_commit_callbacks: Any) -> Callable[..., Battle]:
    """Start a battle the way the umpire's form does, running the queued resolution (Celery is eager)."""

    def start(scenario: str = "john-bulls-tyranny", mode: str = BattleMode.ASYNC, **kwargs: Any) -> Battle:
        sides = kwargs.pop(
            "sides",
            {"irish": SideControl("player", club["alice"]), "british": SideControl("player", club["bob"])}
            if mode == BattleMode.ASYNC
            else {},
        )
        with django_capture_on_commit_callbacks(execute=True):
            battle = services.battle_create(
                campaign=club["campaign"],
                created_by=club["umpire"],
                scenario_slug=scenario,
                mode=mode,
                sides=sides,
                **kwargs,
            )
        battle.refresh_from_db()
        return battle

    return start


@pytest.fixture
def play_defaults(club: dict[str, Any], django_capture_on_commit_callbacks: Any) -> Callable[..., int]:
    """Answer every open decision with its default, as whoever may make it, until the battle ends or
    ``limit`` decisions are made. Returns how many were made."""

    def play(battle: Battle, limit: int = 100_000) -> int:
        made = 0
        while made < limit:
            battle.refresh_from_db()
            if battle.is_finished:
                break
            state = engine_io.current_state(battle)
            stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
            pending = [r for r in state.pending() if r.id not in stored]
            assert pending, f"battle {battle.pk} waits for nothing ({battle.status})"
            request = pending[0]
            side = battle.sides.get(key=request.side)
            user = club["umpire"] if request.umpire else side.user or club["umpire"]  # his own: the go-ahead
            with django_capture_on_commit_callbacks(execute=True):
                services.battle_submit_decision(
                    battle_id=battle.pk, user=user, request_id=request.id, choice=request.default
                )
            made += 1
        return made

    return play


# --- every registered ruleset (OpenSpiel's one test for all) ---------------------------------------------------


def latest_rulesets() -> list[Any]:
    """The latest version of every registered ruleset: the battle app's tests run once for each."""
    ruleset_.discover()
    return list({rs.key: rs for rs in ruleset_.all_rulesets()}.values())


def first_scenario(rs: Any) -> Mapping[str, Any]:
    return rs.example_scenarios()[0]


@pytest.fixture(params=latest_rulesets(), ids=lambda rs: rs.key)
def every_ruleset(request: pytest.FixtureRequest) -> Any:
    return request.param


@pytest.fixture
def ruleset_battle(club: dict[str, Any], django_capture_on_commit_callbacks: Any) -> Callable[..., Battle]:
    """A battle of the ruleset's first example scenario started through the services, its queued resolution run.
    In async mode Alice plays the first side and Bob the second (any others the AI); auto: the AI fights it out."""

    def start(rs: Any, mode: str = BattleMode.ASYNC) -> Battle:
        scenario = first_scenario(rs)
        sides: dict[str, SideControl] = {}
        if mode == BattleMode.ASYNC:
            keys = rs.setup(scenario, ruleset_.resolve_options(rs, scenario.get("options") or {})).sides
            sides = {keys[0]: SideControl("player", club["alice"]), keys[1]: SideControl("player", club["bob"])}
        slug = str(scenario.get("slug") or "")
        with django_capture_on_commit_callbacks(execute=True):
            battle = services.battle_create(
                campaign=club["campaign"],
                created_by=club["umpire"],
                scenario_slug=slug,
                scenario=None if slug else scenario,
                ruleset_key=rs.key,
                mode=mode,
                sides=sides,
            )
        battle.refresh_from_db()
        assert battle.ruleset_key == rs.key
        return battle

    return start


def decider(battle: Battle, club: dict[str, Any], side: str) -> Any:
    """Who answers for a side: its player, else the umpire."""
    return battle.sides.get(key=side).user or club["umpire"]


def first_unanswered(battle: Battle) -> Any:
    """The first open decision with no answer stored yet."""
    battle.refresh_from_db()
    stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
    return next(r for r in engine_io.current_state(battle).pending() if r.id not in stored)
