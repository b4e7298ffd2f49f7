"""How each decision is answered, as an answer schema (battles/engine/answers.py): One, Many, Number, Text, Hex,
Path, Group and Repeat fields with labels, limits, defaults and the clause. The web form and the API are drawn
from it and the posted fields assembled back by the engine; see battles/rules/duel/answers.py for a hex, a
path built step by step and labelled choices."""

from __future__ import annotations

from battles.engine import answers
from battles.engine.answers import AnswerSchema, Option
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState
from battles.rules._template.board import Board
from battles.rules._template.kinds import STANCE

LABELS = {"bold": "Bold (+1 to the roll)", "careful": "Careful"}


def answer_schema(state: BattleState[Board], request: DecisionRequest) -> AnswerSchema:
    if request.kind != STANCE:
        return answers.default_schema(request)
    options = tuple(Option(o, LABELS.get(str(o), str(o))) for o in request.options or ())
    root = answers.One(key="choice", label="Your stance", options=options, default=request.default, clause=request.rule)
    return AnswerSchema(request.id, root, title="Choose a stance", clause=request.rule, layout="options")
