"""The exotic ordnance in play (CM-SMT, CM-TM, CM-DT; the rules in ordnance.py, docs/cloudships.md section 10).

- **The start of the ship's turn** opens stage MOVE (``start_of_turn``, called before the move is asked): her
  torpedoes launched last turn fly their second turn and self-destruct (CM-SMT-01/07), any torpedo whose launcher
  has left the fight self-destructs, then one decision, ``mines and torpedoes``, lets out or winches in her tether
  mines and drogues (CM-TM-01/02, CM-DT-01) and launches her Smutts torpedoes, which fly their first turn at once.
  A ship with nothing to let out, winch in or launch is not asked.
- **During the move** (``strike_from_cables``, the move loop's hook on each hex entered): every mine or drogue
  out strikes at the enemy ships at its band in that hex, one after another until it hits (CM-TM-04/06).
- **A strike** is the ramming roll (CM-SMT-02..05): a hit explodes the weapon (a mine or drogue spent with a
  GUN_FIRED, CM-TM-12; a torpedo gone) and rolls its damage, left due with a critical on a natural 6 (CM-SMT-08/09,
  CM-TM-08..10, CM-DT-04/05) for step 4 to cross.
"""

from __future__ import annotations

from battles.engine.hexgrid import Hex
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import gunnery, ordnance, panels
from battles.rules.cloudships_2023.board import Board, OrdnanceOrders, Ship, Torpedo
from battles.rules.cloudships_2023.kinds import (
    CONTACT,
    DAMAGE_DUE,
    GUN_FIRED,
    LET_OUT,
    ORDNANCE_DECISION,
    READIED,
    REALLY_LOW_BAND,
    TORPEDO_FLEW,
    TORPEDO_GONE,
    TORPEDO_LAUNCHED,
    WINCHED_IN,
)
from battles.rules.cloudships_2023.panels import Gun

NOTHING = OrdnanceOrders().to_json()
# The clauses of each weapon's damage and natural 6, and of the steamer's +1 against it.
DAMAGE = {
    panels.SMUTTS: "CM-SMT-08, CM-SMT-09",
    panels.TETHER_MINE: "CM-TM-08..10",
    panels.DROGUE: "CM-DT-04, CM-DT-05",
}
EVADE = {panels.SMUTTS: "CM-SMT-04", panels.TETHER_MINE: "CM-TM-07", panels.DROGUE: "CM-TM-07"}
PROMPT = '{"let_out": [gun], "winch_in": [gun], "launch": [gun]}: tether mines and drogues, Smutts torpedoes'


def really_low(ctx: Context[Board]) -> bool:
    return bool(ctx.option(REALLY_LOW_BAND))


def start_of_turn(ctx: Context[Board]) -> bool:
    """The start of the active ship's turn, before her move is asked. True while it waits for her orders."""
    board = ctx.board
    name = board.active
    if name is None or board.move is not None or board.ordnance.readied == (name, ctx.state.turn):
        return False
    orders = board.ordnance.orders
    if orders is None:
        fly_torpedoes(ctx, name)
        ship = ctx.board.ship_named(name)
        if ordnance.has_choices(ctx.board, ship, really_low=really_low(ctx)):
            prompt = f"{name} at the start of her turn: {PROMPT}"
            ctx.request(ship.side, ORDNANCE_DECISION, rule="CM-TM-01", default=NOTHING, prompt=prompt, ships=[name])
            return True
    else:
        carry_out(ctx, name, orders)
    ctx.emit(READIED, {"ship": name, "round": ctx.state.turn}, ships=[name])
    return False


def carry_out(ctx: Context[Board], name: str, orders: OrdnanceOrders) -> None:
    """Winch in, let out, then launch, each in the order named (judged when answered, on this same board)."""
    ship = ctx.board.ship_named(name)
    for number in orders.winch_in:
        ctx.emit(WINCHED_IN, _system(ship, ship.gun(number), "CM-TM-02"), ships=[name])
    for number in orders.let_out:
        gun = ship.gun(number)
        band = ordnance.reach(gun.kind, ship.band, really_low=really_low(ctx))
        clauses = "CM-TM-01" if gun.kind == panels.TETHER_MINE else "CM-DT-01"
        ctx.emit(LET_OUT, {**_system(ship, gun, clauses), "band": band}, ships=[name])
    for number in orders.launch:
        launch(ctx, name, number)


def _system(ship: Ship, gun: Gun, clause: str) -> dict[str, object]:
    return {"ship": ship.name, "gun": gun.number, "name": gun.name, "system": gun.kind, "clauses": [clause]}


# --- Smutts torpedoes ---------------------------------------------------------------------------------------------


def launch(ctx: Context[Board], name: str, number: int) -> None:
    """The launcher fires (spent for good, CM-SMT-11) and the torpedo flies its first turn at once."""
    ship = ctx.board.ship_named(name)
    gun = ship.gun(number)
    ctx.emit(GUN_FIRED, {"ship": name, "gun": number, "name": gun.name}, ships=[name])
    torpedo = Torpedo(name, number, ship.hex, ordnance.torpedo_heading(ship, gun), ship.band)
    ctx.emit(TORPEDO_LAUNCHED, {**torpedo.to_json(), "clauses": ["CM-SMT-01"]}, ships=[name])
    fly(ctx, torpedo)


def fly_torpedoes(ctx: Context[Board], name: str) -> None:
    """At the start of ``name``'s turn her torpedoes in flight fly on; any whose launcher is out of the fight
    self-destructs: its turns are its launcher's (docs/cloudships.md section 10)."""
    for torpedo in ctx.board.ordnance.torpedoes:
        if not ctx.board.ship_named(torpedo.ship).flying:
            gone(ctx, torpedo, "its launcher is out of the fight: it self-destructs")
        elif torpedo.ship == name:
            fly(ctx, torpedo)


def fly(ctx: Context[Board], torpedo: Torpedo) -> None:
    """One turn of movement: ten hexes straight on, level, meeting every ship at its band in each hex entered;
    after its second it self-destructs (CM-SMT-01/06/07). Off the map it is gone."""
    flight = torpedo.flights + 1
    for spot in ordnance.torpedo_line(torpedo.hex, torpedo.facing):
        if not ctx.board.on_map(spot):
            gone(ctx, torpedo, "it flew off the map")
            return
        data = {"ship": torpedo.ship, "gun": torpedo.gun, "hex": spot.to_json(), "flight": flight}
        ctx.emit(TORPEDO_FLEW, data, ships=[torpedo.ship])
        if meet(ctx, torpedo, spot):
            return
    if flight >= ordnance.TORPEDO_TURNS:
        gone(ctx, torpedo, "its second turn is flown: it self-destructs (CM-SMT-07)")


def meet(ctx: Context[Board], torpedo: Torpedo, spot: Hex) -> bool:
    """Each ship at the torpedo's band in ``spot``, friend or foe, its launcher excepted, is a contact of its own
    (CM-SMT-06). True once it hits and explodes."""
    launcher = ctx.board.ship_named(torpedo.ship)
    gun = launcher.gun(torpedo.gun)
    there = [s for s in ctx.board.flying() if s.name != launcher.name and (s.hex, s.band) == (spot, torpedo.band)]
    ram = {"torpedo's ram": ordnance.TORPEDO_RAM}
    return any(contact(ctx, launcher, gun, target, ram, "CM-SMT-02") for target in there)


def gone(ctx: Context[Board], torpedo: Torpedo, why: str) -> None:
    ctx.emit(TORPEDO_GONE, {"ship": torpedo.ship, "gun": torpedo.gun, "why": why}, ships=[torpedo.ship])


# --- mines and drogues on their cables ----------------------------------------------------------------------------


def strike_from_cables(ctx: Context[Board], name: str, spot: Hex, band: str) -> None:
    """The move's hook on each hex entered: each mine or drogue out strikes at the enemy ships at its band in
    ``spot``, one after another until it hits (CM-TM-04/06, CM-DT-01); a superior crew adds one to its roll
    (CM-TM-05, CM-DT-02)."""
    for gun in ordnance.on_cables(ctx.board, ctx.board.ship_named(name)):
        struck = ordnance.reach(gun.kind, band, really_low=really_low(ctx))
        for target in _targets(ctx.board, name, spot, struck):
            ship = ctx.board.ship_named(name)
            bonus = {"superior crew": ordnance.SUPERIOR} if ship.panel.superior else {}
            clause = "CM-TM-04" if gun.kind == panels.TETHER_MINE else "CM-DT-02"
            if contact(ctx, ship, gun, target, bonus, clause):
                break


def _targets(board: Board, name: str, spot: Hex, band: str | None) -> list[Ship]:
    """The enemy ships a cable strikes at: flying in ``spot`` at its band, in the board's order."""
    side = board.ship_named(name).side
    return [s for s in board.flying() if s.side != side and (s.hex, s.band) == (spot, band)]


# --- the strike ---------------------------------------------------------------------------------------------------


def contact(ctx: Context[Board], firer: Ship, gun: Gun, target: Ship, bonus: dict[str, int], clause: str) -> bool:
    """The ramming roll between the weapon and ``target`` (steam +1 on hers); on a hit the weapon explodes and its
    damage is left due. True on a hit."""
    what = f"{possessive(firer.name)} {gun.name} ({gun.number})"
    weapon = ctx.roll(f"{what} strikes at {target.name} ({clause})", modifiers=bonus, ships=[firer.name, target.name])
    steam = {"steam": ordnance.STEAM} if target.panel.motive in panels.STEAMERS else {}
    theirs = ctx.roll(f"{target.name} evades {what} ({EVADE[gun.kind]})", modifiers=steam, ships=[target.name])
    hit = ordnance.strikes(weapon.total, theirs.total)
    data = {
        "ship": firer.name,
        "gun": gun.number,
        "system": gun.kind,
        "target": target.name,
        "scores": [weapon.total, theirs.total],
        "hit": hit,
        "clauses": [clause, "CM-RAM-03"],
    }
    ctx.emit(CONTACT, data, ships=[firer.name, target.name])
    if hit:
        explode(ctx, firer, gun, target)
    return hit


def explode(ctx: Context[Board], firer: Ship, gun: Gun, target: Ship) -> None:
    """The weapon's damage roll (its own plus, never a superior crew's: CM-SMT-12), due at step 4 with a critical
    on a natural 6. A mine or drogue is spent as it explodes (a torpedo was spent at its launch)."""
    if gun.kind != panels.SMUTTS:
        ctx.emit(GUN_FIRED, {"ship": firer.name, "gun": gun.number, "name": gun.name}, ships=[firer.name])
    count, plus = gunnery.roll_spec(gun.roll or "1d6")
    purpose = (
        f"{possessive(firer.name)} {gun.name} ({gun.number}) explodes on {target.name}: {gun.roll} ({DAMAGE[gun.kind]})"
    )
    rolled = ctx.roll(purpose, count=count, modifiers={gun.kind: plus} if plus else {}, ships=[target.name])
    data: dict[str, object] = {"ship": target.name, "points": rolled.total, "by": firer.name, "crew": 0}
    if ordnance.natural_six(rolled.dice):
        data["critical"] = 1
    ctx.emit(DAMAGE_DUE, data, ships=[target.name, firer.name])
