"""Standing orders: what a side tells its captains with the turn's orders, so that it is not asked again before
the next turn (two submissions a turn: the orders in the Initiative Phase, the ships' moves in its Movement
Phase; SG-SEQ-01..08).

The rules ask a side more than that: who moves first when it wins the initiative (SG-SEQ-03), its fire after
every Movement Phase (SG-SEQ-05), whether a ship avoids a ram or a collision (SG-RAM-05, SG-ERR-04), where
ships in a shared hex stand (SG-MOV-06), boarders sent across (SG-BRD-05), flying parties' flights (SG-HM-03)
and a torpedo dodged (SG-SMT-05). A side answers each of these in advance, under ``"standing"`` in its
initiative orders, sealed from the other sides:

* ``first``: ``"first"`` or ``"second"`` (let the next side move first), or ``"captain"``;
* ``fire``: ``"at will"`` (every gun that bears, at the target the captain likes best), ``"hold"`` or ``"ask"``
  (put the fire decision to the side), with ``ships``: per ship its own ``fire`` mode, ``targets`` in order of
  priority (each gun fires at the first of them it bears on, else at will) and ``hold_guns``;
* ``avoid_rams`` and ``avoid_collisions``: ``"yes"``, ``"no"``, ``"captain"`` or ``"ask"``;
* ``close``: positions in a shared hex, boarders, flying parties and torpedoes, ``"captain"`` or ``"ask"``.

With the battle option ``standing_orders`` off (table play, where the rules' questions are asked as they come),
there are none. ``"captain"`` is the AI captain's judgement for that decision, seeing what the side sees. Orders without
``"standing"`` keep the side's last ones (they stand until changed); a side that never gave any has
:data:`DEFAULT`, under which a side is asked nothing mid-turn. Where the orders cannot answer (``"ask"``, or
a standing fire order the rules refuse), the side is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from battles.engine import answers
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, JSONObject
from battles.engine.jsonread import read_list, read_object
from battles.engine.state import BattleState
from battles.rules.sky_galleons import flying, ordnance_play
from battles.rules.sky_galleons.combat import FireSolution
from battles.rules.sky_galleons.kinds import AVOID, AVOID_COLLISION, BOARD, FIRE, FIRST, POSITION

CLAUSE = "SG-SEQ-02"  # standing orders are given with the initiative orders
KEY = "standing"
OPTION = "standing_orders"  # the battle option (off: every decision is put to the side as the rules ask it)

CAPTAIN, ASK, YES, NO = "captain", "ask", "yes", "no"
AT_WILL, HOLD = "at will", "hold"
FIRST_MODES = ("first", "second", CAPTAIN)
FIRE_MODES = (AT_WILL, HOLD, ASK)
AVOID_MODES = (YES, NO, CAPTAIN, ASK)
CLOSE_MODES = (CAPTAIN, ASK)

DEFAULT: JSONObject = {
    "first": CAPTAIN,
    "fire": AT_WILL,
    "ships": {},
    "avoid_rams": CAPTAIN,
    "avoid_collisions": CAPTAIN,
    "close": CAPTAIN,
}
MODES: Mapping[str, tuple[str, ...]] = {
    "first": FIRST_MODES,
    "fire": FIRE_MODES,
    "avoid_rams": AVOID_MODES,
    "avoid_collisions": AVOID_MODES,
    "close": CLOSE_MODES,
}
SHIP_KEYS = {"fire", "targets", "hold_guns"}


def orders_of(standing: Mapping[str, JSON], side: str) -> JSONObject:
    """A side's standing orders (the board's ``standing``), every key filled in."""
    given = standing.get(side)
    return {**DEFAULT, **(given if isinstance(given, dict) else {})}


# --- judging the orders ---------------------------------------------------------------------------------------


def problem(state: BattleState[Any], side: str, orders: JSON) -> Rejection | None:
    """What is wrong with standing orders given with the initiative orders, if anything."""
    if not isinstance(orders, dict) or set(orders) - set(DEFAULT):
        return Rejection(CLAUSE, f"standing orders are an object of {sorted(DEFAULT)}")
    for key, modes in MODES.items():
        if key in orders and orders[key] not in modes:
            return Rejection(CLAUSE, f"standing order {key!r} is one of {list(modes)}")
    ships = orders.get("ships", {})
    if not isinstance(ships, dict):
        return Rejection(CLAUSE, "standing orders' ships are an object: ship name -> its orders")
    own = {s.name: s for s in state.board.ships if s.side == side}
    names = {s.name for s in state.board.ships}
    for name, order in ships.items():
        wrong = _ship_problem(own.get(name), order, names)
        if wrong:
            return Rejection(CLAUSE, f"standing orders for {name}: {wrong}")
    return None


def _ship_problem(record: Any, order: JSON, names: set[str]) -> str:
    if record is None:
        return "not one of your ships"
    if not isinstance(order, dict) or set(order) - SHIP_KEYS:
        return f"an object of {sorted(SHIP_KEYS)}"
    if "fire" in order and order["fire"] not in FIRE_MODES:
        return f"fire is one of {list(FIRE_MODES)}"
    targets, held = order.get("targets", []), order.get("hold_guns", [])
    if not isinstance(targets, list) or not all(isinstance(t, str) and t in names for t in targets):
        return "targets are ships in the battle, in order of priority"
    guns = {gun.id for gun in record.guns}
    if not isinstance(held, list) or not all(isinstance(g, str) and g in guns for g in held):
        return f"guns held are some of {sorted(guns)}"
    return ""


# --- answering for the side ---------------------------------------------------------------------------------


Solutions = Callable[[], Sequence[FireSolution]]


def answer(
    state: BattleState[Any], request: DecisionRequest, captain: Callable[[], JSON], solutions: Solutions
) -> JSON | None:
    """The answer ``request``'s side gave in advance, or None to ask it. ``captain``: the AI captain's answer,
    seeing what the side sees; ``solutions``: the side's legal fire solutions now (validate.solutions)."""
    orders = orders_of(state.board.standing, request.side)
    if request.kind == FIRST:
        return _first(request, str(orders["first"]), captain)
    if request.kind == FIRE:
        return _fire(request, orders, captain, solutions)
    if request.kind == AVOID:
        return _avoid(str(orders["avoid_rams"]), captain, lambda yes: ordnance_play.ai_avoid(request, yes))
    if request.kind == AVOID_COLLISION:
        return _avoid(str(orders["avoid_collisions"]), captain, lambda yes: yes)
    if request.kind in (POSITION, BOARD, flying.FLY, ordnance_play.AVOID_TORPEDO):
        return captain() if orders["close"] == CAPTAIN else None
    return None


def _first(request: DecisionRequest, mode: str, captain: Callable[[], JSON]) -> JSON:
    options = list(request.options or ())
    if mode == "first" or len(options) < 2:
        return options[0] if options else request.default
    return options[1] if mode == "second" else captain()


def _avoid(mode: str, captain: Callable[[], JSON], spelled: Callable[[bool], JSON]) -> JSON | None:
    if mode == ASK:
        return None
    return captain() if mode == CAPTAIN else spelled(mode == YES)


def _fire(
    request: DecisionRequest, orders: Mapping[str, JSON], captain: Callable[[], JSON], solutions: Solutions
) -> JSON | None:
    """Fire by standing orders: the captain's shots at will, less the ships and guns held, each gun with
    priorities laid on the first of its targets it bears on. None (ask) if any ship's order is to ask."""
    ships = read_object(orders["ships"])
    mode = {name: str(read_object(ships.get(name, {})).get("fire", orders["fire"])) for name in request.ships}
    if ASK in mode.values():
        return None
    if all(m == HOLD for m in mode.values()):
        return {"shots": []}
    at_will = read_list(read_object(captain())["shots"])
    bearing = cache(lambda: tuple(solutions()))  # the side's solutions, found at most once for all its shots
    shots: list[JSON] = []
    for shot in at_will:
        s = read_object(shot)
        order = read_object(ships.get(str(s.get("ship")), {}))
        if mode.get(str(s.get("ship"))) == HOLD or s.get("gun") in read_list(order.get("hold_guns", [])):
            continue
        shots.append(_laid(bearing, s, read_list(order.get("targets", []))))
    return {"shots": shots}


def _laid(solutions: Solutions, shot: JSONObject, targets: list[JSON]) -> JSON:
    """A shot laid on the first priority target its gun bears on (in arc, in range, seen), else as it was."""
    if not targets or "target" not in shot:
        return shot
    bearing = {s.target for s in solutions() if s.firer == shot.get("ship") and s.gun_id == shot.get("gun")}
    for target in targets:
        if target == shot["target"]:
            return shot
        if target in bearing:
            return {"ship": shot["ship"], "gun": shot["gun"], "target": target}
    return shot


# --- the form ---------------------------------------------------------------------------------------------------

SECTION = "Standing orders"
WORDS: Mapping[str, str] = {
    CAPTAIN: "As the captain judges",
    ASK: "Ask me",
    YES: "Yes",
    NO: "No",
    AT_WILL: "Fire at will",
    HOLD: "Hold fire",
    "first": "We move first",
    "second": "Let them move first",
}
PRIORITIES = 3  # target slots a ship's standing fire order offers


def schema(state: BattleState[Any], side: str, foes: Sequence[str]) -> answers.Group:
    """The standing orders in the initiative orders' form, filled in with the side's orders as they stand
    (``foes``: the ships a gun may be laid on, in the battle's order)."""
    orders = orders_of(state.board.standing, side)
    top: list[answers.Field] = [
        _one("first", "If we win the initiative", FIRST_MODES, orders, "SG-SEQ-03"),
        _one("fire", "After every Movement Phase, our guns", FIRE_MODES, orders, "SG-SEQ-05"),
        _one("avoid_rams", "A ship an enemy tries to ram or grapple avoids", AVOID_MODES, orders, "SG-RAM-05"),
        _one("avoid_collisions", "A ship about to be run into avoids", AVOID_MODES, orders, "SG-ERR-04"),
        _one(
            "close", "Positions in a shared hex, boarders, flying parties, torpedoes", CLOSE_MODES, orders, "SG-MOV-06"
        ),
    ]
    given = read_object(orders["ships"])
    ships = tuple(_ship(record, read_object(given.get(record.name, {})), foes) for record in state.board.fighting(side))
    top.append(answers.Group(key="ships", fields=ships, optional=True, section=SECTION))
    return answers.Group(key=KEY, label=SECTION, fields=tuple(top), clause=CLAUSE, section=SECTION, optional=True)


def _one(key: str, label: str, modes: Sequence[str], orders: Mapping[str, JSON], clause: str) -> answers.One:
    options = tuple(answers.Option(mode, WORDS[mode]) for mode in modes)
    return answers.One(
        key=key, label=label, options=options, default=orders[key], widget="select", clause=clause, section=SECTION
    )


def _ship(record: Any, given: Mapping[str, JSON], foes: Sequence[str]) -> answers.Group:
    """One ship's own fire order: its mode (else the side's), targets in order of priority, guns held."""
    modes = (answers.Option(None, "As the side's order"), *(answers.Option(m, WORDS[m]) for m in FIRE_MODES))
    fire = answers.One(key="fire", label="Her guns", options=modes, default=given.get("fire"), widget="select")
    chosen = [str(t) for t in read_list(given.get("targets", []))]
    slots = tuple(
        answers.One(
            key=str(n),
            label="First target" if n == 0 else "Then",
            options=(answers.Option(None, "None"), *(answers.Option(f, f) for f in foes)),
            default=chosen[n] if n < len(chosen) else None,
            widget="select",
            optional=True,
        )
        for n in range(PRIORITIES)
    )
    guns = tuple(answers.Option(gun.id, gun.id) for gun in record.guns)
    held = answers.Many(
        key="hold_guns",
        label="Guns held",
        options=guns,
        default=tuple(read_list(given.get("hold_guns", []))),
        optional=True,
    )
    fields = (fire, answers.Repeat(key="targets", label="Targets in order", items=slots, optional=True), held)
    return answers.Group(key=record.name, label=record.name, fields=fields, optional=True, section=SECTION)
