"""A battle on the campaign's clock (an encounter's window, battles.services._deadline): every decision of one turn
shares one deadline, set when the turn began, never later than the hand-over; a side that lets it pass plays the
rest of the turn by its default; at the hand-over the AI captains fight it out for every side."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from battles import announcements, engine_io, services
from battles.models import Battle, BattleStatus, Controller, DecisionSource
from campaign.models import Notification

pytestmark = pytest.mark.django_db

SCENARIO = "john-bulls-tyranny"


def answer_one(battle: Battle, club: dict[str, Any], capture: Any) -> None:
    """Answer the first open decision not yet answered with its default, as the side's player."""
    state = engine_io.current_state(battle)
    stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
    request = next(r for r in state.pending() if r.id not in stored)
    user = battle.sides.get(key=request.side).user or club["umpire"]
    with capture(execute=True):
        services.battle_submit_decision(battle_id=battle.pk, user=user, request_id=request.id, choice=request.default)
    battle.refresh_from_db()


@pytest.mark.rule("SGC-ENC-19")
def test_every_decision_of_a_turn_shares_the_deadline_set_when_the_turn_began(
    start_battle, club, django_capture_on_commit_callbacks
):
    began = timezone.now()
    battle = start_battle(SCENARIO, turn_minutes=90, hand_over_at=began + timedelta(days=5))
    assert battle.deadline is not None
    assert began + timedelta(minutes=90) <= battle.deadline <= timezone.now() + timedelta(minutes=90)

    seen: dict[int, set[Any]] = {}  # turn: the deadlines its batches had
    batches: dict[int, set[int]] = {}  # turn: the state seqs at which it waited
    while not battle.is_finished and len(seen) < 4:
        seen.setdefault(battle.turn, set()).add(battle.deadline)
        batches.setdefault(battle.turn, set()).add(battle.state_seq)
        turn, deadline = battle.turn, battle.deadline
        answer_one(battle, club, django_capture_on_commit_callbacks)
        if battle.turn != turn and not battle.is_finished:
            # A new turn: a new deadline, a turn's minutes from when it began.
            assert battle.deadline > deadline
            assert battle.deadline <= timezone.now() + timedelta(minutes=90)
    assert all(len(deadlines) == 1 for deadlines in seen.values()), seen
    assert any(len(seqs) > 1 for seqs in batches.values()), "no turn asked in more than one batch"
    assert len(seen) >= 3


@pytest.mark.rule("SGC-ENC-19")
def test_a_turns_deadline_is_never_later_than_the_hand_over(start_battle):
    hand_over = timezone.now() + timedelta(minutes=30)
    battle = start_battle(SCENARIO, turn_minutes=600, hand_over_at=hand_over)
    assert battle.deadline == hand_over


@pytest.mark.rule("SGC-ENC-19")
def test_a_side_that_misses_the_turns_deadline_plays_the_rest_of_the_turn_by_its_default(
    start_battle, club, django_capture_on_commit_callbacks
):
    battle = start_battle(SCENARIO, turn_minutes=60, hand_over_at=timezone.now() + timedelta(days=2))
    # Play into turn 1, then let its deadline pass.
    while battle.turn < 1:
        answer_one(battle, club, django_capture_on_commit_callbacks)
    turn = battle.turn
    missed = timezone.now() - timedelta(minutes=1)
    Battle.objects.filter(pk=battle.pk).update(deadline=missed)
    rounds = 0
    while True:
        battle.refresh_from_db()
        if battle.turn != turn or battle.is_finished:
            break
        # Still the missed turn: its deadline stands (passed), so the beat gives the default again.
        assert battle.deadline == missed
        assert services.battles_past_deadline() == [battle.pk]
        with django_capture_on_commit_callbacks(execute=True):
            assert services.battle_apply_deadline(battle_id=battle.pk) >= 1
        rounds += 1
    assert rounds >= 1
    during = battle.decisions.filter(turn=turn).exclude(source=DecisionSource.AI)
    stored_before = during.filter(source=DecisionSource.PLAYER).count()
    assert during.filter(source=DecisionSource.DEADLINE).count() >= 1
    assert stored_before + during.filter(source=DecisionSource.DEADLINE).count() == during.count()
    # The next turn has its own deadline, in the future again.
    assert battle.deadline is not None
    assert battle.deadline > timezone.now()
    assert services.battles_past_deadline() == []


def test_a_battle_without_a_clock_keeps_a_deadline_per_decision(start_battle):
    battle = start_battle(SCENARIO)
    assert (battle.turn_minutes, battle.hand_over_at) == (None, None)
    assert battle.deadline is not None
    assert battle.deadline > timezone.now() + timedelta(hours=47)


@pytest.mark.rule("SGC-ENC-19")
def test_at_the_hand_over_the_ai_fights_it_out_for_every_side_and_the_players_keep_their_view(
    start_battle, club, django_capture_on_commit_callbacks, client
):
    battle = start_battle(SCENARIO, turn_minutes=60, hand_over_at=timezone.now() + timedelta(hours=8))
    client.force_login(club["alice"])
    page = client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()
    assert "the AI captains will fight it out for both sides" in page
    assert f"{battle.hand_over_at:%a %d %b %H:%M} UTC" in page
    api = client.get(reverse("api_battle_detail", kwargs={"battle_id": battle.pk})).json()
    assert api["hand_over_at"] == battle.hand_over_at.isoformat()
    assert api["turn_minutes"] == 60
    assert "AI captains will fight it out" in api["hand_over"]
    # The decision's notification says it too.
    told = Notification.objects.filter(user=club["alice"]).order_by("-pk").first()
    assert told is not None
    assert "AI captains will fight it out" in told.body

    with django_capture_on_commit_callbacks(execute=True):
        resolution = services.battle_hand_over_to_ai(battle_id=battle.pk, reason="window ended")
    battle.refresh_from_db()
    assert resolution.status == BattleStatus.FINISHED == battle.status
    sides = {side.key: side for side in battle.sides.all()}
    assert {side.controller for side in sides.values()} == {Controller.AI}
    assert (sides["irish"].user, sides["british"].user) == (club["alice"], club["bob"])
    assert client.get(reverse("api_battle_detail", kwargs={"battle_id": battle.pk})).status_code == 200
    # Run again: the finished battle is left as it is.
    events = battle.events.count()
    assert services.battle_hand_over_to_ai(battle_id=battle.pk, reason="again").events == 0
    assert battle.events.count() == events
    assert "battle-hand-over" not in client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()


def test_a_turns_deadline_is_reminded_in_the_last_quarter_of_the_turn_only(start_battle):
    battle = start_battle(SCENARIO, turn_minutes=180, hand_over_at=timezone.now() + timedelta(days=1))
    assert battle.deadline is not None
    assert list(announcements.battles_to_remind()) == []  # the turn has just begun: its decision was told
    later = battle.deadline - timedelta(minutes=40)
    assert list(announcements.battles_to_remind(now=later)) == [battle]
