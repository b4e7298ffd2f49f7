"""A side's own answers on its own record sheets while the rest of the batch is awaited: the app keeps each answer
until every side's are in, so the board view alone would show a Barsoom captain who has plotted "No cards plotted."
on his own ship. His sheets (the battle page's and the sheet's own page) show his plotted cards; the other side's
show none of them (BR-MOV-02)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from battles import engine_io, selectors, services
from battles.engine import resolver
from battles.models import Battle
from battles.rules.barsoom.kinds import PLOT_CARDS
from battles.rules.barsoom.ruleset import BARSOOM

pytestmark = pytest.mark.django_db

# The held card as her sheet names it (the plot form's own option reads "Turn right, held: no turn").
ON_A_SHEET = re.compile(r"Turn right, held\s*<")
PLOT = {"cards": ["Ahead", "Turn right (held)", "Ahead"], "ram": False}


def _sheet_of(page: str, name: str) -> str:
    """Her record sheet on a page: the plot form beside it offers "Turn right, held" as a card tile of its own."""
    found = re.search(rf'<article class="sheet[^"]*"[^>]*data-ship="{re.escape(name)}">(.*?)</article>', page, re.S)
    assert found, f"no record sheet of {name} on the page"
    return found.group(1)


def _plotted(battle: Battle, club: dict[str, Any], django_capture_on_commit_callbacks: Any) -> tuple[str, str, str]:
    """Alice plots her first ship; Bob has not plotted. Gives her ship, her side and Bob's."""
    state = engine_io.current_state(battle)
    request = next(r for r in state.pending() if r.kind == PLOT_CARDS and r.side == state.sides[0])
    with django_capture_on_commit_callbacks(execute=True):
        services.battle_submit_decision(battle_id=battle.pk, user=club["alice"], request_id=request.id, choice=PLOT)
    battle.refresh_from_db()
    assert engine_io.current_state(battle).pending(state.sides[1])  # Bob's plots are still awaited
    return request.ships[0], state.sides[0], state.sides[1]


@pytest.mark.rule("BR-MOV-02")
def test_the_owner_sees_his_plotted_cards_on_his_sheet_and_the_other_side_none(
    client, club, ruleset_battle, django_capture_on_commit_callbacks
):
    battle = ruleset_battle(BARSOOM)
    name, hers, _ = _plotted(battle, club, django_capture_on_commit_callbacks)
    alice = selectors.viewer_for(battle=battle, user=club["alice"])
    bob = selectors.viewer_for(battle=battle, user=club["bob"])
    # the engine's board alone has not seen her answer: the sheets' board folds it in for her only
    assert name not in BARSOOM.board_view(engine_io.current_state(battle), hers)["plots"]
    assert selectors.sheet_board(alice)["plots"][name]["cards"] == PLOT["cards"]  # type: ignore[index]
    assert name not in selectors.sheet_board(bob)["plots"]  # type: ignore[index]

    client.force_login(club["alice"])
    mine = _sheet_of(client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode(), name)
    assert ON_A_SHEET.search(mine)
    sheet = client.get(reverse("battle_ship_sheet", kwargs={"battle_id": battle.pk, "name": name})).content.decode()
    assert ON_A_SHEET.search(sheet)

    client.force_login(club["bob"])
    theirs = _sheet_of(client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode(), name)
    assert not ON_A_SHEET.search(theirs)
    assert "No cards plotted." in theirs
    sheet = client.get(reverse("battle_ship_sheet", kwargs={"battle_id": battle.pk, "name": name})).content.decode()
    assert not ON_A_SHEET.search(sheet)
    assert "No cards plotted." in sheet


def test_an_answer_to_no_open_decision_or_a_refused_one_is_left_out(club, ruleset_battle):
    battle = ruleset_battle(BARSOOM)
    state = engine_io.current_state(battle)
    request = next(r for r in state.pending() if r.kind == PLOT_CARDS)
    kept = resolver.with_answers(BARSOOM, state, {request.id: PLOT, "d999": PLOT})
    assert kept.board.plots[request.ships[0]].cards == tuple(PLOT["cards"])
    assert kept.pending()  # the batch stays open: nothing advanced
    refused = resolver.with_answers(BARSOOM, state, {request.id: {"cards": ["Reverse", "Reverse", "Reverse"]}})
    assert request.ships[0] not in refused.board.plots
