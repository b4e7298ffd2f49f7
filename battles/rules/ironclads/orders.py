"""What each ship may be ordered, read off the battle (docs/ironclads.md "The turn, in the app"): the ships still to
move and whose slot it is (IC-SEQ-07), a move order as the form spells it, the legal orders (IC-COL-01, formations)
and who is still in the fight. The phases, the validator, the forms and the AI all ask here.

A move order's answer: ``{"ship": name, "steps": [tokens]}``. The tokens are the path, one hex or one turn each
(``ahead``, ``astern``, ``port``, ``starboard`` a hexside, ``hard port``, ``hard starboard`` two), and at most one
speed anywhere among them (``stop``, ``speed N`` ahead at N, ``go astern`` backing at 1). With no speed she goes as
she goes: her current speed held, or the cut forced on her (IC-SPD-07); both are always legal settings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from battles.engine.decisions import Rejection
from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.rules.ironclads import formations, movement
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.board import Ship
from battles.rules.ironclads.cards import HULL
from battles.rules.ironclads.kinds import SEALED_ORDER
from battles.rules.ironclads.movement import AHEAD, ASTERN, PORT1, PORT2, STARBOARD1, STARBOARD2, Move, Order
from battles.rules.ironclads.speed import ASTERN_SPEED, STOPPED, Setting

STOP, GO_ASTERN, SPEED = "stop", "go astern", "speed"
BREAK_OFF: Final = "break off"  # Appendix D: announced with her order, just before she moves (IC-FORM-14)
# The form's step tokens and the path steps they stand for (movement.py); "port" and "starboard" are the board
# script's common words for a hexside's turn, so a click on the map builds them.
STEPS: Final[Mapping[str, str]] = {
    "ahead": AHEAD,
    "astern": ASTERN,
    "port": PORT1,
    "starboard": STARBOARD1,
    "hard port": PORT2,
    "hard starboard": STARBOARD2,
}
TOKENS_OF: Final[Mapping[str, str]] = {step: token for token, step in STEPS.items()}


def setting_token(setting: Setting) -> str:
    if setting.speed == 0:
        return STOP
    return GO_ASTERN if setting.astern else f"{SPEED} {setting.speed}"


def setting_of(token: str) -> Setting | None:
    """The speed a token sets, or None when it sets none."""
    if token == STOP:
        return STOPPED
    if token == GO_ASTERN:
        return Setting(ASTERN_SPEED, astern=True)
    head, _, number = token.partition(" ")
    if head == SPEED and number.isdigit() and not number.startswith("0"):
        return Setting(int(number))
    return None


def tokens(order: Order, *, explicit: bool = True) -> list[str]:
    """An order as the form spells it: its speed first (left out when ``explicit`` is False), then its path."""
    path = [TOKENS_OF[step] for step in order.path]
    return [setting_token(order.setting), *path] if explicit else path


def as_she_goes(battle: Battle, name: str) -> Setting:
    """The speed she sets when her order names none: her current speed where she may keep it, else the one setting
    left her (a forced cut, IC-SPD-07). One of the two is always among her settings."""
    ship = battle.ship(name)
    allowed = movement.settings(battle.board, ship)
    return ship.setting if ship.setting in allowed else allowed[0]


def read_plan(battle: Battle, name: str, plan: Sequence[JSON]) -> tuple[Setting | None, tuple[str, ...]] | Rejection:
    """The speed a plan names (None: none) and its path steps, or why it is no plan."""
    chosen: Setting | None = None
    path: list[str] = []
    for token in plan:
        if not isinstance(token, str):
            return Rejection("IC-MOV-03", "a plan is a list of steps, turns and at most one speed")
        setting = setting_of(token)
        if token == BREAK_OFF:
            continue  # not a step: whether she may is judged apart (judge_break_off)
        if setting is not None:
            if chosen is not None:
                return Rejection("IC-SPD-08", "her speed is set once, when she is chosen to move")
            chosen = setting
        elif token in STEPS:
            path.append(STEPS[token])
        else:
            known = ", ".join([*STEPS, STOP, f"{SPEED} N", GO_ASTERN, BREAK_OFF])
            return Rejection("IC-MOV-03", f"no such step {token!r}: the steps are {known}")
    return chosen, tuple(path)


def read_answer(choice: JSON) -> tuple[str, list[JSON]] | Rejection:
    """The ship and the plan a move order's answer names."""
    if not isinstance(choice, dict) or set(choice) != {"ship", "steps"}:
        return Rejection("IC-SEQ-07", 'a move order is {"ship": her name, "steps": [her speed and path]}')
    ship, steps = choice["ship"], choice["steps"]
    if not isinstance(ship, str) or not isinstance(steps, list):
        return Rejection("IC-SEQ-07", "a move order names a ship and lists her steps")
    return ship, steps


def order_of(battle: Battle, name: str, plan: Sequence[JSON]) -> Order | Rejection:
    read = read_plan(battle, name, plan)
    if isinstance(read, Rejection):
        return read
    setting, path = read
    return Order(as_she_goes(battle, name) if setting is None else setting, path)


def answer(name: str, order: Order, *, breaking_off: bool = False) -> JSONObject:
    return {"ship": name, "steps": [*([BREAK_OFF] if breaking_off else []), *tokens(order)]}


# --- breaking off (Appendix D) ------------------------------------------------------------------------------------


def may_break_off(battle: Battle, name: str) -> bool:
    """With Appendix D, a ship of a squadron not already breaking off may be ordered to (IC-FORM-14)."""
    squadrons = battle.formations
    return squadrons is not None and squadrons.of(name) is not None and name not in squadrons.breaking_off


def breaks_off(plan: Sequence[JSON]) -> bool:
    return BREAK_OFF in plan


def as_ordered(battle: Battle, name: str, plan: Sequence[JSON]) -> Battle:
    """The battle her order is judged and carried out on: with her break off announced, she is out of her squadron
    and bound to head away (formations.break_off, IC-FORM-14/15)."""
    if not breaks_off(plan) or battle.formations is None:
        return battle
    return evolve(battle, formations=formations.break_off(battle.formations, name))


def judge_break_off(battle: Battle, name: str, plan: Sequence[JSON]) -> Rejection | None:
    if breaks_off(plan) and not may_break_off(battle, name):
        return Rejection("IC-FORM-14", f"only a ship of a squadron (Appendix D) may break off, and {name} is none")
    if sum(1 for t in plan if t == BREAK_OFF) > 1:
        return Rejection("IC-FORM-14", "she breaks off once")
    return None


# --- who moves ----------------------------------------------------------------------------------------------------


def waiting(battle: Battle, side: str) -> tuple[Ship, ...]:
    """Her side's ships afloat that have not moved this Movement Phase, in the scenario's order."""
    return tuple(s for s in battle.afloat_of(side) if not s.moved)


def next_ship(battle: Battle, side: str) -> Ship:
    """Her side's next ship to move (IC-SEQ-07): the first of its order of moving still waiting, else (a side asked
    for no order, having one ship waiting) the first waiting. Ships gone off the map meanwhile are passed over."""
    waiting_now = waiting(battle, side)
    names = {s.name for s in waiting_now}
    chosen = next((n for n in battle.sailing.get(side, ()) if n in names), None)
    return battle.ship(chosen) if chosen is not None else waiting_now[0]


def order_of_moving(names: Sequence[str]) -> JSONObject:
    """An order of moving's answer: ``{"ships": [her side's waiting ships, first to move first]}``."""
    return {SEALED_ORDER: list[JSON](names)}


def judge_order_of_moving(battle: Battle, side: str, choice: JSON) -> Rejection | None:
    """Every ship of hers waiting to move, each once, in the order she moves them (IC-SEQ-07)."""
    names = choice.get(SEALED_ORDER) if isinstance(choice, dict) and set(choice) == {SEALED_ORDER} else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return Rejection("IC-SEQ-07", 'an order of moving is {"ships": [her ships, the first to move first]}')
    expected = sorted(s.name for s in waiting(battle, side))
    if sorted(str(n) for n in names) != expected:
        return Rejection("IC-SEQ-07", f"name each ship waiting to move once: {', '.join(expected)}")
    return None


def side_to_move(battle: Battle) -> str | None:
    """Whose slot it is (IC-SEQ-07): the side without the Initiative first, then alternating; a side with none left
    passes and the other moves the rest in turn. None: every ship has moved."""
    return movement.side_to_move(battle.board, battle.initiative, battle.last_moved or None)


# --- the legal orders -----------------------------------------------------------------------------------------------


def legal_orders(battle: Battle, name: str) -> tuple[Order, ...]:
    """Every order she may give: her speeds and paths (movement.py), an order that collides only when every one of
    hers would (IC-COL-01), and with Appendix D what her formation asks (IC-FORM-12/15)."""
    return tuple(order for order, _ in legal_moves(battle, name))


def legal_moves(battle: Battle, name: str) -> tuple[tuple[Order, Move], ...]:
    """Her legal orders (legal_orders), each with what it does on the board as it stands. Each candidate is
    executed once, not once for each other candidate as movement.judge does; and the last battle asked about is
    remembered, as the phase, its default and the AI captain all ask about the same board in turn."""
    remembered = _last_asked
    if remembered is not None and remembered[0] is battle and remembered[1] == name:
        return remembered[2]
    every = tuple((order, movement.execute(battle.board, name, order)) for order in movement.orders(battle.board, name))
    clear = tuple((order, move) for order, move in every if move.collision is None)
    legal = clear or every
    if battle.formations is not None and formations.duty(battle.formations, battle.board, name) != formations.FREE:
        allowed = set(formations.allowed(battle.formations, battle.board, name))
        legal = tuple((order, move) for order, move in legal if order in allowed) or legal
    _remember((battle, name, legal))
    return legal


# The last answer of legal_moves. A Battle is immutable, so the same object always has the same answer; holding the
# object (not its id) keeps its id from being reused while it is remembered.
_last_asked: tuple[Battle, str, tuple[tuple[Order, Move], ...]] | None = None


def _remember(asked: tuple[Battle, str, tuple[tuple[Order, Move], ...]]) -> None:
    global _last_asked
    _last_asked = asked


def judge(battle: Battle, name: str, order: Order) -> Rejection | None:
    """Why an order is not hers to give, naming the clause (movement.judge, then her formation's duty)."""
    refused = movement.judge(battle.board, name, order)
    if refused is None and battle.formations is not None:
        refused = formations.judge(battle.formations, battle.board, name, order)
    return refused


# --- the fight ----------------------------------------------------------------------------------------------------


def sides_with_ships(battle: Battle, sides: Sequence[str]) -> tuple[str, ...]:
    """The sides with a ship still on the table (IC-END-02: sunk and broken off ships are gone alike)."""
    return tuple(side for side in sides if battle.afloat_of(side))


def hull_share(battle: Battle, side: str) -> float:
    """The Hull stats her side's ships on the table have left, as a share of all her ships' Hull at the start."""
    start = sum(s.card.track(HULL).stats for s in battle.ships_of(side))
    left = sum(s.card.left(HULL) for s in battle.afloat_of(side))
    return left / start if start else 0.0


def strength_share(battle: Battle, side: str) -> float:
    """Every stat her side's ships on the table have left, as a share of all her ships' stats at the start."""
    start = sum(t.stats for s in battle.ships_of(side) for t in s.card.tracks)
    left = sum(t.left for s in battle.afloat_of(side) for t in s.card.tracks)
    return left / start if start else 0.0
