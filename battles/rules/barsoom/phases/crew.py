"""The crew step, the stand-in for the figures' own game (BR-SEQ-04/05; docs/barsoom.md sections 8 and 9): each
ship's crew order carried out, the sides in initiative order (men to the repairs, grapples thrown or cut, boarders
sent across or jumping), then a round of every boarding fight, then the repair crews' dice. Every die is logged."""

from __future__ import annotations

from dataclasses import replace

from battles.engine.events import JSONObject
from battles.engine.resolver import Context
from battles.rules.barsoom import boarding, crew, damage, orders
from battles.rules.barsoom.battle import Battle, condition_to_json, crew_to_json
from battles.rules.barsoom.crew import DECK, Boarders
from battles.rules.barsoom.kinds import (
    BOARD,
    BOARDERS_CROSSED,
    BOARDERS_JUMPED,
    BOARDING_FIGHT,
    CREW,
    CREW_POSTED,
    CUT,
    GRAPPLE,
    GRAPPLE_CUT,
    GRAPPLE_THROWN,
    JUMP_ACROSS,
    REPAIRS,
    SHIP_TAKEN,
    TO_REPAIRS,
)


def crew_step(ctx: Context[Battle]) -> None:
    ctx.begin_phase(CREW)
    for side in ctx.board.initiative:
        for ship in ctx.board.ships_of(side):
            order = ctx.board.crew_orders.get(ship.name, {})
            other = order.get("ship")
            if order.get("order") == TO_REPAIRS:
                to_repairs(ctx, ship.name)
            elif isinstance(other, str) and order.get("order") in (GRAPPLE, CUT):
                grapnels(ctx, ship.name, other, cut=order.get("order") == CUT)
            elif isinstance(other, str) and order.get("order") == BOARD:
                send_boarders(ctx, ship.name, other)
            elif isinstance(other, str) and order.get("order") == JUMP_ACROSS:
                jump_across(ctx, ship.name, other)
    for ship in ctx.board.board.ships:
        fight(ctx, ship.name)
    for ship in ctx.board.board.ships:
        repair(ctx, ship.name)


def to_repairs(ctx: Context[Battle], name: str) -> None:
    men = orders.repairers(ctx.board, name)
    if not men:
        return
    after = ctx.board.of(name).crew.join_repairs(men)
    ctx.emit(
        CREW_POSTED, {"ship": name, "to": "repairs", "men": men, "crews": {name: crew_to_json(after)}}, ships=[name]
    )


def grapnels(ctx: Context[Battle], name: str, other: str, *, cut: bool) -> None:
    """Grapplers (or ungrapplers) from the deck for the turn, a D6 each, any 6 makes (or cuts) the grapple
    (BR-GRAP-05..07). A grapple is thrown only within throw and cut only where it holds."""
    battle = ctx.board
    ship, target = battle.ship(name), battle.ship(other)
    held = other in ship.grappled or name in target.grappled
    hexes, rise = orders.apart(ship, target)
    men = orders.grapplers(battle, name)
    if men == 0 or held != cut or (not cut and not boarding.within_throw(hexes, rise)):
        return  # the ships moved apart or together since the order: nothing to throw at or to cut
    after = battle.of(name).crew.to_grapnels(men)
    faces = ctx.roll(f"{'Ungrapplers' if cut else 'Grapplers'}: {name}", count=men, ships=[name, other]).dice
    holds = boarding.grapple_holds(faces)
    data: JSONObject = {"ship": name, "other": other, "men": men, "held": holds, "crews": {name: crew_to_json(after)}}
    if holds and cut:
        freed = [
            replace(s, grappled=tuple(g for g in s.grappled if g != t)) for s, t in ((ship, other), (target, name))
        ]
        data["changed"] = [s.to_json() for s in freed]
    elif holds:
        data["changed"] = [replace(ship, grappled=(*ship.grappled, other)).to_json()]
    ctx.emit(GRAPPLE_CUT if cut else GRAPPLE_THROWN, data, ships=[name, other])


def send_boarders(ctx: Context[Battle], name: str, other: str) -> None:
    """Every man free on her deck crosses to the enemy, freely or by abseil (BR-GRAP-01/02/11), if he still can."""
    battle = ctx.board
    way = orders.crossing(battle, name, other)
    men = battle.of(name).crew.men
    if way == boarding.JUMP or men == 0 or battle.ship(other).side == battle.ship(name).side:
        return
    after = battle.of(name).crew.send(other, men)
    data = {"ship": name, "other": other, "men": men, "way": way, "crews": {name: crew_to_json(after)}}
    ctx.emit(BOARDERS_CROSSED, data, ships=[name, other])


def jump_across(ctx: Context[Battle], name: str, other: str) -> None:
    """Every man free on her deck jumps for the enemy no way across reaches (BR-GRAP-03): a D6 of inches each against
    the gap; short, he falls to the ground, or, jumping down onto a ship directly below, lands hard and takes a
    plain hit, a wound die (BR-GRAP-04). Those who get aboard are boarders, and fight this turn like any others."""
    battle = ctx.board
    ship, target = battle.ship(name), battle.ship(other)
    hexes, rise = orders.apart(ship, target)
    men = battle.of(name).crew.men
    enemy = target.side != ship.side and target.in_play and battle.of(other).crew.aboard
    if not enemy or men == 0 or orders.crossing(battle, name, other) != boarding.JUMP:
        return  # the ships moved since the order: crossing is free now (or she is gone), and no one need jump
    if not boarding.can_jump(hexes, rise):
        return  # too far now for any die to carry
    faces = ctx.roll(f"Jumpers: {name}", count=men, ships=[name, other]).dice
    ends = [boarding.jump(hexes, rise, face) for face in faces]
    hard = sum(1 for end in ends if end == boarding.LANDED_HARD)
    wounds = ctx.roll(f"Landing hard: {name}", count=hard, ships=[name, other]).dice if hard else ()
    leap = boarding.jumped(ends, wounds)
    after = battle.of(name).crew.lose(DECK, leap.lost)
    if leap.across:
        after = after.send(other, leap.across)
    data: JSONObject = {
        "ship": name,
        "other": other,
        "men": men,
        "across": leap.across,
        "fell": sum(1 for end in ends if end == boarding.FELL),
        "landed_hard": hard,
        "lost": leap.lost,
        "crews": {name: crew_to_json(after)},
    }
    ctx.emit(BOARDERS_JUMPED, data, ships=[name, other])


def fight(ctx: Context[Battle], name: str) -> None:
    """A round of the boarding fight aboard ``name`` (boarding.melee_round): her men free on deck against every
    enemy party aboard her, a D6 a man."""
    battle = ctx.board
    side = battle.ship(name).side
    parties = tuple(
        Boarders(s.name, battle.of(s.name).crew.party_aboard(name))
        for s in battle.board.ships
        if s.side != side and battle.of(s.name).crew.party_aboard(name)
    )
    if not parties:
        return
    boarders, defenders = sum(p.men for p in parties), battle.of(name).crew.men
    hits_on_them = ctx.roll(f"Boarders on {name}", count=boarders, ships=[name]).dice
    hits_on_us = ctx.roll(f"Defenders of {name}", count=defenders, ships=[name]).dice if defenders else ()
    melee = boarding.melee_round(boarders, defenders, hits_on_them, hits_on_us)
    left = boarding.share_losses(parties, melee.attackers_lost)
    crews = {name: battle.of(name).crew.lose(DECK, melee.defenders_lost)}
    for party in parties:
        remaining = next((p.men for p in left if p.aboard == party.aboard), 0)
        crews[party.aboard] = battle.of(party.aboard).crew.lose_away(name, party.men - remaining)
    data: JSONObject = {
        "ship": name,
        "boarders": boarders,
        "defenders": defenders,
        "boarders_lost": melee.attackers_lost,
        "defenders_lost": melee.defenders_lost,
        "result": melee.result,
        "crews": {ship: crew_to_json(c) for ship, c in crews.items()},
    }
    ctx.emit(BOARDING_FIGHT, data, ships=[name, *(p.aboard for p in parties)])
    if melee.result == boarding.TAKEN:
        taken(ctx, name, left)
    elif melee.result == boarding.REPELLED:
        for party in left:  # the boarders left surrender: lost to their ships
            crews[party.aboard] = ctx.board.of(party.aboard).crew.lose_away(name, party.men)
        data = {
            "ship": name,
            "surrendered": sum(p.men for p in left),
            "crews": {s: crew_to_json(c) for s, c in crews.items()},
        }
        ctx.emit(BOARDING_FIGHT, {**data, "result": "surrendered"}, ships=[name])


def taken(ctx: Context[Battle], name: str, captors: tuple[Boarders, ...]) -> None:
    """Her defenders beaten, she strikes: every man aboard her a prisoner, the boarders left her prize crew, and she
    fights for their side now (the largest party's). Her own parties away give up with her."""
    battle = ctx.board
    leader = max(captors, key=lambda party: party.men)
    side = battle.ship(leader.aboard).side
    crews = {name: crew_to_json(crew.prize_crew(sum(p.men for p in captors)))}
    for party in captors:
        crews[party.aboard] = crew_to_json(battle.of(party.aboard).crew.lose_away(name, party.men))
    prize = replace(battle.ship(name), side=side)
    data = {
        "ship": name,
        "side": side,
        "prize_crew": sum(p.men for p in captors),
        "crews": crews,
        "changed": [prize.to_json()],
    }
    ctx.emit(SHIP_TAKEN, data, ships=[name, *(p.aboard for p in captors)])


def repair(ctx: Context[Battle], name: str) -> None:
    """Her repair crew's D6 each; every three 6s, saved from turn to turn, mend a result: a fire first (it owes a
    roll each turn), then a crash (nothing else moves her while it stands), then the oldest (BR-REP-03/04/07). A
    crash mended leaves her landed, free to take off if her deck holds an Ascend (BR-LAND-04)."""
    entry = ctx.board.of(name)
    team, condition = entry.crew.repair, entry.condition
    if not team.men or condition.wrecked or not ctx.board.ship(name).in_play:
        return
    faces = ctx.roll(f"Repairs: {name}", count=team.men, ships=[name]).dice
    saved, mends = crew.repair_turn(team, faces, len(condition.harms))
    fires = [harm for harm in condition.harms if harm.row in (damage.FIRE, damage.CRASHED)]
    fires.sort(key=lambda harm: harm.row != damage.FIRE)
    waiting, mended = list(condition.harms), list[damage.Harm]()
    for harm in [*fires, *condition.harms]:  # crew.mended's order, keeping what it mends
        if len(mended) < mends and harm in waiting:
            waiting.remove(harm)
            mended.append(harm)
    after = condition
    for harm in mended:
        after = damage.repair(after, harm)
    data: JSONObject = {
        "ship": name,
        "sixes": sum(1 for face in faces if face == 6),
        "mended": [damage.harm_words(harm) for harm in mended],
        "crews": {name: crew_to_json(replace(entry.crew, repair=saved))},
        "conditions": {name: condition_to_json(after)},
    }
    if any(harm.row == damage.CRASHED for harm in mended):
        data["changed"] = [replace(ctx.board.ship(name), crashed=False, landed=True).to_json()]
    ctx.emit(REPAIRS, data, ships=[name])
