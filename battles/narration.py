"""The battle log in plain language: one sentence for each event a viewer may see.

The log is the truth and stays JSON; this only reads it. Every die is told with what it was for, what it needed,
the faces and modifiers, and what came of it ("To hit: Aphid gun 1 (4" gun) vs Fenian Ram, close range 3:
needs 3+; rolled 5, -1 for different altitude, 4: hit."). Bookkeeping events (a stage of the sequence, a
decision asked for, a record sheet brought up to date) are narrated too, marked ``detail`` so that a page can
fold them away. An event kind this module does not know still gets a readable sentence from its fields.

Views of the log blank what a side may not see (``null`` in place of an enemy's casualty posts, a request's
prompt...): a blank is left out of the sentence, never written as "None".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine import hexgrid
from battles.engine.words import possessive

# Hexsides and facings, clockwise from north on the flat-topped map (SG-FACE-01).
COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")


@dataclass(frozen=True)
class Line:
    """One event told as a sentence. ``detail``: bookkeeping a reader may skip."""

    seq: int
    turn: int
    phase: str
    kind: str
    text: str
    detail: bool = False


@dataclass(frozen=True)
class Names:
    """How to call sides and guns: side keys to their names, (ship, gun id) to the gun's weapon name."""

    sides: Mapping[str, str]
    guns: Mapping[tuple[str, str], str]

    def side(self, key: Any) -> str:
        if key is None:
            return "nobody"
        return self.sides.get(str(key), str(key).replace("_", " ").title())

    def gun(self, ship: Any, gun: Any) -> str:
        weapon = self.guns.get((str(ship), str(gun)))
        return f"{possessive(ship)} gun {gun} ({weapon})" if weapon else f"{possessive(ship)} gun {gun}"


NO_NAMES = Names({}, {})


def names_for(sides: Mapping[str, str], board: Any) -> Names:
    """Names from the sides' display names and a board view's ships (their guns' weapons, by catalog name)."""
    guns: dict[tuple[str, str], str] = {}
    ships = board.get("ships") if isinstance(board, Mapping) else None
    for ship in ships if isinstance(ships, list) else []:
        if not isinstance(ship, Mapping):
            continue
        for gun in ship.get("guns") or []:
            if isinstance(gun, Mapping) and gun.get("weapon"):
                guns[(str(ship.get("name")), str(gun.get("id")))] = _weapon_name(str(gun["weapon"]))
    return Names(dict(sides), guns)


def _weapon_name(weapon_id: str) -> str:
    from galleons import catalog  # only for Sky Galleons boards; the ids stand otherwise

    try:
        return catalog.weapon(weapon_id).name
    except Exception:  # an unknown id names itself
        return weapon_id


# --- small words ---------------------------------------------------------------------------------------


def _present(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != {}


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."


def _list(items: Iterable[Any], *, last: str = "and") -> str:
    words = [str(i) for i in items if _present(i)]
    if len(words) <= 1:
        return "".join(words)
    if last == "then":  # steps in order: "ahead, port, then ahead"
        return f"{', '.join(words[:-1])}, then {words[-1]}"
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _plural(count: Any, word: str) -> str:
    many = {"man": "men", "hex": "hexes", "casualty": "casualties", "miss": "misses"}.get(word, f"{word}s")
    if type(count) is not int:
        return f"some {many}"
    return f"{count} {word if count == 1 else many}"


def hex_name(value: Any) -> str:
    """An axial hex of the log as the map's [column, row] (odd-q), the way the set-up forms spell it."""
    try:
        col, row = hexgrid.to_odd_q(hexgrid.Hex.from_json(value))
    except (TypeError, ValueError):
        return ""
    return f"hex [{col}, {row}]"


def facing_name(value: Any) -> str:
    return f"facing {COMPASS[value % 6]}" if type(value) is int else ""


def altitude_name(value: Any) -> str:
    return f"altitude {value}" if _present(value) else ""


def value_words(value: Any) -> str:
    """Any JSON value in words (for choices and unknown events): lists joined, objects as key value pairs."""
    if value is None:
        return "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return _list(value_words(v) for v in value) if value else "none"
    if isinstance(value, Mapping):
        parts = [f"{str(k).replace('_', ' ')} {value_words(v)}" for k, v in value.items() if v is not None]
        return ", ".join(parts) if parts else "nothing"
    return str(value)


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _obj_or_none(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _where(parts: Iterable[str]) -> str:
    return ", ".join(p for p in parts if p)


def _modifiers(mods: Any) -> str:
    if not isinstance(mods, Mapping):
        return ""
    return ", ".join(f"{int(v):+d} for {k}" for k, v in sorted(mods.items()) if type(v) is int and v)


def _outcome(text: Any) -> str:
    """Dice outcomes read as words: "hit:3,miss:7" is "3 hits, 7 misses"."""
    if not _present(text):
        return ""
    spelled = str(text)
    parts = [p.split(":", 1) for p in spelled.split(",")]
    if all(len(p) == 2 and p[1].strip().isdigit() for p in parts):
        words = []
        for word, count in parts:
            word = word.strip().replace("_", " ")
            word = "casualty" if word == "casualties" else word
            words.append(_plural(int(count), "miss" if word == "miss" else word))
        return ", ".join(words)
    return spelled.replace("_", " ")


# --- the kinds -----------------------------------------------------------------------------------------

Teller = Callable[[Mapping[str, Any], Names], str]


def _roll(e: Mapping[str, Any], n: Names) -> str:
    purpose = str(e.get("purpose") or "a roll")
    head, _, whose = purpose.rpartition(": ")
    if head and whose in n.sides:  # "initiative: irish" is the Irish side's roll, by its name
        purpose = f"{head}: {n.side(whose)}"
    dice = _seq(e.get("dice"))
    faces = ", ".join(str(d) for d in dice[:24]) + (f" and {len(dice) - 24} more" if len(dice) > 24 else "")
    sides = e.get("sides")
    die = f"d{sides}" if type(sides) is int and sides != 6 else ""
    needed = e.get("needed")
    needs = "" if needed in (None, "", "any") else ("on the table" if needed == "table" else f"needs {needed}")
    mods = _modifiers(e.get("modifiers"))
    total = e.get("total")
    rolled = f"rolled {faces}" + (f" on a {die}" if die else "")
    if mods:
        rolled += f", {mods}" + (f", {total}" if type(total) is int and len(dice) == 1 else "")
    elif len(dice) > 1 and len(dice) <= 3 and type(total) is int and needed in ("table", "any"):
        rolled += f" ({total})"
    outcome = _outcome(e.get("outcome"))
    if outcome.split(" ")[-1:] == [str(total)] and len(dice) == 1 and not mods:
        outcome = ""  # "roll 5", "die 5": the face says it already
    head = f"{purpose}: {needs}; {rolled}" if needs else f"{purpose}: {rolled}"
    return f"{head}: {outcome}" if outcome else head


def _turn(e: Mapping[str, Any], n: Names) -> str:
    return f"Turn {e.get('turn')} begins"


def phase_words(phase: Any, n: Names = NO_NAMES) -> str:
    """A phase name as words: "movement 1: germans" is "movement phase 1 (Germans)"."""
    text = str(phase or "")
    head, _, side = text.partition(": ")
    if side and head.startswith("movement"):
        return f"{head.replace('movement', 'movement phase')} ({n.side(side)})"
    return text.replace("_", " ")


def _phase(e: Mapping[str, Any], n: Names) -> str:
    words = phase_words(e.get("phase"), n)
    return f"{words} begins" if words.startswith("movement") else f"the {words} phase begins"


def _decision_requested(e: Mapping[str, Any], n: Names) -> str:
    request = _obj(e.get("request"))
    ships = _list(request.get("ships") or [])
    prompt = request.get("prompt")
    what = f"{n.side(request.get('side'))} is asked to decide: {request.get('kind') or 'a decision'}"
    if ships:
        what += f" for {ships}"
    return f"{what} ({str(prompt).split(':')[0]})" if _present(prompt) and ":" in str(prompt) else what


def choice_words(kind: Any, choice: Any) -> str:
    """A decision's answer in words, for the log and the correction form."""
    if choice is None:
        return "kept secret"
    if kind == "move" or (isinstance(choice, list) and all(isinstance(s, str) for s in choice)):
        if isinstance(choice, Mapping):
            steps = _list(choice.get("steps") or []) or "no steps"
            extra = [f"{k} {value_words(v)}" for k, v in choice.items() if k != "steps" and _present(v)]
            return f"{steps}" + (f", then {_list(extra)}" if extra else "")
        return _list(choice, last="then") if choice else "hold course (no steps)"
    if kind == "fire" and isinstance(choice, Mapping):
        shots = choice.get("shots")
        if not shots:
            return "hold fire"
        if isinstance(shots, list):
            told = [
                f"{s.get('ship')} gun {s.get('gun')} at {s.get('target')}"
                if isinstance(s, Mapping) and "gun" in s
                else value_words(s)
                for s in shots
            ]
            return _list(told)
    spot = _seq(choice.get("hex")) if isinstance(choice, Mapping) else []
    if isinstance(choice, Mapping) and len(spot) == 2:
        col, row = spot  # a set-up or a reinforcement: the map's [column, row]
        rest = {k: v for k, v in choice.items() if k not in ("hex", "facing", "altitude")}
        return _where(
            [
                value_words(rest) if rest else "",
                f"hex [{col}, {row}]",
                facing_name(choice.get("facing")),
                altitude_name(choice.get("altitude")),
            ]
        )
    if kind == "initiative orders" and isinstance(choice, Mapping):
        parts = [f"{str(k).replace('_', ' ')}: {value_words(v)}" for k, v in choice.items() if _present(v)]
        return "; ".join(parts) if parts else "no orders"
    return value_words(choice)


def _decision(e: Mapping[str, Any], n: Names) -> str:
    kind = e.get("decision") or "a decision"
    return f"{n.side(e.get('side'))} answers {kind}: {choice_words(e.get('decision'), e.get('choice'))}"


def _decisions(e: Mapping[str, Any], n: Names) -> str:
    answers = _obj(e.get("answers"))
    told = []
    for answer in answers.values():
        if isinstance(answer, Mapping):
            kind = answer.get("decision")
            told.append(f"{n.side(answer.get('side'))}, {kind}: {choice_words(kind, answer.get('choice'))}")
    return "Decided: " + "; ".join(told) if told else "The decisions are in"


def _battle_ended(e: Mapping[str, Any], n: Names) -> str:
    winner = e.get("winner")
    reason = e.get("reason") or "the battle is over"
    return f"The battle ends: {reason}. " + (f"{n.side(winner)} wins" if _present(winner) else "A draw")


def _stage(e: Mapping[str, Any], n: Names) -> str:
    asking = e.get("asking")
    stage = str(e.get("stage") or "the next step").replace("_", " ")
    return f"Next: {stage}" + (f" ({asking})" if _present(asking) else "")


def _asking(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} is next to move"


def _moved(e: Mapping[str, Any], n: Names) -> str:
    step = str(e.get("step") or "moves")
    where = _where([hex_name(e.get("hex")), facing_name(e.get("facing")), altitude_name(e.get("altitude"))])
    cost = e.get("cost")
    text = f"{e.get('ship')}: {step}, now at {where}" if where else f"{e.get('ship')}: {step}"
    if type(cost) is int:
        text += f" ({cost} MP)"
    ends = e.get("ends")
    return f"{text}; she has {ends}" if _present(ends) else text


def _move_done(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} ends her move, {_plural(e.get('hexes'), 'hex')} moved"


def _placed(e: Mapping[str, Any], n: Names) -> str:
    where = _where([hex_name(e.get("hex")), facing_name(e.get("facing")), altitude_name(e.get("altitude"))])
    return f"{e.get('ship')} is set up at {where}" if where else f"{e.get('ship')} is set up"


def _fire(e: Mapping[str, Any], n: Names) -> str:
    band = e.get("band")
    distance = e.get("range")
    at = f"{band} range" if _present(band) else "range"
    if type(distance) is int:
        at += f" {distance}"
    shots = e.get("shots")
    text = f"{n.gun(e.get('ship'), e.get('gun'))} fires at {e.get('target')}, {at}"
    return text + (f", {_plural(shots, 'shot')}" if type(shots) is int and shots != 1 else "")


def _effects(e: Mapping[str, Any], n: Names) -> str:
    notes = [note for note in e.get("notes") or [] if isinstance(note, Mapping)]
    told = []
    for note in notes:
        what = note.get("what")
        if _present(what):
            told.append(str(what))
    return "; ".join(told) if told else "No further effect"


def _ship(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e.get('ship'))} record sheet is brought up to date"


def _initiative(e: Mapping[str, Any], n: Names) -> str:
    return f"{n.side(e.get('winner'))} wins the initiative"


def _movement_order(e: Mapping[str, Any], n: Names) -> str:
    return "Movement order: " + _list((n.side(s) for s in e.get("order") or []), last="then")


def _ram_declarations(e: Mapping[str, Any], n: Names) -> str:
    declared = _obj(e.get("declared"))
    told = [f"{n.side(side)} {count}" for side, count in declared.items()]
    return "Ships declared to ram or grapple: " + (", ".join(told) if told else "none")


def _mark(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    key = str(e.get("key") or "")
    if key.startswith("entry ") and _present(what):  # "enters by the west edge": whose ships
        return f"{n.side(key[6:])} {str(what).replace('enters', 'enter', 1)}"
    return str(what) if _present(what) else f"Noted: {value_words(e.get('key'))} is {value_words(e.get('value'))}"


def _wind(e: Mapping[str, Any], n: Names) -> str:
    direction = e.get("direction")
    if type(direction) is int:
        return f"The wind blows from the {COMPASS[direction % 6]}"
    return "The wind is set"


def _placement_order(e: Mapping[str, Any], n: Names) -> str:
    return "Set-up order: " + _list(e.get("ship_order") or [], last="then")


def _out(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what") or "is out of the fight"
    reason = e.get("reason")
    return f"{e.get('ship')} {what}" + (f": {reason}" if _present(reason) and str(reason) not in str(what) else "")


def _prize(e: Mapping[str, Any], n: Names) -> str:
    prize = _obj(e.get("prize"))
    captor = prize.get("captor")
    order = prize.get("order")
    text = f"{e.get('ship')} is a prize of {n.side(captor)}" if _present(captor) else f"{e.get('ship')} is a prize"
    return text + (f"; her prize crew's order: {order}" if _present(order) else "")


def _captured(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    return f"{e.get('ship')} is captured by {n.side(e.get('by'))}" + (f": {what}" if _present(what) else "")


def _result(e: Mapping[str, Any], n: Names) -> str:
    winner = e.get("winner")
    return f"Result: {e.get('reason') or 'the battle is decided'}" + (
        f"; {n.side(winner)} wins" if _present(winner) else "; a draw"
    )


def _pair(e: Mapping[str, Any]) -> tuple[str, str]:
    pair = e.get("pair")
    if isinstance(pair, str):
        pair = pair.split("|")
    if isinstance(pair, list) and len(pair) == 2:
        return str(pair[0]), str(pair[1])
    return "one ship", "another"


def _collision_check(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} and {e.get('other')} share a hex at one altitude: a collision check"


def _collision(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} collides with {e.get('other')}"


def _grappled(e: Mapping[str, Any], n: Names) -> str:
    a, b = _pair(e)
    return f"{a} and {b} are grappled together"


def _grapple_cut(e: Mapping[str, Any], n: Names) -> str:
    a, b = _pair(e)
    return f"The grapple between {a} and {b} is cut"


def _crossing(e: Mapping[str, Any], n: Names) -> str:
    return f"{_plural(e.get('men'), 'man')} cross from {e.get('ship')} to {e.get('target')}"


def _escaped(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} {e.get('what') or 'leaves the battle'}"


def _held_move(e: Mapping[str, Any], n: Names) -> str:
    move = _obj(e.get("move"))
    for kind in ("ram", "grapple"):
        if kind in move:
            return f"{e.get('ship')} tries to {kind} {move[kind]}: her move waits for the answer"
    return f"{possessive(e.get('ship'))} move waits"


def _move_held(e: Mapping[str, Any], n: Names) -> str:
    why = e.get("why")
    return f"{e.get('ship')} does not move" + (f": {why}" if _present(why) else "")


def _relative_position(e: Mapping[str, Any], n: Names) -> str:
    a, b = _pair(e)
    aspects = _seq(e.get("aspects"))
    if len(aspects) == 2:
        return f"{a} and {b} share a hex: {b} is on {possessive(a)} {aspects[0]}, {a} on {possessive(b)} {aspects[1]}"
    return f"{a} and {b} share a hex"


def _kite_die(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e.get('ship'))} movement die (kite) is {e.get('die')}"


def _forced_drop(e: Mapping[str, Any], n: Names) -> str:
    text = f"{e.get('ship')} cannot hold her height and drops to {altitude_name(e.get('altitude')) or 'a lower level'}"
    return text + (" and crashes" if e.get("crashed") else "")


def _boarding_action(e: Mapping[str, Any], n: Names) -> str:
    attackers = _list(e.get("attackers") or []) or "the boarders"
    lost = _plural(e.get("attackers_lost"), "man")
    text = (
        f"Boarding action aboard {e.get('target')}: the boarders from {attackers} lose {lost}, "
        f"the defenders {_plural(e.get('defenders_lost'), 'man')}"
    )
    retreated = _list(e.get("retreated") or [])
    return text + (f"; the boarders fall back to {retreated}" if retreated else "")


def _flying_party(e: Mapping[str, Any], n: Names) -> str:
    record = _obj_or_none(e.get("record"))
    if record is None:
        return f"{e.get('party')} is no longer in the air"
    aboard = record.get("aboard")
    where = (
        f"aboard {aboard}"
        if _present(aboard)
        else _where([hex_name(record.get("position")), altitude_name(record.get("altitude"))])
    )
    return f"Flying party {e.get('party')}" + (f": {where}" if where else "")


def _party_moved(e: Mapping[str, Any], n: Names) -> str:
    where = _where([hex_name(e.get("hex")), altitude_name(e.get("altitude"))])
    return f"{e.get('party')} flies {e.get('step') or 'on'}" + (f" to {where}" if where else "")


def _avoiding(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} turns to avoid, spending {_plural(e.get('mp'), 'movement point')}"


def _ram(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    if what == "sure":
        return f"{e.get('ship')} rams {e.get('target')}: the target cannot get away, the ram is sure"
    return f"{e.get('ship')} rams {e.get('target')}" + (f": {what}" if _present(what) else "")


def _collision_ahead(e: Mapping[str, Any], n: Names) -> str:
    avoiders = e.get("avoiders") or []
    hexes = "hex" if len(avoiders) == 1 else "hexes"
    return f"{possessive(e.get('ship'))} move will take her into {possessive(_list(avoiders))} {hexes}: they may avoid"


def _rockets(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e.get('ship'))} Hale rocket battery {e.get('battery')} fires at {e.get('target')}"


def _attempt_lost(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    attempt = f"{possessive(e.get('ship'))} attempt on {e.get('target')} comes to nothing"
    return attempt + (f": {what}" if _present(what) else "")


def _launch(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} launches a torpedo from gun {e.get('gun')}"


def _torpedo(e: Mapping[str, Any], n: Names) -> str:
    torpedo = _obj_or_none(e.get("torpedo"))
    if torpedo is None:
        return f"Torpedo {e.get('id')} is spent"
    where = _where(
        [hex_name(torpedo.get("hex")), facing_name(torpedo.get("facing")), altitude_name(torpedo.get("altitude"))]
    )
    return f"Torpedo {e.get('id')} runs" + (f", now at {where}" if where else "")


def _torpedo_run(e: Mapping[str, Any], n: Names) -> str:
    struck = e.get("struck")
    return f"Torpedo {e.get('torpedo')} runs on" + (f" and strikes {struck}" if _present(struck) else "")


def _reinforcement(e: Mapping[str, Any], n: Names) -> str:
    record = _obj(e.get("record"))
    name = record.get("name") or (e.get("ships") or ["A ship"])[0]
    what = record.get("class_name")
    text = f"{name}" + (f" ({what})" if _present(what) else "") + f" joins {n.side(record.get('side'))}"
    where = hex_name(record.get("position"))
    return text + (f" at {where}" if where else "")


def _landed(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} lands"


def _crew_change(e: Mapping[str, Any], n: Names) -> str:
    change = _obj_or_none(e.get("change"))
    ship = e.get("ship")
    if change is None:
        return f"{ship} changes her crew's posts"
    if "relief" in change:
        return f"{ship}: a {value_words(change.get('rank'))} takes over at the {change.get('relief')}"
    if "gun" in change:
        source = str(change.get("from") or "deckhands")
        source = f"gun {source[4:]}" if source.startswith("gun:") else source.replace("_", " ")
        return f"{ship}: {_plural(change.get('men'), 'man')} from the {source} to {n.gun(ship, change.get('gun'))}"
    if "signalman" in change:
        return f"{ship}: a new signalman from the {value_words(change.get('signalman'))}"
    return f"{ship}: crew change, {value_words(change)}"


def _party_order(e: Mapping[str, Any], n: Names) -> str:
    order = _obj(e.get("order"))
    ship = e.get("ship")
    if "party" in order:
        return f"{ship} forms a boarding party: {value_words(order['party'])}"
    if "flying party" in order:
        return f"{ship} sends out flying party {order['flying party']}: {value_words(order.get('men'))}"
    if order.get("recall"):
        return f"{ship} recalls her boarders"
    if order.get("disband"):
        return f"{ship} disbands her boarding party"
    return f"{ship}: boarding party order, {value_words(order)}"


def _tow_rigged(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('tower')} rigs a tow to {e.get('towed')}"


def _towed(e: Mapping[str, Any], n: Names) -> str:
    where = _where([hex_name(e.get("hex")), altitude_name(e.get("altitude"))])
    return f"{e.get('ship')} is towed" + (f" to {where}" if where else "")


def _drop(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} drops {value_words(e.get('weapon'))} on {e.get('target')}"


def _plots(e: Mapping[str, Any], n: Names) -> str:
    plots = _obj_or_none(e.get("plots"))
    if not plots:
        return "The plotted moves are set down"
    return "Plotted moves: " + "; ".join(f"{ship}: {choice_words('move', steps)}" for ship, steps in plots.items())


def _plotted_move(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} carries out her plotted move"


def _gun_trained(e: Mapping[str, Any], n: Names) -> str:
    return f"{n.gun(e.get('ship'), e.get('gun'))} is trained to the {value_words(e.get('aspect'))}"


def _signal(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship') or 'A ship'} hoists a signal" + (
        f": {value_words(e.get('words'))}" if _present(e.get("words")) else ""
    )


def _note(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')}: {e.get('what')}" if _present(e.get("what")) else f"A note about {e.get('ship')}"


TELLERS: dict[str, Teller] = {
    "roll": _roll,
    "turn": _turn,
    "phase": _phase,
    "decision_requested": _decision_requested,
    "decision": _decision,
    "decisions": _decisions,
    "battle_ended": _battle_ended,
    "stage": _stage,
    "asking": _asking,
    "moved": _moved,
    "move done": _move_done,
    "placed": _placed,
    "fire": _fire,
    "effects": _effects,
    "ship": _ship,
    "initiative": _initiative,
    "movement order": _movement_order,
    "ram declarations": _ram_declarations,
    "mark": _mark,
    "wind": _wind,
    "placement order": _placement_order,
    "out": _out,
    "prize": _prize,
    "captured": _captured,
    "result": _result,
    "collision check": _collision_check,
    "collision": _collision,
    "grappled": _grappled,
    "grapple cut": _grapple_cut,
    "crossing": _crossing,
    "escaped": _escaped,
    "held move": _held_move,
    "move held": _move_held,
    "relative position": _relative_position,
    "kite die": _kite_die,
    "forced drop": _forced_drop,
    "boarding action": _boarding_action,
    "flying party": _flying_party,
    "party moved": _party_moved,
    "avoiding": _avoiding,
    "ram": _ram,
    "collision ahead": _collision_ahead,
    "rockets": _rockets,
    "attempt lost": _attempt_lost,
    "launch": _launch,
    "torpedo": _torpedo,
    "torpedo run": _torpedo_run,
    "reinforcement": _reinforcement,
    "landed": _landed,
    "crew change": _crew_change,
    "party order": _party_order,
    "tow rigged": _tow_rigged,
    "towed": _towed,
    "drop": _drop,
    "plots": _plots,
    "plotted move": _plotted_move,
    "gun trained": _gun_trained,
    "signal": _signal,
    "note": _note,
}

# Bookkeeping: the sequence of play moving on, requests, record sheets rewritten whole, every step of a move.
DETAIL_KINDS = frozenset(
    {"stage", "asking", "decision_requested", "decision", "decisions", "ship", "flying party", "torpedo", "mark"}
)

ENVELOPE = ("seq", "turn", "phase", "kind", "ships", "visibility")


def _generic(e: Mapping[str, Any], n: Names) -> str:
    """An event kind nobody taught this module: its kind and its fields, in words."""
    kind = str(e.get("kind") or "event").replace("_", " ")
    fields = {k: v for k, v in e.items() if k not in ENVELOPE and k != "clauses" and v is not None}
    if not fields:
        return kind
    return f"{kind}: {value_words(fields)}"


def narrate(event: Mapping[str, Any], names: Names = NO_NAMES) -> str:
    """One event (as the log's JSON, envelope included) as one sentence."""
    teller = TELLERS.get(str(event.get("kind")), _generic)
    try:
        text = teller(event, names)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        text = _generic(event, names)  # a field of an unexpected shape: say what there is
    if not text.strip() or re.search(r"\bNone\b", text):  # a blanked field: say what is there instead
        text = _generic(event, names)
    return _sentence(text)


def is_detail(event: Mapping[str, Any]) -> bool:
    kind = str(event.get("kind"))
    if kind == "effects":
        return not event.get("notes")
    return kind in DETAIL_KINDS


def narrate_log(events: Sequence[Mapping[str, Any]], names: Names = NO_NAMES) -> list[Line]:
    return [
        Line(
            seq=int(e.get("seq", 0)),
            turn=int(e.get("turn", 0)),
            phase=str(e.get("phase", "")),
            kind=str(e.get("kind", "")),
            text=narrate(e, names),
            detail=is_detail(e),
        )
        for e in events
    ]
