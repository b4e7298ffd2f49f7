"""Sky Galleons' events in words: a sentence for each kind its rules log (a move, a shot, a boarding action,
a prize taken...), on the engine's generic words (battles/engine/telling.py), which also tell the engine's
own kinds. Pure: no framework.

Views of the log blank what a side may not see (``null``): a blank is left out of the sentence, and where a
teller meets one it gives up and the app writes the event's plain line instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.events import JSON
from battles.engine.telling import (
    COMPASS,
    ENGINE_DETAIL,
    ENGINE_TELLERS,
    Names,
    Teller,
    altitude_name,
    choice_words,
    comma_joined,
    facing_name,
    hex_name,
    listed,
    obj,
    obj_or_none,
    plural,
    present,
    seq,
    tell,
    value_words,
)
from battles.engine.words import possessive
from galleons import catalog


def names_for(view: JSON, sides: Mapping[str, str]) -> Names:
    """Names from the sides' display names and a board view's ships (their guns' weapons, by catalog name)."""
    guns: dict[tuple[str, str], str] = {}
    ships = view.get("ships") if isinstance(view, dict) else None
    for ship in ships if isinstance(ships, list) else []:
        if not isinstance(ship, Mapping):
            continue
        listed_guns = ship.get("guns")
        for gun in listed_guns if isinstance(listed_guns, list) else []:
            if isinstance(gun, Mapping) and gun.get("weapon"):
                guns[(str(ship.get("name")), str(gun.get("id")))] = weapon_name(str(gun["weapon"]))
    return Names(dict(sides), guns)


def weapon_name(weapon_id: str) -> str:
    try:
        return catalog.weapon(weapon_id).name
    except (KeyError, ValueError):  # an unknown id names itself
        return weapon_id


def _stage(e: Mapping[str, Any], n: Names) -> str:
    asking = e.get("asking")
    stage = str(e.get("stage") or "the next step").replace("_", " ")
    return f"Next: {stage}" + (f" ({asking})" if present(asking) else "")


def _asking(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} is next to move"


def _moved(e: Mapping[str, Any], n: Names) -> str:
    step = str(e.get("step") or "moves")
    where = comma_joined([hex_name(e.get("hex")), facing_name(e.get("facing")), altitude_name(e.get("altitude"))])
    cost = e.get("cost")
    text = f"{e.get('ship')}: {step}, now at {where}" if where else f"{e.get('ship')}: {step}"
    if type(cost) is int:
        text += f" ({cost} MP)"
    ends = e.get("ends")
    return f"{text}; she has {ends}" if present(ends) else text


def _move_done(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} ends her move, {plural(e.get('hexes'), 'hex')} moved"


def _placed(e: Mapping[str, Any], n: Names) -> str:
    where = comma_joined([hex_name(e.get("hex")), facing_name(e.get("facing")), altitude_name(e.get("altitude"))])
    return f"{e.get('ship')} is set up at {where}" if where else f"{e.get('ship')} is set up"


def _fire(e: Mapping[str, Any], n: Names) -> str:
    band = e.get("band")
    distance = e.get("range")
    at = f"{band} range" if present(band) else "range"
    if type(distance) is int:
        at += f" {distance}"
    shots = e.get("shots")
    text = f"{n.gun(e.get('ship'), e.get('gun'))} fires at {e.get('target')}, {at}"
    return text + (f", {plural(shots, 'shot')}" if type(shots) is int and shots != 1 else "")


def _effects(e: Mapping[str, Any], n: Names) -> str:
    notes = [note for note in e.get("notes") or [] if isinstance(note, Mapping)]
    told = []
    for note in notes:
        what = note.get("what")
        if present(what):
            told.append(str(what))
    return "; ".join(told) if told else "No further effect"


def _ship(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e.get('ship'))} record sheet is brought up to date"


def _initiative(e: Mapping[str, Any], n: Names) -> str:
    return f"{n.side(e.get('winner'))} wins the initiative"


def _movement_order(e: Mapping[str, Any], n: Names) -> str:
    return "Movement order: " + listed((n.side(s) for s in e.get("order") or []), last="then")


def _ram_declarations(e: Mapping[str, Any], n: Names) -> str:
    declared = obj(e.get("declared"))
    told = [f"{n.side(side)} {count}" for side, count in declared.items()]
    return "Ships declared to ram or grapple: " + (", ".join(told) if told else "none")


def _mark(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    key = str(e.get("key") or "")
    if key.startswith("entry ") and present(what):  # "enters by the west edge": whose ships
        return f"{n.side(key[6:])} {str(what).replace('enters', 'enter', 1)}"
    return str(what) if present(what) else f"Noted: {value_words(e.get('key'))} is {value_words(e.get('value'))}"


def _wind(e: Mapping[str, Any], n: Names) -> str:
    direction = e.get("direction")
    if type(direction) is int:
        return f"The wind blows from the {COMPASS[direction % 6]}"
    return "The wind is set"


def _placement_order(e: Mapping[str, Any], n: Names) -> str:
    return "Set-up order: " + listed(e.get("ship_order") or [], last="then")


def _out(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what") or "is out of the fight"
    reason = e.get("reason")
    return f"{e.get('ship')} {what}" + (f": {reason}" if present(reason) and str(reason) not in str(what) else "")


def _prize(e: Mapping[str, Any], n: Names) -> str:
    prize = obj(e.get("prize"))
    captor = prize.get("captor")
    order = prize.get("order")
    text = f"{e.get('ship')} is a prize of {n.side(captor)}" if present(captor) else f"{e.get('ship')} is a prize"
    return text + (f"; her prize crew's order: {order}" if present(order) else "")


def _captured(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    return f"{e.get('ship')} is captured by {n.side(e.get('by'))}" + (f": {what}" if present(what) else "")


def _result(e: Mapping[str, Any], n: Names) -> str:
    winner = e.get("winner")
    return f"Result: {e.get('reason') or 'the battle is decided'}" + (
        f"; {n.side(winner)} wins" if present(winner) else "; a draw"
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
    return f"{plural(e.get('men'), 'man')} cross from {e.get('ship')} to {e.get('target')}"


def _escaped(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} {e.get('what') or 'leaves the battle'}"


def _held_move(e: Mapping[str, Any], n: Names) -> str:
    move = obj(e.get("move"))
    for kind in ("ram", "grapple"):
        if kind in move:
            return f"{e.get('ship')} tries to {kind} {move[kind]}: her move waits for the answer"
    return f"{possessive(e.get('ship'))} move waits"


def _move_held(e: Mapping[str, Any], n: Names) -> str:
    why = e.get("why")
    return f"{e.get('ship')} does not move" + (f": {why}" if present(why) else "")


def _relative_position(e: Mapping[str, Any], n: Names) -> str:
    a, b = _pair(e)
    aspects = seq(e.get("aspects"))
    if len(aspects) == 2:
        return f"{a} and {b} share a hex: {b} is on {possessive(a)} {aspects[0]}, {a} on {possessive(b)} {aspects[1]}"
    return f"{a} and {b} share a hex"


def _kite_die(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e.get('ship'))} movement die (kite) is {e.get('die')}"


def _forced_drop(e: Mapping[str, Any], n: Names) -> str:
    text = f"{e.get('ship')} cannot hold her height and drops to {altitude_name(e.get('altitude')) or 'a lower level'}"
    return text + (" and crashes" if e.get("crashed") else "")


def _boarding_action(e: Mapping[str, Any], n: Names) -> str:
    attackers = listed(e.get("attackers") or []) or "the boarders"
    lost = plural(e.get("attackers_lost"), "man")
    text = (
        f"Boarding action aboard {e.get('target')}: the boarders from {attackers} lose {lost}, "
        f"the defenders {plural(e.get('defenders_lost'), 'man')}"
    )
    retreated = listed(e.get("retreated") or [])
    return text + (f"; the boarders fall back to {retreated}" if retreated else "")


def _flying_party(e: Mapping[str, Any], n: Names) -> str:
    record = obj_or_none(e.get("record"))
    if record is None:
        return f"{e.get('party')} is no longer in the air"
    aboard = record.get("aboard")
    where = (
        f"aboard {aboard}"
        if present(aboard)
        else comma_joined([hex_name(record.get("position")), altitude_name(record.get("altitude"))])
    )
    return f"Flying party {e.get('party')}" + (f": {where}" if where else "")


def _party_moved(e: Mapping[str, Any], n: Names) -> str:
    where = comma_joined([hex_name(e.get("hex")), altitude_name(e.get("altitude"))])
    return f"{e.get('party')} flies {e.get('step') or 'on'}" + (f" to {where}" if where else "")


def _avoiding(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} turns to avoid, spending {plural(e.get('mp'), 'movement point')}"


def _ram(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    if what == "sure":
        return f"{e.get('ship')} rams {e.get('target')}: the target cannot get away, the ram is sure"
    return f"{e.get('ship')} rams {e.get('target')}" + (f": {what}" if present(what) else "")


def _collision_ahead(e: Mapping[str, Any], n: Names) -> str:
    avoiders = e.get("avoiders") or []
    hexes = "hex" if len(avoiders) == 1 else "hexes"
    return f"{possessive(e.get('ship'))} move will take her into {possessive(listed(avoiders))} {hexes}: they may avoid"


def _rockets(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e.get('ship'))} Hale rocket battery {e.get('battery')} fires at {e.get('target')}"


def _attempt_lost(e: Mapping[str, Any], n: Names) -> str:
    what = e.get("what")
    attempt = f"{possessive(e.get('ship'))} attempt on {e.get('target')} comes to nothing"
    return attempt + (f": {what}" if present(what) else "")


def _launch(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} launches a torpedo from gun {e.get('gun')}"


def _torpedo(e: Mapping[str, Any], n: Names) -> str:
    torpedo = obj_or_none(e.get("torpedo"))
    if torpedo is None:
        return f"Torpedo {e.get('id')} is spent"
    where = comma_joined(
        [hex_name(torpedo.get("hex")), facing_name(torpedo.get("facing")), altitude_name(torpedo.get("altitude"))]
    )
    return f"Torpedo {e.get('id')} runs" + (f", now at {where}" if where else "")


def _torpedo_run(e: Mapping[str, Any], n: Names) -> str:
    struck = e.get("struck")
    return f"Torpedo {e.get('torpedo')} runs on" + (f" and strikes {struck}" if present(struck) else "")


def _reinforcement(e: Mapping[str, Any], n: Names) -> str:
    record = obj(e.get("record"))
    name = record.get("name") or (e.get("ships") or ["A ship"])[0]
    what = record.get("class_name")
    text = f"{name}" + (f" ({what})" if present(what) else "") + f" joins {n.side(record.get('side'))}"
    where = hex_name(record.get("position"))
    return text + (f" at {where}" if where else "")


def _landed(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} lands"


def _crew_change(e: Mapping[str, Any], n: Names) -> str:
    change = obj_or_none(e.get("change"))
    ship = e.get("ship")
    if change is None:
        return f"{ship} changes her crew's posts"
    if "relief" in change:
        return f"{ship}: a {value_words(change.get('rank'))} takes over at the {change.get('relief')}"
    if "gun" in change:
        source = str(change.get("from") or "deckhands")
        source = f"gun {source[4:]}" if source.startswith("gun:") else source.replace("_", " ")
        return f"{ship}: {plural(change.get('men'), 'man')} from the {source} to {n.gun(ship, change.get('gun'))}"
    if "signalman" in change:
        return f"{ship}: a new signalman from the {value_words(change.get('signalman'))}"
    return f"{ship}: crew change, {value_words(change)}"


def _party_order(e: Mapping[str, Any], n: Names) -> str:
    order = obj(e.get("order"))
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
    where = comma_joined([hex_name(e.get("hex")), altitude_name(e.get("altitude"))])
    return f"{e.get('ship')} is towed" + (f" to {where}" if where else "")


def _drop(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} drops {value_words(e.get('weapon'))} on {e.get('target')}"


def _plots(e: Mapping[str, Any], n: Names) -> str:
    plots = obj_or_none(e.get("plots"))
    if not plots:
        return "The plotted moves are set down"
    return "Plotted moves: " + "; ".join(f"{ship}: {choice_words('move', steps)}" for ship, steps in plots.items())


def _plotted_move(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')} carries out her plotted move"


def _gun_trained(e: Mapping[str, Any], n: Names) -> str:
    return f"{n.gun(e.get('ship'), e.get('gun'))} is trained to the {value_words(e.get('aspect'))}"


def _signal(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship') or 'A ship'} hoists a signal" + (
        f": {value_words(e.get('words'))}" if present(e.get("words")) else ""
    )


def _note(e: Mapping[str, Any], n: Names) -> str:
    return f"{e.get('ship')}: {e.get('what')}" if present(e.get("what")) else f"A note about {e.get('ship')}"


def _standing_orders(e: Mapping[str, Any], n: Names) -> str:
    orders = e.get("orders")
    fire = orders.get("fire", "at will") if isinstance(orders, dict) else "at will"
    return f"{n.side(e.get('side'))}: standing orders given (guns: {fire})"


def _moves_written(e: Mapping[str, Any], n: Names) -> str:
    order = e.get("order")
    names = [str(s) for s in order] if isinstance(order, list) else []
    return "Moves written, to be made in this order: " + (comma_joined(names) or "none")


def _move_cut(e: Mapping[str, Any], n: Names) -> str:
    steps = e.get("steps")
    kept = comma_joined([str(s) for s in steps] if isinstance(steps, list) else []) or "nothing"
    return f"{e.get('ship')}: the ships before her changed the board; of her written move she makes {kept}"


TELLERS: dict[str, Teller] = {
    "standing orders": _standing_orders,
    "moves written": _moves_written,
    "move cut": _move_cut,
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

# Bookkeeping: the sequence of play moving on, record sheets rewritten whole, every step of a torpedo's run.
DETAIL_KINDS = ENGINE_DETAIL | {"stage", "asking", "ship", "flying party", "torpedo", "mark"}


def narrate(event: Mapping[str, Any], names: Names) -> str | None:
    """The event in words by Sky Galleons' tellers or the engine's; None where neither can say it."""
    return tell(TELLERS, event, names) or tell(ENGINE_TELLERS, event, names)


def is_detail(event: Mapping[str, Any]) -> bool:
    kind = str(event.get("kind"))
    if kind == "effects":
        return not event.get("notes")
    return kind in DETAIL_KINDS
