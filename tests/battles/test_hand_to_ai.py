"""A player lets the AI captain fight on for his side (auto-resolve from there): he keeps his side's view, the
battle plays to its end without him, and nobody else can hand his side over."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.models import Battle, Controller

pytestmark = pytest.mark.django_db


def hand_over(client: Any, battle: Battle, side: str) -> Any:
    return client.post(reverse("battle_hand_to_ai", kwargs={"pk": battle.pk}), {"side": side})


def test_both_players_hand_their_sides_to_the_ai_and_the_battle_is_fought_to_its_end(
    client, club, start_battle, django_capture_on_commit_callbacks
):
    battle = start_battle()
    client.force_login(club["alice"])
    assert "Let the AI captain fight for" in client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).text

    with django_capture_on_commit_callbacks(execute=True):
        assert hand_over(client, battle, "irish").status_code == 302
    client.force_login(club["bob"])
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_over(client, battle, "british").status_code == 302

    battle.refresh_from_db()
    assert battle.is_finished
    irish = battle.sides.get(key="irish")
    assert (irish.controller, irish.user) == (Controller.AI, club["alice"])
    # She still reads the battle as her side saw it.
    client.force_login(club["alice"])
    assert client.get(reverse("api_battle_detail", kwargs={"battle_id": battle.pk})).status_code == 200


def test_nobody_hands_over_a_side_that_is_not_his(client, club, start_battle):
    battle = start_battle()
    client.force_login(club["bob"])

    assert hand_over(client, battle, "irish").status_code == 403
    assert battle.sides.get(key="irish").controller == Controller.PLAYER
