"""The form's "Instead: the default" line in the captain's words where the ruleset gives them
(AnswerSchema.default_words): an Ironclads move says her speed and path, not the answer's raw shape."""

from __future__ import annotations

from django.template.loader import render_to_string

from battles import decision_forms
from battles.engine import resolver
from battles.rules.ironclads.kinds import MOVE_ORDER
from battles.rules.ironclads.ruleset import IRONCLADS
from tests.rules.ironclads.test_turn import start

SCENE = IRONCLADS.example_scenarios()[0]


def test_an_ironclads_move_form_names_its_default_in_the_captains_words() -> None:
    state = start(SCENE, b"words")
    while not any(r.kind == MOVE_ORDER for r in state.pending()):
        request = state.pending()[0]
        outcome = resolver.submit(
            IRONCLADS, state, side=request.side, request_id=request.id, choice=request.default, seed=b"words"
        )
        assert not isinstance(outcome, resolver.Rejection)
        state = outcome.state
    request = next(r for r in state.pending() if r.kind == MOVE_ORDER)
    form = decision_forms.build(IRONCLADS, state, request)
    html = render_to_string("battles/_decision.html", {"form": form, "battle": {"pk": 1}})
    assert "speed" in form.schema.default_words
    assert form.default_words == form.schema.default_words
    assert f"Instead: hold course ({form.default_words})" in html.replace("&#x27;", "'")
    assert "steps" not in form.schema.default_words  # not the answer's raw shape
