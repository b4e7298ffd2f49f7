"""Damage as it happens (BR-DMG-02: applied at once): the rolls owed on the Damage table, each applied through
damage.py, and what a roll owes next carried out straight away: a Damage Effect Die and its extra move (BR-DED-03/04,
through movement's forced moves), row 2's descent (a crash if it reaches the ground, BR-LAND-05), the roll again on
the ground (BR-DMG-04), a wreck falling (BR-DMG-12). A move that brings her into contact owes its own rolls, settled
the same way. Every die goes through the engine's dice, logged.

Row 8's gun is her owner's choice (BR-DMG-10): with the battle's option, a row 8 that leaves her a choice leaves the
gun owed, and the owner is asked which when her guns next matter: after the Ship Phase, before the orders; in the
fire step, before the next ship fires (docs/barsoom.md section 9)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from battles.engine.events import JSON, JSONObject
from battles.engine.resolver import Context
from battles.rules.barsoom import damage, movement
from battles.rules.barsoom.battle import Battle, condition_to_json
from battles.rules.barsoom.board import STILL
from battles.rules.barsoom.impacts import Moved
from battles.rules.barsoom.kinds import (
    CRASH_REPAIRABLE,
    DAMAGED,
    DED_ROLLED,
    GUN_LOST,
    OWNER_CHOOSES_GUN,
    SHIP_MOVED,
    WRECK_FELL,
)
from battles.rules.barsoom.owed import DamageOwed
from battles.rules.barsoom.setup import ARMAMENT

# The order an owner gives up guns in for row 8 (BR-DMG-10): her least gun first, the stand-in for her choice.
GIVEN_UP_FIRST = ("light", "medium", "heavy")


def record_move(ctx: Context[Battle], name: str, card: str, moved: Moved, *, forced: bool, ram: bool = False) -> None:
    """Log a card, a DED's move or a forced descent as executed, with every ship it changed."""
    before = {ship.name: ship for ship in ctx.board.board.ships}
    changed: list[JSON] = [ship.to_json() for ship in moved.board.ships if before[ship.name] != ship]
    data: JSONObject = {
        "ship": name,
        "card": card,
        "forced": forced,
        "ram": ram,
        "outcome": moved.outcome,
        "contact": moved.contact,
        "clauses": list(moved.clauses),
        "why": moved.why,
        "owed": [owed.to_json() for owed in moved.damage],
        "changed": changed,
    }
    down = [s.name for s in moved.board.ships if s.crashed and not before[s.name].crashed]
    if down and ctx.state.options.get(CRASH_REPAIRABLE, False):  # written only then: a stored log keeps its spelling
        data["conditions"] = {n: condition_to_json(damage.crashed(ctx.board.of(n).condition)) for n in down}
    ctx.emit(SHIP_MOVED, data, ships=[name, *([moved.contact] if moved.contact else [])])


def settle(ctx: Context[Battle], owed: Iterable[DamageOwed], depth: int = 0) -> None:
    """Roll and apply every Damage-table roll owed, in order."""
    for due in owed:
        suffer(ctx, due.ship, due.rolls, due.modifier, due.reason, due.clause, depth)


def suffer(
    ctx: Context[Battle], name: str, rolls: int, modifier: int, reason: str, clause: str, depth: int = 0
) -> None:
    """``rolls`` d10 on the Damage table for ``name``, each with ``modifier``; the reason and clause for the log."""
    for _ in range(rolls):
        _one_roll(ctx, name, modifier, reason, clause, depth, rolled_again=False)


def _one_roll(
    ctx: Context[Battle], name: str, modifier: int, reason: str, clause: str, depth: int, *, rolled_again: bool
) -> None:
    ship = ctx.board.ship(name)
    if not ship.in_play:
        return  # off the map: out of the battle, nothing more befalls her here
    condition = ctx.board.of(name).condition
    mods = {reason: modifier} if modifier else {}
    rolled = ctx.roll(f"Damage table: {name}", sides=10, modifiers=mods, needed=damage.needed(), ships=[name])
    natural = rolled.dice[0]
    row = damage.table_row(natural, modifier)
    turn_card = None
    if row == 5 and not condition.wrecked and damage.turn_cards_held(condition):
        turn_card = ctx.pick(f"Turn card lost: {name}", damage.turn_cards_held(condition), ships=[name])
    weapon = _weapon_given_up(ctx.board, name) if row == damage.WEAPON_LOST else None
    chooses = row == damage.WEAPON_LOST and owner_chooses(ctx, name)
    weapon = None if chooses else weapon
    applied = damage.apply(
        condition,
        natural,
        modifier=modifier,
        on_the_ground=ship.on_ground,
        rolled_again=rolled_again,
        turn_card=turn_card,
        weapon=weapon,
        owner_chooses=chooses,
    )
    data: JSONObject = {
        "ship": name,
        "natural": natural,
        "modifier": modifier,
        "row": applied.row,
        "effect": damage.rows()[applied.row].effect,
        "reason": reason,
        "clause": clause,
        "turn_card": turn_card,
        "weapon": weapon,
        "owed": list(applied.owed),
        "wrecked": applied.condition.wrecked and not condition.wrecked,
        "conditions": {name: condition_to_json(applied.condition)},
    }
    ctx.emit(DAMAGED, data, ships=[name])
    if depth >= ARMAMENT.whole("follow_ups"):
        return  # the guard: never reached in play (the module's data says why)
    for follow_up in applied.owed:
        if follow_up == damage.ROLL_DED:
            ded(ctx, name, depth + 1)
        elif follow_up == damage.DESCEND:
            moved = movement.forced_descend(ctx.board.board, name)
            record_move(ctx, name, "Descend", moved, forced=True)
            settle(ctx, moved.damage, depth + 1)
        elif follow_up == damage.ROLL_AGAIN:
            _one_roll(ctx, name, modifier, reason, clause, depth + 1, rolled_again=True)
        elif follow_up == damage.WRECK_FALLS:
            fall(ctx, name)


def ded(ctx: Context[Battle], name: str, depth: int = 0) -> None:
    """A Damage Effect Die and its extra move at once, outside her plot and its restrictions, forced: a move into
    another ship is a collision, never a ram (BR-DED-01..04)."""
    face = ctx.roll(f"Damage Effect Die: {name}", needed=damage.ded_needed(), ships=[name]).dice[0]
    effect = damage.ded(face)
    ctx.emit(DED_ROLLED, {"ship": name, "face": face, "symbol": effect.symbol, "move": effect.move}, ships=[name])
    moved = movement.execute(ctx.board.board, name, effect.move, forced=True)
    record_move(ctx, name, effect.move, moved, forced=True)
    settle(ctx, moved.damage, depth + 1)


def fall(ctx: Context[Battle], name: str) -> None:
    """The second 10 wrecks her and she comes down to the ground at once, without a crash roll (BR-DMG-12); her
    grapples part. Should the ground of her hex be taken, she breaks up on the ship below and is out of the battle."""
    battle = ctx.board
    ship = battle.ship(name)
    below = battle.board.ship_at(ship.hex, 0, besides=[name])
    if below is None:
        wreck = replace(ship, level=0, crashed=True, landed=False, stranded=False, way=STILL, grappled=())
    else:
        wreck = replace(ship, left_map=True, grappled=())
    freed = [
        replace(s, grappled=tuple(g for g in s.grappled if g != name)) for s in battle.board.ships if name in s.grappled
    ]
    ships = [wreck.to_json(), *(s.to_json() for s in freed)]
    ctx.emit(WRECK_FELL, {"ship": name, "broken_up": below is not None, "changed": ships}, ships=[name])


def owner_chooses(ctx: Context[Battle], name: str) -> bool:
    """Row 8 leaves the choice of gun to her owner (BR-DMG-10) when the battle's option says so (a battle stored
    before the option keeps the automatic choice) and she has a choice: guns of more than one kind, or one ready and
    one not, left beyond those she already owes."""
    if not ctx.state.options.get(OWNER_CHOOSES_GUN, False):
        return False
    entry = ctx.board.of(name)
    guns = entry.guns_left()
    if entry.condition.wrecked or entry.condition.weapons_owed >= len(guns):
        return False
    return len({(gun.weapon, gun.ready_on) for gun in guns}) > 1


def owing(battle: Battle) -> tuple[str, ...]:
    """The ships still in the battle that owe row 8 a gun, in the board's order."""
    return tuple(
        ship.name
        for ship in battle.board.ships
        if ship.in_play and battle.of(ship.name).condition.weapons_owed and battle.of(ship.name).guns_left()
    )


def ask_guns_lost(ctx: Context[Battle]) -> bool:
    """Each ship that owes row 8 a gun: her owner is asked which of her guns it takes, the default her least gun (the
    automatic choice, so a deadline missed gives what a battle without the option gives). True if any was asked."""
    asked = owing(ctx.board)
    for name in asked:
        ship, guns = ctx.board.ship(name), ctx.board.of(name).guns_left()
        ctx.request(
            ship.side,
            GUN_LOST,
            rule="BR-DMG-10",
            options=[gun.key for gun in guns],
            default=_weapon_given_up(ctx.board, name),
            prompt=f"The gun {name} loses to the hit: her captain's choice",
            ships=[name],
        )
    return bool(asked)


def _weapon_given_up(battle: Battle, name: str) -> str | None:
    """Row 8's weapon: the owner's choice, made for her as her least gun still aboard (the fleet list does not place
    guns on a side, so every gun is on the side the damage came from)."""
    guns = battle.of(name).guns_left()
    for weapon_class in GIVEN_UP_FIRST:
        of_class = [gun for gun in guns if gun.key.startswith(weapon_class)]
        if of_class:
            return of_class[-1].key
    return None
