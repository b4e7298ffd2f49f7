"""Answer schemas (battles.engine.answers): every field kind assembled from posted fields, the errors named
per field, a partial answer judged, and the way back from an answer to the fields that spell it."""

from __future__ import annotations

import json

import pytest

from battles.engine import answers
from battles.engine.answers import (
    AnswerError,
    AnswerSchema,
    Group,
    Hex,
    Many,
    Number,
    One,
    Option,
    Path,
    Progress,
    Repeat,
    Text,
)
from battles.engine.decisions import DecisionRequest

GUN_TARGETS = (Option(None, "Hold fire"), Option({"gun": "1", "target": "Gull"}, "Gull"))


def fire() -> AnswerSchema:
    slots = (
        One(key="0", label="Gun 1", options=GUN_TARGETS),
        One(
            key="1", label="Gun 2", options=(Option(None, "Hold fire"), Option({"gun": "2", "target": "Gull"}, "Gull"))
        ),
    )
    return AnswerSchema("d1", Group(key="", fields=(Repeat(key="shots", items=slots),)), layout="fire")


def orders() -> AnswerSchema:
    party = Group(
        key="0",
        optional=True,
        fixed={"ship": "Gull"},
        fields=(Group(key="men", fields=(Number(key="deckhands", high=6, optional=True),)),),
    )
    signal = Group(
        key="signal",
        optional=True,
        needs="words",
        fields=(
            One(key="ship", options=(Option("Gull", "Gull"),), widget="select"),
            Text(key="words", optional=True, max_length=12),
        ),
    )
    atoms = (Option({"disband": ["Gull"]}, "Disband"), Option({"tow": [["Gull", "Kite"]]}, "Tow"))
    fields = (
        Repeat(
            key="crew", items=(One(key="0", options=(Option(None, "Nobody"), Option("pO", "po")), widget="select"),)
        ),
        Many(key="strike", options=(Option("Gull", "Gull strikes"),)),
        Repeat(key="parties", optional=True, items=(party,)),
        signal,
        Many(key="order", merge=True, options=atoms),
        One(key="ram", optional=True, options=(Option(0, "0"), Option(1, "1")), widget="select"),
    )
    return AnswerSchema("d2", Group(key="", fields=fields), layout="orders")


def move() -> AnswerSchema:
    steps = (Option("ahead", "Ahead"), Option("port", "Turn to port"))
    attack = One(key="attack", merge=True, options=(Option(None, "Just move"), Option({"ram": "Gull"}, "Ram Gull")))
    return AnswerSchema(
        "d3",
        Group(key="", bare="steps", fields=(Path(key="steps", steps=steps, max_steps=3), attack)),
        layout="move",
    )


def test_one_of_the_options_and_the_default_schema() -> None:
    request = DecisionRequest("d9", "a", "first player", "setup", "X-1", default="a", options=("a", "b"))
    schema = answers.default_schema(request)
    assert isinstance(schema.root, One)
    assert [o.value for o in schema.root.options] == ["a", "b"]
    assert answers.assemble(schema, {"choice": ['"b"']}) == "b"
    with pytest.raises(AnswerError, match="not one of the choices"):
        answers.assemble(schema, {"choice": ['"c"']})
    with pytest.raises(AnswerError, match="choice: an answer is needed"):
        answers.assemble(schema, {})


def test_open_ended_requests_are_typed_as_json_by_default() -> None:
    request = DecisionRequest("d9", "a", "plot", "move", "X-2", default={"plots": {}})
    schema = answers.default_schema(request)
    assert isinstance(schema.root, Text)
    assert schema.root.as_json
    assert schema.layout == "json"
    assert answers.assemble(schema, {"choice": ['{"plots": {"Gull": ["ahead"]}}']}) == {"plots": {"Gull": ["ahead"]}}
    with pytest.raises(AnswerError, match="not JSON"):
        answers.assemble(schema, {"choice": ["{plots"]})
    assert answers.disassemble(schema, request.default) == {"choice": ['{"plots":{}}']}


def test_a_repeat_of_guns_leaves_out_the_guns_holding_fire() -> None:
    posted = {"shots.0": [""], "shots.1": ['{"target": "Gull", "gun": "2"}']}
    assert answers.assemble(fire(), posted) == {"shots": [{"gun": "2", "target": "Gull"}]}
    assert answers.assemble(fire(), {"shots.0": [""], "shots.1": [""]}) == {"shots": []}
    with pytest.raises(AnswerError) as refused:
        answers.assemble(fire(), {"shots.0": ['{"gun": "1", "target": "Kite"}'], "shots.1": [""]})
    assert [e.name for e in refused.value.errors] == ["shots.0"]


def test_groups_merge_fixed_constants_optional_parts_and_merged_choices() -> None:
    posted = {
        "crew.0": ['"pO"'],
        "strike": [],
        "parties.0.men.deckhands": ["4"],
        "signal.ship": ['"Gull"'],
        "signal.words": ["  close   action "],
        "order": ['{"disband": ["Gull"]}', '{"tow": [["Gull", "Kite"]]}'],
        "ram": ["1"],
    }
    assert answers.assemble(orders(), posted) == {
        "crew": ["pO"],
        "strike": [],
        "parties": [{"ship": "Gull", "men": {"deckhands": 4}}],
        "signal": {"ship": "Gull", "words": "close action"},
        "disband": ["Gull"],
        "tow": [["Gull", "Kite"]],
        "ram": 1,
    }
    # Nothing filled in: the optional party, signal, orders and ram are left out.
    bare = {"crew.0": [""], "parties.0.men.deckhands": ["0"], "signal.ship": ['"Gull"'], "signal.words": [""]}
    assert answers.assemble(orders(), bare) == {"crew": [], "strike": []}


def test_numbers_words_and_hexes_are_checked_against_their_limits() -> None:
    schema = AnswerSchema(
        "d4",
        Group(
            key="",
            fields=(
                Number(key="men", low=0, high=6, step=2),
                Text(key="words", max_length=5),
                Hex(key="hex", allowed=((0, 0), (3, 4))),
            ),
        ),
    )
    assert answers.assemble(schema, {"men": ["4"], "words": ["ahoy"], "hex": ["[3, 4]"]}) == {
        "men": 4,
        "words": "ahoy",
        "hex": [3, 4],
    }
    assert answers.assemble(schema, {"men": ["0"], "words": ["a"], "hex": ["3,4"]})["hex"] == [3, 4]  # type: ignore[index]
    judged = answers.judge_partial(schema, {"men": ["7"], "words": ["too many words"], "hex": ["[1, 1]"]})
    assert {e.name: e.message for e in judged.errors} == {
        "men": "from 0 to 6",
        "words": "at most 5 characters",
        "hex": "not one of the hexes offered",
    }
    assert [e.message for e in answers.judge_partial(schema, {"men": ["3"], "words": ["a"]}).errors] == [
        "in steps of 2"
    ]
    assert answers.judge_partial(schema, {"men": ["x"]}).errors[0].message == "a whole number, please"


def test_many_counts_its_choices() -> None:
    options = tuple(Option(n, str(n)) for n in range(4))
    schema = AnswerSchema("d5", Many(key="pick", options=options, low=1, high=2))
    assert answers.assemble(schema, {"pick": ["1", "3", "3"]}) == [1, 3]
    assert answers.judge_partial(schema, {"pick": []}).errors[0].message == "choose at least 1"
    assert answers.judge_partial(schema, {"pick": ["0", "1", "2"]}).errors[0].message == "choose at most 2"


def test_a_path_is_its_steps_alone_unless_something_is_added() -> None:
    assert answers.assemble(move(), {"steps": ['["ahead", "port"]'], "attack": [""]}) == ["ahead", "port"]
    assert answers.assemble(move(), {"steps": ['["ahead"]'], "attack": ['{"ram": "Gull"}']}) == {
        "steps": ["ahead"],
        "ram": "Gull",
    }
    assert answers.judge_partial(move(), {"steps": ['["fly"]']}).errors[0].message == "steps the path does not know"
    assert answers.judge_partial(move(), {"steps": [json.dumps(["ahead"] * 4)]}).errors[0].message == (
        "at most 3 steps"
    )
    # Staying put is the empty path posted; a path not posted at all is missing, never a silent "stay put".
    assert answers.assemble(move(), {"steps": ["[]"]}) == []
    assert answers.judge_partial(move(), {}).missing == ("steps",)


def test_a_partial_answer_is_judged_for_what_is_missing() -> None:
    facings = tuple(Option(n, str(n)) for n in range(6))
    place = Group(key="", fields=(One(key="facing", options=facings), Hex(key="hex", allowed=((0, 0),))))
    schema = AnswerSchema("d6", place)
    judged = answers.judge_partial(schema, {"facing": ["2"]})
    assert judged.missing == ("hex",)
    assert not judged.errors
    assert not judged.complete
    assert judged.answer == {"facing": 2, "hex": None}
    assert answers.judge_partial(schema, {}).to_json()["missing"] == ["facing", "hex"]
    assert answers.judge_partial(schema, {"facing": ["2"], "hex": ["[0, 0]"]}).complete
    # A choice that may be left alone ("Hold fire") is never missing.
    assert answers.judge_partial(fire(), {}).complete


@pytest.mark.parametrize(
    ("schema", "answer"),
    [
        (fire(), {"shots": [{"gun": "2", "target": "Gull"}]}),
        (fire(), {"shots": []}),
        (move(), ["ahead", "port"]),
        (move(), {"steps": ["ahead"], "ram": "Gull"}),
        (
            orders(),
            {
                "crew": ["pO"],
                "strike": ["Gull"],
                "parties": [{"ship": "Gull", "men": {"deckhands": 2}}],
                "signal": {"ship": "Gull", "words": "come about"},
                "tow": [["Gull", "Kite"]],
                "ram": 0,
            },
        ),
    ],
)
def test_an_answer_spelled_as_fields_assembles_back_to_itself(schema: AnswerSchema, answer: object) -> None:
    posted = answers.disassemble(schema, answer)  # type: ignore[arg-type]
    assert answers.assemble(schema, posted) == answer


def test_an_answer_the_form_cannot_spell_is_refused() -> None:
    with pytest.raises(AnswerError):
        answers.disassemble(fire(), {"shots": [{"gun": "1", "target": "Kite"}]})
    with pytest.raises(AnswerError):
        answers.disassemble(orders(), {"crew": [], "strike": [], "mines": [{"ship": "Gull"}]})


def test_the_schema_as_json_names_every_field_and_its_limits() -> None:
    schema = answers.with_progress(move(), Progress(steps=("ahead",), spent=1, budget=4, accepted=("ahead",)))
    data = schema.to_json()
    root = data["root"]
    assert isinstance(root, dict)
    assert root["kind"] == "group"
    assert root["bare"] == "steps"
    path, attack = root["fields"]  # type: ignore[misc]
    assert path["kind"] == "path"
    assert path["steps"][0] == {"value": "ahead", "label": "Ahead"}
    assert path["progress"]["accepted"] == ["ahead"]
    assert path["progress"]["budget"] == 4
    assert attack["kind"] == "one"
    assert attack["merge"] is True
    json.dumps(data)  # plain JSON all through
    assert [name for name, _ in answers.leaves(orders())][:3] == ["crew.0", "strike", "parties.0.men.deckhands"]


def test_offered_hexes_may_leave_the_verdict_to_the_rules_and_headings_pass_down() -> None:
    offered = AnswerSchema("d7", Hex(key="hex", allowed=((0, 0),), only_allowed=False))
    assert answers.assemble(offered, {"hex": ["[5, 5]"]}) == [5, 5]  # judged by the ruleset with the rest
    board = Group(
        key="",
        fields=(Repeat(key="boardings", items=(Group(key="0", section="Gull's party", fields=(Number(key="men"),)),)),),
    )
    assert [(name, item.section) for name, item in answers.leaves(board)] == [("boardings.0.men", "Gull's party")]
