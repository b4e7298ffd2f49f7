"""Cloudships of Mars in the battle app's modes the tests for every ruleset leave out (they play it turn by turn on
the web and auto-resolve it): at the table the umpire enters every decision, and with the option umpire_turns_cards
he also gives the go-ahead before each card (CM-SEQ-03, docs/cloudships.md section 3); on the web the app turns the
cards itself, or with the option the umpire does from his page, the go-ahead his alone (DecisionRequest.umpire): the
players wait for it, a player's answer is refused, an umpire away lets the deadline turn it, and where no person
plays the AI turns it. The ruleset is named by its key only, as the app knows it."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from battles import engine_io, selectors, services
from battles.models import Battle, BattleMode, BattleStatus, DeadlineDefault, Decision, DecisionSource
from battles.services import SideControl
from campaign.models import Notification

KEY = "cloudships_2023"
SCENARIO = "raid-on-the-canal"
TURN_CARD = "turn the next card"  # the go-ahead's request kind (kinds.TURN_CARD), as the app sees it: data
UMPIRE_TURNS = {"umpire_turns_cards": True}


def start(club: dict[str, Any], capture: Any, mode: str, **kwargs: Any) -> Battle:
    with capture(execute=True):
        battle = services.battle_create(
            campaign=club["campaign"],
            created_by=club["umpire"],
            scenario_slug=SCENARIO,
            ruleset_key=KEY,
            mode=mode,
            **kwargs,
        )
    battle.refresh_from_db()
    return battle


def open_requests(battle: Battle) -> list[Any]:
    stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
    return [r for r in engine_io.current_state(battle).pending() if r.id not in stored]


def finished(battle: Battle) -> bool:
    battle.refresh_from_db()
    return battle.is_finished


@pytest.mark.rule("CM-SEQ-03")
def test_at_the_table_the_umpire_turns_each_card_and_enters_every_decision(
    client, club, django_capture_on_commit_callbacks
):
    battle = start(club, django_capture_on_commit_callbacks, BattleMode.TABLE, options={"umpire_turns_cards": True})
    client.force_login(club["umpire"])
    page = reverse("battle_detail", kwargs={"pk": battle.pk})
    kinds: list[str] = []
    while len(kinds) < 12 and not finished(battle):
        request = open_requests(battle)[0]
        html = client.get(page).content.decode()
        assert "Decisions at the table" in html
        assert f'id="decision-{request.id}"' in html
        viewer = selectors.viewer_for(battle=battle, user=club["umpire"])
        form = next(f for f in selectors.decision_forms_for(viewer) if f.id == request.id)
        decide = reverse("battle_decision", kwargs={"pk": battle.pk, "request_id": request.id})
        with django_capture_on_commit_callbacks(execute=True):
            posted = {"form": form.form, "use_default": "1", "idempotency_key": f"t{len(kinds)}"}
            response = client.post(decide, posted)
        assert response.status_code == 302
        assert Decision.objects.get(battle=battle, request_id=request.id).source == DecisionSource.UMPIRE
        kinds.append(request.kind)
    assert kinds[0] == TURN_CARD  # nothing happens before the umpire turns the first card
    assert kinds.count(TURN_CARD) >= 2  # and again after a ship's turn
    assert kinds.index("move") < kinds.index(TURN_CARD, 1)  # the first ship moved before the second card
    client.force_login(club["alice"])  # at the table the players watch
    assert 'class="decision ' not in client.get(page).content.decode()


def test_on_the_web_the_app_turns_the_cards_and_the_players_answer_for_their_ships(
    club, django_capture_on_commit_callbacks
):
    sides = {"british": SideControl("player", club["alice"]), "martians": SideControl("player", club["bob"])}
    battle = start(club, django_capture_on_commit_callbacks, BattleMode.ASYNC, sides=sides)
    kinds: list[str] = []
    while len(kinds) < 16 and not finished(battle):
        request = open_requests(battle)[0]
        user = battle.sides.get(key=request.side).user
        assert user in (club["alice"], club["bob"])
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(
                battle_id=battle.pk, user=user, request_id=request.id, choice=request.default
            )
        kinds.append(request.kind)
    assert TURN_CARD not in kinds
    assert kinds.count("move") >= 2  # a second ship's card was turned with nobody asked
    assert engine_io.current_state(battle).turn >= 1


def test_the_odds_from_the_command_line_count_each_sides_damage_and_ships_out():
    """simulate_battle --ruleset: the AI fights the scenario out; the odds add up each side's boxes crossed and
    ships out of the fight (the ruleset's tally)."""
    out = StringIO()
    args = ("--ruleset", KEY, "--scenario", SCENARIO, "--runs", "2", "--processes", "1", "--json")
    call_command("simulate_battle", *args, stdout=out)
    odds = json.loads(out.getvalue())
    assert odds["runs"] == 2
    assert set(odds["sides_mean"]) == {"british", "martians"}
    assert all(set(figures) == {"boxes_crossed", "ships_out"} for figures in odds["sides_mean"].values())
    assert sum(figures["boxes_crossed"] for figures in odds["sides_mean"].values()) > 0  # they fought


@pytest.mark.parametrize("how", ["surrender", "withdraw"])
def test_a_side_that_leaves_is_played_out_by_the_rules_and_the_other_plays_on(
    club, django_capture_on_commit_callbacks, how
):
    """Web play: the British surrender (the rules' defaults answer for them) or withdraw (their ships make for the
    nearest edge and fly off it: ai.Leaving); Bob plays the Martians on with the defaults to the end."""
    sides = {"british": SideControl("player", club["alice"]), "martians": SideControl("player", club["bob"])}
    battle = start(club, django_capture_on_commit_callbacks, BattleMode.ASYNC, sides=sides)
    with django_capture_on_commit_callbacks(execute=True):
        services.battle_leave(battle_id=battle.pk, user=club["alice"], side_key="british", how=how)
    made = 0
    while not finished(battle):
        request = open_requests(battle)[0]
        assert request.side == "martians"  # the British answer for themselves now
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(
                battle_id=battle.pk, user=club["bob"], request_id=request.id, choice=request.default
            )
        made += 1
        assert made < 200, "the battle does not end"
    assert selectors.battle_verify(battle=battle) == []
    if how == "withdraw":
        fates = {
            ship.name: ship.fate for ship in engine_io.battle_outcome(battle).ships if ship.side_at_start == "british"
        }
        assert "escaped" in fates.values(), fates  # at least one flew off her edge


def web_sides(club: dict[str, Any]) -> dict[str, SideControl]:
    return {"british": SideControl("player", club["alice"]), "martians": SideControl("player", club["bob"])}


def orders_post(battle: Battle, user: Any) -> dict[str, str]:
    """The umpire's page's orders form as his "Turn the next card" button sends it."""
    viewer = selectors.viewer_for(battle=battle, user=user)
    (form,) = selectors.decision_forms_for(viewer)
    (field,) = [f for group in form.groups for f in group.fields]
    return {
        "requests": form.id,
        f"{form.prefix}form": form.form,
        f"{form.prefix}idempotency_key": form.idempotency_key,
        f"{form.prefix}{field.name}": field.options[0].value,
    }


@pytest.mark.rule("CM-SEQ-03")
def test_in_web_play_the_umpire_turns_each_card_from_his_page_and_no_player_can(
    client, club, django_capture_on_commit_callbacks
):
    battle = start(
        club, django_capture_on_commit_callbacks, BattleMode.ASYNC, sides=web_sides(club), options=UMPIRE_TURNS
    )
    (go_ahead,) = open_requests(battle)
    assert (go_ahead.kind, go_ahead.umpire) == (TURN_CARD, True)
    assert selectors.awaited_sides(battle) == []  # no side is awaited: the umpire is
    assert selectors.umpire_awaited(battle)
    for user, owes in ((club["umpire"], True), (club["alice"], False)):  # the lists of battles say whose turn it is
        listed = list(selectors.battles_for_user(user=user).filter(pk=battle.pk))
        (row,) = selectors.battle_rows(battles=listed, user=user)
        assert (row.awaited, row.mine) == (("the umpire",), owes)
        (summary,) = selectors.battle_summaries(user=user, battles=listed)
        assert summary.waiting_for_me is owes
    # Told to the umpire, not to the player whose side the go-ahead is logged under.
    told = Notification.objects.filter(title__contains=TURN_CARD)
    assert {n.user for n in told} == {club["umpire"]}
    page = reverse("battle_detail", kwargs={"pk": battle.pk})
    api = reverse("api_battle_decisions", kwargs={"battle_id": battle.pk})
    for player in (club["alice"], club["bob"]):
        client.force_login(player)
        html = client.get(page).content.decode()
        assert 'class="decision ' not in html
        assert "Turn the next card" not in html
        assert "Waiting for the umpire to turn the next card." in html
        assert client.get(api).json() == []  # nothing of his to answer
        (seen,) = client.get(reverse("api_battle_detail", kwargs={"battle_id": battle.pk})).json()["pending"]
        assert (seen["id"], seen["umpire"], seen["yours"]) == (go_ahead.id, True, False)
        assert not seen.get("schema")
        refused = client.post(api, {"request": go_ahead.id, "choice": "turn"}, content_type="application/json")
        assert refused.status_code == 403
        assert refused.json()["detail"] == "This decision is the umpire's to make."
        # The page's orders form sent with the go-ahead's id: not his to send, so nothing is (the page says so).
        orders = client.post(reverse("battle_orders", kwargs={"pk": battle.pk}), {"requests": go_ahead.id})
        assert orders.status_code == 302
    assert not Decision.objects.filter(battle=battle).exists()

    client.force_login(club["umpire"])
    html = client.get(page).content.decode()
    assert "The umpire's decisions" in html
    assert '<button type="submit" class="button orders__send orders__send--go">Turn the next card</button>' in html
    (mine,) = client.get(api).json()
    assert (mine["id"], mine["yours"], mine["options"]) == (go_ahead.id, True, ["turn"])
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(reverse("battle_orders", kwargs={"pk": battle.pk}), orders_post(battle, club["umpire"]))
    assert sent.status_code == 302
    decision = Decision.objects.get(battle=battle, request_id=go_ahead.id)
    assert (decision.source, decision.submitted_by, decision.choice) == (DecisionSource.UMPIRE, club["umpire"], "turn")
    battle.refresh_from_db()
    (moving,) = open_requests(battle)  # the card is turned: her captain's orders (her mines, or her move)
    assert not moving.umpire
    assert moving.kind in ("mines and torpedoes", "move")
    assert battle.sides.get(key=moving.side).user in (club["alice"], club["bob"])
    assert not selectors.umpire_awaited(battle)


@pytest.mark.parametrize("default", [DeadlineDefault.AI, DeadlineDefault.HOLD])
def test_an_umpire_away_lets_the_deadline_turn_the_card(club, django_capture_on_commit_callbacks, default):
    """The go-ahead has its deadline like any decision (decision_hours from when it was asked); past it the
    default turns the card, whichever the battle's deadline default, so an absent umpire holds the battle up no
    longer than a player would."""
    battle = start(
        club,
        django_capture_on_commit_callbacks,
        BattleMode.ASYNC,
        sides=web_sides(club),
        options=UMPIRE_TURNS,
        deadline_default=default,
    )
    assert battle.deadline is not None
    assert services.battle_apply_deadline(battle_id=battle.pk, now=battle.deadline - timedelta(minutes=1)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        given = services.battle_apply_deadline(battle_id=battle.pk, now=battle.deadline + timedelta(minutes=1))
    assert given == 1
    decision = Decision.objects.get(battle=battle, kind=TURN_CARD)
    assert (decision.source, decision.choice) == (DecisionSource.DEADLINE, "turn")
    battle.refresh_from_db()
    (moving,) = open_requests(battle)
    assert moving.kind in ("mines and torpedoes", "move")  # the card is turned
    assert battle.deadline is not None  # the move's own deadline


def test_where_no_person_plays_the_ai_turns_the_cards(club, django_capture_on_commit_callbacks):
    """Auto-resolve, and a web battle handed to the AI captains at its window's end: nobody waits for the umpire's
    go-ahead, so the side's captain gives it and the battle ends."""
    auto = start(club, django_capture_on_commit_callbacks, BattleMode.AUTO, options=UMPIRE_TURNS)
    assert auto.status == BattleStatus.FINISHED
    assert Decision.objects.filter(battle=auto, kind=TURN_CARD, source=DecisionSource.AI).exists()
    web = start(club, django_capture_on_commit_callbacks, BattleMode.ASYNC, sides=web_sides(club), options=UMPIRE_TURNS)
    assert open_requests(web)[0].umpire
    with django_capture_on_commit_callbacks(execute=True):
        services.battle_hand_over_to_ai(battle_id=web.pk, reason="the window closed")
    assert finished(web)
    assert selectors.battle_verify(battle=web) == []
