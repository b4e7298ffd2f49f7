"""Phase 3, the Firing Phase (IC-SEQ-08, docs/ironclads.md "The turn, in the app"). Every ship that may fire is asked
her fire orders at once, each side's kept from the other until all are given (fire is simultaneous). Step A: each
salvo rolled and saved against (salvo.py, saves.py), its unsaved C and H noted on the target's Hits line. Step B:
each C's 1D3 rolled, one allocation asked of each damaged ship's side, crossed off (damage.py), then her 2D6 on the
problems table (problems.py). Every die through ctx.roll with its purpose."""

from __future__ import annotations

from battles.engine.events import JSON
from battles.engine.frozen import evolve
from battles.engine.resolver import Context
from battles.rules.ironclads import cards, damage, gunnery, problems, salvo, saves
from battles.rules.ironclads.battle import Battle, noted_to_json
from battles.rules.ironclads.kinds import (
    CRITICALS_ROLLED,
    DAMAGE_ALLOCATION,
    DAMAGE_RESOLVED,
    FIRE_ORDERED,
    FIRE_ORDERS,
    FIRING,
    HITS_NOTED,
    PROBLEM,
    SALVO_FIRED,
)


def fire_phase(ctx: Context[Battle]) -> bool:
    """The phase opens and the orders are asked. True when the phase is over; False when a decision is open."""
    ctx.begin_phase(FIRING)
    asked = False
    for ship in ctx.board.board.afloat:
        if gunnery.targets(ctx.board, ship.name):
            ctx.request(
                ship.side,
                FIRE_ORDERS,
                rule="IC-FIRE-01",
                default=gunnery.fire_answer(ship.name, gunnery.default_orders(ctx.board, ship.name)),
                secret=True,  # simultaneous: each side's orders are shown once all are given
                prompt=f"Fire orders for {ship.name}",
                ships=[ship.name],
            )
            asked = True
    return resume(ctx) if not asked else False


def resume(ctx: Context[Battle]) -> bool:
    """Carry the phase on from its step. True when it is over."""
    if ctx.board.fire_step == FIRE_ORDERED and not step_a(ctx):
        return False
    return step_b(ctx)


def step_a(ctx: Context[Battle]) -> bool:
    """Every salvo fired and saved against, hits noted; the criticals' 1D3s; the allocations asked. True when no
    ship is damaged (nothing to ask)."""
    for ship in ctx.board.board.afloat:
        orders = ctx.board.fire_orders.get(ship.name)
        if orders:
            for shot in gunnery.plan_of(ctx.board, ship.name, orders).salvoes:
                fire(ctx, ship.name, shot)
    noted = ctx.board.noted
    ctx.emit(HITS_NOTED, {"lines": {name: n.line for name, n in noted.items()}})
    for name in damaged(ctx.board):
        line = noted[name]
        if line.criticals:
            faces = ctx.roll(f"Criticals' 1D3: {name}", count=len(line.criticals), ships=[name]).dice
            demands = [damage.d3(face) for face in faces]
            ctx.emit(CRITICALS_ROLLED, {"ship": name, "faces": list(faces), "demands": demands}, ships=[name])
    for name in damaged(ctx.board):
        ship = ctx.board.ship(name)
        ctx.request(
            ship.side,
            DAMAGE_ALLOCATION,
            rule="IC-DMG-02",
            default=gunnery.allocation_answer(name, gunnery.default_allocation(ctx.board, name)),
            prompt=f"Cross off the hits on {name}: {noted[name].line}",
            ships=[name],
        )
    return not noted


def damaged(battle: Battle) -> list[str]:
    """The ships with a Hits line, in the scenario's order of ships: never the Hits lines' own order, which the state
    stored as JSON between answers sorts by name while a battle re-run in memory keeps them as fired (the replay's
    verification would find the dice rolled for another ship)."""
    return [ship.name for ship in battle.ships if ship.name in battle.noted]


def fire(ctx: Context[Battle], name: str, shot: salvo.Salvo) -> None:
    """One salvo: its dice by the band (IC-FIRE-09..11), then the target's save (IC-SAVE-01..06)."""
    tracks = " and ".join(shot.tracks)
    faces = ctx.roll(
        f"Salvo: {name}, {tracks} at {shot.target}",
        count=shot.dice,
        needed=salvo.needed(shot.band),
        ships=[name, shot.target],
    ).dice
    scored = salvo.score(shot.band, faces)
    target = ctx.board.ship(shot.target).card
    save_count = saves.save_dice(target) if scored.total else 0
    saved = 0
    if save_count:
        rolled = ctx.roll(
            f"Save: {shot.target}", count=save_count, needed=saves.needed(shot.band), ships=[shot.target]
        ).dice
        saved = saves.saved(shot.band, rolled)
    left = saves.unsaved(scored, saved)
    data: dict[str, JSON] = {
        "ship": name,
        "target": shot.target,
        "tracks": list[JSON](shot.tracks),
        "band": shot.band,
        "dice": shot.dice,
        "criticals": scored.criticals,
        "hits": scored.hits,
        "saves": save_count,
        "saved": saved,
        "noted": {"criticals": left.criticals, "hits": left.hits},
        "fired_into": list[JSON](shot.fired_into),
    }
    ctx.emit(SALVO_FIRED, data, ships=[name, shot.target])


def step_b(ctx: Context[Battle]) -> bool:
    """Each damaged ship's allocation crossed off (the default where none was given), then her problems roll."""
    ships = damaged(ctx.board)
    for name in ships:
        battle = ctx.board
        allocation = battle.allocations.get(name) or gunnery.default_allocation(battle, name)
        card = battle.ship(name).card
        resolution = damage.resolve(card, battle.noted[name], battle.demands.get(name, ()), allocation)
        losses = [
            {"track": loss.track, "demanded": loss.demanded, "crossed": loss.crossed, "critical": loss.critical}
            for loss in resolution.losses
        ]
        data = {"ship": name, "line": noted_to_json(battle.noted[name]), "losses": losses}
        ctx.emit(DAMAGE_RESOLVED, {**data, "card": cards.to_json(resolution.card)}, ships=[name])
    for name in ships:
        roll_problems(ctx, name)
    return True


def roll_problems(ctx: Context[Battle], name: str) -> None:
    """2D6 on the problems table for a ship with hits noted this turn (IC-PROB-01..10)."""
    ship = ctx.board.ship(name)
    table = problems.needed(ship.card.left(cards.ARMOUR))
    total = sum(ctx.roll(f"Problems: {name}", count=2, needed=table, ships=[name]).dice)
    found = problems.problem(total, armour_left=ship.card.left(cards.ARMOUR), steering_problems=ship.steering)
    turn = ctx.board.board.turn
    burning = ctx.board.fires.get(name, 0)
    if found.fire:
        face = ctx.roll(f"Fire: how long {name} burns", ships=[name]).dice[0]
        burning = problems.fire_until(turn, face, burning)
    if found.max_turn is not None:
        ship = evolve(ship, steering=min(ship.steering + 1, 2))
    if found.speed_cap is not None:
        ship = evolve(ship, smokestacks=True)
    if found.bridge:
        ship = evolve(ship, bridge_turn=problems.bridge_turn(turn))
    data = {"ship": name, "total": total, "problem": found.name, "clause": found.clause, "burning_until": burning}
    ctx.emit(PROBLEM, {**data, "changed": ship.to_json()}, ships=[name])
