"""Step 3, fire and return fire (CM-SEQ-07..10), in three calls at stage FIRE:

1. the active captain is asked her fire orders, every gun that may fire at an enemy (``fire orders``: each gun
   at most once, at a target in its arc, reach and sight; validate.py); a ship with no gun able to fire is not
   asked;
2. each ship she fired on is asked, in a decision of its own (its captain's, CM-SEQ-02), what it fires back at
   her alone (``return fire``, CM-SEQ-08); all of them at once, in secret, so no one waits on another's answer;
   a ship with nothing able to fire back is not asked;
3. the volley: every order carried out at once (CM-SEQ-09), the active ship's in the order she named them, then
   each ship's return fire in the order they were fired on. Each gun takes its Fired marker (a one-shot weapon is
   spent, CM-SEQ-10, CM-FIRE-12) and rolls: main guns a die each, 3+ short or 5+ long, the gun's damage a hit
   and one more on a natural 6 (CM-FIRE-06..11); anti-personnel guns a die each, 5+ short or 6 long, their hits
   summed by firing ship and target (CM-AP-01..09); rockets and bombs hit without a roll to hit and do their roll
   (CM-RKT-04..06, CM-BOMB-01); a superior crew adds one to every die, one hit to an anti-personnel total and one
   point to each rocket or bomb (CM-SUP-01..05, CM-RKT-07, CM-BOMB-06). Nothing is crossed here: each hit is
   DAMAGE_DUE, marked at step 4 (damage.py), so a gun lost to this fire has fired with the rest (CM-GUN-02).

What is decided is kept on the board (``Board.volley``, folded from the answers) until the VOLLEY event carries
it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine import dice
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import deployed, firing, gunnery, panels
from battles.rules.cloudships_2023.board import Board, FlightShot, Ship, Shot, Volley
from battles.rules.cloudships_2023.firing import SHORT, Aim
from battles.rules.cloudships_2023.kinds import DAMAGE, DAMAGE_DUE, FIRE_ORDERS, GUN_FIRED, RETURN_FIRE, VOLLEY
from battles.rules.cloudships_2023.phases import flights
from battles.rules.cloudships_2023.phases.turn import active_ship

SUPERIOR = "superior crew"
PROMPT = 'fire: {"shots": [{"ship": ..., "gun": <number>, "target": ...}]}, each gun once'


def fire_and_return_fire(ctx: Context[Board]) -> None:
    """Stage FIRE: ask the orders, then the return fire, then roll the volley and go on to step 4."""
    volley = ctx.board.volley
    if volley is None:
        if not ask_orders(ctx):
            ctx.begin_phase(DAMAGE)
        return
    fired_on = volley.shots or ctx.board.martians.shots
    if fired_on and not volley.answered and ask_return_fire(ctx, volley):
        return
    roll_volley(ctx, volley)
    ctx.begin_phase(DAMAGE)


def ask_orders(ctx: Context[Board]) -> bool:
    """The active captain's orders, if any of her guns may fire at an enemy now. True if asked."""
    ship = active_ship(ctx.board)
    enemies = firing.enemies(ctx.board, ship)
    if not firing.legal_shots(ctx.board, ship, enemies) and not _flight_shots(ctx, ship, enemies, back=False):
        return False
    prompt = f"{ship.name} fires: {PROMPT}"
    ctx.request(ship.side, FIRE_ORDERS, rule="CM-SEQ-07", default={"shots": []}, prompt=prompt, ships=[ship.name])
    return True


def ask_return_fire(ctx: Context[Board], volley: Volley) -> bool:
    """One secret decision for each ship fired on that can fire back at the active ship. True if any asked."""
    active = active_ship(ctx.board)
    asked = False
    attacked = [shot.target for shot in ctx.board.martians.shots if shot.target]  # by her flights (CM-FLY-13)
    for name in dict.fromkeys((*volley.targets(), *attacked)):
        ship = ctx.board.ship_named(name)
        if firing.legal_shots(ctx.board, ship, (active,)) or _flight_shots(ctx, ship, (active,), back=True):
            prompt = f"{name} returns fire at {active.name}: {PROMPT}"
            ctx.request(
                ship.side,
                RETURN_FIRE,
                rule="CM-SEQ-08",
                default={"shots": []},
                secret=True,
                prompt=prompt,
                ships=[name],
            )
            asked = True
    return asked


def roll_volley(ctx: Context[Board], volley: Volley) -> None:
    """Every order at once (CM-SEQ-09): all aimed from where the ships are now, then rolled firer by firer."""
    shots = (*volley.shots, *volley.returned)
    aims = [firing.aim(ctx.board, shot) for shot in shots]
    by_flights = ctx.board.martians.shots  # the flights slice: put away by the VOLLEY event, so read first
    data: dict[str, object] = {"ship": ctx.board.active, "shots": [_aim_json(aim) for aim in aims]}
    if by_flights:
        data["flights"] = [shot.to_json() for shot in by_flights]
    ctx.emit(VOLLEY, data, ships=_named(shots))
    aboard = [shot.ship for shot in by_flights if shot.number == 0 and not shot.gun]
    for firer in dict.fromkeys((*(shot.ship for shot in shots), *aboard)):
        fire_ship(ctx, firer, [aim for aim in aims if aim.shot.ship == firer], by_flights)
    flights.roll_flights(ctx, by_flights)


def _flight_shots(ctx: Context[Board], ship: Ship, targets: Sequence[Ship], *, back: bool) -> bool:
    """Has ``ship`` a flight that may attack or a gun that may fire at a flight (the flights slice)?"""
    return bool(deployed.legal_flight_shots(ctx.board, ship, targets, return_fire=back))


def _aim_json(aim: Aim) -> dict[str, object]:
    return {**aim.shot.to_json(), "range": aim.range, "band": aim.band}


def _named(shots: Sequence[Shot]) -> list[str]:
    return list(dict.fromkeys(name for shot in shots for name in (shot.ship, shot.target)))


def fire_ship(ctx: Context[Board], name: str, aims: Sequence[Aim], by_flights: Sequence[FlightShot] = ()) -> None:
    """One ship's guns, in order; her anti-personnel hits summed target by target (CM-AP-08), her flights aboard
    among them (CM-FLY-27), each firing ship's total apart from any other's (CM-AP-09)."""
    crew: dict[str, int] = {}
    for aim in aims:
        hits = fire_gun(ctx, aim)
        if hits is not None:
            crew[aim.shot.target] = crew.get(aim.shot.target, 0) + hits
    for target, hits in flights.aboard_hits(ctx, name, by_flights).items():
        crew[target] = crew.get(target, 0) + hits
    firer = ctx.board.ship_named(name)
    for target, hits in crew.items():
        total = gunnery.crew_total(hits, superior=firer.panel.superior)
        if total:
            due(ctx, target, 0, firer.name, crew=total)


def fire_gun(ctx: Context[Board], aim: Aim) -> int | None:
    """Fire one gun: its Fired marker, its dice, its damage due. An anti-personnel gun's hits are returned
    (summed by the caller), else None."""
    shot = aim.shot
    firer = ctx.board.ship_named(shot.ship)
    gun = firer.gun(shot.gun)
    ctx.emit(GUN_FIRED, {"ship": shot.ship, "gun": shot.gun, "name": gun.name}, ships=[shot.ship])
    if gun.kind == panels.ANTI_PERSONNEL:
        return anti_personnel(ctx, firer, gun, aim)
    if gun.kind == panels.MAIN:
        main_gun(ctx, firer, gun, aim)
    else:
        rolled_weapon(ctx, firer, gun, aim)
    return None


def _modifiers(firer: Ship) -> dict[str, int]:
    return {SUPERIOR: 1} if firer.panel.superior else {}


def _purpose(firer: Ship, gun: panels.Gun, aim: Aim, clause: str) -> str:
    reach = f"{aim.band} range {aim.range}" if aim.band else f"range {aim.range}"
    return f"{possessive(firer.name)} {gun.name} ({gun.number}) at {aim.shot.target}, {reach} ({clause})"


def main_gun(ctx: Context[Board], firer: Ship, gun: panels.Gun, aim: Aim) -> None:
    """A die a shot, each scored alone: 3+ short, 5+ long, a superior crew's +1 on the die (CM-FIRE-06..09); a
    hit does the gun's damage, one more on a natural 6 (CM-FIRE-10/11)."""
    for face in _hits(ctx, firer, gun, aim, panels.MAIN, ("CM-FIRE-07", "CM-FIRE-08")):
        due(ctx, aim.shot.target, gunnery.hit_damage(gun, face), firer.name)


def anti_personnel(ctx: Context[Board], firer: Ship, gun: panels.Gun, aim: Aim) -> int:
    """A die each, scored alone: 5+ short, 6 long, a superior crew's +1 on the die (CM-AP-01..05, CM-SUP-03/04)."""
    return len(_hits(ctx, firer, gun, aim, panels.ANTI_PERSONNEL, ("CM-AP-02", "CM-AP-03")))


def _hits(
    ctx: Context[Board], firer: Ship, gun: panels.Gun, aim: Aim, kind: str, clauses: tuple[str, str]
) -> list[int]:
    """The gun's dice rolled, each scored alone against the score its kind needs at this range (the short
    range's clause first in ``clauses``): the natural faces of those that hit."""
    short = aim.band == SHORT
    needed = gunnery.score_to_hit(kind, short=short, superior=False)
    rolled = ctx.roll(
        _purpose(firer, gun, aim, clauses[0] if short else clauses[1]),
        count=gun.dice,
        modifiers=_modifiers(firer),
        needed=dice.each_die(f"{needed}+", [(needed, None, "hit")], "miss"),
        ships=[firer.name, aim.shot.target],
    )
    bonus = sum(rolled.modifiers.values())
    return [face for face in rolled.dice if face + bonus >= needed]


def rolled_weapon(ctx: Context[Board], firer: Ship, gun: panels.Gun, aim: Aim) -> None:
    """Rockets and bombs: no roll to hit; the roll is the damage, one more a weapon for a superior crew
    (CM-RKT-04..07, CM-BOMB-01/06)."""
    count, plus = gunnery.roll_spec(gun.roll or "1d6")
    modifiers = {**({gun.kind: plus} if plus else {}), **_modifiers(firer)}
    clause = "CM-RKT-06" if gun.kind == panels.ROCKETS else "CM-BOMB-01"
    rolled = ctx.roll(
        _purpose(firer, gun, aim, clause), count=count, modifiers=modifiers, ships=[firer.name, aim.shot.target]
    )
    due(ctx, aim.shot.target, rolled.total, firer.name)


def due(ctx: Context[Board], target: str, points: int, by: str, *, crew: int = 0) -> None:
    """Damage (or crew hits) waiting for step 4 on ``target`` and, if she is in a boarding action the firer is
    not part of, the same again on every ship she is grappled with (CM-BRD-23)."""
    ship = ctx.board.ship_named(target)
    outside = [name for name in ship.grappled if name != by] if by not in ship.grappled else []
    for name in (target, *outside):
        data = {"ship": name, "points": points, "by": by, "crew": crew}
        ctx.emit(DAMAGE_DUE, data, ships=[name, by])
