"""Judging answers. Fire and crew orders list their options (the engine checks an answer is one of them); a plot is
open-ended and judged here through cards.py, each refusal naming the clause it breaks (BR-MOV-01/09..12,
BR-CARD-08..10, BR-OPT-01, BR-GRAP-08). ``candidates``: the legal answers an AI or random play picks from."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.barsoom import orders
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.cards import Breach
from battles.rules.barsoom.kinds import IGNORE_ONE, MOVES, PLOT_CARDS


def plot_of(choice: JSON) -> tuple[tuple[str, ...], bool] | Rejection:
    """The cards and the ram declaration of a plot answer, or why it is no plot at all."""
    if not isinstance(choice, dict) or set(choice) - {"cards", "ram"} or "cards" not in choice:
        return Rejection("BR-MOV-01", 'a plot is {"cards": [the cards in order], "ram": true or false}')
    cards, ram = choice["cards"], choice.get("ram", False)
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        return Rejection("BR-MOV-01", "the cards are a list of Movement Cards' names")
    if not isinstance(ram, bool):
        return Rejection("BR-RAM-01", "a ram is declared with true or false")
    return tuple(str(card) for card in cards), ram


def validate(state: BattleState[Battle], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind != PLOT_CARDS:
        return None  # listed: the engine has checked it
    read = plot_of(choice)
    if isinstance(read, Rejection):
        return read
    judged = orders.judge(state.board, request.ships[0], read[0], ignore_one=bool(state.options.get(IGNORE_ONE)))
    return Rejection(judged.clause, judged.reason) if isinstance(judged, Breach) else None


def candidates(state: BattleState[Battle], request: DecisionRequest) -> Sequence[JSON]:
    """Every plot that breaks no restriction, each also declared as a ram where it has an Ahead or Reverse."""
    if request.kind != PLOT_CARDS:
        return request.options if request.options is not None else [request.default]
    found: list[JSON] = []
    for plot in orders.legal_plots(state.board, request.ships[0]):
        found.append({"cards": list(plot), "ram": False})
        if any(card in MOVES for card in plot):
            found.append({"cards": list(plot), "ram": True})
    return found
