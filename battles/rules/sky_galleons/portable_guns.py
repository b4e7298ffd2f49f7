"""Portable machineguns trained in secret (SG-MG-04/06/07, SG-CG-55..57).

In the Initiative Phase a side may move each portable machinegun (Maxim, Gardner, 1-barrel Nordenfelt) to
fire out of any one of its ship's four aspects; it may not fire that turn (combat.train_portable_gun). The
aspect is written down in secret and shown to the enemy only when the gun fires.

So the trained aspect is never part of the ship record, whose every change travels in a public ``ship``
event: it is an initiative order sealed from the other sides (``{"train": [{"ship", "gun", "aspect"}]}``),
logged only to its own side, and kept on the board beside the record, ``"ship|gun" -> (aspect, turn)``.
The ruleset lays it over the record wherever the gun's arcs matter (:func:`trained_record`, for fire
solutions and the hits a volley scores) and takes it off again before a record is committed
(:func:`untrained`); the fire event names the aspect (:func:`revealed`). Reading in
data/optional-rules.json ``portable_machineguns``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from battles.engine.decisions import Rejection
from battles.engine.events import JSON, Event
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Aspect
from battles.engine.jsonread import read_list, read_object
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.sky_galleons import combat
from galleons.record import Moment, ShipRecord

if TYPE_CHECKING:
    from battles.engine.state import BattleState
    from battles.rules.sky_galleons.board import Board, Fold

Trained = Mapping[str, tuple[str, int]]

ORDER_KEYS = frozenset({"ship", "gun", "aspect"})


def key(ship: str, gun: str) -> str:
    return f"{ship}|{gun}"


def trained_record(record: ShipRecord, trained: Trained) -> ShipRecord:
    """The record with its portable guns on the aspects they were trained on (SG-MG-04, SG-CG-56)."""
    for gun in record.guns:
        where = trained.get(key(record.name, gun.id))
        if where is not None:
            aspect, turn = where
            record = record.with_gun(evolve(gun, arcs=(aspect,), trained_turn=turn))
    return record


def trained_fleet(ships: Mapping[str, ShipRecord], trained: Trained) -> dict[str, ShipRecord]:
    return {name: trained_record(record, trained) for name, record in ships.items()}


def untrained(after: ShipRecord, before: ShipRecord) -> ShipRecord:
    """``after`` with each gun's arcs and training turn as ``before`` has them: the secret training taken off a
    record a rule changed, so the public ``ship`` event does not show it."""
    for gun in after.guns:
        old = next((g for g in before.guns if g.id == gun.id), None)
        if old is not None and (gun.arcs, gun.trained_turn) != (old.arcs, old.trained_turn):
            after = after.with_gun(evolve(gun, arcs=old.arcs, trained_turn=old.trained_turn))
    return after


def revealed(trained: Trained, ship: str, gun: str) -> dict[str, JSON]:
    """What the fire event shows of a trained gun: the aspect it fires out of (SG-MG-06, SG-CG-57)."""
    where = trained.get(key(ship, gun))
    return {} if where is None else {"trained_aspect": where[0]}


def order_problem(record: ShipRecord, order: JSON, *, stunned: bool) -> str | None:
    """What is wrong with one training order for ``record`` (one of the side's ships), or None."""
    if not isinstance(order, dict) or set(order) != ORDER_KEYS:
        return 'a training order is {"ship": ..., "gun": ..., "aspect": "bow"|"starboard"|"stern"|"port"}'
    gun_id, aspect = str(order["gun"]), order["aspect"]
    gun = next((g for g in record.guns if g.id == gun_id), None)
    if gun is None or not combat.is_portable(gun):
        return f"{record.name} has no portable machinegun {gun_id} (a Maxim, Gardner or 1-barrel Nordenfelt)"
    if gun.destroyed:
        return f"{possessive(record.name)} gun {gun_id} is destroyed"
    if aspect not in {a.value for a in Aspect}:
        return f"the aspects are {', '.join(a.value for a in Aspect)}"
    if stunned:
        return f"{possessive(record.name)} crew is stunned: no crew changes"
    return None


def moves(record: ShipRecord, trained: Trained, gun_id: str, aspect: str) -> bool:
    """Does training the gun on ``aspect`` move it (else the order changes nothing and costs no turn)?"""
    return trained_record(record, trained).gun(gun_id).arcs != (aspect,)


# --- in the sequence of play ------------------------------------------------------------------------------


def orders_problem(choice: dict[str, JSON], records: Mapping[str, ShipRecord], now: Moment) -> Rejection | None:
    """A side's training orders, on its ships in the fight as this phase's crew changes leave them: portable
    guns only, one aspect each, not while the crew is stunned (SG-MG-04/07, SG-CG-55/56, SG-CRIT-37)."""
    seen: set[tuple[str, str]] = set()
    for order in read_list(choice.get("train", [])):
        record = records.get(str(order.get("ship"))) if isinstance(order, dict) else None
        if record is None:
            return Rejection("SG-MG-04", f"train the machineguns of your ships in the fight: {sorted(records)}")
        wrong = order_problem(record, order, stunned=record.stunned(now))
        if wrong is not None:
            return Rejection("SG-MG-04", wrong)
        gun = (record.name, str(read_object(order)["gun"]))
        if gun in seen:
            return Rejection("SG-MG-04", f"{possessive(record.name)} gun {gun[1]} is trained on one aspect")
        seen.add(gun)
    return None


def train(ctx: Context[Board], orders: Sequence[tuple[str, dict[str, JSON]]]) -> None:
    """The guns each side trained, logged to that side alone (SG-MG-06, SG-CG-57); a gun already on the aspect
    does not move."""
    for side, choice in orders:
        for each in read_list(choice.get("train", [])):
            order = read_object(each)
            record, gun, aspect = ctx.board.ship(str(order["ship"])), str(order["gun"]), str(order["aspect"])
            if record.afloat and moves(record, ctx.board.trained, gun, aspect):
                moved = {"ship": record.name, "gun": gun, "aspect": aspect}
                clauses = ["SG-MG-04", "SG-MG-06", "SG-CG-56", "SG-CG-57"]
                ctx.emit("gun trained", {**moved, "clauses": clauses}, ships=[record.name], secret_to=side)


# --- the fold -----------------------------------------------------------------------------------------------


def _gun_trained(state: BattleState[Board], event: Event) -> Board:
    """A portable machinegun trained in secret on an aspect, this turn (SG-MG-06)."""
    data = event.data
    where = key(str(data["ship"]), str(data["gun"]))
    return evolve(state.board, trained={**state.board.trained, where: (str(data["aspect"]), event.turn)})


FOLDS: Mapping[str, Fold] = {"gun trained": _gun_trained}
