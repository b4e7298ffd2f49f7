"""The decision forms, drawn from the rulesets' answer schemas (battles.engine.answers, battles.decision_forms),
offer only legal choices on every shipped scenario: an AI battle is driven decision by decision and, at each,
every option, step and order part the form offers is checked to be an answer (or a part of one) the engine
takes on its own; the AI captain's own answer, spelled as form fields, assembles back to itself; and a posted
form comes back as the answer it spells."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from django.http import QueryDict

from battles import decision_forms, engine_io
from battles.decision_forms import DecisionForm, FormError
from battles.engine import answers, dice, resolver, simulate
from battles.engine.decisions import Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState, redact
from battles.rules.sky_galleons import movement
from battles.rules.sky_galleons.ordnance import LIQUID_FIRE

DECISIONS_PER_SCENARIO = 90
SIGNAL_WORDS = "close with the enemy"


@cache
def scenarios() -> dict[str, Any]:
    rs = engine_io.ruleset_for("sky_galleons")
    return {str(s["slug"]): s for s in rs.example_scenarios()}


def first_shown(form: DecisionForm) -> dict[str, list[str]]:
    """The fields as the form first shows them: each choice at its default, boxes unticked, numbers at 0."""
    found: dict[str, list[str]] = {}
    for name, item in answers.leaves(form.schema):
        if isinstance(item, answers.One) and item.widget != "checkbox":
            found[name] = [answers.encode(item.default)]
        elif isinstance(item, answers.Hex) and item.default is not None:
            found[name] = [json.dumps(list(item.default))]
        elif isinstance(item, answers.Path) and item.progress is not None:
            found[name] = [json.dumps(list(item.progress.steps))]
        elif isinstance(item, answers.Text) and name.endswith("signal.words"):
            found[name] = [SIGNAL_WORDS]
    return found


def offered_answers(form: DecisionForm) -> list[Any]:
    """Every answer the form offers one part of, with the rest left as the form first shows it."""
    found: list[Any] = []
    base = first_shown(form)
    for name, item in answers.leaves(form.schema):
        if isinstance(item, answers.One | answers.Many):
            values = [o.value for o in item.options]
        elif isinstance(item, answers.Hex):
            values = [list(spot) for spot in item.allowed]
        else:
            continue
        for value in values:
            if value is None:
                continue  # "hold fire", "nobody", "no change": the empty part
            answer = answers.assemble(form.schema, {**base, name: [answers.encode(value)]})
            signal = answer.get("signal") if isinstance(answer, dict) else None
            if isinstance(signal, dict) and signal["ship"] == signal["to"]:
                continue  # the one sender and the one addressee picked apart: the engine says why (SG-SIG-04)
            found.append(answer)
    return found


def check_form(rs: Any, state: BattleState[Any], form: DecisionForm) -> None:
    for answer in offered_answers(form):
        assert decision_forms.legal(rs, state, form.request, answer), (form.request.kind, answer)
    if form.move is not None:
        move = form.move
        for step in move.steps:
            plan = [*move.plan, step.value]
            held = bool(move.note) and plan == form.request.default[: len(plan)]
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


def spelled_back(rs: Any, state: BattleState[Any], request: Any, choice: JSON) -> JSON | None:
    """The AI's answer spelled as the fields of its form and assembled again (None: the form cannot spell it)."""
    steps = choice.get("steps") if isinstance(choice, dict) else choice
    partial = steps if request.kind in ("move", "fly") else None
    schema = rs.answer_schema(state, request, partial=partial)
    try:
        fields = answers.disassemble(schema, choice)
    except answers.AnswerError:
        return None
    return answers.assemble(schema, fields)


@pytest.mark.parametrize("slug", sorted(scenarios()))
def test_every_form_of_an_ai_battle_offers_only_legal_choices_and_spells_the_ai_answers(slug: str) -> None:
    rs = engine_io.ruleset_for("sky_galleons")
    seed = simulate.seed_for(11)
    state = resolver.new_battle(rs, scenarios()[slug], seed_commitment=dice.commitment(seed))
    captains = {side: simulate.policy_for(rs, seed, side) for side in state.sides}
    state = resolver.resolve(rs, state, seed).state
    kinds: set[str] = set()
    spelled = unspelled = 0
    for _ in range(DECISIONS_PER_SCENARIO):
        if state.over:
            break
        request = state.pending()[0]
        seen = redact(state, request.side)
        form = decision_forms.build(rs, seen, request)
        kinds.add(request.kind)
        check_form(rs, seen, form)
        assert decision_forms.legal(rs, seen, request, request.default)  # the default button
        choice = captains[request.side].choose(rs, seen, request)
        back = spelled_back(rs, seen, request, choice)
        if back is None:  # orders whose crew part is legal only beside another part the form judges apart
            assert request.kind == "initiative orders", (request.kind, choice)
            unspelled += 1
        else:
            assert back == choice, (request.kind, choice)
            spelled += 1
        accepted = resolver.submit(rs, state, side=request.side, request_id=request.id, choice=choice, seed=seed)
        assert not isinstance(accepted, Rejection), accepted
        state = accepted.state
    assert {"initiative orders", "move"} <= kinds
    assert unspelled <= spelled // 20, (spelled, unspelled)  # the AI's answers are the form's, but for a rare few


def post(**fields: Any) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        for item in value if isinstance(value, list) else [value]:
            data.appendlist(key, item)
    return data


def test_a_posted_move_with_a_ram_is_the_answer_it_spells() -> None:
    steps = (answers.Option("ahead", "Ahead"), answers.Option("port", "Turn to port"))
    attack = answers.One(
        key="attack",
        merge=True,
        options=(answers.Option(None, "Just move"), answers.Option({"ram": "Aphid"}, "Ram Aphid")),
    )
    root = answers.Group(key="", bare="steps", fields=(answers.Path(key="steps", steps=steps), attack))
    form = DecisionForm(request=None, schema=answers.AnswerSchema("d1", root), side_name="", title="", form="move")  # type: ignore[arg-type]
    plan = json.dumps(["ahead", "port", "ahead"])
    assert decision_forms.choice_from_post(form, post(steps=plan, attack="")) == ["ahead", "port", "ahead"]
    assert decision_forms.choice_from_post(form, post(steps=plan, attack='{"ram": "Aphid"}')) == {
        "steps": ["ahead", "port", "ahead"],
        "ram": "Aphid",
    }
    with pytest.raises(FormError, match="Your answer: steps the path does not know"):
        decision_forms.choice_from_post(form, post(steps='["fly"]'))


def test_the_generic_default_schema_is_drawn_as_radio_buttons_or_a_json_answer() -> None:
    from battles.engine.decisions import DecisionRequest

    listed = DecisionRequest("d1", "a", "pick", "p", "X-1", default="b", options=("a", "b"))
    schema = answers.default_schema(listed)
    (group,) = decision_forms.groups(schema)
    (field,) = group.fields
    assert field.control == "radio"
    assert [(o.value, o.selected) for o in field.options] == [('"a"', False), ('"b"', True)]
    typed = answers.default_schema(DecisionRequest("d2", "a", "plan", "p", "X-2", default={"n": 1}))
    (group,) = decision_forms.groups(typed)
    assert group.fields[0].control == "json"
    assert group.fields[0].value == '{"n":1}'


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
    form = decision_forms.build(rs, state, request, plan=["ahead", "ahead"])
    data = post(steps=json.dumps(over.plan), attack="", **{field.name: field.options[1].value})
    answer = decision_forms.choice_from_post(form, data)
    assert answer == {"steps": ["ahead", "ahead"], "drops": [{"count": 1, "target": "Dart", "weapon": LIQUID_FIRE}]}
    assert decision_forms.legal(rs, state, request, answer)


def test_a_tampered_form_is_refused_before_the_engine_is_asked() -> None:
    from battles.engine.decisions import DecisionRequest

    listed = DecisionRequest("d1", "a", "pick", "p", "X-1", default="b", options=("a", "b"))
    form = DecisionForm(listed, answers.default_schema(listed), "", "", "options")
    with pytest.raises(FormError, match="not one of the choices offered"):
        decision_forms.choice_from_post(form, post(choice="{not json"))
    with pytest.raises(FormError, match="an answer is needed"):
        decision_forms.choice_from_post(form, post())
    typed = DecisionRequest("d2", "a", "plan", "p", "X-2", default={})
    with pytest.raises(FormError, match="not JSON"):
        decision_forms.choice_from_post(
            DecisionForm(typed, answers.default_schema(typed), "", "", "json"), post(choice="{")
        )


@pytest.mark.rule("SG-MG-04", "SG-MG-06")
def test_the_orders_form_trains_a_portable_machinegun_on_the_aspects_it_can_move_to() -> None:
    from tests.rules.sky_galleons.test_portable_guns import GARDNER, armed  # an Aphid with a Gardner

    rs = engine_io.ruleset_for("sky_galleons")
    _, state = armed()
    request = state.pending("a")[0]
    form = decision_forms.build(rs, redact(state, "a"), request)
    fields = {f.name: f for g in form.groups for f in g.fields}
    (training,) = [f for f in fields.values() if f.name.startswith("train.")]
    assert GARDNER in training.label
    aspects = [json.loads(o.value)["aspect"] for o in training.options[1:]]
    assert sorted(aspects) == ["bow", "port", "stern"]  # she is on the starboard already
    answer = decision_forms.choice_from_post(form, post(**{training.name: training.options[1].value}))
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
    assert [json.loads(o.value) for o in fields["signal.ship"].options] == ["Flag", "Consort"]
    assert {"all", "Runner"} <= {json.loads(o.value) for o in fields["signal.to"].options}
    spelled = post(**{"signal.ship": '"Flag"', "signal.to": '"all"', "signal.words": "  Form   line astern "})
    answer = decision_forms.choice_from_post(form, spelled)
    assert answer["signal"] == {"ship": "Flag", "to": "all", "words": "Form line astern"}
    assert decision_forms.legal(rs, state, request, answer)
    silent = decision_forms.choice_from_post(form, post(**{"signal.ship": '"Flag"', "signal.to": '"all"'}))
    assert "signal" not in silent
    too_long = post(
        **{"signal.ship": '"Flag"', "signal.to": '"all"', "signal.words": "one two three four five six seven"}
    )
    rejection = resolver.check_decision(
        rs, state, side="a", request_id=request.id, choice=decision_forms.choice_from_post(form, too_long)
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
    form = decision_forms.build(rs, seen, request, plan=["N", "N"])
    answer = decision_forms.choice_from_post(form, post(steps=json.dumps(there.plan), attack=there.attacks[0].value))
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
    plans = [json.loads(o.value) for o in runner.options]
    assert [] in plans
    assert ["ahead", "ahead"] in plans
    assert all(movement.plan_cost(p) <= 2 for p in plans)  # half of speed 4
    assert ["ahead", "ahead", "ahead"] not in plans
    two = next(o.value for o in runner.options if json.loads(o.value) == ["ahead", "ahead"])
    one = next(o.value for o in reaver.options if json.loads(o.value) == ["ahead"])
    answer = decision_forms.choice_from_post(form, post(**{runner.name: two, reaver.name: one}))
    assert answer == {"plots": {"Runner": ["ahead", "ahead"], "Reaver": ["ahead"]}}
    assert decision_forms.legal(rs, seen, request, answer)
