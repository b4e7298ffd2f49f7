"""The decision forms offer only legal choices (battles.decision_forms), on every shipped scenario: an AI battle is
driven decision by decision and, at each, every option, step and order part the form offers is checked to be an
answer (or a part of one) the engine takes on its own; and a posted form comes back as the answer it spells."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from django.http import QueryDict

from battles import decision_forms, engine_io
from battles.decision_forms import DecisionForm, FormError
from battles.engine import dice, resolver, simulate
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.state import BattleState, redact

DECISIONS_PER_SCENARIO = 90


@cache
def scenarios() -> dict[str, Any]:
    rs = engine_io.ruleset_for("sky_galleons")
    return {str(s["slug"]): s for s in rs.example_scenarios()}


def offered_answers(form: DecisionForm) -> list[Any]:
    """Every answer the form offers one part of, with the rest left as the form first shows it."""
    request = form.request
    found: list[Any] = []
    for group in form.groups:
        for field in group.fields:
            for option in field.options:
                if not option.value:
                    continue  # "hold fire", "nobody", "no change": the empty part
                value = json.loads(option.value)
                found.append(_answer_with(form, request, field.name, value))
    return found


def _answer_with(form: DecisionForm, request: DecisionRequest, name: str, value: Any) -> Any:
    if form.form in ("options", "candidates"):
        return value
    if form.form == "fire":
        return {"shots": [value]}
    if form.form == "orders":
        base: dict[str, Any] = {"crew": [], "strike": []}
        if name.startswith(("relief-", "guncrew-")):
            return {**base, "crew": [value]}
        if name == "strike":
            return {**base, "strike": [value]}
        if name == "ram":
            return {**base, "ram": value}
        return {**base, **value}
    if form.form in ("place", "reinforcement"):
        return {**request.default, name: value}
    raise AssertionError(f"no options expected in a {form.form} form")


def check_form(rs: Any, state: BattleState[Any], form: DecisionForm) -> None:
    for answer in offered_answers(form):
        assert decision_forms.legal(rs, state, form.request, answer), (form.request.kind, answer)
    if form.move is not None:
        move = form.move
        for step in move.steps:
            plan = [*move.plan, step.value]
            held = move.held and plan == form.request.default[: len(plan)]
            assert held or decision_forms.legal(rs, state, form.request, plan), (plan, form.request.ships)
        if move.steps:  # one step further: the form again, built on the plan with that step
            further = decision_forms.build(rs, state, form.request, plan=[*move.plan, move.steps[0].value])
            check_form(rs, state, further)
        for attack in move.attacks:
            choice = {"steps": move.plan, **json.loads(attack.value)}
            assert decision_forms.legal(rs, state, form.request, choice), choice


@pytest.mark.parametrize("slug", sorted(scenarios()))
def test_every_form_of_an_ai_battle_offers_only_legal_choices(slug: str) -> None:
    rs = engine_io.ruleset_for("sky_galleons")
    seed = simulate.seed_for(11)
    state = resolver.new_battle(rs, scenarios()[slug], seed_commitment=dice.commitment(seed))
    captains = {side: simulate.policy_for(rs, seed, side) for side in state.sides}
    state = resolver.resolve(rs, state, seed).state
    kinds: set[str] = set()
    for _ in range(DECISIONS_PER_SCENARIO):
        if state.over:
            break
        request = state.pending()[0]
        seen = redact(state, request.side)
        form = decision_forms.build(rs, seen, request)
        kinds.add(request.kind)
        check_form(rs, seen, form)
        assert decision_forms.legal(rs, seen, request, request.default)  # the default button
        accepted = resolver.submit(
            rs,
            state,
            side=request.side,
            request_id=request.id,
            choice=captains[request.side].choose(rs, seen, request),
            seed=seed,
        )
        assert not isinstance(accepted, Rejection), accepted
        state = accepted.state
    assert {"initiative orders", "move"} <= kinds


def post(**fields: Any) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        for item in value if isinstance(value, list) else [value]:
            data.appendlist(key, item)
    return data


def test_a_posted_move_with_a_ram_is_the_answer_it_spells() -> None:
    plan = json.dumps(["ahead", "port", "ahead"])

    assert decision_forms.choice_from_post("move", post(plan=plan, attack="")) == ["ahead", "port", "ahead"]
    assert decision_forms.choice_from_post("move", post(plan=plan, attack='{"ram": "Aphid"}')) == {
        "steps": ["ahead", "port", "ahead"],
        "ram": "Aphid",
    }


def test_posted_orders_put_their_parts_together() -> None:
    data = post(
        **{
            "relief-0-helm": '{"ship": "Aphid", "relief": "helm", "rank": "officer"}',
            "guncrew-0-1": "",
            "strike": [],
            "party-0-ship": "Aphid",
            "party-0-officers": "1",
            "party-0-deckhands": "3",
            "order": ['{"cut": [["Aphid", "Fenian Ram"]]}', '{"recall": ["Aphid"]}'],
            "ram": "1",
        }
    )

    assert decision_forms.choice_from_post("orders", data) == {
        "crew": [{"ship": "Aphid", "relief": "helm", "rank": "officer"}],
        "strike": [],
        "parties": [{"ship": "Aphid", "men": {"officers": 1, "deckhands": 3}}],
        "cut": [["Aphid", "Fenian Ram"]],
        "recall": ["Aphid"],
        "ram": 1,
    }


def test_fire_and_boarding_forms_post_their_shots_and_crossings() -> None:
    shot = '{"gun": "1", "ship": "Aphid", "target": "Fenian Ram"}'
    assert decision_forms.choice_from_post("fire", post(**{"shot-0": shot, "shot-1": ""})) == {
        "shots": [{"gun": "1", "ship": "Aphid", "target": "Fenian Ram"}]
    }
    crossing = post(**{"board-0-0": "5", "board-0-0-to": '{"ship": "Aphid", "target": "Fenian Ram"}', "board-0-1": "0"})
    assert decision_forms.choice_from_post("board", crossing) == {
        "boardings": [{"ship": "Aphid", "target": "Fenian Ram", "men": 5}]
    }


def test_a_tampered_form_is_refused_before_the_engine_is_asked() -> None:
    with pytest.raises(FormError):
        decision_forms.choice_from_post("options", post(choice="{not json"))
    with pytest.raises(FormError):
        decision_forms.choice_from_post("orders", post(ram="many"))
    with pytest.raises(FormError):
        decision_forms.choice_from_post("options", post())
