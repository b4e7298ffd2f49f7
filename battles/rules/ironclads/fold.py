"""The fold: a table from event kind to a pure function of the board and the event; kinds it does not list leave the
board alone. The phases put in each event what it leaves behind (the ships a move changed, whole; the squadrons
after it), so the fold copies results rather than working the rules again, and a replay of the log rebuilds any
state."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from battles.engine.events import DECISION, DECISIONS, PHASE, TURN, Event
from battles.engine.frozen import evolve
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str
from battles.engine.state import BattleState
from battles.rules.ironclads import cards
from battles.rules.ironclads.battle import Battle, allocation_from_json
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.damage import Noted
from battles.rules.ironclads.formations import Formations
from battles.rules.ironclads.kinds import (
    CRITICALS_ROLLED,
    DAMAGE_ALLOCATION,
    DAMAGE_RESOLVED,
    FIRE_DAMAGE,
    FIRE_ORDERED,
    FIRE_ORDERS,
    FIRING,
    FORMATIONS_CHECKED,
    HITS_NOTED,
    INITIATIVE_WON,
    MOVE_ORDER,
    ORDER_OF_MOVING,
    PROBLEM,
    SALVO_FIRED,
    SEA_STATE,
    SEALED_ORDER,
    SHIP_CHOSEN,
    SHIP_MOVED,
    SHIP_SUNK,
)
from battles.rules.ironclads.salvo import Score

Fold = Callable[[BattleState[Battle], Event], Battle]


def _new_turn(state: BattleState[Battle], event: Event) -> Battle:
    """A Game Turn: nobody has moved or turned, last turn's collisions are over, the Initiative is rolled anew."""
    battle = state.board
    board = evolve(battle.board.next_turn(), turn=event.turn)
    return evolve(battle, board=board, initiative="", last_moved="", sailing={}, chosen="", ordered=False, plan=())


def _phase(state: BattleState[Battle], event: Event) -> Battle:
    """The Firing Phase opens at its step A, and everything of it is cleared when it closes."""
    if event.phase == FIRING:
        return evolve(state.board, fire_step=FIRE_ORDERED)
    if state.board.fire_step:
        return evolve(state.board, fire_step="", fire_orders={}, noted={}, demands={}, allocations={})
    return state.board


def _revealed(state: BattleState[Battle], event: Event) -> Battle:
    """The fire orders, kept by each side until all are given (IC-SEQ-08), as the batch reveals them."""
    battle = state.board
    given = dict(battle.fire_orders)
    for answer in read_object(event.data["answers"]).values():
        entry = read_object(answer)
        if entry["decision"] == FIRE_ORDERS:
            choice = read_object(entry["choice"])
            targets = read_object(choice["targets"])
            given[read_str(choice["ship"])] = {str(t): None if g is None else read_str(g) for t, g in targets.items()}
    return evolve(battle, fire_orders=given)


def _salvo(state: BattleState[Battle], event: Event) -> Battle:
    """A salvo's unsaved C and H on the target's Hits line, each with the arcs of hers it was fired into."""
    battle, data = state.board, event.data
    target = read_str(data["target"])
    left = read_object(data["noted"])
    score = Score(criticals=read_int(left["criticals"]), hits=read_int(left["hits"]))
    if not score.total:
        return battle
    arcs = tuple(read_str(a) for a in read_list(data["fired_into"]))
    line = battle.noted.get(target, Noted()).note(score, arcs)
    return evolve(battle, noted={**battle.noted, target: line})


def _hits_noted(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, fire_step=FIRE_DAMAGE, fire_orders={})


def _criticals(state: BattleState[Battle], event: Event) -> Battle:
    battle = state.board
    demands = tuple(read_int(d) for d in read_list(event.data["demands"]))
    return evolve(battle, demands={**battle.demands, read_str(event.data["ship"]): demands})


def _damaged(state: BattleState[Battle], event: Event) -> Battle:
    """Her card after the allocation; her Hits line is clear (IC-DMG-07)."""
    battle = state.board
    name = read_str(event.data["ship"])
    card = cards.from_json(read_object(event.data["card"]))
    board = battle.board.with_ship(evolve(battle.ship(name), card=card))
    rest = {k: v for k, v in battle.noted.items() if k != name}
    demands = {k: v for k, v in battle.demands.items() if k != name}
    allocations = {k: v for k, v in battle.allocations.items() if k != name}
    return evolve(battle, board=board, noted=rest, demands=demands, allocations=allocations)


def _problem(state: BattleState[Battle], event: Event) -> Battle:
    battle, data = state.board, event.data
    ship = Ship.from_json(read_object(data["changed"]))
    fires = dict(battle.fires)
    if read_int(data["burning_until"]):
        fires[ship.name] = read_int(data["burning_until"])
    return evolve(battle, board=battle.board.with_ship(ship), fires=fires)


def _sea(state: BattleState[Battle], event: Event) -> Battle:
    battle = state.board
    return battle.with_board(evolve(battle.board, rough=read_bool(event.data["rough"])))


def _initiative(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, initiative=read_str(event.data["side"]))


def _checked(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, formations=Formations.from_json(read_object(event.data["formations"])))


def _chosen(state: BattleState[Battle], event: Event) -> Battle:
    return evolve(state.board, chosen=read_str(event.data["ship"]))


def _decided(state: BattleState[Battle], event: Event) -> Battle:
    """A side's answer as it is given: its order of moving (its own event, which alone holds the sealed names), a
    ship's move order (carried out by the next advance), an allocation."""
    battle, kind, choice = state.board, event.data["decision"], event.data["choice"]
    if kind == ORDER_OF_MOVING:
        names = tuple(read_str(n) for n in read_list(read_object(choice)[SEALED_ORDER]))
        return evolve(battle, sailing={**battle.sailing, read_str(event.data["side"]): names})
    if kind == DAMAGE_ALLOCATION:
        given = read_object(choice)
        allocations = {**battle.allocations, read_str(given["ship"]): allocation_from_json(given)}
        return evolve(battle, allocations=allocations)
    if kind == MOVE_ORDER:
        order = read_object(choice)
        plan = tuple(read_str(t) for t in read_list(order["steps"]))
        return evolve(battle, chosen=read_str(order["ship"]), ordered=True, plan=plan)
    return battle


def _moved(state: BattleState[Battle], event: Event) -> Battle:
    battle, data = state.board, event.data
    board = battle.board
    for record in read_list(data["changed"]):
        board = board.with_ship(Ship.from_json(read_object(record)))
    squadrons = data.get("formations")
    return evolve(
        battle,
        board=board,
        last_moved=read_str(data["side"]),
        chosen="",
        ordered=False,
        plan=(),
        formations=battle.formations if squadrons is None else Formations.from_json(read_object(squadrons)),
    )


def _sunk(state: BattleState[Battle], event: Event) -> Battle:
    battle = state.board
    name = read_str(event.data["ship"])
    return battle.with_board(battle.board.with_ship(evolve(battle.ship(name), sunk=True)))


FOLDS: Mapping[str, Fold] = {
    TURN: _new_turn,
    PHASE: _phase,
    DECISION: _decided,
    DECISIONS: _revealed,
    SALVO_FIRED: _salvo,
    HITS_NOTED: _hits_noted,
    CRITICALS_ROLLED: _criticals,
    DAMAGE_RESOLVED: _damaged,
    PROBLEM: _problem,
    SEA_STATE: _sea,
    INITIATIVE_WON: _initiative,
    FORMATIONS_CHECKED: _checked,
    SHIP_CHOSEN: _chosen,
    SHIP_MOVED: _moved,
    SHIP_SUNK: _sunk,
}


def apply(state: BattleState[Battle], event: Event) -> Battle:
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state, event)
