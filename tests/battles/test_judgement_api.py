"""The battle API's live feedback: the player whose decision it is posts a partial answer and gets it judged (the
answer so far, what is missing, what is wrong, and once complete the rules' verdict with the clause); nothing is
stored. Anyone else gets 404, as for a decision not open; bad input is a 400. For every registered ruleset."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import engine_io, services
from battles.engine import answers
from battles.engine.events import canonical
from battles.engine.state import redact
from battles.models import Battle, Decision
from battles.services import SideControl
from campaign.models import Role
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

RULESETS = [rs.key for rs in engine_io.rulesets()]
JSON_BODY = "application/json"


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def judgement(battle: Battle) -> str:
    return reverse("api_battle_judgement", kwargs={"battle_id": battle.pk})


@pytest.fixture
def battle_of(club, django_capture_on_commit_callbacks):
    """A battle under ``key``'s first scenario: Alice plays its first side, Bob the others."""

    def start(key: str) -> Battle:
        slug, scenario = next(iter(services.shipped_scenarios(key).items()))
        first, *others = [side for side, _ in services.scenario_sides(key, scenario)]
        sides = {first: SideControl("player", club["alice"])} | {s: SideControl("player", club["bob"]) for s in others}
        with django_capture_on_commit_callbacks(execute=True):
            battle = services.battle_create(
                campaign=club["campaign"], created_by=club["umpire"], scenario_slug=slug, ruleset_key=key, sides=sides
            )
        battle.refresh_from_db()
        return battle

    return start


def alices_request(battle: Battle) -> tuple[Any, answers.AnswerSchema]:
    """Alice's first open decision and its schema, as the API draws it (on the state her side sees)."""
    state = engine_io.current_state(battle)
    side = battle.sides.get(user__username="alice").key
    request = state.pending(side)[0]
    names = {s.key: s.name for s in battle.sides.all()}
    return request, engine_io.rules_of(battle).answer_schema(redact(state, side), request, sides=names)


def first_request(battle: Battle) -> tuple[Any, Any, answers.AnswerSchema]:
    """The player of the first open decision, the decision and its schema as the API draws it: the first side need
    not decide first (Cloudships turns a ship's card at random, and only that ship's side is asked)."""
    request = engine_io.current_state(battle).pending()[0]
    player = battle.sides.get(key=request.side).user
    state = engine_io.current_state(battle)
    names = {s.key: s.name for s in battle.sides.all()}
    return player, request, engine_io.rules_of(battle).answer_schema(redact(state, request.side), request, sides=names)


@pytest.mark.parametrize("key", RULESETS)
def test_the_player_whose_decision_it_is_gets_her_partial_answer_judged(club, battle_of, key):
    battle = battle_of(key)
    player, request, schema = first_request(battle)
    client = signed_in(player)  # Alice, or Bob when his side decides first

    whole = client.post(
        judgement(battle),
        {"request": request.id, "fields": answers.disassemble(schema, request.default)},
        content_type=JSON_BODY,
    )

    assert whole.status_code == 200, whole.content
    body = whole.json()
    assert canonical(body["answer"]) == canonical(request.default)
    assert (body["complete"], body["missing"], body["errors"], body["refused"]) == (True, [], [], None)
    assert body["schema"] == schema.to_json()
    nothing = client.post(judgement(battle), {"request": request.id, "fields": {}}, content_type=JSON_BODY).json()
    assert set(nothing) == {"answer", "missing", "errors", "complete", "refused", "schema"}
    assert nothing["missing"] or canonical(nothing["answer"]) == canonical(request.default)
    assert not Decision.objects.filter(battle=battle).exists()  # judged, never stored


def test_a_complete_answer_the_rules_refuse_comes_back_with_the_clause(
    club, battle_of, django_capture_on_commit_callbacks
):
    battle = battle_of("duel")
    # Each side places her ship first (the schema offers only her deployment hexes, so nothing the rules refuse):
    # Alice's facing south-west, on the open water's western edge, then Bob's as the scenario has it.
    placement, _ = alices_request(battle)
    assert placement.kind == "place ship"
    aphid = battle.scenario["ships"][0]
    for user, choice in ((club["alice"], {"hex": aphid["hex"], "facing": 4}), (club["bob"], None)):
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
        request = state.pending(battle.sides.get(user=user).key)[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(
                battle_id=battle.pk, user=user, request_id=request.id, choice=choice or request.default
            )
    battle.refresh_from_db()
    request, schema = alices_request(battle)
    assert request.kind == "plot movement"
    off_the_map = ["ahead"] * aphid["speed"]

    body = (
        signed_in(club["alice"])
        .post(
            judgement(battle),
            {"request": request.id, "fields": answers.disassemble(schema, off_the_map)},
            content_type=JSON_BODY,
        )
        .json()
    )

    assert body["answer"] == off_the_map
    assert body["complete"] is True
    assert body["refused"]["clause"] == "DUEL-MOV-04"
    ((name, _),) = answers.leaves(schema)  # the plot, a path of steps
    # A plot longer than the ship's speed is wrong on the form already (the path's length), not a rules' verdict.
    for fields in ({name: ["[nope"]}, answers.disassemble(schema, ["ahead"] * (aphid["speed"] + 1))):
        wrong = (
            signed_in(club["alice"])
            .post(judgement(battle), {"request": request.id, "fields": fields}, content_type=JSON_BODY)
            .json()
        )
        assert wrong["complete"] is False, fields
        assert wrong["errors"]
        assert wrong["refused"] is None


def test_anyone_else_gets_404_as_for_a_decision_not_open(club, battle_of, django_capture_on_commit_callbacks):
    battle = battle_of("duel")
    request, schema = alices_request(battle)
    body = {"request": request.id, "fields": answers.disassemble(schema, request.default)}
    outsider = MembershipFactory(role=Role.UMPIRE).user

    for user in (club["bob"], club["umpire"], outsider):  # the other side, the umpire of a web battle, a stranger
        assert signed_in(user).post(judgement(battle), body, content_type=JSON_BODY).status_code == 404, user
    alice = signed_in(club["alice"])
    unknown = {**body, "request": "d999"}
    assert alice.post(judgement(battle), unknown, content_type=JSON_BODY).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        services.battle_submit(battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=request.default)
    answered = alice.post(judgement(battle), body, content_type=JSON_BODY)
    assert answered.status_code == 404
    assert answered.json()["detail"]
    gone = reverse("api_battle_judgement", kwargs={"battle_id": 10**9})
    assert alice.post(gone, body, content_type=JSON_BODY).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[]",
        '{"fields": {}}',
        '{"request": "d1"}',
        '{"request": 7, "fields": {}}',
        '{"request": "d1", "fields": {"a": "one"}}',
        '{"request": "d1", "fields": {"a": [1]}}',
        '{"request": "d1", "fields": [], "extra": 1}',
    ],
)
def test_bad_input_is_a_400_with_a_detail(club, battle_of, body):
    battle = battle_of("duel")

    response = signed_in(club["alice"]).post(judgement(battle), body, content_type=JSON_BODY)

    assert response.status_code == 400, response.content
    assert response.json()["detail"]
