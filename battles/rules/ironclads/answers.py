"""The answer schema of each decision: the order of moving as a select for each place in turn (IC-SEQ-07); a move
order as a path built step by step (the battle page's move builder and its clicks on the map), its speed one of the
steps, each step judged as it is added against her legal orders (orders.py); fire orders and an allocation as the
orders layout's fields. The schema says the shape; validate.py judges the order."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from battles.engine import answers, hexgrid
from battles.engine.answers import AnswerSchema, Option
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.engine.telling import COMPASS
from battles.engine.words import possessive
from battles.rules.ironclads import gunnery, movement, orders, salvo
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import TRACKS
from battles.rules.ironclads.kinds import DAMAGE_ALLOCATION, FIRE_ORDERS, MOVE_ORDER, ORDER_OF_MOVING, SEALED_ORDER
from battles.rules.ironclads.movement import Order
from battles.rules.ironclads.record_sheet import LABELS
from battles.rules.ironclads.speed import Setting

BREAK_OFF_WORDS = "Break off: leave her squadron and head away (IC-FORM-14)"
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
    if request.kind == FIRE_ORDERS:
        return _fire(state.board, request)
    if request.kind == DAMAGE_ALLOCATION:
        return _allocation(state.board, request)
    if request.kind == ORDER_OF_MOVING:
        return _order_of_moving(state.board, request)
    return answers.default_schema(request)


PLACES = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth")


def _order_of_moving(battle: Battle, request: DecisionRequest) -> AnswerSchema:
    """A select for each place in her side's order of moving, each offering every ship waiting (IC-SEQ-07)."""
    default = request.default if isinstance(request.default, dict) else {}
    given = default.get(SEALED_ORDER)
    names = [str(n) for n in given] if isinstance(given, list) else list(request.ships)
    options = tuple(Option(n, _ship_words(battle.ship(n))) for n in names)
    items = tuple(
        answers.One(
            key=str(n),
            label=f"{PLACES[n] if n < len(PLACES) else f'No. {n + 1}'} to move",
            options=options,
            default=name,
            widget="select",
        )
        for n, name in enumerate(names)
    )
    slots = answers.Repeat(key=SEALED_ORDER, label="Ships in order", items=items, low=len(items), high=len(items))
    root = answers.Group(key="", fields=(slots,), clause=request.rule)
    return AnswerSchema(request.id, root, title="The order of moving", clause=request.rule, layout="orders")


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
    breaking = (Option(orders.BREAK_OFF, BREAK_OFF_WORDS),) if orders.may_break_off(battle, name) else ()
    vocabulary = (
        *breaking,
        *(Option(orders.setting_token(s), setting_words(s, ship.setting)) for s in settings),
        *(Option(token, words) for token, words in STEP_WORDS.items()),
    )
    known = tuple(str(o.value) for o in vocabulary)
    progress = _progress(battle, name, [t for t in plan if t in known], known)
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
    words = _default_move_words(battle, name, steps if isinstance(steps, list) else [])
    return AnswerSchema(request.id, root, title=f"Move {name}", clause=request.rule, layout="move", default_words=words)


def _default_move_words(battle: Battle, name: str, steps: list[JSON]) -> str:
    read = orders.read_plan(battle, name, steps)
    if not isinstance(read, tuple):
        return ""
    setting, path = read
    going = orders.as_she_goes(battle, name) if setting is None else setting
    return plan_words(going, path, as_she_goes=setting is None)


def _legal(battle: Battle, name: str, plan: list[str]) -> tuple[Battle, tuple[Order, ...]]:
    """The battle her plan is judged on (her break off announced, IC-FORM-14) and her legal orders there."""
    ordered = orders.as_ordered(battle, name, list[JSON](plan))
    return ordered, orders.legal_orders(ordered, name)


def _viable(battle: Battle, name: str, legal: Sequence[Order], plan: list[str]) -> bool:
    """Whether a plan so far can still end as one of her legal orders (its speed may come at any point)."""
    if orders.judge_break_off(battle, name, list[JSON](plan)) is not None:
        return False
    read = orders.read_plan(battle, name, list[JSON](plan))
    if not isinstance(read, tuple):
        return False
    setting, path = read
    return any(
        (setting is None or o.setting == setting) and o.path[: len(path)] == path and len(o.path) >= len(path)
        for o in legal
    )


def _progress(given: Battle, name: str, plan: list[str], known: tuple[str, ...]) -> answers.Progress:
    battle, legal = _legal(given, name, plan)
    breaking = orders.breaks_off(list[JSON](plan))
    found: dict[bool, tuple[Order, ...]] = {breaking: legal}

    def legal_if(breaks: bool) -> tuple[Order, ...]:
        """Her legal orders with or without a break off announced, each worked out once for the form."""
        if breaks not in found:
            found[breaks] = _legal(given, name, [orders.BREAK_OFF] if breaks else [])[1]
        return found[breaks]

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
        words=plan_words(going, path, as_she_goes=setting is None),
        spent=sum(1 for s in path if s not in movement.TURNS),
        budget=count,
        accepted=tuple(
            t for t in known if _viable(given, name, legal_if(t == orders.BREAK_OFF or breaking), [*plan, t])
        ),
        complete=complete,
        problem=problem,
        outcome=ending,
        note=f"{possessive(name)} speed may be set at any step; a turn costs nothing",
        unit=("hex", "hexes"),
    )


TURN_WORDS = {
    movement.PORT1: "a hexside to port",
    movement.PORT2: "two hexsides to port",
    movement.STARBOARD1: "a hexside to starboard",
    movement.STARBOARD2: "two hexsides to starboard",
}


def plan_words(going: Setting, path: Sequence[str], *, as_she_goes: bool) -> str:
    """The plan as a captain says it: "speed 6 ahead: a hexside to starboard, then 2 hexes ahead"."""
    speed = "stopped" if going.speed == 0 else f"speed {going}"
    speed += " (as she goes)" if as_she_goes else ""
    parts = [
        TURN_WORDS.get(step, f"{n} hex{'es' if n > 1 else ''} {step}")
        for step, n in ((step, len(list(run))) for step, run in itertools.groupby(path))
    ]
    return f"{speed}: {', then '.join(parts)}" if parts else speed


def _fire(battle: Battle, request: DecisionRequest) -> AnswerSchema:
    """A target or hold for each arc and turret that bears on an enemy, each target with its band and dice."""
    name = request.ships[0]
    ship = battle.ship(name)
    seen = gunnery.sights(battle, name)
    default = request.default if isinstance(request.default, dict) else {}
    given = default.get("targets") if isinstance(default.get("targets"), dict) else {}
    assert isinstance(given, dict)
    fields = []
    for track, able in gunnery.targets(battle, name).items():
        options = [Option(None, "Hold fire")]
        for target in able:
            sight = seen[target]
            count = salvo.salvo_dice(
                ship.card.left(track),
                sight.armour_left,
                rough=battle.board.rough,
                on_fire=gunnery.on_fire(battle, name),
            )
            options.append(Option(target, f"{target} ({sight.band} range, {count}D6)"))
        label = f"{track.capitalize()} ({ship.card.left(track)} stats)"
        fields.append(answers.One(key=track, label=label, options=tuple(options), default=given.get(track)))
    targets = answers.Group(key="targets", label=f"{possessive(name)} guns", fields=tuple(fields), clause="IC-FIRE-01")
    root = answers.Group(key="", fields=(targets,), fixed={"ship": name}, clause=request.rule)
    laid = [f"{LABELS.get(str(track), str(track))} at {target}" for track, target in given.items() if target]
    words = f"{', '.join(laid)}, the rest holding fire" if laid else "every gun holds fire"
    return AnswerSchema(
        request.id, root, title=f"Fire: {name}", clause=request.rule, layout="orders", default_words=words
    )


def _allocation(battle: Battle, request: DecisionRequest) -> AnswerSchema:
    """A track for each C (with its 1D3) and each H (with the arcs it came from), her tracks with stats offered."""
    name = request.ships[0]
    card = battle.ship(name).card
    noted = battle.noted.get(name)
    demands = battle.demands.get(name, ())
    default = request.default if isinstance(request.default, dict) else {}
    tracks = tuple(Option(t, f"{t.capitalize()} ({card.left(t)} left)") for t in TRACKS if card.left(t))
    if not tracks:
        tracks = tuple(Option(t, t.capitalize()) for t in TRACKS)

    def slots(key: str, labels: list[str]) -> answers.Repeat:
        chosen = default.get(key) if isinstance(default.get(key), list) else []
        assert isinstance(chosen, list)
        items = tuple(
            answers.One(
                key=str(n), label=label, options=tracks, default=chosen[n] if n < len(chosen) else None, widget="select"
            )
            for n, label in enumerate(labels)
        )
        return answers.Repeat(key=key, label=key.capitalize(), items=items, low=len(items), high=len(items))

    c_labels = [f"C {n + 1}: {d} stat{'s' if d != 1 else ''} off one track" for n, d in enumerate(demands)]
    h_labels = [
        f"H {n + 1}, fired into {' or '.join(arcs) or 'her'}" for n, arcs in enumerate(noted.hits if noted else ())
    ]
    root = answers.Group(
        key="",
        fields=(slots("criticals", c_labels), slots("hits", h_labels)),
        fixed={"ship": name},
        clause=request.rule,
    )
    placed = [*_listed(default.get("criticals")), *_listed(default.get("hits"))]
    labels = [label.split(":")[0].split(",")[0] for label in (*c_labels, *h_labels)]
    words = "; ".join(
        f"{label} on her {LABELS.get(str(track), str(track))}" for label, track in zip(labels, placed, strict=False)
    )
    return AnswerSchema(
        request.id, root, title=f"Damage: {name}", clause=request.rule, layout="orders", default_words=words
    )


def _listed(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []
