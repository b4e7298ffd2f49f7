"""The answer schema of each decision: the ship to move as labelled names (IC-SEQ-07); a move order as a path built
step by step (the battle page's move builder and its clicks on the map), its speed one of the steps, each step judged
as it is added against her legal orders (orders.py). The schema says the shape; validate.py judges the order."""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine import answers, hexgrid
from battles.engine.answers import AnswerSchema, Option
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.engine.telling import COMPASS
from battles.engine.words import possessive
from battles.rules.ironclads import movement, orders
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.kinds import MOVE_ORDER, SHIP_TO_MOVE
from battles.rules.ironclads.movement import Order
from battles.rules.ironclads.speed import Setting

STEP_WORDS = {
    "ahead": "Ahead one hex",
    "astern": "Astern one hex",
    "port": "Turn a hexside to port",
    "starboard": "Turn a hexside to starboard",
    "hard port": "Turn two hexsides to port",
    "hard starboard": "Turn two hexsides to starboard",
}


def answer_schema(state: BattleState[Battle], request: DecisionRequest, partial: JSON = None) -> AnswerSchema:
    if request.kind == MOVE_ORDER:
        return _move(state.board, request, partial)
    if request.kind == SHIP_TO_MOVE:
        battle = state.board
        options = tuple(Option(o, _ship_words(battle.ship(str(o)))) for o in request.options or ())
        root = answers.One(
            key="choice", label=request.prompt, options=options, default=request.default, clause=request.rule
        )
        return AnswerSchema(request.id, root, title="The ship to move", clause=request.rule, layout="options")
    return answers.default_schema(request)


def _ship_words(ship: Ship) -> str:
    col, row = hexgrid.to_odd_q(ship.hex)
    return f"{ship.name}, {ship.setting}, in hex [{col}, {row}] facing {COMPASS[ship.facing]}"


def setting_words(setting: Setting, now: Setting) -> str:
    if setting.speed == 0:
        return "Stop"
    if setting.astern:
        return f"Go astern at {setting.speed}"
    change = setting.speed - now.speed if not now.astern else setting.speed
    said = {1: "up 1", 0: "hold"}.get(change, f"down {-change}") if change <= 1 else f"up {change}"
    return f"Speed {setting.speed} ({said})"


def _move(battle: Battle, request: DecisionRequest, partial: JSON) -> AnswerSchema:
    name = request.ships[0]
    ship = battle.ship(name)
    legal = orders.legal_orders(battle, name)
    plan = [str(t) for t in partial] if isinstance(partial, list) else []
    settings = tuple(dict.fromkeys(o.setting for o in legal))
    vocabulary = (
        *(Option(orders.setting_token(s), setting_words(s, ship.setting)) for s in settings),
        *(Option(token, words) for token, words in STEP_WORDS.items()),
    )
    known = tuple(str(o.value) for o in vocabulary)
    progress = _progress(battle, name, legal, [t for t in plan if t in known], known)
    default = request.default if isinstance(request.default, dict) else {}
    steps = default.get("steps")
    path = answers.Path(
        key="steps",
        label="Speed and path",
        steps=vocabulary,
        max_steps=12,
        default=tuple(str(t) for t in steps) if isinstance(steps, list) else (),
        clause="IC-MOV-03",
        progress=progress,
    )
    root = answers.Group(key="", fields=(path,), fixed={"ship": name}, clause=request.rule)
    return AnswerSchema(request.id, root, title=f"Move {name}", clause=request.rule, layout="move")


def _viable(battle: Battle, name: str, legal: Sequence[Order], plan: list[str]) -> bool:
    """Whether a plan so far can still end as one of her legal orders (its speed may come at any point)."""
    read = orders.read_plan(battle, name, list[JSON](plan))
    if not isinstance(read, tuple):
        return False
    setting, path = read
    return any(
        (setting is None or o.setting == setting) and o.path[: len(path)] == path and len(o.path) >= len(path)
        for o in legal
    )


def _progress(
    battle: Battle, name: str, legal: Sequence[Order], plan: list[str], known: tuple[str, ...]
) -> answers.Progress:
    ship = battle.ship(name)
    read = orders.read_plan(battle, name, list[JSON](plan))
    setting, path = read if isinstance(read, tuple) else (None, ())
    going = orders.as_she_goes(battle, name) if setting is None else setting
    order = Order(going, path)
    complete = order in legal
    count, _ = movement.hexes_to_move(ship, going)
    ending = ""
    if complete:
        move = movement.execute(battle.board, name, order)
        end = move.board.ship(name)
        col, row = hexgrid.to_odd_q(end.hex)
        ending = f"{name} ends in hex [{col}, {row}] facing {COMPASS[end.facing]}"
        if move.broke_off:
            ending = f"{name} leaves the map and breaks off (IC-MOV-07)"
        elif move.collision is not None:
            ending = f"{name} collides with {move.collision.other or 'land'} (IC-COL-01: she cannot steer clear)"
    problem = ""
    if not complete:
        refused = orders.judge(battle, name, order)
        problem = refused.reason if refused is not None else "not one of her legal orders"
    return answers.Progress(
        steps=tuple(plan),
        words=f"{going}: {movement.spell(path)}" + ("" if setting is not None else " (as she goes)"),
        spent=sum(1 for s in path if s not in movement.TURNS),
        budget=count,
        accepted=tuple(t for t in known if _viable(battle, name, legal, [*plan, t])),
        complete=complete,
        problem=problem,
        outcome=ending,
        note=f"{possessive(name)} speed may be set at any step; a turn costs nothing",
    )
