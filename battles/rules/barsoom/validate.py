"""Judging answers. Fire and crew orders list their options (the engine checks an answer is one of them); a plot is
open-ended and judged here through cards.py, each refusal naming the clause it breaks (BR-MOV-01/09..12,
BR-CARD-08..10, BR-OPT-01, BR-GRAP-08; a place in the order of reveal outside her side's ships, BR-SEQ-03).
``candidates``: the legal answers an AI or random play picks from."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.rules.barsoom import orders
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.cards import Breach
from battles.rules.barsoom.kinds import IGNORE_ONE, MOVES, PLACE, PLOT_CARDS


def plot_of(choice: JSON) -> tuple[tuple[str, ...], bool, int | None] | Rejection:
    """The cards, the ram declaration and the place in her side's order of reveal of a plot answer, or why it is no
    plot at all. A Turn card may be plotted held ("Turn right (held)": no turn, BR-MOV-05)."""
    if not isinstance(choice, dict) or set(choice) - {"cards", "ram", PLACE} or "cards" not in choice:
        return Rejection("BR-MOV-01", 'a plot is {"cards": [the cards in order], "ram": true or false}')
    cards, ram, place = choice["cards"], choice.get("ram", False), choice.get(PLACE)
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        return Rejection("BR-MOV-01", "the cards are a list of Movement Cards' names")
    if not isinstance(ram, bool):
        return Rejection("BR-RAM-01", "a ram is declared with true or false")
    if place is not None and (isinstance(place, bool) or not isinstance(place, int)):
        return Rejection("BR-SEQ-03", "her place in the order of reveal is a whole number")
    return tuple(str(card) for card in cards), ram, place


def validate(state: BattleState[Battle], request: DecisionRequest, choice: JSON) -> Rejection | None:
    if request.kind != PLOT_CARDS:
        return None  # listed: the engine has checked it
    read = plot_of(choice)
    if isinstance(read, Rejection):
        return read
    battle, name = state.board, request.ships[0]
    places = len(orders.revealers(battle, battle.ship(name).side))
    if read[2] is not None and not 1 <= read[2] <= places:
        ships = f"{places} ship{'s' if places != 1 else ''}"
        return Rejection("BR-SEQ-03", f"her side reveals {ships} this turn: a place from 1 to {places}")
    judged = orders.judge(battle, name, read[0], ignore_one=bool(state.options.get(IGNORE_ONE)))
    return Rejection(judged.clause, judged.reason) if isinstance(judged, Breach) else None


def candidates(state: BattleState[Battle], request: DecisionRequest) -> Sequence[JSON]:
    """Every plot that breaks no restriction, each also declared as a ram where it has an Ahead or Reverse, with its
    Turn cards held (BR-MOV-05) where it has any, and brought last in her side's order of reveal where her side
    reveals several ships (BR-SEQ-03)."""
    if request.kind != PLOT_CARDS:
        return request.options if request.options is not None else [request.default]
    battle, name = state.board, request.ships[0]
    places = len(orders.revealers(battle, battle.ship(name).side))
    found: list[JSON] = []
    for plot in orders.legal_plots(battle, name):
        found.append({"cards": list(plot), "ram": False})
        if any(card in MOVES for card in plot):
            found.append({"cards": list(plot), "ram": True})
        holding = plot
        for slot in range(len(plot)):
            holding = orders.held(holding, slot)
        if holding != plot:
            found.append({"cards": list(holding), "ram": False})
        if places > 1:
            found.append({"cards": list(plot), "ram": False, PLACE: places})
    return found
