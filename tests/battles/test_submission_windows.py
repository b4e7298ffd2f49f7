"""Web play asks a side twice a turn, and each submission window has its own deadline (issue 20).

A Sky Galleons battle started for the web has standing orders (the ruleset's play_defaults); at the table
every question is put as the rules ask it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from battles import engine_io
from battles.engine import windows
from battles.models import Battle, BattleEvent, BattleMode
from battles.services import battle_submit_decision


def _answer_all(battle: Battle, side: str, user: Any, capture: Any) -> None:
    """The side sends every decision open to it (one submission), each with its default."""
    state = engine_io.current_state(battle)
    for request in [r for r in state.pending() if r.side == side]:
        with capture(execute=True):
            battle_submit_decision(battle_id=battle.pk, user=user, request_id=request.id, choice=request.default)
    battle.refresh_from_db()


def test_a_web_battle_has_standing_orders_and_a_table_battle_has_not(start_battle: Callable[..., Battle]) -> None:
    assert start_battle().options["standing_orders"] is True
    assert start_battle(mode=BattleMode.TABLE).options["standing_orders"] is False
    assert start_battle(options={"standing_orders": False}).options["standing_orders"] is False


def test_each_submission_window_has_its_own_deadline_and_a_side_sends_two_a_turn(
    start_battle: Callable[..., Battle], club: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    battle = start_battle()
    users = {"irish": club["alice"], "british": club["bob"]}
    deadlines = []
    while battle.turn < 3 and not battle.is_finished:
        state = engine_io.current_state(battle)
        waiting = sorted({r.side for r in state.pending()})
        assert waiting, battle.status
        deadlines.append(battle.deadline)
        first, *others = waiting
        _answer_all(battle, first, users[first], django_capture_on_commit_callbacks)
        if others:  # the orders: both sides at once; one side's answers leave the window and its deadline open
            assert battle.deadline == deadlines[-1]
            for side in others:
                _answer_all(battle, side, users[side], django_capture_on_commit_callbacks)
    assert len(set(deadlines)) == len(deadlines)  # a new window, a new deadline (decision_hours from its opening)
    rows = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True).order_by("seq")
    counted = windows.windows(engine_io.event_from_row(row) for row in rows.values_list("data", flat=True))
    turns = {turn: n for (turn, _), n in counted.items() if 1 <= turn < battle.turn}
    assert turns
    assert set(turns.values()) == {2}


def test_the_orders_form_shows_the_standing_orders_and_sends_them(
    start_battle: Callable[..., Battle], club: dict[str, Any], client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    battle = start_battle()
    users = {"irish": club["alice"], "british": club["bob"]}
    while not any(r.kind == "initiative orders" for r in engine_io.current_state(battle).pending("irish")):
        side = engine_io.current_state(battle).pending()[0].side  # the set-up, ship by ship
        _answer_all(battle, side, users[side], django_capture_on_commit_callbacks)
    client.force_login(club["alice"])
    html = client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()
    assert "Standing orders" in html
    assert "{#" not in html  # no template comment left unclosed on one line shows as words
    fire = re.search(r'<select name="[^"]*standing\.fire"[^>]*>(.*?)</select>', html, re.S)
    assert fire
    assert re.search(r'<option value="&quot;at will&quot;" selected', fire.group(1))
    request = next(r for r in engine_io.current_state(battle).pending("irish"))
    with django_capture_on_commit_callbacks(execute=True):
        battle_submit_decision(
            battle_id=battle.pk,
            user=club["alice"],
            request_id=request.id,
            choice={"crew": [], "strike": [], "standing": {"fire": "hold"}},
        )
    _answer_all(battle, "british", club["bob"], django_capture_on_commit_callbacks)
    assert engine_io.current_state(battle).board.standing["irish"] == {"fire": "hold"}
    html = client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()
    assert "standing orders given (guns: hold)" in html


def test_the_count_is_a_command_for_any_ruleset() -> None:
    out = io.StringIO()
    call_command("count_submissions", "--ruleset", "duel", "--runs", "1", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(engine_io.ruleset_for("duel").example_scenarios())
    assert all("side-turns at most 2" in line for line in lines)
    with pytest.raises(CommandError):
        call_command("count_submissions", "--option", "standing_orders", stdout=out)
