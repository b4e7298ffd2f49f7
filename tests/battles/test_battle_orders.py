"""The battle page's one orders form (``battles/<pk>/orders/``): every open decision of the viewer answered by one
"Send orders", in one transaction; a refusal of any leaves them all open and brings the form back as typed (422).
Without the board script its step buttons build a move a step further; the board script's clicks on the map come
to the decision's fragment as steps to try, each judged like a pressed button."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.urls import reverse

from battles import engine_io, selectors, services
from battles.engine import answers
from battles.engine.events import canonical
from battles.models import Battle, Decision
from battles.services import BattleRefused
from tests.battles.test_battle_pages import HTMX, advance_to, decide, open_request

pytestmark = pytest.mark.django_db


def orders(battle: Battle) -> str:
    return reverse("battle_orders", kwargs={"pk": battle.pk})


def posted_orders(battle: Battle, user: Any) -> dict[str, list[str]]:
    """The orders form as the page draws it for ``user``, each decision filled in with its default."""
    viewer = selectors.viewer_for(battle=battle, user=user)
    data: dict[str, list[str]] = {"requests": []}
    for form in selectors.decision_forms_for(viewer):
        data["requests"].append(form.id)
        data[f"{form.prefix}idempotency_key"] = [form.idempotency_key]
        for name, values in answers.disassemble(form.schema, form.request.default).items():
            data[f"{form.prefix}{name}"] = values
        if form.move is not None:
            data.setdefault("moves", []).append(f"{form.id}:{form.move.name}")
    return data


def plotted_battle(start_battle: Any, club: dict[str, Any], capture: Any) -> Battle:
    """Sky Galleons with plotted movement: the Irish asked for their orders and their plot at once."""
    battle = start_battle(options={"plotted_movement": True})
    advance_to(battle, club, capture, "plot movement", "irish")
    return battle


def test_send_orders_answers_the_orders_and_the_plot_together(
    client, club, start_battle, django_capture_on_commit_callbacks
):
    battle = plotted_battle(start_battle, club, django_capture_on_commit_callbacks)
    client.force_login(club["alice"])
    html = client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()
    data = posted_orders(battle, club["alice"])
    assert len(data["requests"]) >= 2, data["requests"]  # the initiative orders and the plot, open together
    assert html.count('id="orders-form"') == 1
    assert html.count("Send orders</button>") == 2  # Enter's, and the one to press

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(orders(battle), data)

    assert response.status_code == 302
    stored = set(Decision.objects.filter(battle=battle, side__key="irish").values_list("request_id", flat=True))
    assert set(data["requests"]) <= stored
    again = client.post(orders(battle), data, follow=True)  # a second click on Send orders
    assert "no longer open" not in again.content.decode()
    assert Decision.objects.filter(battle=battle, request_id__in=data["requests"]).count() == len(data["requests"])


@pytest.mark.parametrize("htmx", [False, True], ids=["whole page", "in place"])
def test_a_refusal_of_any_answer_sends_none_and_the_form_comes_back_as_typed(
    client, club, start_battle, django_capture_on_commit_callbacks, monkeypatch, htmx
):
    battle = plotted_battle(start_battle, club, django_capture_on_commit_callbacks)
    client.force_login(club["alice"])
    data = posted_orders(battle, club["alice"])
    before = Decision.objects.filter(battle=battle).count()
    real = services.battle_submit_decision
    calls: list[str] = []

    def refuse_the_last(**kwargs: Any) -> Any:
        calls.append(kwargs["request_id"])
        if len(calls) == len(data["requests"]):
            raise BattleRefused("The rules say no to this one.", clause="SG-TEST-01")
        return real(**kwargs)

    monkeypatch.setattr(services, "battle_submit_decision", refuse_the_last)
    response = client.post(orders(battle), data, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))

    assert response.status_code == 422
    if htmx:  # the page's own post: the orders region alone, swapped in place, nothing else of the page
        assert response.content.decode().lstrip().startswith('<section hx-swap-oob="true" class="panel decisions"')
        assert response.content.decode().count("hx-swap-oob") == 1
        assert "<html" not in response.content.decode()
    assert len(calls) == len(data["requests"])  # the first answers were taken, then the last refused
    assert Decision.objects.filter(battle=battle).count() == before  # and all rolled back
    html = response.content.decode()
    assert "The rules say no to this one." in html
    assert "SG-TEST-01" in html
    for request_id in data["requests"]:
        assert f'id="decision-{request_id}"' in html  # every decision still open on the page


def test_without_script_a_step_button_builds_the_move_on_the_orders_form(
    client, club, start_battle, django_capture_on_commit_callbacks
):
    battle = start_battle()
    request = advance_to(battle, club, django_capture_on_commit_callbacks, "move", "irish")
    client.force_login(club["alice"])
    data = posted_orders(battle, club["alice"])

    response = client.post(orders(battle), {**data, "step": f"{request.id}|ahead"})

    assert response.status_code == 200
    html = response.content.decode()
    assert f'name="{request.id}:steps" value="[&quot;ahead&quot;]"' in html
    assert not Decision.objects.filter(battle=battle, request_id=request.id).exists()  # built, not sent
    again = client.post(orders(battle), {**data, f"{request.id}:steps": '["ahead"]', "undo": request.id})
    assert f'name="{request.id}:steps" value="[]"' in again.content.decode()


def test_a_hex_clicked_on_the_board_becomes_the_steps_the_rules_accept_and_no_more(
    client, club, start_battle, django_capture_on_commit_callbacks, monkeypatch
):
    # A fixed seed: on some seeds the Fenian Ram's crew is stunned by a critical by her move (SG-CRIT-37) and
    # she may take no step at all, which is the rules right but not this test's case.
    monkeypatch.setattr(services.dice, "new_seed", lambda: hashlib.sha256(b"a hex clicked").digest())
    battle = start_battle()
    request = advance_to(battle, club, django_capture_on_commit_callbacks, "move", "irish")
    client.force_login(club["alice"])

    two = client.get(decide(battle, request.id), {"plan": "[]", "try": ["ahead", "ahead"]}, **HTMX)
    assert 'data-plan="[&quot;ahead&quot;, &quot;ahead&quot;]"' in two.content.decode()

    # A turn before any hex is moved is no step the Fenian Ram may take (SG-MOV-02): the path stops before it.
    refused = client.get(decide(battle, request.id), {"plan": "[]", "try": ["port", "ahead"]}, **HTMX)
    html = refused.content.decode()
    assert 'data-plan="[]"' in html
    assert "The rules do not take &#x27;port&#x27;" in html


def test_a_decision_posted_on_its_own_with_the_orders_forms_names_is_still_answered(
    client, club, start_battle, django_capture_on_commit_callbacks
):
    battle = start_battle()
    request = open_request(battle, "irish")
    client.force_login(club["alice"])
    prefix = f"{request.id}:"

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(decide(battle, request.id), {f"{prefix}form": "place", f"{prefix}use_default": "1"})

    assert response.status_code == 302
    choice = Decision.objects.get(battle=battle, request_id=request.id).choice
    assert canonical(choice) == canonical(request.default)


def test_a_hex_two_hexsides_round_is_one_hard_turn_where_the_rules_refuse_two_single_turns(
    client, club, ruleset_battle, django_capture_on_commit_callbacks
):
    """An Ironclads ship turns once a Game Turn (IC-MOV-04): the board's click on the hex two hexsides round spells
    two single turns and, instead, the one two-hexside turn; the server keeps the spelling the rules take."""
    from battles.engine import ruleset as registry

    rules = registry.get("ironclads")
    battle = ruleset_battle(rules)
    side = engine_io.current_state(battle).sides[0]
    request = advance_to(battle, club, django_capture_on_commit_callbacks, "move order", side)
    client.force_login(club["alice"])
    url = decide(battle, request.id)
    plain = client.get(url, {"plan": "[]", "try": ["port", "port", "ahead"]}, **HTMX).content.decode()
    assert 'data-plan="[&quot;port&quot;]"' in plain  # the second single turn refused
    both = {"plan": "[]", "try": ["port", "port", "ahead"], "instead": ["hard port", "ahead"]}
    html = client.get(url, both, **HTMX).content.decode()
    assert 'data-plan="[&quot;hard port&quot;, &quot;ahead&quot;]"' in html
    assert "The rules do not take" not in html
