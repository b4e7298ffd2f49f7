"""Cloudships of Mars tactics: the AI captain's reading of the board (ai.py is the captain who answers).

Pure functions of the board, no dice:

* ``courses``: every end a move can reach (hex, facing, band), each with one plan that gets there, found by the
  rules' own stepper (manoeuvre.take), a state kept only while no cheaper way to it is known;
* ``gun_worth``: what one gun's shot is worth on average: its expected points (main guns, rockets, bombs), or
  its expected crew hits for an anti-personnel gun, weighed by the target (a damaged ship is nearer her crash);
* ``bearing``: the guns of a ship placed at some end that may fire at a target there, and at what range band,
  the fire rules read without the line of sight (dear to trace for every end; the fire orders, checked by the
  rules, meet it);
* ``score_course``: the move's rules of thumb over one course's end;
* ``boarding_odds``, ``flights_worth_keeping``, ``boarding_worth``: the boarding answers' readings and the
  move's pull to an enemy she would board (CM-BRD);
* ``enemies_near``, ``torpedo_target``: the start-of-turn ordnance answers' (CM-TM, CM-DT, CM-SMT).

Weights are plain numbers, named here; the captain picks among the courses scored within ``NEAR_TIE`` of the best.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from battles.aikit import odds
from battles.engine import hexgrid
from battles.engine.hexgrid import Hex
from battles.rules.cloudships_2023 import (
    boarding,
    crew,
    firing,
    gunnery,
    manoeuvre,
    ordnance,
    panels,
    validate,
    victory,
)
from battles.rules.cloudships_2023.board import Board, Ship, band_height
from battles.rules.cloudships_2023.firing import LONG, SHORT
from battles.rules.cloudships_2023.manoeuvre import Mover, Step
from battles.rules.cloudships_2023.panels import Gun

NEAR_TIE = 0.05  # courses scored this close to the best are alike: the captain's die picks among them
CAUTION = 0.5  # how much the enemy's guns bearing on her weigh against her own
AP_WORTH = 0.5  # a crew hit: a party lost sooner, weighed at half a point of damage
AP_IDLE = 0.01  # an anti-personnel gun at a ship with no crew left to hit: fired anyway, it costs nothing
CLOSING = 0.4  # each hex beyond her best short range from the nearest enemy
BAND_APART = 0.2  # each band between her and the nearest enemy (ranges grow, 45 degrees bars her guns)
EDGE = 1.5  # each hex of a full move straight ahead that would take her off the map
RAM_ODDS = 0.4  # the least chance of hitting at which she rams
COLLISION = 1 / 6  # equal dice collide (CM-COL-02)
KITE_MOVE = 4  # a kite's movement is a die: she plans on about this much room ahead
NATURAL_SIX = 1 / 6  # a main gun's natural 6 scores one point more (CM-FIRE-11)
AVERAGE_DIE = 3.5
PRIZE_PULL = 1.0  # each hex and band between her and the ship she is sent to seize
BOARD_SHARE = 0.5  # of a ship's boxes left, what ending alongside her with even-plus-half odds is worth
BOARD_ODDS = 0.5  # she grapples, and boards on, while her chance of winning a round is better than this
TORPEDO_REACH = ordnance.TORPEDO_SPEED * ordnance.TORPEDO_TURNS  # hexes a Smutts torpedo flies (CM-SMT-01/07)


@dataclass(frozen=True)
class Course:
    """One way to move: the plan's steps as the rules traced them, and the ship rammed at its end, if any."""

    plan: tuple[str, ...]
    steps: tuple[Step, ...]
    ram: str | None = None

    def end(self, ship: Ship) -> tuple[Hex, int, str]:
        if not self.steps:
            return ship.hex, ship.facing, ship.band
        last = self.steps[-1]
        return last.hex, last.facing, last.band

    @property
    def left_map(self) -> bool:
        return bool(self.steps) and self.steps[-1].ends == manoeuvre.LEFT_MAP

    @property
    def hexes(self) -> int:
        """Her speed for a ram: the hexes she entered (CM-RAM-05)."""
        return sum(1 for step in self.steps if step.enters_hex)


# --- the moves she can make -------------------------------------------------------------------------------------


def courses(move: Mover) -> list[Course]:
    """One course for every end (hex, facing, band, or off the map) the move can reach: the rules' own search,
    cheapest first (manoeuvre.every_plan, unbounded)."""
    return [Course(tuple(plan), tuple(steps)) for plan, steps in manoeuvre.every_plan(move, most=None)]


def with_rams(ship: Ship, found: Sequence[Course], enemies: Sequence[Ship]) -> list[Course]:
    """The courses, and for each enemy the courses whose last step enters her hex at her band, again with a ram
    declared on her (CM-RAM-01), when the odds are good enough to try (a ram that misses slides by: no worse than
    no ram)."""
    rams = [
        Course(course.plan, course.steps, enemy.name)
        for enemy in enemies
        if ram_odds(ship, enemy) >= RAM_ODDS
        for course in found
        if course.steps and validate.rammed_at(course.steps, enemy) is course.steps[-1]
    ]
    return [*found, *rams]


def ram_odds(rammer: Ship, target: Ship) -> float:
    """Both roll a die, steam +1; the rammer must score higher (CM-RAM-02..04)."""
    return odds.beats(_steam(rammer), _steam(target))


def _steam(ship: Ship) -> int:
    return 1 if ship.panel.motive in panels.STEAMERS else 0


# --- what a gun is worth ----------------------------------------------------------------------------------------


def ready_guns(ship: Ship) -> tuple[Gun, ...]:
    """Guns that may fire in step 3: working, no Fired marker, not spent, not fired in the move (CM-SEQ-07/10)."""
    gone = {*ship.guns_lost, *ship.spent, *ship.fired}
    return tuple(g for g in ship.panel.guns if g.number not in gone and g.kind not in firing.NOT_FIRED_IN_STEP_3)


def armed_guns(ship: Ship) -> tuple[Gun, ...]:
    """Guns she will fire again, Fired markers or not (they come off at the round's end): what an enemy fears."""
    gone = {*ship.guns_lost, *ship.spent}
    return tuple(g for g in ship.panel.guns if g.number not in gone and g.kind not in firing.NOT_FIRED_IN_STEP_3)


def target_value(target: Ship) -> float:
    """A point on a ship nearer her crash is worth more: the captain finishes what he has begun."""
    return 1.0 + 2.0 * target.crossed / max(1, target.panel.track_length)


def expected(gun: Gun, band: str | None, *, superior: bool) -> float:
    """A gun's expected points (crew hits for an anti-personnel gun) at ``band`` (short, long; None for a weapon
    with no roll to hit), by the scores of CM-FIRE-07/08, CM-AP-02/03 and a superior crew's +1 (CM-SUP)."""
    bonus = 1 if superior else 0
    if gun.kind in (panels.MAIN, panels.ANTI_PERSONNEL):
        needed = gunnery.score_to_hit(gun.kind, short=band == SHORT, superior=False)
        chance = odds.at_least(needed, bonus=bonus)
        if gun.kind == panels.ANTI_PERSONNEL:
            return gun.dice * chance + (odds.any_of(chance, gun.dice) if superior else 0.0)  # CM-AP-10
        return gun.dice * (chance * (gun.damage or 0) + NATURAL_SIX)
    count, plus = gunnery.roll_spec(gun.roll or "1d6")
    return count * AVERAGE_DIE + plus + bonus  # rockets and bombs (CM-RKT-06/07, CM-BOMB-01/06)


def gun_worth(gun: Gun, band: str | None, firer: Ship, target: Ship) -> float:
    """What one gun's shot at ``target`` is worth to the captain."""
    points = expected(gun, band, superior=firer.panel.superior)
    if gun.kind == panels.ANTI_PERSONNEL:
        crew = target.parties + target.flights
        return points * AP_WORTH if crew else AP_IDLE
    return points * target_value(target)


# --- who bears on whom from where ---------------------------------------------------------------------------------


def bearing(
    guns: Sequence[Gun], at: tuple[Hex, int, str], target: Ship, *, target_at: tuple[Hex, str] | None = None
) -> list[tuple[Gun, str | None]]:
    """The guns that may fire from ``at`` (hex, facing, band) at ``target`` (where she is, or ``target_at``), each
    with its range band: CM-FIRE-02..05, CM-AP-12, CM-RKT-01/02, CM-BOMB-02, the line of sight left out."""
    hex_, facing, band = at
    there, her_band = target_at if target_at is not None else (target.hex, target.band)
    seen = {str(aspect) for aspect in hexgrid.aspects(hex_, facing, there)}
    hexes = hexgrid.distance(hex_, there)
    climb = firing.climb(band, her_band)
    reach = hexes + max(0, climb)
    found: list[tuple[Gun, str | None]] = []
    for gun in guns:
        if gun.kind == panels.BOMBS:
            if there == hex_ and band_height(her_band) < band_height(band):
                found.append((gun, None))
        elif not seen.isdisjoint(gun.arcs):
            if gun.kind == panels.ROCKETS:
                if _rocket_reaches(gun, hexes, climb):
                    found.append((gun, None))
            elif _gun_reaches(gun, hexes, climb, reach):
                short = gun.short_range is not None and reach <= gun.short_range
                found.append((gun, SHORT if short else LONG))
    return found


def _rocket_reaches(gun: Gun, hexes: int, climb: int) -> bool:
    if not gunnery.rocket_reach(hexes, 0, climb):
        return False
    return gun.angle is None or gunnery.rocket_angle(0, climb) == gun.angle


def _gun_reaches(gun: Gun, hexes: int, climb: int, reach: int) -> bool:
    if gun.kind == panels.ANTI_PERSONNEL and climb > 0:
        return False  # CM-AP-12
    return hexes >= abs(climb) and gun.long_range is not None and reach <= gun.long_range


# --- the move's score ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """What the captain of a moving ship reads once for all her courses: her ready guns, the enemies she may fire
    at (only her grappler when she is grappled: CM-BRD-22), every other ship, and the room she plans on."""

    ship: Ship
    guns: tuple[Gun, ...]
    enemies: tuple[Ship, ...]
    others: tuple[Ship, ...]
    movement: int
    short: int
    prize: Ship | None = None  # the ship she is to seize (a ``capture`` victory names her captor: victory.py)
    caution: float = CAUTION  # her side's, where the scenario tunes it (``sides[].ai.caution``)


def sight(board: Board, ship: Ship) -> Sight:
    enemies = firing.enemies(board, ship)
    if ship.grappled:
        enemies = tuple(enemy for enemy in enemies if enemy.name in ship.grappled)
    guns = ready_guns(ship)
    shorts = [gun.short_range for gun in guns if gun.kind == panels.MAIN and gun.short_range is not None]
    others = tuple(other for other in board.flying() if other.name != ship.name)
    movement = ship.panel.movement if ship.panel.movement is not None else KITE_MOVE
    room = max(1, movement - ship.speed_lost)
    short = max(shorts, default=1)
    return Sight(ship, guns, enemies, others, room, short, prize_for(board, ship), caution_of(board, ship.side))


def caution_of(board: Board, side: str) -> float:
    """How much the enemy's guns weigh against her own: the scenario's tuning for her side, else CAUTION (a side
    told to ignore the danger, as the Hearts of Oak's High Martians are, closes where the guns are)."""
    tuning = board.captains.get(side)
    value = tuning.get("caution") if isinstance(tuning, dict) else None
    return float(value) if isinstance(value, int | float) else CAUTION


def prize_for(board: Board, ship: Ship) -> Ship | None:
    """The ship the scenario sends her to seize: she is a ``capture`` victory's ship, the prize still flying and
    free (victory.py; the Diplomatic Incident's Hamburg, docs/cloudships.md section 12)."""
    found = board.victory
    if found.get("kind") != victory.CAPTURE or found.get("ship") != ship.name or ship.grappled:
        return None
    prize = board.ship_named(str(found["prize"]))
    return prize if prize.flying and not prize.grappled else None


def pursuit(view: Sight, at: tuple[Hex, int, str]) -> float:
    """Making for the prize: each hex and band between her course's end and the prize, where she grapples from
    (CM-BRD-01). Outweighs closing on the enemy: the prize, not the fight, wins the scenario."""
    if view.prize is None:
        return 0.0
    hex_, _, band = at
    return PRIZE_PULL * (hexgrid.distance(hex_, view.prize.hex) + abs(firing.climb(band, view.prize.band)))


def offense(view: Sight, at: tuple[Hex, int, str]) -> float:
    """Her guns' worth from ``at``: each gun at the enemy where its shot is worth most (as ai.fire_orders fires)."""
    best: dict[int, float] = {}
    for enemy in view.enemies:
        for gun, band in bearing(view.guns, at, enemy):
            worth = gun_worth(gun, band, view.ship, enemy)
            if worth > best.get(gun.number, 0.0):
                best[gun.number] = worth
    return sum(best.values())


def enemy_fire(enemy: Ship, at: tuple[Hex, str]) -> tuple[float, float]:
    """An enemy's guns bearing on a ship at ``at`` (hex, band) from where the enemy is now: the expected points,
    and the expected crew hits. Of the enemy alone, so a captain keeps it while she is unchanged (ai.py)."""
    points = crew = 0.0
    placed = (enemy.hex, enemy.facing, enemy.band)
    for gun, band in bearing(armed_guns(enemy), placed, enemy, target_at=at):
        if gun.kind == panels.ANTI_PERSONNEL:
            crew += expected(gun, band, superior=enemy.panel.superior)
        else:
            points += expected(gun, band, superior=enemy.panel.superior)
    return points, crew


def threat(ship: Ship, fire: Sequence[tuple[float, float]]) -> float:
    """What the enemies' fire (``enemy_fire`` of each) is worth against ``ship``, as her own shots are weighed."""
    points = sum(p for p, _ in fire)
    crew = sum(c for _, c in fire)
    return points * target_value(ship) + (crew * AP_WORTH if ship.parties + ship.flights else 0.0)


def closing(view: Sight, at: tuple[Hex, int, str]) -> float:
    """The penalty for standing off: hexes beyond her best short range, and bands apart, from the nearest enemy."""
    if not view.enemies:
        return 0.0
    hex_, _, band = at
    nearest = min(view.enemies, key=lambda enemy: (hexgrid.distance(hex_, enemy.hex), enemy.name))
    hexes = hexgrid.distance(hex_, nearest.hex)
    apart = abs(firing.climb(band, nearest.band))
    return CLOSING * max(0, hexes + apart - view.short) + BAND_APART * apart


def room_ahead(board: Board, hex_: Hex, facing: int, most: int) -> int:
    """Hexes straight ahead before the map's edge, counted up to ``most``."""
    room = 0
    while room < most:
        hex_ = hexgrid.neighbour(hex_, facing)
        if not board.on_map(hex_):
            break
        room += 1
    return room


def edge(board: Board, view: Sight, at: tuple[Hex, int, str]) -> float:
    """Keeping off the map's edge: a Bridge Hit makes her fly straight on with every point, unable to turn
    (CM-LIGHT-08, docs/cloudships.md section 4), so she keeps room for a full move ahead."""
    hex_, facing, _ = at
    return EDGE * (view.movement - room_ahead(board, hex_, facing, view.movement))


def collisions(view: Sight, course: Course) -> float:
    """The expected cost of the collision checks on her way (CM-COL-01..03): each takes the other's ram value,
    worth a point to her and, on an enemy, a point to him; the ship she rams is checked by the ram instead."""
    cost = 0.0
    for step in course.steps:
        if not (step.enters_hex or step.changes_band):
            continue
        for other in view.others:
            if (other.hex, other.band) != (step.hex, step.band) or other.name == course.ram:
                continue
            gain = view.ship.panel.ram * target_value(other) if other.side != view.ship.side else 0.0
            cost += COLLISION * (other.panel.ram * target_value(view.ship) - gain)
    return cost


def ram_worth(view: Sight, course: Course) -> float:
    """A ram declared: its chance times her ram value plus her speed (CM-RAM-05), on the target's worth."""
    if course.ram is None:
        return 0.0
    target = next(enemy for enemy in view.enemies if enemy.name == course.ram)
    return ram_odds(view.ship, target) * (view.ship.panel.ram + course.hexes) * target_value(target)


def score_course(board: Board, view: Sight, course: Course, fire_at: Callable[[Hex, str], float]) -> float:
    """The move's rules of thumb over a course's end (``fire_at``: the enemy's fire at a hex and band, worth)."""
    at = course.end(view.ship)
    return (
        offense(view, at)
        - view.caution * fire_at(at[0], at[2])
        - closing(view, at)
        - pursuit(view, at)
        - edge(board, view, at)
        - collisions(view, course)
        + ram_worth(view, course)
        + boarding_worth(view, at)
    )


def boarding_worth(view: Sight, at: tuple[Hex, int, str]) -> float:
    """Ending in an enemy's hex at her band, free to grapple her (CM-BRD-01) when a round is likelier won than
    not: a share of what taking her is worth (her boxes still to cross, weighed as her points are), by how far the
    odds are better than even. Nothing while she is locked in a boarding action already (CM-BRD-22)."""
    if view.ship.grappled:
        return 0.0
    hex_, _, band = at
    best = 0.0
    for enemy in view.enemies:
        if (enemy.hex, enemy.band) != (hex_, band) or enemy.grappled:
            continue
        edge_ = boarding_odds(view.ship, enemy) - BOARD_ODDS
        left = enemy.panel.track_length - enemy.crossed
        best = max(best, BOARD_SHARE * edge_ * left * target_value(enemy))
    return best


# --- grappling and boarding (CM-BRD; boarding.py) ----------------------------------------------------------------


def boarding_odds(ship: Ship, enemy: Ship) -> float:
    """Her chance of winning a round of boarding against ``enemy`` and still standing after it: a die plus her
    boarding value must beat a die plus his (CM-BRD-03/07; a tie goes to neither), and the winner's own loss (1 on
    a die of 1-4, 2 on a 5, 3 on a 6: CM-BRD-12..14) must leave her some boarding value, or she strikes beside him
    (CM-BRD-20): two small crews boarding each other would both strike, and the battle be nobody's."""
    mine = boarding.boarding_value(ship)
    standing = sum(1 for roll in range(1, 7) if crew.winners_loss(roll) < mine) / 6
    return odds.beats(mine, boarding.boarding_value(enemy)) * standing


def flights_worth_keeping(ship: Ship, points: int) -> bool:
    """Among ways to lose alike in boarding value, whether she gives up parties before flights (CM-BRD-11): a
    flight counts two and fires as an anti-personnel gun aboard (CM-FLY-23/27), worth keeping, unless the
    Boarding Party boxes still ahead on her track outnumber the parties she would keep: each such box then takes
    a flight, two points at a time, where a party would have cost one (CM-DMG-10, CM-FLY-25)."""
    boxes_ahead = ship.boxes()[ship.crossed :].count(panels.BOARDING_PARTY)
    return boxes_ahead <= max(0, ship.parties - points)


# --- mines, drogues and torpedoes (CM-TM, CM-DT, CM-SMT; ordnance.py) --------------------------------------------


def enemies_near(view: Sight, band: str) -> tuple[Ship, ...]:
    """The enemies at ``band`` she could reach this move: within her movement and one hex more."""
    reach = view.movement + 1
    return tuple(
        enemy for enemy in view.enemies if enemy.band == band and hexgrid.distance(view.ship.hex, enemy.hex) <= reach
    )


def torpedo_target(board: Board, ship: Ship, gun: Gun) -> Ship | None:
    """The enemy a Smutts torpedo launched now would meet first on its line over its two turns, if the first ship at
    her band on that line is an enemy (it meets any ship there, friend or foe: CM-SMT-01/06/07)."""
    line = ordnance.torpedo_line(ship.hex, ordnance.torpedo_heading(ship, gun), TORPEDO_REACH)
    others = [other for other in board.flying() if other.name != ship.name and other.band == ship.band]
    for hex_ in line:
        if not board.on_map(hex_):
            return None
        met = [other for other in others if other.hex == hex_]
        if met:
            return met[0] if all(other.side != ship.side for other in met) else None
    return None
