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
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.ordnance import LIQUID_FIRE

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
        if name.startswith("train-"):
            return {**base, "train": [value]}
        if name.startswith("signal-"):
            return {**base, "signal": signal_with(form, name, value)}
        return {**base, **value}
    if form.form == "plot":
        return {"plots": {**request.default["plots"], value["ship"]: value["steps"]}}
    if form.form in ("place", "reinforcement"):
        return {**request.default, name: value}
    raise AssertionError(f"no options expected in a {form.form} form")


def signal_with(form: DecisionForm, name: str, value: Any) -> dict[str, Any]:
    """A signal with this part and the form's first choice for the others (to: the first ship not the sender)."""
    fields = {f.name: f for g in form.groups for f in g.fields}
    ship = value if name == "signal-ship" else json.loads(fields["signal-ship"].options[0].value)
    addressees = [json.loads(o.value) for o in fields["signal-to"].options]
    if name == "signal-to":
        senders = [json.loads(o.value) for o in fields["signal-ship"].options]
        ship = next((s for s in senders if s != value), ship)  # a ship does not signal itself
    to = value if name == "signal-to" else next(a for a in addressees if a != ship)
    return {"ship": ship, "to": to, "words": "close with the enemy"}


def check_form(rs: Any, state: BattleState[Any], form: DecisionForm) -> None:
    for answer in offered_answers(form):
        signal = answer.get("signal") if isinstance(answer, dict) else None
        if signal is not None and signal["ship"] == signal["to"]:
            continue  # the one sender and the one addressee picked apart: the engine says why (SG-SIG-04)
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
        for field in move.drops:
            for option in field.options[1:]:
                choice = {"steps": move.plan, "drops": [json.loads(option.value)]}
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


@pytest.mark.rule("SG-LF-01", "SG-LF-06")
def test_the_move_form_offers_the_drops_a_plan_allows_and_posts_them_with_the_steps() -> None:
    from tests.rules.sky_galleons.test_ordnance_battle import DART, dropper_over, ship  # a battle fixture

    rs = engine_io.ruleset_for("sky_galleons")
    state, request = dropper_over(ship("Dart", DART, (8, 7), altitude="L"), [(LIQUID_FIRE, 2)], b"form-drops")
    short = decision_forms.build(rs, state, request, plan=["ahead"]).move
    assert short is not None
    assert short.drops == []
    over = decision_forms.build(rs, state, request, plan=["ahead", "ahead"]).move
    assert over is not None
    (field,) = over.drops
    assert "liquid fire on Dart" in field.label
    assert [json.loads(o.value)["count"] for o in field.options[1:]] == [1, 2]  # two racks aboard
    data = post(plan=json.dumps(over.plan), attack="", **{field.name: field.options[1].value})
    answer = decision_forms.choice_from_post("move", data)
    assert answer == {"steps": ["ahead", "ahead"], "drops": [{"count": 1, "target": "Dart", "weapon": LIQUID_FIRE}]}
    assert decision_forms.legal(rs, state, request, answer)


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


@pytest.mark.rule("SG-MG-04", "SG-MG-06")
def test_the_orders_form_trains_a_portable_machinegun_on_the_aspects_it_can_move_to() -> None:
    from tests.rules.sky_galleons.test_portable_guns import GARDNER, armed  # an Aphid with a Gardner

    rs = engine_io.ruleset_for("sky_galleons")
    _, state = armed()
    request = state.pending("a")[0]
    form = decision_forms.build(rs, redact(state, "a"), request)
    fields = {f.name: f for g in form.groups for f in g.fields}
    training = fields[f"train-0-{GARDNER}"]
    aspects = [json.loads(o.value)["aspect"] for o in training.options[1:]]
    assert sorted(aspects) == ["bow", "port", "stern"]  # she is on the starboard already
    answer = decision_forms.choice_from_post("orders", post(**{training.name: training.options[1].value}))
    assert answer["train"] == [json.loads(training.options[1].value)]
    assert decision_forms.legal(rs, state, request, answer)


@pytest.mark.rule("SG-SIG-01", "SG-SIG-04")
def test_the_orders_form_hoists_a_signal_of_a_few_words_only_when_words_are_given() -> None:
    from tests.rules.sky_galleons.test_signals import fleet, orders_request

    rs = engine_io.ruleset_for("sky_galleons")
    state = fleet({"signals": True})
    request = orders_request(state)
    form = decision_forms.build(rs, redact(state, "a"), request)
    (group,) = [g for g in form.groups if g.legend == "Signal"]
    fields = {f.name: f for f in group.fields}
    assert [json.loads(o.value) for o in fields["signal-ship"].options] == ["Flag", "Consort"]
    assert {"all", "Runner"} <= {json.loads(o.value) for o in fields["signal-to"].options}
    spelled = post(**{"signal-ship": '"Flag"', "signal-to": '"all"', "signal-words": "  Form   line astern "})
    answer = decision_forms.choice_from_post("orders", spelled)
    assert answer["signal"] == {"ship": "Flag", "to": "all", "words": "Form line astern"}
    assert decision_forms.legal(rs, state, request, answer)
    silent = decision_forms.choice_from_post("orders", post(**{"signal-ship": '"Flag"', "signal-to": '"all"'}))
    assert "signal" not in silent
    too_long = post(
        **{"signal-ship": '"Flag"', "signal-to": '"all"', "signal-words": "one two three four five six seven"}
    )
    rejection = resolver.check_decision(
        rs, state, side="a", request_id=request.id, choice=decision_forms.choice_from_post("orders", too_long)
    )
    assert rejection is not None
    assert rejection.clause == "SG-SIG-04"
    plain = decision_forms.build(rs, redact(fleet({}), "a"), orders_request(fleet({})))
    assert not [g for g in plain.groups if g.legend == "Signal"]  # the option is off


@pytest.mark.rule("SG-HM-03", "SG-HM-04", "SG-HM-05")
def test_a_flying_partys_move_is_built_step_by_step_and_ends_with_a_boarding_where_one_is_open() -> None:
    from tests.rules.sky_galleons.test_flying_parties import FORM, flown  # the Raptor's flyers, Runner 2 north

    rs = engine_io.ruleset_for("sky_galleons")
    state, request = flown(FORM, b"hm-board")
    seen = redact(state, request.side)
    start = decision_forms.build(rs, seen, request)
    assert start.form == "move"
    assert start.move is not None
    assert start.move.allowance == 2
    assert start.move.legal
    assert {s.value for s in start.move.steps} >= {"N", "NE", "SE", "S", "SW", "NW", "climb"}
    climbed = decision_forms.build(rs, seen, request, plan=["climb"]).move
    assert climbed is not None
    assert climbed.cost == 2
    assert climbed.steps == []
    there = decision_forms.build(rs, seen, request, plan=["N", "N"]).move
    assert there is not None
    assert there.cost == 2
    assert [json.loads(a.value) for a in there.attacks] == [{"board": "Runner"}]
    check_form(rs, seen, decision_forms.build(rs, seen, request, plan=["N"]))
    answer = decision_forms.choice_from_post("move", post(plan=json.dumps(there.plan), attack=there.attacks[0].value))
    assert answer == {"steps": ["N", "N"], "board": "Runner"}
    assert decision_forms.legal(rs, seen, request, answer)
    nonsense = decision_forms.build(rs, seen, request, plan=["ahead", "N"]).move
    assert nonsense is not None
    assert nonsense.plan == []


@pytest.mark.rule("SG-ERR-24", "SG-ERR-25")
def test_the_plot_form_offers_each_ship_the_plots_of_half_her_move_and_posts_them_together() -> None:
    from tests.rules.sky_galleons.test_plotted_movement import battle  # Runner (speed 4) and Reaver (speed 3)

    rs = engine_io.ruleset_for("sky_galleons")
    state = battle(b"plot-form")
    request = next(r for r in state.pending("a") if r.kind == "plot movement")
    seen = redact(state, "a")
    form = decision_forms.build(rs, seen, request)
    assert form.form == "plot"
    check_form(rs, seen, form)
    runner, reaver = form.groups[0].fields
    plans = [json.loads(o.value)["steps"] for o in runner.options]
    assert [] in plans
    assert ["ahead", "ahead"] in plans
    assert all(movement.plan_cost(p) <= 2 for p in plans)  # half of speed 4
    assert ["ahead", "ahead", "ahead"] not in plans
    two = next(o.value for o in runner.options if json.loads(o.value)["steps"] == ["ahead", "ahead"])
    one = next(o.value for o in reaver.options if json.loads(o.value)["steps"] == ["ahead"])
    answer = decision_forms.choice_from_post("plot", post(**{runner.name: two, reaver.name: one}))
    assert answer == {"plots": {"Runner": ["ahead", "ahead"], "Reaver": ["ahead"]}}
    assert decision_forms.legal(rs, seen, request, answer)
