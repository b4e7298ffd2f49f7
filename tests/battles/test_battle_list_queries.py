"""The lists of battles read the same number of queries for 2 battles as for 40, for a player and for the umpire:
the API's list, a campaign's battle list page and "my battles" (a battle's sides, state and stored answers are
read for all the listed battles at once, never one battle at a time)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import BattleMode

pytestmark = pytest.mark.django_db

FEW, MANY = 2, 40


def queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("who", ["alice", "hargreaves"])
def test_the_battle_lists_take_as_many_queries_for_40_battles_as_for_2(start_battle, club, who):
    user = club["alice"] if who == "alice" else club["umpire"]
    client = Client()
    client.force_login(user)
    paths = {
        "api": reverse("api_battle_list") + f"?limit={MANY}",
        "campaign page": reverse("battle_list", args=[club["campaign"].slug]),
        "my battles page": reverse("battle_mine"),
    }
    start_battle("thieves-fall-out", mode=BattleMode.AUTO)  # finished
    start_battle()  # waiting for Alice's Irish: in every list of both
    few = {name: queries(client, path) for name, path in paths.items()}
    for n in range(MANY - FEW):
        start_battle(mode=BattleMode.TABLE if n % 4 == 0 else BattleMode.ASYNC)  # some at the club table

    many = {name: queries(client, path) for name, path in paths.items()}

    assert many == few
    page = client.get(paths["campaign page"]).content.decode()
    assert page.count('<tr class="battles__row') == MANY
