"""Step 4, marking damage (CM-SEQ-11): the points scored this turn, waiting on the board as ``due``, are crossed
off each target's track box by box in the order they were scored (docs/cloudships.md section 3), each box doing
what it says (CM-DMG-01..12). ``cross_boxes`` is also how a burning ship loses its box at the end of a round.

What a box does:
- Hull: nothing more (CM-DMG-03).
- Gun: a gun bearing on the ship whose fire crossed it is picked at random and lost (CM-DMG-04..06, CM-GUN-01);
  with no firer (a fire) any working gun; with none to pick, nothing more.
- Medium, Low: the greatest altitude falls to it (CM-DMG-07/08) and a ship above it drops at once unless grappled
  (CM-ALT-03/04).
- Speed: one less movement, read from the track at the next status check (CM-DMG-09).
- Boarding Party: a party is lost, or a flight aboard: the captain says how many of the boxes his ship will cross
  at this step take flights (CM-DMG-10, CM-FLY-25; phases/parties.py), parties first by default and whenever he
  was not asked; the power grapnel goes with the first (CM-PG-04).
- Critical: two dice on the ship's chart (CM-DMG-11); the result waits for step 5's amber (CM-DMG-12) or, if
  permanent, is kept (CM-LIGHT-07). What a permanent critical does at once is in ``PERMANENT_EFFECTS``: a
  Magazine Hit blows up a gun from all aboard (CM-MAG-01..06), a special point one loaded system of its kind
  (CM-MAG-07/08).
- Crew hits (anti-personnel fire, ``DamageDue.crew``): read on the crew chart, a party a step (CM-AP-06/07).
- Ground: the end of the track: the ship falls and crashes (CM-ALT-02).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from battles.engine.dice import table
from battles.engine.resolver import Context
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import gunnery, panels
from battles.rules.cloudships_2023.board import Board, band_height, wanted_first
from battles.rules.cloudships_2023.kinds import (
    AMBERS,
    BAND_LOST,
    BOX_CROSSED,
    CRASHED,
    CREW_HIT,
    CRITICAL,
    DROPPED,
    FATE,
    GUN_IN_CAPITALS,
    GUN_LOST,
    PARTY_LOST,
)
from battles.rules.cloudships_2023.phases.parties import ask_party_hits
from battles.rules.cloudships_2023.phases.release import drop_if_free

BoxEffect = Callable[[Context[Board], str, str], None]


def mark_damage(ctx: Context[Board]) -> None:
    """Stage DAMAGE: every point due, in the order scored; then step 5. First each captain with parties and
    flights aboard says which his Boarding Party boxes take (CM-FLY-25; phases/parties.py)."""
    if ctx.board.flight_hits is None and ask_party_hits(ctx):
        return
    for due in ctx.board.due:
        cross_boxes(ctx, due.ship, due.points, by=due.by)
        for _ in range(due.critical):  # a torpedo's, mine's or drogue's natural 6 (CM-SMT-09, CM-TM-10, CM-DT-05)
            critical_hit(ctx, due.ship, due.by)
        if due.crew:
            crew_hits(ctx, due.ship, due.crew, by=due.by)
    ctx.begin_phase(AMBERS)


def cross_boxes(ctx: Context[Board], name: str, points: int, *, by: str = "") -> None:
    """Cross ``points`` boxes of ``name``'s track, left to right, row by row (CM-DMG-01), each doing its work. A
    ship out of the fight takes no more."""
    for _ in range(points):
        ship = ctx.board.ship_named(name)
        box = ship.next_box()
        if not ship.flying or box is None:
            return
        ctx.emit(BOX_CROSSED, {"ship": name, "box": box, "by": by}, ships=[name])
        BOX_EFFECTS[box](ctx, name, by)


def _nothing(ctx: Context[Board], name: str, by: str) -> None:
    """Hull (CM-DMG-03) and Speed (CM-DMG-09, read from the track): the cross is all."""


def _gun(ctx: Context[Board], name: str, by: str) -> None:
    numbers = _gun_pool(ctx, name, by)
    if numbers:
        lost = ctx.pick(f"which of {possessive(name)} guns is hit (CM-GUN-01)", numbers, ships=[name])
        _lose_gun(ctx, name, lost)


def _gun_pool(ctx: Context[Board], name: str, by: str) -> list[int]:
    """The guns a Gun box may take: those bearing on the firer, or any working gun with no firer (CM-DMG-04/05)."""
    ship = ctx.board.ship_named(name)
    firer = ctx.board.ship_named(by) if by else None
    pool = ship.guns_bearing_on(firer.hex) if firer is not None else ship.working_guns()
    return [gun.number for gun in pool]


def _lose_gun(ctx: Context[Board], name: str, lost: int, chosen_by: str = "") -> None:
    ship = ctx.board.ship_named(name)
    data = {"ship": name, "gun": lost, "name": ship.gun(lost).name}
    ctx.emit(GUN_LOST, {**data, "chosen_by": chosen_by} if chosen_by else data, ships=[name])


def _band(ctx: Context[Board], name: str, by: str) -> None:
    ship = ctx.board.ship_named(name)
    ctx.emit(BAND_LOST, {"ship": name, "ceiling": ship.ceiling}, ships=[name])
    if band_height(ship.band) > band_height(ship.ceiling) and not ship.grappled:
        ctx.emit(DROPPED, {"ship": name, "band": ship.ceiling, "from": ship.band}, ships=[name])


def _boarding_party(ctx: Context[Board], name: str, by: str) -> None:
    ship = ctx.board.ship_named(name)
    if ship.parties > 0 or ship.flights > 0:
        given = dict(ctx.board.flight_hits or ()).get(name, 0)  # the captain's choice (CM-FLY-25)
        flight = ship.parties == 0 or (given > 0 and ship.flights > 0)
        ctx.emit(PARTY_LOST, {"ship": name, "flight": flight, "grapnel": ship.grapnel}, ships=[name])


def _critical(ctx: Context[Board], name: str, by: str) -> None:
    chart = ctx.board.ship_named(name).panel.criticals
    bands = [(score, score, critical) for score, critical in enumerate(chart, start=2)]
    rolled = ctx.roll(f"critical hit on {name} (CM-DMG-11)", count=2, needed=table("2d6", bands), ships=[name])
    ctx.emit(
        CRITICAL, {"ship": name, "critical": rolled.outcome, "permanent": _permanent(rolled.outcome)}, ships=[name]
    )
    effect = PERMANENT_EFFECTS.get(rolled.outcome)
    if effect is not None:
        effect(ctx, name, by)


def critical_hit(ctx: Context[Board], name: str, by: str) -> None:
    """A critical hit scored outright (not by a Critical box), rolled on her chart as a box's is; none on a ship
    out of the fight."""
    if ctx.board.ship_named(name).flying:
        _critical(ctx, name, by)


def _permanent(critical: str) -> bool:
    return critical not in panels.CRITICAL_LIGHTS


def _ground(ctx: Context[Board], name: str, by: str) -> None:
    held = ctx.board.ship_named(name).grappled
    # The ships she held let go (CM-ALT-05): each drops as her fate frees it, never left free above her ceiling.
    drop_if_free(ctx, held, letting_go=frozenset({name}))
    ctx.emit(FATE, {"ship": name, "status": CRASHED, "why": "her track is done: she falls (CM-ALT-02)"}, ships=[name])


def _gun_chosen(ctx: Context[Board], name: str, by: str) -> None:
    """A Gun box printed in capitals (CM-GUN-03..05): with the option agreed and a firer, the first of the guns
    he named in his fire orders that the box may take is lost; a firer who named none of them leaves it to the
    die (docs/cloudships.md section 7). Without the option it is any Gun box (CM-GUN-04)."""
    chosen = [n for n in wanted_first(ctx.board, by, name) if n in _gun_pool(ctx, name, by)] if by else []
    if not ctx.state.options.get(GUN_IN_CAPITALS, False) or not chosen:
        _gun(ctx, name, by)
        return
    _lose_gun(ctx, name, chosen[0], chosen_by=by)


BOX_EFFECTS: dict[str, BoxEffect] = {
    panels.HULL: _nothing,
    panels.GUN: _gun,
    panels.GUN_CHOSEN: _gun_chosen,
    panels.MEDIUM: _band,
    panels.LOW: _band,
    panels.SPEED: _nothing,
    panels.BOARDING_PARTY: _boarding_party,
    panels.CRITICAL: _critical,
    panels.GROUND: _ground,
}


# --- the fire slice: anti-personnel hits on the crew chart, and what a permanent critical does at once ----------


def crew_hits(ctx: Context[Board], name: str, hits: int, *, by: str = "") -> None:
    """One firing ship's anti-personnel hits (or a magazine's cook-off) read on ``name``'s crew chart: a party lost
    for every step of the chart the hits reach, parties first, then flights aboard (CM-AP-06/07, CM-DMG-10's
    order); never hull (CM-AP-06)."""
    ship = ctx.board.ship_named(name)
    if not ship.flying:
        return
    lost = min(gunnery.parties_lost(ship.panel.crew_chart, hits), ship.parties + ship.flights)
    ctx.emit(CREW_HIT, {"ship": name, "hits": hits, "by": by, "parties": lost}, ships=[name])
    for _ in range(lost):
        _boarding_party(ctx, name, by)


def _pick_gun(ctx: Context[Board], name: str, pool: Sequence[panels.Gun], why: str) -> panels.Gun:
    """One gun of ``pool`` by a logged die (CM-GUN-01); a pool of one needs none."""
    if len(pool) == 1:
        return pool[0]
    number = ctx.pick(f"which of {possessive(name)} guns: {why}", [gun.number for gun in pool], ships=[name])
    return next(gun for gun in pool if gun.number == number)


def _magazine_hit(ctx: Context[Board], name: str, by: str) -> None:
    """A gun picked at random among all her working guns, whatever their arcs, destroyed and its most in a turn
    inflicted on her (CM-MAG-01/02)."""
    pool = ctx.board.ship_named(name).working_guns()
    if pool:
        gun = _pick_gun(ctx, name, pool, "Magazine Hit, any gun aboard (CM-MAG-01)")
        _explode(ctx, name, gun)


def _special_magazine(kind: str) -> BoxEffect:
    """A fitted system's own point (Rocket Magazine, Bomb Racks Hit...): one of those still loaded blows up
    (CM-MAG-07/08); with none left loaded the box does nothing more, a Hull box (docs/cloudships.md section 4)."""

    def effect(ctx: Context[Board], name: str, by: str) -> None:
        ship = ctx.board.ship_named(name)
        pool = [gun for gun in ship.working_guns() if gun.kind == kind and gun.number not in ship.spent]
        if pool:
            _explode(ctx, name, _pick_gun(ctx, name, pool, f"{kind} magazine (CM-MAG-07)"))

    return effect


def _explode(ctx: Context[Board], name: str, gun: panels.Gun) -> None:
    """The gun is lost and its ammunition cooks off: a main gun its dice times its damage, an anti-personnel gun
    its dice as hits on her own crew chart, a loaded rocket battery or other rolled weapon its roll; all doubled
    on a ship marked vulnerable (CM-MAG-02..06, CM-MAG-08). A spent one-shot weapon has nothing left to explode."""
    ship = ctx.board.ship_named(name)
    ctx.emit(GUN_LOST, {"ship": name, "gun": gun.number, "name": gun.name}, ships=[name])
    vulnerable = ship.panel.vulnerable_magazine
    if gun.number in ship.spent:
        return
    if gun.kind == panels.ANTI_PERSONNEL:
        crew_hits(ctx, name, gunnery.magazine_points(gun, vulnerable=vulnerable))
    elif gun.kind == panels.MAIN:
        cross_boxes(ctx, name, gunnery.magazine_points(gun, vulnerable=vulnerable))
    else:
        count, plus = gunnery.roll_spec(gun.roll or "1d6")
        modifiers = {gun.kind: plus} if plus else {}
        rolled = ctx.roll(
            f"{possessive(name)} {gun.name} blows up (CM-MAG-08)", count=count, modifiers=modifiers, ships=[name]
        )
        cross_boxes(ctx, name, rolled.total * (2 if vulnerable else 1))


# What a permanent critical does the moment it is rolled, by name. Motive Power Hit needs none: the status check
# reads it (phases/turn.py). The special points' names are the panels' (data/conversion.json, special_names).
SPECIAL_POINTS = {
    "Rocket Magazine": panels.ROCKETS,
    "Bomb Racks Hit": panels.BOMBS,
    "Torpedo Hit": panels.SMUTTS,
    "Tether Mine Hit": panels.TETHER_MINE,
    "Drogue Hit": panels.DROGUE,
}
PERMANENT_EFFECTS: dict[str, BoxEffect] = {
    "Magazine Hit": _magazine_hit,
    **{point: _special_magazine(kind) for point, kind in SPECIAL_POINTS.items()},
}
