"""The battle services: create, submit, resolve, deadlines, corrections, leaving, the result, verification."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from battles import engine_io, selectors, services
from battles.engine import dice
from battles.engine.decisions import ALREADY_DECIDED
from battles.models import (
    BattleEvent,
    BattleMode,
    BattleResult,
    BattleStatus,
    Correction,
    DeadlineDefault,
    Decision,
    DecisionSource,
)
from battles.services import BattleRefused, SideControl

pytestmark = pytest.mark.django_db


def test_an_auto_resolved_battle_plays_to_its_end_and_verifies(start_battle):
    battle = start_battle("thieves-fall-out", mode=BattleMode.AUTO)

    assert battle.status == BattleStatus.FINISHED
    assert battle.winner in {"roquette", "blackwood", "tharn"}
    assert battle.finished_at is not None
    assert BattleEvent.objects.filter(battle=battle).count() == battle.state_seq > 100
    assert battle.ships.count() == 3
    assert battle.sides.count() == 3
    assert BattleResult.objects.get(battle=battle).data
    assert all(d.source == DecisionSource.AI for d in Decision.objects.filter(battle=battle))
    assert selectors.battle_verify(battle=battle) == []


def test_the_seed_is_committed_at_the_start_and_matches(start_battle):
    battle = start_battle()

    assert battle.status == BattleStatus.WAITING
    assert dice.commitment(bytes.fromhex(battle.seed)) == battle.seed_commitment
    assert battle.deadline is not None  # web play: the first decisions have a deadline


def test_two_players_play_a_battle_to_its_end(start_battle, play_defaults):
    battle = start_battle()

    made = play_defaults(battle)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED, made
    sources = set(Decision.objects.filter(battle=battle).values_list("source", flat=True))
    assert sources == {DecisionSource.PLAYER}
    assert selectors.battle_verify(battle=battle) == []


def test_a_double_submit_counts_once(start_battle, club):
    battle = start_battle()
    request = engine_io.current_state(battle).pending("irish")[0]

    first = services.battle_submit_decision(
        battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=request.default, idempotency_key="k1"
    )
    again = services.battle_submit_decision(
        battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=request.default, idempotency_key="k1"
    )

    assert again.pk == first.pk
    assert Decision.objects.filter(battle=battle).count() == 1
    with pytest.raises(BattleRefused) as refused:  # another key for the same decision: already made
        services.battle_submit_decision(
            battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=request.default, idempotency_key="k2"
        )
    assert refused.value.clause == ALREADY_DECIDED


def test_a_stored_answer_refused_when_applied_is_kept_with_the_reason_and_asked_again(
    start_battle, club, django_capture_on_commit_callbacks
):
    battle = start_battle()
    state = engine_io.current_state(battle)
    while not (state.pending("irish") and state.pending("british")):  # on to the secret orders, asked of both
        request = state.pending()[0]
        user = club["alice"] if request.side == "irish" else club["bob"]
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(
                battle_id=battle.pk, user=user, request_id=request.id, choice=request.default
            )
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
    irish, british = state.pending("irish")[0], state.pending("british")[0]
    services.battle_submit_decision(
        battle_id=battle.pk, user=club["alice"], request_id=irish.id, choice=irish.default, idempotency_key="a1"
    )
    # What a stored answer the engine no longer takes looks like (a bug or a hand-edited row).
    Decision.objects.filter(battle=battle, request_id=irish.id).update(choice={"nonsense": True})

    with django_capture_on_commit_callbacks(execute=True):
        services.battle_submit_decision(
            battle_id=battle.pk, user=club["bob"], request_id=british.id, choice=british.default
        )

    kept = Decision.objects.get(battle=battle, request_id=irish.id)
    assert kept.refused.startswith(("SG-", "ENG-"))
    assert kept.applied_seq is None
    battle.refresh_from_db()
    assert battle.status == BattleStatus.WAITING
    assert irish.id in {r.id for r in engine_io.current_state(battle).pending("irish")}  # asked again
    with pytest.raises(BattleRefused) as replayed:  # the old key answers with what happened to it
        services.battle_submit_decision(
            battle_id=battle.pk, user=club["alice"], request_id=irish.id, choice=irish.default, idempotency_key="a1"
        )
    assert replayed.value.status == 409
    assert "refused" in replayed.value.message
    again = services.battle_submit_decision(
        battle_id=battle.pk, user=club["alice"], request_id=irish.id, choice=irish.default, idempotency_key="a2"
    )
    assert not again.refused
    assert Decision.objects.filter(battle=battle, request_id=irish.id).count() == 2


def test_an_illegal_decision_is_refused_with_the_rule(start_battle, club):
    battle = start_battle()
    request = engine_io.current_state(battle).pending("irish")[0]

    with pytest.raises(BattleRefused) as refused:
        services.battle_submit_decision(
            battle_id=battle.pk, user=club["alice"], request_id=request.id, choice={"nonsense": True}
        )

    assert refused.value.status == 400
    assert refused.value.clause.startswith(("SG-", "ENG-"))
    assert refused.value.message
    assert not Decision.objects.filter(battle=battle).exists()


def test_nobody_decides_for_another_side(start_battle, club):
    battle = start_battle()
    request = engine_io.current_state(battle).pending("irish")[0]

    with pytest.raises(PermissionDenied):
        services.battle_submit_decision(battle_id=battle.pk, user=club["bob"], request_id=request.id, choice=None)


def test_a_missed_deadline_gives_the_default_and_the_battle_goes_on(
    start_battle, club, django_capture_on_commit_callbacks
):
    battle = start_battle(deadline_default=DeadlineDefault.HOLD)
    before = battle.state_seq
    battle.deadline = timezone.now() - timedelta(minutes=1)
    battle.save(update_fields=["deadline"])

    with django_capture_on_commit_callbacks(execute=True):
        assert services.battles_past_deadline() == [battle.pk]
        given = services.battle_apply_deadline(battle_id=battle.pk)

    battle.refresh_from_db()
    assert given >= 1
    assert battle.state_seq > before
    assert Decision.objects.filter(battle=battle, source=DecisionSource.DEADLINE).count() == given
    assert services.battle_apply_deadline(battle_id=battle.pk) == 0  # run twice: nothing more


def test_resolution_run_twice_does_the_work_once(start_battle):
    battle = start_battle()
    events = BattleEvent.objects.filter(battle=battle).count()

    assert services.battle_resolve(battle_id=battle.pk).events == 0

    assert BattleEvent.objects.filter(battle=battle).count() == events


def test_the_umpire_corrects_a_wrong_entry_at_the_table(start_battle, club, django_capture_on_commit_callbacks):
    battle = start_battle(mode=BattleMode.TABLE)
    umpire = club["umpire"]
    state = engine_io.current_state(battle)
    # Enter decisions at the table until a move has been folded into the log.
    while True:
        stored = set(battle.decisions.values_list("request_id", flat=True))
        request = next(r for r in state.pending() if r.id not in stored)
        choice = request.default
        if request.kind == "move":  # a move that goes somewhere, to be corrected to holding course
            choice = next(c for c in engine_io.rules_of(battle).candidates(state, request) if c != request.default)
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(battle_id=battle.pk, user=umpire, request_id=request.id, choice=choice)
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
        if request.kind == "move":
            break
    moved = Decision.objects.get(battle=battle, request_id=request.id)
    assert moved.applied_seq is not None
    live_before = BattleEvent.objects.filter(battle=battle, superseded_by__isnull=True).count()

    with pytest.raises(BattleRefused):  # the same answer again would only re-roll
        services.battle_correct_decision(
            battle_id=battle.pk, user=umpire, request_id=request.id, choice=moved.choice, reason="typo"
        )
    with django_capture_on_commit_callbacks(execute=True):
        correction = services.battle_correct_decision(
            battle_id=battle.pk,
            user=umpire,
            request_id=request.id,
            choice=request.default,
            reason="she was to hold still",
        )

    battle.refresh_from_db()
    assert Correction.objects.get() == correction
    assert BattleEvent.objects.filter(superseded_by=correction).count() == live_before - moved.applied_seq
    assert (
        Decision.objects.get(battle=battle, request_id=request.id, superseded_by__isnull=True).choice == request.default
    )
    assert battle.state_seq > moved.applied_seq
    with pytest.raises(PermissionDenied):
        services.battle_correct_decision(
            battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=choice, reason="mine"
        )


def test_a_side_concedes(start_battle, club, django_capture_on_commit_callbacks):
    battle = start_battle()

    with django_capture_on_commit_callbacks(execute=True):
        services.battle_leave(battle_id=battle.pk, user=club["alice"], side_key="irish", how="concede")

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    assert battle.winner == "british"
    assert "conceded" in battle.result_reason
    assert selectors.battle_verify(battle=battle) == []


def test_a_side_surrenders_and_the_battle_plays_out(
    start_battle, club, play_defaults, django_capture_on_commit_callbacks
):
    battle = start_battle()

    with django_capture_on_commit_callbacks(execute=True):
        services.battle_leave(battle_id=battle.pk, user=club["bob"], side_key="british", how="surrender")
    play_defaults(battle)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    british = [s for s in battle.result.data["ships"] if s["side_at_start"] == "british"]
    assert battle.winner != "british"
    assert {s["fate"] for s in british} <= {"struck", "captured"}  # her colours struck at the next orders
    assert selectors.battle_verify(battle=battle) == []


def test_only_the_umpire_creates_battles(club):
    with pytest.raises(PermissionDenied):
        services.battle_create(campaign=club["campaign"], created_by=club["alice"], scenario_slug="john-bulls-tyranny")


def test_bad_creation_input_is_refused_plainly(club):
    cases = [
        {"scenario_slug": "no-such-battle"},
        {"scenario_slug": "john-bulls-tyranny", "options": {"no_such_option": True}},
        {"scenario_slug": "john-bulls-tyranny", "sides": {"martians": SideControl("ai")}},
        {"scenario_slug": "john-bulls-tyranny", "mode": "telepathy"},
        {"scenario_slug": "john-bulls-tyranny", "sides": {"irish": SideControl("player", None)}},
    ]
    for case in cases:
        with pytest.raises(BattleRefused):
            services.battle_create(campaign=club["campaign"], created_by=club["umpire"], **case)


def test_a_side_is_served_its_own_log_numbered_without_gaps(start_battle, club, play_defaults):
    """The engine numbers the whole log; a side's log must not show where events were kept from it."""
    battle = start_battle()
    play_defaults(battle, limit=12)
    battle.refresh_from_db()

    bob = selectors.viewer_for(battle=battle, user=club["bob"])
    umpire = selectors.viewer_for(battle=battle, user=club["umpire"])
    served = selectors.event_log(bob)
    whole = selectors.event_log(umpire)

    assert [e["seq"] for e in served] == list(range(len(served)))
    assert len(served) < len(whole)  # the Irish secret orders were kept from Bob
    assert [e["seq"] for e in whole] == list(range(battle.state_seq))
    assert selectors.battle_view(bob)["seq"] == len(served)
    later = selectors.event_page(bob, after=4, limit=3)
    assert [e["seq"] for e in later.events] == [5, 6, 7]
    requests = [e for e in whole if e["kind"] == "decision_requested"]
    # Requests are numbered among themselves (all public), not by the log position.
    assert [e["request"]["id"] for e in requests] == [f"d{n}" for n in range(len(requests))]


def test_the_admin_lists_the_answers_sent_with_any_refusal(start_battle, play_defaults, admin_client):
    battle = start_battle()
    play_defaults(battle, limit=3)
    Decision.objects.filter(battle=battle).update(refused="SG-TEST-01: shown to the umpire")

    page = admin_client.get("/admin/battles/decision/")

    assert page.status_code == 200
    assert "SG-TEST-01: shown to the umpire" in page.content.decode()
