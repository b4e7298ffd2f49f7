"""The fire step (BR-WPN-03: ships fire in the figures' phases): each ship's ordered fire, the sides in initiative
order and each side's ships in the board's order, damage applied as it is rolled (BR-DMG-02), so the side with the
initiative shoots first. Each gun that bears rolls to hit (2D6-6 and the range band, BR-HIT-01/02; an automatic's
shots all at once, BR-WPN-15), the severity by the size of the result (BR-HIT-07) and what a hit owes: the Damage
table's rolls or a DED on a ship (BR-HIT-03..06, BR-WPN-09/13), or men on her crew (BR-WPN-10/14/17). A heavy gun
then reloads a turn (BR-WPN-11); a jammed automatic clears a turn. A bomb drops straight down (BR-BOMB-03/04)."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.barsoom import boarding, bombs, orders, weapons
from battles.rules.barsoom.battle import Battle, Gun, crew_to_json
from battles.rules.barsoom.crew import DECK, HELM, Crew
from battles.rules.barsoom.kinds import AT_BOMB, AT_HULL, BOMB_DROPPED, FIRE, FIRE_WAITS, GUN_FIRED, HIT, MEN_LOST
from battles.rules.barsoom.phases.damage import ask_guns_lost, ded, owing, suffer
from battles.rules.barsoom.weapons import Severity, Weapon

SEVERITY_CLAUSE = {
    Severity.STUNNED: "BR-HIT-03",
    Severity.LIGHT: "BR-HIT-04",
    Severity.GRIEVOUS: "BR-HIT-05",
    Severity.CRITICAL: "BR-HIT-06",
}


def fire_step(ctx: Context[Battle]) -> bool:
    """The ordered fire; True when it waits for owners to choose the guns row 8 takes (``go_on_firing`` goes on)."""
    ctx.begin_phase(FIRE)
    return go_on_firing(ctx)


def go_on_firing(ctx: Context[Battle]) -> bool:
    """The ships' turns to fire from where the step stands. Before each, and after the last, owners who owe row 8 a gun
    choose it (BR-DMG-10: the gun is gone at once, so a ship hit before her turn does not fire it); the step then
    waits, the ships that have fired counted in the board. True while it waits."""
    firers = [ship.name for side in ctx.board.initiative for ship in ctx.board.ships_of(side)]
    for n in range(ctx.board.volleys, len(firers) + 1):
        if owing(ctx.board):
            ctx.emit(FIRE_WAITS, {"volleys": n, "owing": list(owing(ctx.board))}, ships=owing(ctx.board))
            return ask_guns_lost(ctx)
        if n < len(firers):
            volley(ctx, firers[n])
    return False


def volley(ctx: Context[Battle], name: str) -> None:
    """One ship's ordered fire: a bomb dropped, or every gun that bears on the target and then, where the order
    splits her fire, the guns left on the second target; damage at once."""
    order = ctx.board.fire_orders.get(name, {})
    target = order.get("target")
    if not isinstance(target, str) or not orders.can_fire(ctx.board, name):
        return
    if order.get("at") == AT_BOMB:
        if ctx.board.ship(target).in_play and orders.can_bomb(ctx.board, name, target):
            drop_bomb(ctx, name, target)
        return
    for gun, mark, aim in orders.guns_for(ctx.board, name, order, ctx.state.turn):
        if ctx.board.ship(mark).in_play:  # a hit may already have sent her off the map
            fire_gun(ctx, name, gun, mark, aim)


def fire_gun(ctx: Context[Battle], name: str, gun: Gun, target: str, aim: str) -> None:
    weapon = weapons.weapon(gun.weapon)
    hexes, levels = orders.apart(ctx.board.ship(name), ctx.board.ship(target))
    distance = weapons.range_between(hexes, levels)
    mods = weapons.to_hit_modifiers(weapon, distance=distance, at_crew=aim != AT_HULL)
    count = weapons.dice_to_roll(weapon)
    table = weapons.needed() if count == 2 else None  # an automatic's dice are judged shot by shot below
    rolled = ctx.roll(
        f"{gun.key} of {name} at {target}", count=count, modifiers=mods, needed=table, ships=[name, target]
    )
    results = [weapons.hit_result(pair, mods) for pair in weapons.shots_of(rolled.dice)]
    found = [weapons.severity(result) for result in results]
    jam = weapons.jammed(weapon, rolled.dice)
    data = {
        "ship": name,
        "gun": gun.key,
        "weapon": weapon.name,
        "target": target,
        "at": aim,
        "distance": distance,
        "results": results,
        "severities": [None if s is None else s.value for s in found],
        "jammed": jam,
        "ready_on": weapons.ready_on(weapon, ctx.state.turn, jammed=jam),
    }
    ctx.emit(GUN_FIRED, data, ships=[name, target])
    hits = [s for s in found if s is not None]
    if aim == AT_HULL:
        for severity in hits:
            strike(ctx, weapon, severity, target)
    elif hits:
        shoot_men(ctx, weapon, len(hits), target)


def strike(ctx: Context[Battle], weapon: Weapon, severity: Severity, target: str) -> None:
    """A hit on a ship: a DED if Stunned, else the Damage table's rolls at the weapon's modifier."""
    due = weapons.ship_damage(weapon, severity, small_craft=ctx.board.ship(target).ship_class.extra_ascend)
    if due.ded:
        ded(ctx, target)
    suffer(ctx, target, due.rolls, due.modifier, HIT, SEVERITY_CLAUSE[severity])


def shoot_men(ctx: Context[Battle], weapon: Weapon, hits: int, target: str) -> None:
    """Hits on her crew: a heavy gun's kill outright, the rest a wound die each (boarding.casualties). The men fall
    from her deck, then from the helm once the deck is bare (the firer's choice of group, made for him)."""
    group = weapon.weapon_class.value if not weapon.dropped else boarding.BOMB
    dice = boarding.wound_dice(group, hits)
    faces = ctx.roll(f"Wounds: {target}", count=dice, ships=[target]).dice if dice else ()
    down = boarding.casualties(group, hits, faces)
    crew = ctx.board.of(target).crew
    after = _lose(crew, down)
    data = {
        "ship": target,
        "men": crew.aboard - after.aboard,
        "by": weapon.name,
        "crews": {target: crew_to_json(after)},
    }
    ctx.emit(MEN_LOST, data, ships=[target])


def _lose(crew: Crew, men: int) -> Crew:
    from_deck = min(crew.men, men)
    return crew.lose(DECK, from_deck).lose(HELM, men - from_deck)


def drop_bomb(ctx: Context[Battle], name: str, target: str) -> None:
    """A bomb on the ship straight below: a roll to hit with the drop's range band, +2 on a stationary target (one
    on the ground, or with no way on since her last Stop), then a medium weapon's damage (BR-BOMB-03..05)."""
    below = ctx.board.ship(target)
    _, levels = orders.apart(ctx.board.ship(name), below)
    stationary = below.on_ground or below.heading is None
    mods = bombs.to_hit_modifiers(levels_below=-levels, stationary=stationary)
    rolled = ctx.roll(
        f"Bomb of {name} on {target}", count=2, modifiers=mods, needed=weapons.needed(), ships=[name, target]
    )
    result = weapons.hit_result(rolled.dice, mods)
    severity = weapons.severity(result)
    left = ctx.board.of(name).bombs - 1
    data = {
        "ship": name,
        "target": target,
        "result": result,
        "severity": severity and severity.value,
        "bombs_left": left,
    }
    ctx.emit(BOMB_DROPPED, data, ships=[name, target])
    if severity is not None:
        strike(ctx, bombs.BOMB, severity, target)
