"""The battle API: my battles, a battle as my side sees it, its decisions and log, answers, leaving,
corrections, new battles, the seed and result after the end; hidden information never reaches the other
side; 404 outside my campaigns; malformed input is a 400; query counts stay flat; the schema stays clean."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles import engine_io, services
from battles.engine import dice
from battles.engine.decisions import ALREADY_DECIDED, BATTLE_OVER, NO_SUCH_DECISION
from battles.models import Battle, BattleEvent, BattleMode, BattleStatus, Correction, Decision, DecisionSource
from battles.services import SideControl
from campaign.models import Role
from tests.battles.conftest import decider, first_unanswered
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

JSON_BODY = "application/json"
# The dice of the battle walked through the API: a fight that grapples, boards and takes a prize in 8 turns.
WALK_SEED = hashlib.sha256(b"red-captain api walk 5").digest()
# Another side's open decision, as a player sees it: that it is open, whether it is the umpire's, not his.
OPEN_DECISION = {"id", "side", "kind", "umpire", "yours", "submitted"}
WALK_STEPS = 60  # decisions in the walk for every ruleset: enough for the first fire and its secret answers
VISIBILITY_HOOKS = importlib.util.find_spec("battles.rules.sky_galleons.visibility") is not None


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, battle: Battle | int | None = None, **query: Any) -> str:
    path = reverse(name) if battle is None else reverse(name, kwargs={"battle_id": getattr(battle, "pk", battle)})
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """POST JSON as the web does, running the resolution queued after commit (Celery is eager)."""

    def send(client: Client, path: str, body: Any, **headers: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, body, content_type=JSON_BODY, headers=headers)

    return send


@pytest.fixture
def outsider() -> Client:
    """A signed-in captain of another campaign."""
    return signed_in(MembershipFactory(role=Role.UMPIRE).user)


def first_open(battle: Battle, side: str) -> Any:
    battle.refresh_from_db()
    return engine_io.current_state(battle).pending(side)[0]


# --- my battles --------------------------------------------------------------------------------------------


def test_the_battle_api_needs_sign_in(start_battle):
    battle = start_battle()
    client = Client()
    for path in (url("api_battle_list"), url("api_battle_detail", battle), url("api_battle_events", battle)):
        assert client.get(path).status_code == 403
    assert client.post(url("api_battle_decisions", battle), {}, content_type=JSON_BODY).status_code == 403


def test_my_battles_have_my_role_my_sides_and_whether_i_am_awaited(start_battle, club, outsider):
    battle = start_battle()  # the Irish set up first (SG-SCN-04)
    auto = start_battle("thieves-fall-out", mode=BattleMode.AUTO)

    def mine(user: Any) -> dict[int, dict[str, Any]]:
        data = signed_in(user).get(url("api_battle_list")).json()
        return {row["id"]: row for row in data["results"]}

    alice, bob, umpire = mine(club["alice"]), mine(club["bob"]), mine(club["umpire"])
    assert list(alice) == [auto.pk, battle.pk]  # newest first
    assert alice[battle.pk]["role"] == "player"
    assert alice[battle.pk]["my_sides"] == [{"key": "irish", "name": battle.sides.get(key="irish").name, "left": ""}]
    assert alice[battle.pk]["waiting_for_me"] is True
    assert alice[battle.pk]["status"] == BattleStatus.WAITING
    assert alice[battle.pk]["deadline"] is not None
    assert bob[battle.pk]["my_sides"][0]["key"] == "british"
    assert bob[battle.pk]["waiting_for_me"] is False
    assert umpire[battle.pk]["role"] == "umpire"
    assert umpire[battle.pk]["my_sides"] == []  # both sides are players'; the AI's are nobody's
    assert umpire[auto.pk]["my_sides"] == []
    assert umpire[auto.pk]["status"] == BattleStatus.FINISHED
    assert umpire[auto.pk]["winner"] == auto.winner
    assert outsider.get(url("api_battle_list")).json()["count"] == 0
    assert "seed" not in json.dumps(alice)


def test_my_battles_take_the_same_queries_for_3_battles_as_for_30(start_battle, club, django_assert_num_queries):
    client = signed_in(club["alice"])
    start_battle("thieves-fall-out", mode=BattleMode.AUTO)  # finished
    start_battle(mode=BattleMode.TABLE)
    start_battle()
    with CaptureQueriesContext(connection) as three:
        assert client.get(url("api_battle_list")).json()["count"] == 3
    for _ in range(27):
        start_battle()

    with django_assert_num_queries(len(three.captured_queries)):
        data = client.get(url("api_battle_list")).json()

    assert data["count"] == len(data["results"]) == 30
    assert sum(row["waiting_for_me"] for row in data["results"]) == 28  # the 28 web battles wait on the Irish


# --- one battle as my side sees it ---------------------------------------------------------------------------


def test_each_sees_the_battle_as_his_side(start_battle, club):
    battle = start_battle()
    request = first_open(battle, "irish")

    alice = signed_in(club["alice"]).get(url("api_battle_detail", battle)).json()
    bob = signed_in(club["bob"]).get(url("api_battle_detail", battle)).json()
    umpire = signed_in(club["umpire"]).get(url("api_battle_detail", battle)).json()
    as_irish = signed_in(club["umpire"]).get(url("api_battle_detail", battle, side="irish")).json()

    assert (alice["viewing_as"], bob["viewing_as"], umpire["viewing_as"], as_irish["viewing_as"]) == (
        "irish",
        "british",
        "umpire",
        "irish",
    )
    assert alice["my_sides"] == ["irish"]
    mine = next(p for p in alice["pending"] if p["id"] == request.id)
    assert mine["default"] == request.default
    assert request.default in mine["candidates"]
    theirs = next(p for p in bob["pending"] if p["id"] == request.id)
    assert set(theirs) == OPEN_DECISION  # another side's decision: that it is open, no more
    assert alice["seed"] is bob["seed"] is umpire["seed"] is None
    assert alice["seed_commitment"] == battle.seed_commitment
    assert battle.seed not in json.dumps([alice, bob, umpire, as_irish])


def test_a_players_decisions_are_his_sides_with_their_legal_answers(start_battle, club):
    battle = start_battle()
    request = first_open(battle, "irish")

    alice = signed_in(club["alice"]).get(url("api_battle_decisions", battle)).json()
    bob = signed_in(club["bob"]).get(url("api_battle_decisions", battle)).json()

    assert [(d["id"], d["side"], d["kind"], d["submitted"]) for d in alice] == [
        (request.id, "irish", request.kind, False)
    ]
    assert alice[0]["rule"] == request.rule
    assert request.default in alice[0]["candidates"]
    assert bob == []
    schema = alice[0]["schema"]  # how an answer is spelled: fields with their labels, choices and clause
    assert schema["request"] == request.id
    assert schema["clause"] == request.rule
    assert schema["root"]["kind"] in {"one", "many", "number", "text", "hex", "path", "group", "repeat"}


def test_outside_my_campaigns_everything_is_404(start_battle, club, outsider, post):
    battle = start_battle()
    request = first_open(battle, "irish")
    alice = signed_in(club["alice"])
    reads = ["api_battle_detail", "api_battle_decisions", "api_battle_events", "api_battle_verification"]

    for name in [*reads, "api_battle_result"]:
        assert outsider.get(url(name, battle)).status_code == 404, name
        assert outsider.get(url(name, 999_999)).status_code == 404, name
    writes = {
        "api_battle_decisions": {"request": request.id, "choice": request.default},
        "api_battle_leave": {"side": "irish", "how": "concede"},
        "api_battle_corrections": {"request": request.id, "choice": None, "reason": "x"},
    }
    for name, body in writes.items():
        assert post(outsider, url(name, battle), body).status_code == 404, name
    for name in reads[:3]:  # a side that is not mine: as if it did not exist
        assert alice.get(url(name, battle, side="british")).status_code == 404, name
        assert alice.get(url(name, battle, side="martians")).status_code == 404, name
    assert signed_in(club["umpire"]).get(url("api_battle_detail", battle, side="martians")).status_code == 404
    assert not Decision.objects.exists()


# --- answering -----------------------------------------------------------------------------------------------


def test_a_decision_is_stored_and_a_double_submit_counts_once(start_battle, club, post):
    battle = start_battle()
    request = first_open(battle, "irish")
    alice = signed_in(club["alice"])
    body = {"request": request.id, "choice": request.default, "idempotency_key": "place-1"}

    first = post(alice, url("api_battle_decisions", battle), body)
    again = post(alice, url("api_battle_decisions", battle), body)

    assert first.status_code == 201, first.json()
    assert again.status_code == 200
    # The same decision (folded into the log since, as the battle resolved after the first answer).
    assert {**again.json(), "applied_seq": None} == first.json()
    assert first.json()["request"] == request.id
    assert first.json()["side"] == "irish"
    assert first.json()["choice"] == request.default
    assert Decision.objects.filter(battle=battle, request_id=request.id).count() == 1
    decision = Decision.objects.get(battle=battle, request_id=request.id)
    assert (decision.source, decision.submitted_by, decision.idempotency_key) == (
        DecisionSource.PLAYER,
        club["alice"],
        "place-1",
    )
    # Another key for the same decision: it is already made.
    other = post(alice, url("api_battle_decisions", battle), {**body, "idempotency_key": "place-2"})
    assert other.status_code == 409
    assert other.json()["clause"] in {ALREADY_DECIDED, NO_SUCH_DECISION}  # made, or folded into the log already


def test_the_idempotency_key_may_come_as_a_header(start_battle, club, post):
    battle = start_battle()
    request = first_open(battle, "irish")
    alice = signed_in(club["alice"])
    body = {"request": request.id, "choice": request.default}

    first = post(alice, url("api_battle_decisions", battle), body, **{"Idempotency-Key": "k-7"})
    again = post(alice, url("api_battle_decisions", battle), body, **{"Idempotency-Key": "k-7"})
    clash = post(
        alice, url("api_battle_decisions", battle), {**body, "idempotency_key": "k-8"}, **{"Idempotency-Key": "k-7"}
    )

    assert (first.status_code, again.status_code, clash.status_code) == (201, 200, 400)
    assert again.json()["id"] == first.json()["id"]
    assert Decision.objects.get().idempotency_key == "k-7"


def test_a_key_spent_on_one_decision_does_not_answer_another(start_battle, club, post):
    battle = start_battle()
    alice, bob = signed_in(club["alice"]), signed_in(club["bob"])
    irish = first_open(battle, "irish")
    assert (
        post(
            alice,
            url("api_battle_decisions", battle),
            {"request": irish.id, "choice": irish.default, "idempotency_key": "k"},
        ).status_code
        == 201
    )
    british = first_open(battle, "british")
    assert (
        post(
            bob,
            url("api_battle_decisions", battle),
            {"request": british.id, "choice": british.default, "idempotency_key": "k"},
        ).status_code
        == 201
    )  # keys are each user's own
    irish = first_open(battle, "irish")

    reused = post(
        alice,
        url("api_battle_decisions", battle),
        {"request": irish.id, "choice": irish.default, "idempotency_key": "k"},
    )

    assert reused.status_code == 409
    assert "already used" in reused.json()["detail"]
    assert not Decision.objects.filter(request_id=irish.id).exists()


@pytest.mark.rule("SG-SCN-04")
def test_an_illegal_answer_is_a_400_with_the_rules_reason_and_clause(start_battle, club, post):
    battle = start_battle()
    request = first_open(battle, "irish")
    assert request.kind == "place ship"
    rs = engine_io.rules_of(battle)
    illegal = {**request.default, "hex": [0, 0]}  # far outside the Irish set-up area
    rejection = rs.validate(engine_io.current_state(battle), request, illegal)
    assert rejection is not None

    response = post(
        signed_in(club["alice"]), url("api_battle_decisions", battle), {"request": request.id, "choice": illegal}
    )

    assert response.status_code == 400
    assert response.json() == {"detail": rejection.reason, "clause": rejection.clause}
    assert rejection.clause.startswith("SG-")
    assert not Decision.objects.exists()


def test_refusals_answer_403_and_409_with_the_clause(start_battle, club, post):
    battle = start_battle()
    request = first_open(battle, "irish")
    bob = signed_in(club["bob"])

    not_mine = post(bob, url("api_battle_decisions", battle), {"request": request.id, "choice": request.default})
    no_such = post(bob, url("api_battle_decisions", battle), {"request": "d9999", "choice": None})
    post(signed_in(club["alice"]), url("api_battle_leave", battle), {"side": "irish", "how": "concede"})
    over = post(bob, url("api_battle_decisions", battle), {"request": request.id, "choice": request.default})

    assert not_mine.status_code == 403
    assert (no_such.status_code, no_such.json()["clause"]) == (409, NO_SUCH_DECISION)
    assert (over.status_code, over.json()["clause"]) == (409, BATTLE_OVER)
    assert not Decision.objects.exists()


def test_malformed_input_is_a_clear_400(start_battle, club, django_capture_on_commit_callbacks):
    battle = start_battle()
    request = first_open(battle, "irish")
    alice = signed_in(club["alice"])
    path = url("api_battle_decisions", battle)
    deep: Any = request.default
    for _ in range(40):
        deep = [deep]
    bodies: list[tuple[str, str]] = [
        ("not json at all", JSON_BODY),
        ('{"request": "d3", "choice": ', JSON_BODY),
        (f'{{"request": "{request.id}", "choice": NaN}}', JSON_BODY),
        ("request=d3&choice=1", "application/x-www-form-urlencoded"),
        ("<decision/>", "text/xml"),
        ("", JSON_BODY),
        ("[1, 2, 3]", JSON_BODY),
        ('"just a string"', JSON_BODY),
        (json.dumps({"choice": request.default}), JSON_BODY),  # no request
        (json.dumps({"request": request.id}), JSON_BODY),  # no choice
        (json.dumps({"request": 3, "choice": request.default}), JSON_BODY),
        (json.dumps({"request": ["d3"], "choice": request.default}), JSON_BODY),
        (json.dumps({"request": "d" * 500, "choice": request.default}), JSON_BODY),
        (json.dumps({"request": request.id, "choice": request.default, "idempotency_key": 12}), JSON_BODY),
        (json.dumps({"request": request.id, "choice": request.default, "idempotency_key": "k" * 81}), JSON_BODY),
        (json.dumps({"request": request.id, "choice": {"hex": ["x"] * 100_000}}), JSON_BODY),  # huge
        (json.dumps({"request": request.id, "choice": deep}), JSON_BODY),  # deep
        ("[" * 50_000 + "]" * 50_000, JSON_BODY),  # deeper than the parser's own stack
        (b"\xff\xfe\x00garbage".decode("latin-1"), JSON_BODY),
    ]
    for body, content_type in bodies:
        with django_capture_on_commit_callbacks(execute=True):
            response = alice.post(path, body, content_type=content_type)
        assert response.status_code == 400, (body[:80], response.content[:200])
        assert response.json(), body[:80]  # a JSON answer that says what is wrong
    # Well-formed JSON of the wrong shape for the decision: the engine's refusal, never a crash.
    for choice in [None, 7, "north", [], ["x"], {"hex": "a"}, {"hex": [1]}, {"hex": [1, 2], "facing": "up"}, 1e300]:
        with django_capture_on_commit_callbacks(execute=True):
            response = alice.post(path, {"request": request.id, "choice": choice}, content_type=JSON_BODY)
        assert response.status_code == 400, (choice, response.content[:200])
        assert response.json()["clause"], choice
    assert not Decision.objects.exists()


def test_every_kind_of_decision_refuses_nonsense_without_a_crash(start_battle, club, post, play_defaults):
    """Walk a battle answering with the defaults; before each answer, throw nonsense of every JSON type at the
    decision: each is a 400 with a clause."""
    battle = start_battle()
    nonsense = [None, 0, -1, 2.5, "", "nonsense", [], [None], [[]], {}, {"x": 1}, {"crew": "all"}, {"steps": 5}]
    kinds: set[str] = set()
    for _ in range(12):
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
        stored = set(battle.decisions.values_list("request_id", flat=True))
        request = next(r for r in state.pending() if r.id not in stored)
        client = signed_in(club["alice"] if request.side == "irish" else club["bob"])
        for choice in nonsense:
            if engine_io.rules_of(battle).validate(state, request, choice) is None and request.allows(choice):
                continue  # legal after all (an empty move, an empty list of shots)
            response = post(client, url("api_battle_decisions", battle), {"request": request.id, "choice": choice})
            assert response.status_code == 400, (request.kind, choice, response.content[:200])
            assert response.json()["clause"]
        kinds.add(request.kind)
        play_defaults(battle, limit=1)
    assert {"place ship", "initiative orders", "move"} <= kinds


# --- the log ---------------------------------------------------------------------------------------------------


def test_the_log_pages_by_seq(start_battle, club, play_defaults):
    battle = start_battle()
    play_defaults(battle, limit=8)
    bob = signed_in(club["bob"])
    live = BattleEvent.objects.filter(battle=battle).count()
    served = BattleEvent.objects.filter(battle=battle, visibility__in=["public", "side:british"]).count()

    seen: list[dict[str, Any]] = []
    after, pages = -1, 0
    while True:
        page = bob.get(url("api_battle_events", battle, after=after, limit=7)).json()
        pages += 1
        seen += page["results"]
        assert page["after"] == after
        after = page["last_seq"]
        if not page["more"]:
            break
    whole = bob.get(url("api_battle_events", battle)).json()

    assert pages == -(-served // 7)  # the British are served the public events and their own, 7 a page
    assert [e["seq"] for e in seen] == [e["seq"] for e in whole["results"]]
    assert seen == sorted(seen, key=lambda e: e["seq"])
    assert all(e["visibility"] in {"public", "side:british"} for e in seen)
    assert any(e["visibility"] == "side:british" for e in seen)
    assert len(seen) < live  # the Irish side's own events are left out
    assert bob.get(url("api_battle_events", battle, after=whole["last_seq"])).json() == {
        "results": [],
        "after": whole["last_seq"],
        "last_seq": whole["last_seq"],
        "more": False,
    }
    for bad in ({"after": "x"}, {"after": -2}, {"limit": 0}, {"limit": 5000}):
        assert bob.get(url("api_battle_events", battle, **bad)).status_code == 400, bad


def test_reads_take_the_same_queries_however_long_the_log(start_battle, club, play_defaults):
    battle = start_battle()
    alice = signed_in(club["alice"])
    paths = [url("api_battle_detail", battle), url("api_battle_decisions", battle), url("api_battle_events", battle)]

    def counts() -> list[int]:
        found = []
        for path in paths:
            with CaptureQueriesContext(connection) as queries:
                assert alice.get(path).status_code == 200
            found.append(len(queries.captured_queries))
        return found

    play_defaults(battle, limit=2)
    early = counts()
    play_defaults(battle, limit=40)
    battle.refresh_from_db()
    assert battle.state_seq > 300

    assert counts() == early


# --- hidden information: a whole battle played through the API -------------------------------------------------


def _nodes(value: Any) -> Any:
    yield value
    if isinstance(value, dict):
        for child in value.values():
            yield from _nodes(child)
    elif isinstance(value, list):
        for child in value:
            yield from _nodes(child)


def _not_in_own_decisions(value: Any, side: str) -> Any:
    """Every node of ``value`` but those inside ``side``'s own open decisions (their defaults and candidates may
    well spell what another side answered in secret)."""
    if isinstance(value, dict) and set(value) >= OPEN_DECISION and value["side"] == side:
        return
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from _not_in_own_decisions(child, side)


def _where(value: Any, wanted: Any, path: str = "") -> str:
    """Where ``wanted`` first occurs in ``value``, as a dotted path ("" if nowhere)."""
    if value == wanted:
        return path or "."
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        found = _where(child, wanted, f"{path}.{key}")
        if found:
            return found
    return ""


def _secret_parts(choice: Any) -> list[Any]:
    """What an answer to a secret request holds that is the side's own business: its crew changes and the
    boarding parties it forms at home (crew assignments, SG-SEQ-02), each party's men as well."""
    if not isinstance(choice, dict):
        return []
    parts = list(choice.get("crew") or [])
    for party in choice.get("parties") or []:
        parts += [party, party["men"]]
    return parts


@pytest.mark.rule("SG-SEQ-02")
def test_a_battle_played_through_the_api_never_shows_bob_the_irish_secrets_or_the_seed(
    start_battle, club, post, monkeypatch
):
    """Scenario 2, John Bull's Tyranny: Alice (the Irish) and Bob (the British) play it to the end through the
    API, the AI captain choosing for each. At every step Bob's answers hold no event kept to the Irish, none of
    the Irish secret answers (Alice forms a boarding party at home on the first turn), no detail of an Irish
    decision and no seed; after the end the seed is published and matches the commitment Bob saw at the start."""
    monkeypatch.setattr(services.dice, "new_seed", lambda: WALK_SEED)
    battle = start_battle()
    alice, bob = signed_in(club["alice"]), signed_in(club["bob"])
    rs = engine_io.rules_of(battle)
    commitment = bob.get(url("api_battle_detail", battle)).json()["seed_commitment"]
    secrets: list[Any] = []  # the Irish secret answers, as Alice sent them
    leaks: list[str] = []  # what Bob must never get, whatever the ruleset's views
    secret_leaks: list[str] = []  # the Irish secret answers Bob got
    steps, after = 0, -1

    def bob_sees(what: str, response: Any) -> Any:
        assert response.status_code in (200, 201), (what, response.content[:300])
        body = response.json()
        if battle.seed in response.content.decode() and not battle.is_finished:
            leaks.append(f"{what}: the seed before the end")
        for node in _nodes(body):
            if isinstance(node, dict) and node.get("visibility", "public") not in {"public", "side:british"}:
                leaks.append(f"{what}: event {node.get('seq')} kept to {node['visibility']}")
            is_open_decision = isinstance(node, dict) and set(node) >= OPEN_DECISION
            if is_open_decision and node["side"] == "irish" and set(node) != OPEN_DECISION:
                leaks.append(f"{what}: the Irish decision {node['id']} in detail")  # that it is open, no more
            if any(node == part for part in secrets):
                secret_leaks.append(f"{what}: an Irish secret answer {node}")
        return body

    while True:
        battle.refresh_from_db()
        if battle.is_finished:
            break
        steps += 1
        assert steps < 500, "the battle does not end"
        for side, client in (("irish", alice), ("british", bob)):
            response = client.get(url("api_battle_decisions", battle))
            mine = bob_sees("decisions", response) if side == "british" else response.json()
            entry = next((d for d in mine if not d["submitted"]), None)
            if entry is not None:
                break
        else:
            pytest.fail(f"battle {battle.pk} waits for nothing ({battle.status})")
        assert entry["side"] == side
        state = engine_io.current_state(battle)
        if side == "irish" and entry["kind"] == "initiative orders" and not secrets:
            choice = next(c for c in entry["candidates"] if c.get("parties"))  # a boarding party formed at home
        else:
            choice = services.ai_choice(rs, state, state.request(entry["id"]), engine_io.seed_bytes(battle))
        answer = post(
            client,
            url("api_battle_decisions", battle),
            {"request": entry["id"], "choice": choice, "idempotency_key": f"{side}-{entry['id']}"},
        )
        if side == "british":
            bob_sees("the British answer", answer)
        assert answer.status_code == 201, answer.json()
        if side == "irish" and entry["secret"]:
            secrets += _secret_parts(choice)
        battle.refresh_from_db()
        view = bob_sees("battle", bob.get(url("api_battle_detail", battle)))
        if not battle.is_finished:
            assert view["seed"] is None
        page = bob_sees("events", bob.get(url("api_battle_events", battle, after=after)))
        after = page["last_seq"]

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    assert battle.turn >= 5
    assert secrets, "Alice never answered anything secret"
    assert leaks == []
    kinds = {e.kind for e in BattleEvent.objects.filter(battle=battle)}
    assert {"fire", "party order"} <= kinds  # shots were fired, and the Irish party formed at home was logged

    view = bob.get(url("api_battle_detail", battle)).json()
    verification = bob.get(url("api_battle_verification", battle)).json()
    result = bob.get(url("api_battle_result", battle))
    assert view["seed"] == verification["seed"] == battle.seed
    assert dice.commitment(bytes.fromhex(verification["seed"])) == commitment == verification["seed_commitment"]
    assert verification["verified"] is True
    assert verification["problems"] == []
    assert verification["dice"] > 0
    assert result.status_code == 200
    assert result.json()["winner"] == battle.winner

    if VISIBILITY_HOOKS:
        assert secret_leaks == []
    else:  # Until Sky Galleons' board_view and event_view land, the whole board and log go out: show the check bites.
        assert secret_leaks
        pytest.xfail("battles/rules/sky_galleons/visibility.py (the ruleset's views) is not merged yet")


# --- the end ---------------------------------------------------------------------------------------------------


def test_the_seed_and_result_wait_for_the_end(start_battle, club, post):
    battle = start_battle()
    alice = signed_in(club["alice"])

    for name in ("api_battle_verification", "api_battle_result"):
        early = alice.get(url(name, battle))
        assert early.status_code == 409
        assert battle.seed not in early.content.decode()
    left = post(alice, url("api_battle_leave", battle), {"side": "irish", "how": "concede"})
    verification = signed_in(club["bob"]).get(url("api_battle_verification", battle)).json()
    result = alice.get(url("api_battle_result", battle)).json()

    assert left.status_code == 200
    assert left.json() == {"key": "irish", "name": left.json()["name"], "left": "concede"}
    assert verification["seed"] == battle.seed
    assert verification["verified"] is True
    assert result["winner"] == "british"
    assert "conceded" in result["reason"]
    assert result["outcome"]


def test_leaving_is_for_my_own_side(start_battle, club, post):
    battle = start_battle()

    assert (
        post(signed_in(club["bob"]), url("api_battle_leave", battle), {"side": "irish", "how": "concede"}).status_code
        == 403
    )
    assert (
        post(signed_in(club["alice"]), url("api_battle_leave", battle), {"side": "irish", "how": "flee"}).status_code
        == 400
    )
    assert (
        post(
            signed_in(club["alice"]), url("api_battle_leave", battle), {"side": "nobody", "how": "concede"}
        ).status_code
        == 404
    )
    battle.refresh_from_db()
    assert not battle.is_finished


def test_verify_battle_says_verified_or_names_the_problem(start_battle):
    battle = start_battle("thieves-fall-out", mode=BattleMode.AUTO)
    out = StringIO()

    call_command("verify_battle", str(battle.pk), stdout=out)

    rolls = BattleEvent.objects.filter(battle=battle, kind="roll")
    thrown = sum(len(r.data["dice"]) for r in rolls)
    assert out.getvalue().strip() == f"verified: {battle.state_seq} events, {thrown} dice"
    # Tamper with one logged roll: a face the seed never gave.
    roll = rolls.order_by("seq").first()
    faces = roll.data["dice"]
    roll.data = {**roll.data, "dice": [f % 6 + 1 for f in faces], "total": roll.data["total"] + len(faces)}
    roll.save(update_fields=["data"])
    problems = StringIO()
    with pytest.raises(CommandError, match="does not verify") as refused:
        call_command("verify_battle", str(battle.pk), stdout=problems)
    assert refused.value.returncode == 1  # manage.py exits with it
    assert f"event {roll.seq}" in problems.getvalue()
    with pytest.raises(CommandError, match="no battle"):
        call_command("verify_battle", "999999")


def test_the_verification_endpoint_reports_a_tampered_log(start_battle, club):
    battle = start_battle("thieves-fall-out", mode=BattleMode.AUTO)
    roll = BattleEvent.objects.filter(battle=battle, kind="roll").order_by("seq").first()
    roll.data = {**roll.data, "dice": [f % 6 + 1 for f in roll.data["dice"]]}
    roll.save(update_fields=["data"])

    data = signed_in(club["alice"]).get(url("api_battle_verification", battle)).json()

    assert data["verified"] is False
    assert any(f"event {roll.seq}" in p for p in data["problems"])


# --- the umpire: new battles and corrections ---------------------------------------------------------------


def test_the_umpire_starts_a_battle(club, post):
    umpire = signed_in(club["umpire"])
    body = {
        "campaign": "syrtis",
        "scenario": "john-bulls-tyranny",
        "title": "Off Syrtis Major",
        "sides": {"irish": {"controller": "player", "player": "alice"}, "british": {"controller": "ai"}},
        "decision_hours": 24,
        "deadline_default": "hold",
        "options": {"line_of_sight": True},
    }

    response = post(umpire, url("api_battle_list"), body)

    assert response.status_code == 201, response.json()
    battle = Battle.objects.get(pk=response.json()["id"])
    assert (battle.title, battle.decision_hours, battle.deadline_default) == ("Off Syrtis Major", 24, "hold")
    assert battle.options["line_of_sight"] is True
    assert {s.key: (s.controller, s.user) for s in battle.sides.all()} == {
        "irish": ("player", club["alice"]),
        "british": ("ai", None),
    }
    assert response.json()["role"] == "umpire"
    assert "seed" not in response.json()
    assert signed_in(club["alice"]).get(url("api_battle_list")).json()["results"][0]["waiting_for_me"] is True


def test_only_the_umpire_starts_battles_and_bad_input_is_refused(club, post, outsider):
    body = {"campaign": "syrtis", "scenario": "john-bulls-tyranny"}
    umpire = signed_in(club["umpire"])
    stranger = UserFactory(username="stranger")

    assert post(signed_in(club["alice"]), url("api_battle_list"), body).status_code == 403
    assert post(outsider, url("api_battle_list"), body).status_code == 404
    bad = [
        {**body, "scenario": "no-such-battle"},
        {**body, "options": {"no_such_option": True}},
        {**body, "sides": {"martians": {"controller": "ai"}}},
        {**body, "mode": "telepathy"},
        {**body, "sides": {"irish": {"controller": "player"}}},
        {**body, "sides": {"irish": {"controller": "player", "player": stranger.username}}},
        {**body, "sides": {"irish": {"controller": "ai", "player": "alice"}}},
        {**body, "decision_hours": 0},
        {"campaign": "syrtis"},
    ]
    for case in bad:
        response = post(umpire, url("api_battle_list"), case)
        assert response.status_code == 400, (case, response.content[:200])
    assert not Battle.objects.exists()


def test_the_umpire_corrects_a_wrong_entry(start_battle, club, post):
    battle = start_battle(mode=BattleMode.TABLE)
    umpire = signed_in(club["umpire"])
    rs = engine_io.rules_of(battle)
    while True:  # enter decisions at the table until a move that goes somewhere is in the log
        battle.refresh_from_db()
        state = engine_io.current_state(battle)
        entry = next(d for d in umpire.get(url("api_battle_decisions", battle)).json() if not d["submitted"])
        request = state.request(entry["id"])
        choice = request.default
        if request.kind == "move":
            choice = next(c for c in rs.candidates(state, request) if c != request.default)
        assert (
            post(umpire, url("api_battle_decisions", battle), {"request": request.id, "choice": choice}).status_code
            == 201
        )
        if request.kind == "move":
            break
    body = {"request": request.id, "choice": request.default, "reason": "she was to hold her course"}

    assert post(signed_in(club["alice"]), url("api_battle_corrections", battle), body).status_code == 403
    assert post(umpire, url("api_battle_corrections", battle), {**body, "reason": " "}).status_code == 400
    assert (
        post(umpire, url("api_battle_corrections", battle), {**body, "choice": choice}).status_code == 400
    )  # a re-roll
    response = post(umpire, url("api_battle_corrections", battle), body)

    assert response.status_code == 201, response.json()
    correction = Correction.objects.get()
    assert response.json()["id"] == correction.pk
    assert (response.json()["old_choice"], response.json()["new_choice"]) == (choice, request.default)
    assert (
        Decision.objects.get(battle=battle, request_id=request.id, superseded_by__isnull=True).choice == request.default
    )


def test_table_mode_the_umpire_decides_for_every_player_side(start_battle, club):
    battle = start_battle(
        mode=BattleMode.TABLE, sides={"irish": SideControl("player", club["alice"]), "british": SideControl("ai")}
    )

    umpire = signed_in(club["umpire"]).get(url("api_battle_decisions", battle)).json()
    listed = signed_in(club["umpire"]).get(url("api_battle_list")).json()["results"][0]

    assert {d["side"] for d in umpire} == {"irish"}
    assert [s["key"] for s in listed["my_sides"]] == ["irish"]  # the AI's side is nobody's
    assert listed["waiting_for_me"] is True


# --- the schema ------------------------------------------------------------------------------------------------


def test_the_schema_has_the_battle_operations_and_validates(club, tmp_path):
    client = signed_in(club["alice"])

    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    operations = {op["operationId"] for item in paths.values() for op in item.values() if isinstance(op, dict)}
    assert {
        "battles_list",
        "battles_create",
        "battles_retrieve",
        "battles_decisions_list",
        "battles_decisions_create",
        "battles_events_list",
        "battles_verification_retrieve",
        "battles_result_retrieve",
        "battles_leave_create",
        "battles_corrections_create",
    } <= operations
    assert "/api/battles/{battle_id}/decisions/" in paths
    assert out.read_text()


# --- every registered ruleset ------------------------------------------------------------------------------


def test_every_rulesets_open_decision_comes_with_its_schema_and_an_answer_is_taken(
    every_ruleset, ruleset_battle, club, post
):
    battle = ruleset_battle(every_ruleset)
    request = first_unanswered(battle)
    player = signed_in(decider(battle, club, request.side))

    mine = player.get(url("api_battle_decisions", battle)).json()
    entry = next(d for d in mine if d["id"] == request.id)
    schema = entry["schema"]
    assert schema["request"] == request.id
    assert schema["clause"] == request.rule
    assert schema["root"]["kind"] in {"one", "many", "number", "text", "hex", "path", "group", "repeat"}
    assert request.default in entry["candidates"]
    refused = post(player, url("api_battle_decisions", battle), {"request": request.id, "choice": {"junk": [1.5]}})
    assert refused.status_code == 400
    assert refused.json()["clause"]
    answered = post(player, url("api_battle_decisions", battle), {"request": request.id, "choice": request.default})
    assert answered.status_code == 201, answered.json()
    assert answered.json()["choice"] == request.default
    again = player.get(url("api_battle_detail", battle)).json()
    assert all(d["submitted"] for d in again["pending"] if d["id"] == request.id)


def test_every_rulesets_finished_battle_verifies_and_hands_on_its_outcome(every_ruleset, ruleset_battle, club):
    battle = ruleset_battle(every_ruleset, mode=BattleMode.AUTO)
    umpire = signed_in(club["umpire"])

    verification = umpire.get(url("api_battle_verification", battle)).json()
    result = umpire.get(url("api_battle_result", battle)).json()
    events = umpire.get(url("api_battle_events", battle, limit=5)).json()

    assert verification["verified"] is True
    assert verification["problems"] == []
    assert verification["dice"] > 0
    assert result["winner"] == battle.winner
    assert result["outcome"]
    typed = engine_io.battle_outcome(battle)  # what a campaign reads, stored with the result
    assert typed is not None
    # A draw: the outcome's winner is None where the battle row keeps "" (any seed may draw).
    assert (typed.ruleset, typed.winner or "", typed.turns, typed.over) == (
        every_ruleset.key,
        battle.winner,
        battle.turn,
        True,
    )
    assert [e["seq"] for e in events["results"]] == list(range(5))
    assert events["more"] is True


def test_every_rulesets_battle_through_the_api_shows_the_second_player_nothing_kept_from_him(
    every_ruleset, ruleset_battle, club, post, monkeypatch
):
    """The hidden-information walk for any ruleset (Sky Galleons' own, above, knows its scenario): the first
    scenario played through the API, the AI choosing for Alice (the first side) and Bob (the second), at most
    WALK_STEPS decisions. At every step Bob's answers hold no event kept to another side, no detail of Alice's open
    decisions, none of her secret answers while they are still sealed, and no seed before the end."""
    monkeypatch.setattr(services.dice, "new_seed", lambda: WALK_SEED)
    battle = ruleset_battle(every_ruleset)
    rs = engine_io.rules_of(battle)
    first, second = battle.sides.order_by("pk")[0].key, battle.sides.order_by("pk")[1].key
    bob = signed_in(club["bob"])
    assert battle.sides.get(key=second).user == club["bob"]
    sealed: dict[str, str] = {}  # Alice's secret answers not yet revealed, as JSON, by request
    leaks: list[str] = []
    after = -1

    def bob_sees(what: str, path: str) -> Any:
        response = bob.get(path)
        assert response.status_code == 200, (what, response.content[:300])
        text = response.content.decode()
        if battle.seed in text and not battle.is_finished:
            leaks.append(f"{what}: the seed before the end")
        for node in _nodes(response.json()):
            if isinstance(node, dict) and node.get("visibility", "public") not in {"public", f"side:{second}"}:
                leaks.append(f"{what}: event {node.get('seq')} kept to {node['visibility']}")
            others = isinstance(node, dict) and set(node) >= OPEN_DECISION and node["side"] != second
            if others and set(node) != OPEN_DECISION:
                leaks.append(f"{what}: {node['side']}'s decision {node['id']} in detail")
        for node in _not_in_own_decisions(response.json(), second) if sealed else ():
            if node and json.dumps(node, sort_keys=True) in sealed.values():
                leaks.append(f"{what}: a sealed answer of {first}: {node} at {_where(response.json(), node)}")
        return response.json()

    for step in range(WALK_STEPS):
        battle.refresh_from_db()
        if battle.is_finished:
            break
        request = first_unanswered(battle)
        state = engine_io.current_state(battle)
        choice = services.ai_choice(rs, state, request, engine_io.seed_bytes(battle))
        player = signed_in(decider(battle, club, request.side))
        body = {"request": request.id, "choice": choice, "idempotency_key": f"walk-{step}"}
        answered = post(player, url("api_battle_decisions", battle), body)
        assert answered.status_code == 201, answered.json()
        battle.refresh_from_db()
        still_open = {r.id for r in engine_io.current_state(battle).requests}  # answered, not yet revealed
        if request.secret and request.side == first and request.id in still_open and choice != request.default:
            sealed[request.id] = json.dumps(choice, sort_keys=True)
        sealed = {rid: text for rid, text in sealed.items() if rid in still_open}
        bob_sees("battle", url("api_battle_detail", battle))
        bob_sees("decisions", url("api_battle_decisions", battle))
        after = bob_sees("events", url("api_battle_events", battle, after=after))["last_seq"]
    assert leaks == []
