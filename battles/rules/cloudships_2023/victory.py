"""When a Cloudships battle ends, and who won. The text gives no victory rule, so these are the designed defaults
(docs/cloudships.md): the fight is over when at most one side has a ship still flying (the others crashed, sunk,
struck or gone), and at the scenario's round limit, a draw. A scenario may name other conditions in its
``victory`` (``{"kind": ..., "round_limit_winner": side}``), the kinds the scenarios translated from Sky Galleons
need (scenario_bridge.py; docs/cloudships.md section 12):

- ``last_side_flying`` (the default): the last side with a ship flying wins;
- ``escape`` (``ship``, ``pursuer``): the ship's side wins once the pursuer is crippled (out of the fight, or every
  gun lost: she can no longer stop the ship slipping away); the pursuer's side once the ship is out of the fight;
- ``capture`` (``ship``, ``prize``): the ship's side wins when the prize strikes to its boarders; the other side
  when the prize is out of the fight any other way (crashed, gone off the map) or the ship is;
- ``withdraw_at_half`` (``flagship``): the first side to have lost half its ships or more withdraws, the other
  winning (both at once: a draw); the side that loses the flagship loses at once.

Each ends the battle too when no more than one side still flies; a scenario's ``noncombatants`` (ship names: a
campaign's prizes in tow) keep no side flying. ``round_limit_winner``: who wins when the last
round ends undecided (none: a draw). Pure: read from the board alone."""

from __future__ import annotations

from dataclasses import dataclass

from battles.engine.words import possessive
from battles.rules.cloudships_2023.board import Board, Ship

LAST_SIDE_FLYING, ESCAPE, CAPTURE, WITHDRAW_AT_HALF = "last_side_flying", "escape", "capture", "withdraw_at_half"
KINDS = (LAST_SIDE_FLYING, ESCAPE, CAPTURE, WITHDRAW_AT_HALF)
NONCOMBATANTS = "noncombatants"  # any kind may name them
PARAMETERS = {  # the ships each kind names
    LAST_SIDE_FLYING: (),
    ESCAPE: ("ship", "pursuer"),
    CAPTURE: ("ship", "prize"),
    WITHDRAW_AT_HALF: ("flagship",),
}


@dataclass(frozen=True)
class Ending:
    winner: str | None
    reason: str


def decided(board: Board) -> Ending | None:
    """The scenario's victory conditions, then the last side flying."""
    kind = str(board.victory.get("kind", LAST_SIDE_FLYING))
    found = {ESCAPE: escape, CAPTURE: capture, WITHDRAW_AT_HALF: withdraw_at_half}.get(kind)
    return (found(board) if found else None) or last_side_flying(board)


def noncombatants(board: Board) -> frozenset[str]:
    """The ships a scenario names as taking no part in the fight (``victory.noncombatants``: a campaign's prizes in
    tow, campaign.py): they keep no side in the battle."""
    names = board.victory.get(NONCOMBATANTS, [])
    return frozenset(str(name) for name in names) if isinstance(names, list) else frozenset()


def last_side_flying(board: Board) -> Ending | None:
    """The battle's end once no more than one side has a ship flying (noncombatants not counted): that side wins;
    with none left, a draw."""
    quiet = noncombatants(board)
    flying = tuple(dict.fromkeys(ship.side for ship in board.flying() if ship.name not in quiet))
    if len(flying) > 1:
        return None
    if not flying:
        return Ending(None, "no ship is left flying")
    name = board.side_names.get(flying[0], flying[0])
    return Ending(flying[0], f"{name} alone has ships still flying")


def round_limit(board: Board, round_: int) -> Ending | None:
    """The scenario's last round is played: the scenario's ``round_limit_winner`` wins, else a draw."""
    if round_ < board.rounds:
        return None
    winner = board.victory.get("round_limit_winner")
    side = str(winner) if isinstance(winner, str) else None
    return Ending(side, f"the round limit ({board.rounds}) is reached")


def _named(board: Board, key: str) -> Ship:
    return board.ship_named(str(board.victory[key]))


def _other(board: Board, side: str) -> str | None:
    return next((ship.side for ship in board.ships if ship.side != side), None)


def escape(board: Board) -> Ending | None:
    ship, pursuer = _named(board, "ship"), _named(board, "pursuer")
    if not ship.flying:
        return Ending(pursuer.side, f"{ship.name} is out of the fight ({ship.status}) before she could slip away")
    if not pursuer.flying or not pursuer.working_guns():
        return Ending(ship.side, f"{pursuer.name} is crippled: {ship.name} slips away")
    return None


def capture(board: Board) -> Ending | None:
    ship, prize = _named(board, "ship"), _named(board, "prize")
    if prize.taken_by and board.ship_named(prize.taken_by).side == ship.side:
        return Ending(ship.side, f"{prize.name} struck to {possessive(prize.taken_by)} boarders: she is seized")
    if not prize.flying:
        return Ending(_other(board, ship.side), f"{prize.name} is out of the fight ({prize.status}): no prize")
    if not ship.flying:
        return Ending(prize.side, f"{ship.name} is out of the fight ({ship.status}): {prize.name} is safe")
    return None


def withdraw_at_half(board: Board) -> Ending | None:
    flagship = _named(board, "flagship")
    if not flagship.flying:
        return Ending(_other(board, flagship.side), f"{flagship.name} is lost: her side withdraws")
    beaten = [side for side in dict.fromkeys(ship.side for ship in board.ships) if _half_lost(board, side)]
    if len(beaten) > 1:
        return Ending(None, "both sides have lost half their ships: both withdraw")
    if beaten:
        name = board.side_names.get(beaten[0], beaten[0])
        return Ending(_other(board, beaten[0]), f"{name} has lost half its ships and withdraws")
    return None


def _half_lost(board: Board, side: str) -> bool:
    ships = [ship for ship in board.ships if ship.side == side]
    return 2 * sum(1 for ship in ships if not ship.flying) >= len(ships)
