"""Step 4's one question (CM-FLY-25): a ship whose damage due will cross Boarding Party boxes while she has both
parties and flights aboard loses whichever her captain says. Before any box is crossed, each such captain is asked
how many of those boxes take a flight (the first so many); the rest take parties. A box crossed where nobody was
asked (more damage a critical brings, a fire at the end of the round) takes a party while any is left."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import Board, Ship
from battles.rules.cloudships_2023.kinds import PARTY_HITS_DECISION


def party_boxes_ahead(ship: Ship, points: int) -> int:
    """The Boarding Party boxes ``points`` of damage will cross on ``ship``'s track, up to its end (CM-DMG-01)."""
    return ship.boxes()[ship.crossed : ship.crossed + points].count(panels.BOARDING_PARTY)


def flight_options(ship: Ship, boxes: int) -> list[int]:
    """How many of ``boxes`` Boarding Party hits may take flights: at least those the parties cannot take, at most
    the flights aboard (a deployed flight is not aboard: CM-FLY-26). Parties first is the first."""
    least = min(ship.flights, max(0, boxes - ship.parties))
    return list(range(least, min(boxes, ship.flights) + 1))


def ask_party_hits(ctx: Context[Board]) -> bool:
    """Ask each captain with a choice; True if any was asked."""
    board, asked = ctx.board, False
    for ship in board.flying():
        points = sum(due.points for due in board.due if due.ship == ship.name)
        options = flight_options(ship, party_boxes_ahead(ship, points))
        if len(options) > 1:
            prompt = f"{ship.name}: how many of her Boarding Party hits take a flight of Flying Martians (CM-FLY-25)"
            choices = [{"ship": ship.name, "flights": n} for n in options]
            ctx.request(
                ship.side, PARTY_HITS_DECISION, rule="CM-FLY-25", options=choices, prompt=prompt, ships=[ship.name]
            )
            asked = True
    return asked
