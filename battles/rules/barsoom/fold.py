"""The fold: a table from event kind to a pure function of the board and the event. Kinds it does not list leave
the board alone. The phases put in each event what it leaves behind (the ships moved, the crews and conditions
changed, whole), so the fold copies results rather than working the rules again, and a replay of the log rebuilds
any state.

The plot is folded from each side's own ``decision`` event, which only that side sees (BR-MOV-02): the batch's
public reveal carries nothing of it (the request seals it whole), and each card reaches the others as it is
revealed (``card revealed``, BR-SEQ-03)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from battles.engine.events import DECISION, TURN, Event
from battles.engine.jsonread import read_int, read_list, read_object, read_str
from battles.engine.state import BattleState
from battles.rules.barsoom import damage, orders
from battles.rules.barsoom.battle import Battle, Plot, condition_from_json, crew_from_json
from battles.rules.barsoom.board import Ship
from battles.rules.barsoom.cards import Plotted
from battles.rules.barsoom.kinds import (
    BOARDERS_CROSSED,
    BOARDERS_JUMPED,
    BOARDING_FIGHT,
    BOMB_DROPPED,
    CARD_REVEALED,
    CREW_ORDERS,
    CREW_POSTED,
    DAMAGED,
    DESCEND,
    FIRE_ORDERS,
    FIRE_WAITS,
    FITTED_OUT,
    GRAPPLE_CUT,
    GRAPPLE_THROWN,
    GUN_FIRED,
    GUN_LOST,
    IGNORE_ONE,
    INITIATIVE_WON,
    MEN_LOST,
    OUT_OF_CONTROL,
    PLACE,
    PLOT_CARDS,
    REPAIRS,
    SHIP_MOVED,
    SHIP_TAKEN,
    WRECK_FELL,
)

Fold = Callable[[BattleState[Battle], Event], Battle]


def _new_turn(state: BattleState[Battle], event: Event) -> Battle:
    return state.board.next_turn()


def _records(state: BattleState[Battle], event: Event) -> Battle:
    """What an event leaves behind, whole: ``changed`` (the map's records), ``crews`` and ``conditions`` by ship.
    A ship's ``stranded`` follows her Condition (BR-DMG-06): movement reads the one, damage writes the other."""
    battle, data = state.board, event.data
    if "changed" in data:
        battle = battle.with_board(
            battle.board.with_ships(Ship.from_json(read_object(s)) for s in read_list(data["changed"]))
        )
    for name, crew in read_object(data.get("crews", {})).items():
        battle = battle.with_aboard(name, crew=crew_from_json(read_object(crew)))
    for name, condition in read_object(data.get("conditions", {})).items():
        battle = battle.with_aboard(name, condition=condition_from_json(read_object(condition)))
        ship = battle.ship(name)
        stranded = battle.of(name).condition.stranded and ship.on_ground
        if ship.stranded != stranded:
            battle = battle.with_board(battle.board.with_ships([replace(ship, stranded=stranded)]))
    return battle


def _fitted_out(state: BattleState[Battle], event: Event) -> Battle:
    return state.board.with_aboard(read_str(event.data["ship"]), bombs=read_int(event.data["bombs"]))


def _initiative(state: BattleState[Battle], event: Event) -> Battle:
    return replace(state.board, initiative=tuple(read_str(s) for s in read_list(event.data["order"])))


def _decided(state: BattleState[Battle], event: Event) -> Battle:
    """A side's answer, as it is given: a plot (kept from the others until revealed), a fire or crew order."""
    battle, kind = state.board, event.data["decision"]
    name = event.ships[0] if event.ships else ""
    choice = read_object(event.data["choice"]) if isinstance(event.data["choice"], dict) else {}
    if kind == PLOT_CARDS:
        cards = tuple(read_str(card) for card in read_list(choice["cards"]))
        judged = orders.judge(battle, name, cards, ignore_one=bool(state.options.get(IGNORE_ONE, False)))
        ignored = judged.ignored.card if isinstance(judged, Plotted) and judged.ignored else None
        place = choice.get(PLACE)
        plot = Plot(
            cards, ram=bool(choice.get("ram", False)), ignored=ignored, place=place if isinstance(place, int) else None
        )
        return replace(battle, plots={**battle.plots, name: plot})
    if kind == FIRE_ORDERS:
        return replace(battle, fire_orders={**battle.fire_orders, name: choice})
    if kind == CREW_ORDERS:
        return replace(battle, crew_orders={**battle.crew_orders, name: choice})
    if kind == GUN_LOST:  # row 8's gun, her owner's choice: lost for good (BR-DMG-10)
        condition = damage.give_up(battle.of(name).condition, read_str(event.data["choice"]))
        return battle.with_aboard(name, condition=condition)
    return battle


def _fire_waits(state: BattleState[Battle], event: Event) -> Battle:
    """The fire step waits for owners to choose row 8's guns: how many ships have had their turn to fire."""
    return replace(state.board, volleys=read_int(event.data["volleys"]))


def _adrift(state: BattleState[Battle], event: Event) -> Battle:
    """Her random options and the Descend that ends an out-of-control turn (BR-OOC-02), open to all."""
    battle, name = state.board, read_str(event.data["ship"])
    picks = tuple(read_str(card) for card in read_list(event.data["cards"]))
    ship = replace(battle.ship(name), out_of_control=True)
    plots = {**battle.plots, name: Plot((*picks, DESCEND), forced=True)}
    return replace(battle, board=battle.board.with_ships([ship]), plots=plots)


def _revealed(state: BattleState[Battle], event: Event) -> Battle:
    battle = state.board
    return replace(battle, revealed={**battle.revealed, read_str(event.data["ship"]): read_int(event.data["slot"]) + 1})


def _fired(state: BattleState[Battle], event: Event) -> Battle:
    """A gun that fired is ready again when it has reloaded or been cleared (BR-WPN-11/15)."""
    battle, name = state.board, read_str(event.data["ship"])
    key, ready = read_str(event.data["gun"]), read_int(event.data["ready_on"])
    guns = tuple(replace(gun, ready_on=ready) if gun.key == key else gun for gun in battle.of(name).guns)
    return battle.with_aboard(name, guns=guns)


def _bombed(state: BattleState[Battle], event: Event) -> Battle:
    return state.board.with_aboard(read_str(event.data["ship"]), bombs=read_int(event.data["bombs_left"]))


FOLDS: Mapping[str, Fold] = {
    TURN: _new_turn,
    DECISION: _decided,
    FITTED_OUT: _fitted_out,
    INITIATIVE_WON: _initiative,
    OUT_OF_CONTROL: _adrift,
    CARD_REVEALED: _revealed,
    GUN_FIRED: _fired,
    BOMB_DROPPED: _bombed,
    FIRE_WAITS: _fire_waits,
    **dict.fromkeys(
        (
            SHIP_MOVED,
            DAMAGED,
            WRECK_FELL,
            MEN_LOST,
            GRAPPLE_THROWN,
            GRAPPLE_CUT,
            BOARDERS_CROSSED,
            BOARDERS_JUMPED,
            BOARDING_FIGHT,
            SHIP_TAKEN,
            REPAIRS,
            CREW_POSTED,
        ),
        _records,
    ),
}


def apply(state: BattleState[Battle], event: Event) -> Battle:
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state, event)
