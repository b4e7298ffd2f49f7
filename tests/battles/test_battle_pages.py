"""The battle pages through the Django client: lists, the umpire's new battle, the battle page and its decision
forms (only legal options offered; an illegal answer refused in place with the rule's reason; a double post
counted once), leaving, corrections, the replay and the polling."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils.html import escape

from battles import decision_forms, engine_io, selectors, services
from battles.engine import answers, resolver
from battles.engine.events import canonical
from battles.engine.state import redact
from battles.models import Battle, BattleMode, BattleStatus, Correction, Decision, DecisionSource
from tests.battles.conftest import decider, first_unanswered
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(battle: Battle) -> str:
    return reverse("battle_detail", kwargs={"pk": battle.pk})


def decide(battle: Battle, request_id: str) -> str:
    return reverse("battle_decision", kwargs={"pk": battle.pk, "request_id": request_id})


def open_request(battle: Battle, side: str) -> Any:
    battle.refresh_from_db()
    stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
    return next(r for r in engine_io.current_state(battle).pending(side) if r.id not in stored)


def advance_to(battle: Battle, club: dict[str, Any], capture: Any, kind: str, side: str, limit: int = 400) -> Any:
    """Answer every open decision as the AI captain would until ``side`` is asked for a ``kind``."""
    for _ in range(limit):
        battle.refresh_from_db()
        assert not battle.is_finished, f"the battle ended before {side} was asked for a {kind}"
        stored = set(battle.decisions.filter(superseded_by__isnull=True).values_list("request_id", flat=True))
        pending = [r for r in engine_io.current_state(battle).pending() if r.id not in stored]
        wanted = next((r for r in pending if r.side == side and r.kind == kind), None)
        if wanted is not None:
            return wanted
        request = pending[0]
        user = battle.sides.get(key=request.side).user or club["umpire"]
        state = engine_io.current_state(battle)
        choice = services.ai_choice(engine_io.rules_of(battle), state, request, engine_io.seed_bytes(battle))
        with capture(execute=True):
            services.battle_submit_decision(battle_id=battle.pk, user=user, request_id=request.id, choice=choice)
    raise AssertionError(f"{side} was never asked for a {kind}")


def values_of(html: str, name: str) -> list[str]:
    """The values a page offers for a form control (radio, checkbox or select option under ``name``, in the orders
    form behind its decision's prefix)."""
    named = rf'name="(?:[^":]+:)?{name}"'
    found = [json.loads(v.replace("&quot;", '"')) for v in re.findall(rf'{named} value="([^"]*)"', html) if v]
    select = re.search(rf"<select {named}[^>]*>(.*?)</select>", html, re.S)
    if select:
        found += [
            json.loads(v.replace("&quot;", '"')) for v in re.findall(r'<option value="([^"]*)"', select.group(1)) if v
        ]
    return found


# --- who may see what ------------------------------------------------------------------------------------


def test_a_battle_outside_your_campaigns_is_not_found(client, club, start_battle):
    battle = start_battle()
    request = open_request(battle, "irish")
    client.force_login(UserFactory(username="stranger"))

    for url in (
        page(battle),
        reverse("battle_replay", kwargs={"pk": battle.pk}),
        reverse("battle_changes", kwargs={"pk": battle.pk}),
        reverse("battle_leave", kwargs={"pk": battle.pk}),
        reverse("battle_correct", kwargs={"pk": battle.pk}),
        decide(battle, request.id),
        reverse("battle_list", kwargs={"slug": "syrtis"}),
        reverse("battle_new", kwargs={"slug": "syrtis"}),
    ):
        assert client.get(url).status_code == 404, url
    response = client.post(decide(battle, request.id), {"form": "place", "use_default": "1"})
    assert response.status_code == 404
    assert not Decision.objects.filter(battle=battle).exists()


def test_the_lists_say_who_is_awaited(client, club, start_battle):
    battle = start_battle()
    client.force_login(club["alice"])

    mine = client.get(reverse("battle_mine")).content.decode()
    listed = client.get(reverse("battle_list", kwargs={"slug": "syrtis"})).content.decode()

    for html in (mine, listed):
        assert escape(battle.title) in html
        assert "Waiting for decisions" in html
        assert "<strong>You</strong>" in html  # Alice sets up first in Scenario 2
    client.force_login(club["bob"])
    assert "Liam O&#x27;Connor (Captain Alice)" in client.get(reverse("battle_mine")).content.decode()
    assert reverse("battle_mine") in client.get(reverse("home")).content.decode()
    campaign = client.get(reverse("campaign_detail", kwargs={"slug": "syrtis"})).content.decode()
    assert reverse("battle_list", kwargs={"slug": "syrtis"}) in campaign
    assert reverse("battle_new", kwargs={"slug": "syrtis"}) not in campaign  # the umpire's button only
    client.force_login(club["umpire"])  # the umpire's battles are his too
    assert escape(battle.title) in client.get(reverse("battle_mine")).content.decode()
    outsider = UserFactory(username="carruthers")
    client.force_login(outsider)
    assert escape(battle.title) not in client.get(reverse("battle_mine")).content.decode()


def test_umpire_only_pages_are_refused_to_players(client, club, start_battle, django_capture_on_commit_callbacks):
    battle = start_battle()
    client.force_login(club["alice"])

    assert client.get(reverse("battle_new", kwargs={"slug": "syrtis"})).status_code == 403
    assert client.get(reverse("battle_new_sides", kwargs={"slug": "syrtis"})).status_code == 403
    posted = client.post(reverse("battle_new", kwargs={"slug": "syrtis"}), {"scenario": "john-bulls-tyranny"})
    assert posted.status_code == 403
    assert client.get(reverse("battle_correct", kwargs={"pk": battle.pk})).status_code == 403
    assert client.post(reverse("battle_correct", kwargs={"pk": battle.pk}), {"reason": "x"}).status_code == 403
    assert Battle.objects.count() == 1

    bobs = advance_to(battle, club, django_capture_on_commit_callbacks, "place ship", "british")
    refused = client.post(decide(battle, bobs.id), {"use_default": "1", "form": "place"})  # Alice for Bob's side
    assert refused.status_code == 403
    assert not Decision.objects.filter(battle=battle, request_id=bobs.id).exists()


# --- the umpire's new battle -----------------------------------------------------------------------------


def test_the_new_battle_form_loads_the_scenarios_sides_and_starts_the_battle(
    client, club, django_capture_on_commit_callbacks
):
    client.force_login(club["umpire"])
    fragment = client.get(
        reverse("battle_new_sides", kwargs={"slug": "syrtis"}), {"scenario": "thieves-fall-out"}, **HTMX
    ).content.decode()
    assert {"side_roquette", "side_tharn", "side_blackwood"} <= set(re.findall(r'name="(side_\w+)"', fragment))
    advanced = re.search(r'<input[^>]*name="option_advanced"[^>]*>', fragment)
    errata = re.search(r'<input[^>]*name="option_errata"[^>]*>', fragment)
    assert advanced
    assert "checked" not in advanced.group(0)
    assert errata
    assert "checked" in errata.group(0)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("battle_new", kwargs={"slug": "syrtis"}),
            {
                "scenario": "john-bulls-tyranny",
                "mode": BattleMode.ASYNC,
                "decision_hours": "24",
                "deadline_default": "hold",
                "side_irish": f"player:{club['alice'].pk}",
                "side_british": f"player:{club['bob'].pk}",
                "option_advanced": "on",
                "option_errata": "on",
                "option_two_range_penetration": "on",
                "option_naval_codes": "on",
            },
        )

    battle = Battle.objects.get()
    assert response.status_code == 302
    assert response["Location"] == page(battle)
    assert {s.key: s.user for s in battle.sides.all()} == {"irish": club["alice"], "british": club["bob"]}
    assert battle.decision_hours == 24
    assert battle.deadline_default == "hold"
    assert battle.options["advanced"] is True
    assert battle.options["line_of_sight"] is False
    assert battle.status == BattleStatus.WAITING


def test_an_auto_resolved_battle_from_the_form_is_fought_by_the_ai(client, club, django_capture_on_commit_callbacks):
    client.force_login(club["umpire"])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("battle_new", kwargs={"slug": "syrtis"}),
            {
                "scenario": "thieves-fall-out",
                "mode": BattleMode.AUTO,
                "decision_hours": "48",
                "deadline_default": "ai",
                "side_roquette": f"player:{club['alice'].pk}",  # ignored: the AI fights every side
                "side_tharn": "umpire",
                "side_blackwood": "ai",
            },
        )
    battle = Battle.objects.get()
    assert battle.status == BattleStatus.FINISHED
    assert set(battle.sides.values_list("controller", flat=True)) == {"ai"}
    html = client.get(page(battle)).content.decode()
    assert "The battle is over" in html
    assert reverse("battle_replay", kwargs={"pk": battle.pk}) in html


# --- the decision forms ----------------------------------------------------------------------------------


def test_the_set_up_form_offers_only_legal_hexes_and_an_illegal_one_is_refused_with_the_reason(
    client, club, start_battle
):
    battle = start_battle()
    request = open_request(battle, "irish")
    client.force_login(club["alice"])
    html = client.get(page(battle)).content.decode()
    state = engine_io.current_state(battle)
    rs = engine_io.rules_of(battle)

    hexes = values_of(html, "hex")
    assert hexes
    assert request.default["hex"] in hexes
    for spot in hexes:
        choice = {**request.default, "hex": spot}
        assert resolver.check_decision(rs, state, side="irish", request_id=request.id, choice=choice) is None
    assert [0, 0] not in hexes  # the far corner is outside the Irish set-up area

    response = client.post(
        decide(battle, request.id),
        {"form": "place", "hex": "[0, 0]", "facing": "0", "altitude": '"M"', "idempotency_key": "k1"},
        **HTMX,
    )
    assert response.status_code == 422
    text = response.content.decode()
    assert "Refused:" in text
    assert 'id="decision-' + request.id + '"' in text
    refusal = resolver.check_decision(
        rs, state, side="irish", request_id=request.id, choice={**request.default, "hex": [0, 0]}
    )
    assert refusal is not None
    assert refusal.reason.replace("'", "&#x27;") in text
    assert refusal.clause in text
    assert not Decision.objects.filter(battle=battle).exists()


def test_a_double_post_of_one_form_counts_once(client, club, start_battle, django_capture_on_commit_callbacks):
    battle = start_battle()
    request = open_request(battle, "irish")
    client.force_login(club["alice"])
    form = {"form": "place", "use_default": "1", "idempotency_key": "one-click"}

    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(decide(battle, request.id), form)
    with django_capture_on_commit_callbacks(execute=True):
        second = client.post(decide(battle, request.id), form)

    assert first.status_code == second.status_code == 302
    assert Decision.objects.filter(battle=battle, request_id=request.id).count() == 1
    decision = Decision.objects.get(battle=battle, request_id=request.id)
    assert decision.source == DecisionSource.PLAYER
    assert decision.idempotency_key == "one-click"


def test_the_move_is_built_from_legal_steps_only(client, club, start_battle, django_capture_on_commit_callbacks):
    battle = start_battle()
    request = advance_to(battle, club, django_capture_on_commit_callbacks, "move", "irish")
    client.force_login(club["alice"])
    rs = engine_io.rules_of(battle)
    state = engine_io.current_state(battle)

    html = client.get(decide(battle, request.id), **HTMX).content.decode()
    offered = re.findall(r'name="step" value="[^"|]+\|([^"]+)"', html)
    assert "ahead" in offered
    assert "power port" not in offered  # the Fenian Ram is no steamer (SG-MOV-04)
    assert "port" not in offered  # a turn follows a hex moved (SG-MOV-02)
    assert "tack port" not in offered  # only kites tack

    plan: list[str] = []
    for _ in range(3):
        html = client.get(
            decide(battle, request.id), {"plan": json.dumps(plan), "step": "ahead"}, **HTMX
        ).content.decode()
        plan.append("ahead")
        for step in re.findall(r'name="step" value="[^"|]+\|([^"]+)"', html):
            rejected = resolver.check_decision(rs, state, side="irish", request_id=request.id, choice=[*plan, step])
            assert rejected is None, (plan, step, rejected)
    assert "ahead, ahead, then ahead" in html

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            decide(battle, request.id),
            {"form": "move", "steps": json.dumps(plan), "attack": "", "idempotency_key": "m"},
        )
    assert response.status_code == 302
    assert Decision.objects.get(battle=battle, request_id=request.id).choice == plan
    stale = client.get(decide(battle, request.id), {"plan": "[]", "step": "ahead"}, **HTMX)  # an old tab's click
    assert stale["HX-Refresh"] == "true"


@pytest.mark.rule("SG-MOV-01")
def test_a_move_beyond_the_allowance_is_refused_with_the_rule(
    client, club, start_battle, django_capture_on_commit_callbacks
):
    battle = start_battle()
    request = advance_to(battle, club, django_capture_on_commit_callbacks, "move", "irish")
    client.force_login(club["alice"])

    response = client.post(
        decide(battle, request.id),
        {"form": "move", "steps": json.dumps(["ahead"] * 12), "idempotency_key": "far"},
        **HTMX,
    )

    assert response.status_code == 422
    assert "SG-MOV-01" in response.content.decode()
    assert "movement allowance" in response.content.decode()
    assert not Decision.objects.filter(battle=battle, request_id=request.id).exists()


def test_every_form_of_a_battle_offers_only_legal_choices(club, start_battle, django_capture_on_commit_callbacks):
    """Drive Scenario 2 with the AI's answers and check, at each decision, that every option and step the page
    would offer is an answer the engine takes on its own."""
    battle = start_battle("john-bulls-tyranny", mode=BattleMode.TABLE)
    rs = engine_io.rules_of(battle)
    kinds: set[str] = set()
    for _ in range(120):
        battle.refresh_from_db()
        if battle.is_finished:
            break
        viewer = selectors.viewer_for(battle=battle, user=club["umpire"])
        forms = selectors.decision_forms_for(viewer)
        assert forms, "the umpire at the table has every open decision"
        state = engine_io.current_state(battle)
        for form in forms:
            kinds.add(form.request.kind)
            seen = redact(state, form.request.side)
            for option in (o for g in form.groups for f in g.fields for o in f.options if o.value):
                value = json.loads(option.value)
                if form.form in ("options", "candidates"):
                    assert decision_forms.legal(rs, seen, form.request, value), (form.request.kind, option)
                elif form.form == "fire":
                    assert decision_forms.legal(rs, seen, form.request, {"shots": [value]}), option
            if form.move is not None:
                for step in form.move.steps:
                    plan = [*form.move.plan, step.value]
                    held = bool(form.move.note) and plan == form.request.default[: len(plan)]
                    assert held or decision_forms.legal(rs, seen, form.request, plan), step
        form = forms[0]
        choice = services.ai_choice(rs, state, form.request, engine_io.seed_bytes(battle))
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(battle_id=battle.pk, user=club["umpire"], request_id=form.id, choice=choice)
    assert {"place ship", "initiative orders", "first player", "move", "fire"} <= kinds


def test_the_fire_form_offers_each_gun_its_legal_targets(
    club, start_battle, django_capture_on_commit_callbacks, client
):
    battle = start_battle(options={"standing_orders": False})  # fire asked as it comes, not by standing order
    request = advance_to(battle, club, django_capture_on_commit_callbacks, "fire", "british")
    client.force_login(club["bob"])
    rs = engine_io.rules_of(battle)
    state = redact(engine_io.current_state(battle), "british")

    html = client.get(page(battle)).content.decode()
    shots = [
        json.loads(v.replace("&quot;", '"')) for v in re.findall(r'name="(?:\w+:)?shots\.\d+" value="([^"]+)"', html)
    ]
    solutions = {(s.firer, s.gun_id, s.target) for s in rs.solutions(state, "british")}
    assert shots
    assert {(s["ship"], s["gun"], s["target"]) for s in shots} <= solutions | {
        (s["ship"], s["gun"], s["target"]) for s in shots if "battery" in s or "launch" in s
    }
    for shot in shots:
        assert decision_forms.legal(rs, state, request, {"shots": [shot]})
    assert "Hold fire" in html
    assert "needs " in html


# --- table mode, leaving, corrections ------------------------------------------------------------------------


def test_at_the_table_the_umpire_answers_every_side(client, club, start_battle, django_capture_on_commit_callbacks):
    battle = start_battle(mode=BattleMode.TABLE)
    client.force_login(club["umpire"])
    request = open_request(battle, "irish")

    html = client.get(page(battle)).content.decode()
    assert "Decisions at the table" in html
    assert f'id="decision-{request.id}"' in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(decide(battle, request.id), {"form": "place", "use_default": "1", "idempotency_key": "t1"})
    british = open_request(battle, "british")
    assert f'id="decision-{british.id}"' in client.get(page(battle)).content.decode()
    assert Decision.objects.get(request_id=request.id).source == DecisionSource.UMPIRE

    client.force_login(club["alice"])  # at the table the players watch: the umpire enters their decisions
    assert 'class="decision ' not in client.get(page(battle)).content.decode()


def test_leaving_needs_a_confirmation(client, club, start_battle, django_capture_on_commit_callbacks):
    battle = start_battle()
    client.force_login(club["alice"])
    url = reverse("battle_leave", kwargs={"pk": battle.pk})

    assert "Leave the battle?" in client.get(url).content.decode()
    unconfirmed = client.post(url, {"side": "irish", "how": "concede"})
    assert unconfirmed.status_code == 422
    battle.refresh_from_db()
    assert not battle.is_finished
    assert client.post(url, {"side": "british", "how": "concede", "confirm": "on"}).status_code == 422  # Bob's side

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"side": "irish", "how": "concede", "confirm": "on"})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.is_finished
    assert battle.winner == "british"
    assert battle.sides.get(key="irish").left == "concede"


def test_the_umpire_corrects_a_decision_of_this_turn(client, club, start_battle, django_capture_on_commit_callbacks):
    battle = start_battle(mode=BattleMode.TABLE)
    client.force_login(club["umpire"])
    request = open_request(battle, "irish")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(decide(battle, request.id), {"form": "place", "use_default": "1", "idempotency_key": "c1"})
    url = reverse("battle_correct", kwargs={"pk": battle.pk})

    html = client.get(url).content.decode()
    assert f'value="{request.id}"' in html
    hexes = values_of(html, "hex")
    other = next(h for h in hexes if h != request.default["hex"])
    refused = client.post(
        url,
        {
            "decision": request.id,
            "form": "place",
            "hex": json.dumps(request.default["hex"]),
            "facing": str(request.default["facing"]),
            "altitude": json.dumps(request.default["altitude"]),
            "reason": "same again",
        },
    )
    assert refused.status_code == 422
    assert "re-roll" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url,
            {
                "decision": request.id,
                "form": "place",
                "hex": json.dumps(other),
                "facing": str(request.default["facing"]),
                "altitude": json.dumps(request.default["altitude"]),
                "reason": "Alice meant the next hex",
            },
        )
    assert response.status_code == 302
    correction = Correction.objects.get(battle=battle)
    assert correction.new_choice["hex"] == other
    assert correction.reason == "Alice meant the next hex"


# --- polling and the replay ----------------------------------------------------------------------------------


def test_the_page_asks_for_changes_until_the_battle_moves_on(
    client, club, start_battle, django_capture_on_commit_callbacks
):
    battle = start_battle()
    client.force_login(club["bob"])
    html = client.get(page(battle)).content.decode()
    changes = re.search(r'id="battle-changes" hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")

    assert client.get(changes, **HTMX).status_code == 204
    request = open_request(battle, "irish")
    with django_capture_on_commit_callbacks(execute=True):
        services.battle_submit_decision(
            battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=request.default
        )
    moved = client.get(changes, **HTMX)
    assert moved.status_code == 200
    assert "HX-Refresh" not in moved  # the regions are swapped in place (tests/battles/test_battle_live.py)
    assert 'id="battle-status"' in moved.content.decode()


def test_the_replay_shows_the_board_after_each_turn(client, club, start_battle, play_defaults):
    battle = start_battle()
    client.force_login(club["alice"])
    replay = reverse("battle_replay", kwargs={"pk": battle.pk})
    assert client.get(replay).status_code == 404  # not before the end

    play_defaults(battle)
    battle.refresh_from_db()
    last = client.get(replay).content.decode()
    assert f"After turn {battle.turn}" in last
    # The slider runs over every turn, the set-up first; at the last turn only the previous turn is offered.
    assert f'type="range" id="replay-turn" name="turn" min="0" max="{battle.turn}" value="{battle.turn}"' in last
    assert re.search(rf'data-step="-1" rel="prev" href="[^"]*\?turn={battle.turn - 1}">', last)
    assert re.search(r'data-step="1" rel="next" href="[^"]*" aria-disabled="true">', last)
    first = client.get(replay, {"turn": "1"}).content.decode()
    assert "After turn 1" in first
    assert re.search(r'data-step="1" rel="next" href="[^"]*\?turn=2">', first)
    frame = client.get(replay, {"turn": "1"}, **HTMX).content.decode()
    assert "After turn 1" in frame
    assert "<html" not in frame
    assert 'id="replay-turn"' not in frame  # the slider stays on the page; only the frame is swapped
    restored = client.get(replay, {"turn": "1"}, **HTMX, HTTP_HX_HISTORY_RESTORE_REQUEST="true").content.decode()
    assert 'id="replay-turn"' in restored
    assert "<html" in restored


# --- every registered ruleset ------------------------------------------------------------------------------


def form_fields(schema: Any, answer: Any) -> dict[str, Any]:
    """The posted fields that spell ``answer`` in the schema's form, as the page's controls would post them."""
    return {
        name: values if len(values) > 1 else values[0] for name, values in answers.disassemble(schema, answer).items()
    }


def test_every_rulesets_battle_page_draws_its_map_its_decision_form_and_its_log_in_words(
    every_ruleset, client, club, ruleset_battle, django_capture_on_commit_callbacks
):
    rs = every_ruleset
    battle = ruleset_battle(rs)
    request = first_unanswered(battle)
    user = decider(battle, club, request.side)
    client.force_login(user)
    viewer = selectors.viewer_for(battle=battle, user=user)
    board = rs.board_view(engine_io.current_state(battle), viewer.side)

    html = client.get(page(battle)).content.decode()

    placed = [c.key for c in rs.map_view(board).counters]
    assert placed, "the first scenario puts pieces on the map"
    map_svg = re.search(r'<svg[^>]*aria-roledescription="map".*?</svg>', html, re.S)
    assert map_svg
    for name in placed:
        assert f'data-ship="{escape(name)}"' in map_svg.group(0), name
    form = next(f for f in selectors.decision_forms_for(viewer) if f.id == request.id)
    assert f'id="decision-{request.id}"' in html
    drawn = [name for name, item in answers.leaves(form.schema) if not isinstance(item, answers.Path)]
    for name in drawn:
        assert f'name="{form.prefix}{name}"' in html, (request.kind, name)
    if form.move is not None:  # a path is built step by step from the steps the rules accept next
        assert all(f'name="step" value="{form.id}|{escape(s.value)}"' in html for s in form.move.steps)
    lines = [line for turn in selectors.narrated_log(viewer, details=True) for line in turn.lines]
    assert lines
    for line in lines:
        assert line.detail or escape(line.text) in html, line.text
    names = selectors.battle_names(battle, board)
    for event in selectors.event_log(viewer):  # each told by the ruleset in words, not the plain kind-and-fields line
        assert rs.narrate(event, names), event

    fields = form_fields(form.schema, request.default)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(decide(battle, request.id), {"form": form.form, "idempotency_key": "all-1", **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert canonical(Decision.objects.get(battle=battle, request_id=request.id).choice) == canonical(request.default)


def test_every_rulesets_battle_ends_and_its_page_replay_sheets_and_log_verify(
    every_ruleset, client, club, ruleset_battle
):
    rs = every_ruleset
    battle = ruleset_battle(rs, mode=BattleMode.AUTO)
    assert battle.is_finished
    client.force_login(club["umpire"])

    html = client.get(page(battle)).content.decode()
    assert "The battle is over" in html
    assert selectors.battle_verify(battle=battle) == []
    replay = client.get(reverse("battle_replay", kwargs={"pk": battle.pk})).content.decode()
    assert f"After turn {battle.turn}" in replay
    first = client.get(reverse("battle_replay", kwargs={"pk": battle.pk}), {"turn": "1"}).content.decode()
    assert "After turn 1" in first
    assert 'aria-roledescription="map"' in first

    board = rs.board_view(engine_io.current_state(battle), None)
    ships = [
        str(s["name"])
        for s in selectors.ships_at_start(selectors.viewer_for(battle=battle, user=club["umpire"])).values()
    ]
    assert ships
    for name in ships:
        sheet = client.get(reverse("battle_ship_sheet", kwargs={"battle_id": battle.pk, "name": name}))
        assert sheet.status_code == 200
        assert f'data-ship="{escape(name)}"' in sheet.content.decode()
        pdf = client.get(reverse("battle_ship_sheet_pdf", kwargs={"battle_id": battle.pk, "name": name}))
        assert pdf.status_code == 200
        assert pdf.content.startswith(b"%PDF")
        assert rs.record_sheet(board, name) is not None
    assert f'data-ship="{escape(ships[0])}"' in html  # the page's own sheets


@pytest.fixture
def template_ruleset() -> Any:
    """The skeleton's ruleset (battles/rules/_template), registered for one test: its board keeps "pieces"."""
    from battles.engine import ruleset as registry
    from battles.rules._template.ruleset import RULESET

    registry.register(RULESET)
    yield RULESET
    registry.unregister(RULESET.key, RULESET.version)


def test_a_ruleset_whose_board_keeps_pieces_not_ships_has_its_sheets_on_the_page(
    client, club, template_ruleset, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(
            campaign=club["campaign"],
            created_by=club["umpire"],
            scenario_slug="example",
            ruleset_key=template_ruleset.key,
            mode=BattleMode.AUTO,
        )
    battle.refresh_from_db()
    client.force_login(club["umpire"])

    html = client.get(page(battle)).content.decode()
    replay = client.get(reverse("battle_replay", kwargs={"pk": battle.pk})).content.decode()
    sheet = client.get(reverse("battle_ship_sheet", kwargs={"battle_id": battle.pk, "name": "First"}))

    assert battle.is_finished
    for drawn in (html, replay):
        assert 'class="sheet' in drawn
        assert 'data-ship="First"' in drawn
        assert "No ships." not in drawn
    assert sheet.status_code == 200
    assert selectors.battle_verify(battle=battle) == []
