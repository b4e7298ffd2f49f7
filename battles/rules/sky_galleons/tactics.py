"""Sky Galleons tactics: the Captain, an AI policy that answers every decision of the ruleset as a player would.

The Captain is an engine :class:`~battles.engine.policies.Policy`: ``choose(ruleset, state, request)`` gives
one answer, from the state as its side may see it. It scores the legal answers with plain rules of thumb:

* a warship picks a target (the nearest enemy, the damaged and the weak first), closes to the range where
  its guns hit on 3+, keeps as many guns bearing as it can (the aspect the target will be in from where it
  ends, against each gun's arcs), holds the target's altitude, and keeps clear of other ships' hexes
  (collisions), the map edge and the ground;
* a beaten ship (heavy hull damage, most of its crew gone, every officer lost: SG-CREW-03, or no gun left)
  and every merchant run for the nearest map edge, away from the enemy, and leave the battle;
* every gun that can fire does (guns reload by the turn, so holding fire gains nothing), each at the target
  where its shots are worth most, the side's chosen target first;
* in the Initiative Phase empty helm and trim stations are relieved, empty gun crew circles are filled from
  the deckhands, and a beaten ship that cannot get away strikes her colours;
* a prize is crewed when her captors' men may man her and she would make way with them; otherwise pirates
  and privateers hold her and take her in tow, and warships scuttle her (SG-BRD-21..24);
* a ship with city or fortress hexes to bombard (SG-SCN-25) gets on with it: it holds the height its guns
  still reach the ground from (ordnance_play.bombard_height), climbing back when it falls, keeps clear of
  the enemy's mine carriers, lob guns and batteries' high-angle fire (bombard_exposure), weighs every hex
  alike, chases no prize, shares its guns out over the hexes so that no hit is spent beyond a hex's points
  (share_bombardment) and keeps its rockets for them.

Deterministic: the same seed and state give the same answer. The only chance is the choice between moves
scored almost alike, one die from ``dice.face`` on a stream named after the policy and the request (as
RandomPolicy does), so a battle played by Captains replays exactly.

A side's ``ai`` object in the scenario tunes its captains: ``flee_hull`` (the share of hull boxes hit at which
a ship is beaten, default 2/3), ``flee_crew`` (the share of the starting crew below which it is beaten,
default 1/3), ``caution`` (how much the enemy's guns weigh against its own when placing a warship,
default 0.5) and ``prizes`` (``"keep"``: the side keeps the prizes it cannot crew rather than scuttle them).

This module is the captain himself, who hands each decision to the room that answers it: ai_moves, ai_fire,
ai_orders and ai_flight, all over ai_reading (his reading of the board and the weights above).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from battles.aikit import ties
from battles.aikit.memo import Memo
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState
from battles.rules.sky_galleons import (
    candidates,
    flying,
    movement,
    ordnance_play,
    queries,
    scenario_ai,
)
from battles.rules.sky_galleons.ai_fire import fire_orders, first_player, relative_position
from battles.rules.sky_galleons.ai_flight import flight, leap_move
from battles.rules.sky_galleons.ai_moves import (
    ai_adjust_moves,
    best_moves,
    droppers,
    flee_score,
    path_of,
    score_moves,
    sight,
)
from battles.rules.sky_galleons.ai_orders import (
    attack_move,
    avoids,
    avoids_collision,
    boarding_orders,
    initiative_orders,
)
from battles.rules.sky_galleons.ai_reading import NEAR_TIE, Battery, State
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.board import move_parts as board_move_parts
from battles.rules.sky_galleons.kinds import (
    AVOID,
    AVOID_COLLISION,
    BOARD,
    FIRE,
    FIRST,
    KEY,
    MOVE,
    ORDERS,
    PLACE,
    PLOT,
    POSITION,
)
from galleons.record import ShipRecord


class Captain:
    """The Sky Galleons AI captain (see the module docstring). ``Captain(seed)`` plays any side."""

    def __init__(self, seed: bytes, name: str = "captain") -> None:
        self._seed = seed
        self.name = name
        self._memo: Memo[Battery] = Memo()  # one battle's ships' guns, kept while the ships are unchanged

    def choose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        choice = self.propose(ruleset, state, request)
        if not request.allows(choice) or ruleset.validate(state, request, choice) is not None:
            return request.default  # never offer an illegal answer; the default is always legal
        return choice

    def propose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        """The Captain's answer before ``choose`` checks it (tests play with this, so a mistake shows)."""
        if ruleset.key != KEY or not isinstance(state.board, Board):
            return request.default  # another game: the Captain knows only Sky Galleons
        return self._answer(cast(State, state), request)

    def _answer(self, state: State, request: DecisionRequest) -> JSON:
        if request.kind == MOVE:
            return self._move(state, request)
        if request.kind == FIRE:
            return fire_orders(state, request.side)
        if request.kind == ORDERS:
            return initiative_orders(state, request)
        if request.kind == FIRST:
            return first_player(state, request)
        if request.kind == POSITION:
            return relative_position(state, request)
        if request.kind == AVOID:
            return ordnance_play.ai_avoid(request, bool(avoids(state, request)))  # mines cut loose first
        if request.kind == ordnance_play.AVOID_TORPEDO:
            return ordnance_play.ai_avoid_torpedo(request)
        if request.kind == BOARD:
            return boarding_orders(state, request.side)
        if request.kind == flying.FLY:
            return flight(state, request)
        if request.kind == AVOID_COLLISION:
            return avoids_collision(state, request)
        if request.kind == PLOT:
            return self._plots(state, request)
        if request.kind == PLACE:  # the scenario's positions are the set-up the AI takes, but for the entry edge
            return scenario_ai.entry_spot(state.board, state.board.ship(request.ships[0])) or request.default
        return request.default

    def _move(self, state: State, request: DecisionRequest) -> JSON:
        state = with_written(state, request)
        record = state.board.ship(request.ships[0])
        traced = candidates.traced_moves(state, record)
        landing = scenario_ai.landing_move(
            state.board, record, traced, state.turn
        )  # SG-SCN-38: land or pick up the party
        if landing is not None:
            return landing
        attack = leap_move(state, record, traced) or attack_move(state, record, traced)
        if attack is not None:
            return attack
        near = scenario_ai.stand_off(state.board, record)  # SG-SCN-39: the party is in the dungeon
        view = sight(state, record, self._memo)
        if near is None and not view.running and not droppers(record):
            scored = best_moves(state, view, traced)  # the same best as scoring them all, far cheaper
        else:
            scored = score_moves(state, record, traced, near, view)
            scored = ai_adjust_moves(state, record, traced, scored)  # mines avoided, drops made
        alike = ties.alike(scored, NEAR_TIE)
        if not alike:
            return request.default
        # The one chance the Captain takes: which of the equally good moves, so that captains differ.
        return ties.pick(alike, self._seed, f"policy|{self.name}|{request.side}|{request.id}")

    def _plots(self, state: State, request: DecisionRequest) -> JSON:
        """Plotted movement (SG-ERR-24): each ship plots the move it likes best within half its allowance, as
        it would pick a whole move (the allowance in the Initiative Phase is the plotting share)."""
        plots: dict[str, JSON] = {}
        for name in request.ships:
            record = state.board.ship(name)
            scored = score_moves(state, record, candidates.traced_moves(state, record))
            if scored:
                plots[name] = max(scored, key=lambda item: item[0])[1]
        return {"plots": plots}


def with_written(state: State, request: DecisionRequest) -> State:
    """The board as the captain plans this ship's move: his ships whose moves he has already written in the same
    submission stand where those moves end (they are made one after another, in the order written)."""
    board = state.board
    moved: dict[str, ShipRecord] = {}
    for asked in state.requests:
        if asked.kind != MOVE or asked.side != request.side or asked.id not in state.answers:
            continue
        record = board.ship(asked.ships[0])
        steps, _ = board_move_parts(state.answers[asked.id])
        try:
            path = movement.trace(record, steps, allowed=queries.allowance(state, record), terrain=board.terrain)
        except movement.PlanError:
            continue
        if path and not path[-1].ends:
            end = path[-1]
            moved[record.name] = replace(record, position=end.hex, facing=end.facing, altitude=end.altitude)
    if not moved:
        return state
    ships = tuple(moved.get(s.name, s) for s in board.ships)
    return state.evolve(board=replace(board, ships=ships))


class Leaving(Captain):
    """A side that has left the battle in the battle app but whose ships are still on the map.

    ``surrender``: in its next initiative orders every ship strikes its colours (SG-SEQ-02), and from then on
    the side answers only with the defaults. ``withdraw``: every ship runs for the map edge as a beaten ship
    would (flee_score), firing as it goes. The answers are ordinary decisions, logged like any other.
    """

    def __init__(self, seed: bytes, name: str, how: str) -> None:
        super().__init__(seed, name)
        self.how = how

    def propose(self, ruleset: Ruleset[Any], state: BattleState[Any], request: DecisionRequest) -> JSON:
        if ruleset.key != KEY or not isinstance(state.board, Board):
            return request.default
        board = state.board
        if self.how == "surrender":
            if request.kind != ORDERS:
                return request.default
            ships = [s.name for s in board.fighting(request.side)]
            return {**cast(dict[str, JSON], request.default), "strike": list[JSON](ships)}
        if request.kind == MOVE:
            record = board.ship(request.ships[0])
            played = cast(State, state)
            view = sight(played, record)
            scored = [
                (flee_score(view, path_of(view, steps)), list[JSON](plan))
                for plan, steps in candidates.traced_moves(played, record)
            ]
            return max(scored, key=lambda item: item[0])[1] if scored else request.default
        return super().propose(ruleset, state, request)
