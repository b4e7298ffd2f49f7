"""The shared kit's card tiles (answers.One's ``cards`` widget, templates/battles/_field.html): Barsoom's plot form
draws each slot as a row of Movement Cards, real radio buttons with the card's name, glyph and count, the default
plot's card checked, posting the values the select lists posted (so stored answers replay); and her record sheet
draws this turn's cards as the same tiles (BR-MOV-01, BR-CARD-10, BR-SEQ-03)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string

from battles import decision_forms
from battles.drawing.record_sheet import render_record_sheet
from battles.engine import answers, dice, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState
from battles.rules.barsoom import orders
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.kinds import PLOT_CARDS
from battles.rules.barsoom.ruleset import BARSOOM

SEED = b"tiles"


class Tiles(HTMLParser):
    """The radio buttons of the card tiles by name (value, checked), the glyphs drawn, the counts shown."""

    def __init__(self) -> None:
        super().__init__()
        self.radios: dict[str, list[tuple[str, bool]]] = {}
        self.glyphs = 0
        self.tiles = 0
        self.counts: list[str] = []
        self._in_count = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "input" and "card-tile__input" in classes:
            assert found.get("type") == "radio"
            self.radios.setdefault(str(found["name"]), []).append((str(found["value"]), "checked" in found))
        if "card-tile" in classes:
            self.tiles += 1
        if tag == "svg" and "card-tile__glyph" in classes:
            self.glyphs += 1
        self._in_count = "card-tile__count" in classes

    def handle_data(self, data: str) -> None:
        if self._in_count:
            self.counts.append(data.strip())
            self._in_count = False


def _plotting() -> tuple[BattleState[Battle], DecisionRequest]:
    scenario = BARSOOM.example_scenarios()[0]
    state = resolver.new_battle(BARSOOM, scenario, seed_commitment=dice.commitment(SEED))
    state = resolver.resolve(BARSOOM, state, SEED).state
    request = next(r for r in state.pending() if r.kind == PLOT_CARDS)
    return state, request


@pytest.mark.rule("BR-MOV-01")
@pytest.mark.rule("BR-CARD-10")
def test_the_plot_form_draws_each_slot_as_card_tiles_with_the_default_checked() -> None:
    state, request = _plotting()
    form = decision_forms.build(BARSOOM, state, request)
    html = render_to_string("battles/_decision.html", {"form": form})
    page = Tiles()
    page.feed(html)
    slots = [f"{form.prefix}cards.card{n}" for n in (1, 2, 3)]
    assert sorted(page.radios) == sorted(slots)
    deck = [card for card, count in _deck(state, request) if count]
    # each Turn card also as itself held, played as no turn (BR-MOV-05), right after it
    deck = [value for card in deck for value in (card, *([orders.HOLDING[card]] if card in orders.HOLDING else []))]
    for slot in slots:
        assert [value for value, _ in page.radios[slot]] == [answers.encode(card) for card in deck]
        assert [value for value, checked in page.radios[slot] if checked] == [answers.encode("Stop")]
    assert page.glyphs == page.tiles == 3 * len(deck)
    assert "3 left" in page.counts
    assert "1 left" in page.counts
    assert "<select" not in html.split("ram")[0]  # the cards are tiles, no longer lists


@pytest.mark.rule("BR-MOV-01")
def test_the_tiles_post_the_values_the_lists_posted() -> None:
    """The form as it opens sends the default plot, and a choice of tiles the plot it names, spelled as before."""
    state, request = _plotting()
    form = decision_forms.build(BARSOOM, state, request)
    first = {
        name: [answers.encode(item.default)]
        for name, item in answers.leaves(form.schema)
        if isinstance(item, answers.One)
    }
    assert decision_forms.choice_from_post(form, first) == request.default
    chosen = {**first, "cards.card1": ['"Ahead"'], "cards.card2": ['"Turn right"'], "cards.card3": ['"Ahead"']}
    assert decision_forms.choice_from_post(form, chosen) == {"cards": ["Ahead", "Turn right", "Ahead"], "ram": False}


@pytest.mark.rule("BR-SEQ-03")
def test_the_record_sheet_draws_this_turns_cards_as_tiles() -> None:
    state, request = _plotting()
    plot = {"cards": ["Ahead", "Turn left", "Stop"], "ram": False}
    outcome = resolver.submit(BARSOOM, state, side=request.side, request_id=request.id, choice=plot, seed=SEED)
    assert isinstance(outcome, resolver.Accepted)
    view = BARSOOM.board_view(outcome.state, request.side)
    sheet = BARSOOM.record_sheet(view, request.ships[0])
    assert sheet is not None
    html = str(render_record_sheet(sheet))
    page = Tiles()
    page.feed(html)
    assert page.tiles == page.glyphs == 3
    assert set(page.counts) <= {"plotted", "revealed"}
    assert "card-tile--plotted" in html or "card-tile--revealed" in html


def _deck(state: BattleState[Battle], request: DecisionRequest) -> tuple[tuple[str, int], ...]:
    return orders.deck_of(state.board, request.ships[0]).counts
