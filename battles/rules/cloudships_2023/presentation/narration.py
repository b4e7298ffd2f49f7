"""Cloudships of Mars' events in words: a sentence for every kind the package logs (a card turned, a step of a
move, a ram, the volley, a box crossed, a light gone amber, a repair, a ship's fate), on the engine's generic
words (battles/engine/telling.py), which also tell the engine's own kinds. Pure: no framework.

The narrator tells only what an event holds, and the app hands it only the events a side may see (the ruleset's
``event_view``): a secret return-fire answer reaches another side in the batch's reveal, never before. A field
blanked in a view (``null``) makes the teller give up, and the app writes the event's plain line instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.events import DECISION, DECISIONS, JSON, TURN
from battles.engine.telling import (
    ENGINE_DETAIL,
    ENGINE_TELLERS,
    Names,
    Teller,
    facing_name,
    hex_name,
    listed,
    obj,
    plural,
    seq,
    tell,
)
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import kinds, panels
from battles.rules.cloudships_2023.kinds import (
    AMBER_LIT,
    ATTACKERS,
    BAND_LOST,
    BOARDING_DONE,
    BOARDING_FOUGHT,
    BOX_CROSSED,
    CARD_TURNED,
    COLLISION_CHECK,
    CONTACT,
    CREW_HIT,
    CRITICAL,
    DAMAGE_DUE,
    DECK_MADE,
    DEFENDERS,
    DROPPED,
    FATE,
    FIRE_BURNS,
    FIRE_ORDERS,
    FLIGHT_ATTACKED,
    FLIGHT_DEPLOYED,
    FLIGHT_FLEW,
    FLIGHT_HIT,
    FLIGHT_REDOCKED,
    FLIGHTS_DECISION,
    FLIGHTS_READY,
    GRAPPLE_TRIED,
    GRAPPLED,
    GRAPPLES_CUT,
    GUN_FIRED,
    GUN_LOST,
    LET_OUT,
    LIGHTS_CYCLED,
    LOSSES_TAKEN,
    MOVE_DECISION,
    MOVE_DONE,
    MOVE_HELD,
    MOVED,
    ORDNANCE_DECISION,
    PARTY_LOST,
    RAM_TRIED,
    READIED,
    REPAIRED,
    RETURN_FIRE,
    STATUS_CHECKED,
    TORPEDO_FLEW,
    TORPEDO_GONE,
    TORPEDO_LAUNCHED,
    TURN_CARD,
    TURN_ENDED,
    VOLLEY,
    WINCHED_IN,
)


def names_for(view: JSON, sides: Mapping[str, str]) -> Names:
    """The sides' names (the board's, then the app's) and every gun by its ship and number, from the panels on a
    board view."""
    board = obj(view)
    guns: dict[tuple[str, str], str] = {}
    for ship in seq(board.get("ships")):
        for gun in seq(obj(obj(ship).get("panel")).get("guns")):
            gun = obj(gun)
            if gun.get("number") is not None and gun.get("name"):
                guns[(str(ship.get("name")), str(gun["number"]))] = str(gun["name"])
    side_names = {str(k): str(v) for k, v in obj(board.get("side_names")).items()}
    return Names({**side_names, **sides}, guns)


def gun_words(ship: Any, number: Any, n: Names, name: Any = None) -> str:
    """A gun as the panel names it, with its number: "Locust's 3-pdr HRC (gun 2)"."""
    weapon = name or n.guns.get((str(ship), str(number)))
    return f"{possessive(ship)} {weapon} (gun {number})" if weapon else f"{possessive(ship)} gun {number}"


# --- the round and the card ---------------------------------------------------------------------------------


def _round(e: Mapping[str, Any], n: Names) -> str:
    return f"Round {e['turn']} begins"


def _deck_made(e: Mapping[str, Any], n: Names) -> str:
    cards = [str(c) for c in seq(e["cards"])]
    return (
        f"Round {e['round']}: the deck holds {plural(len(cards), 'card')}, one for each ship still flying "
        f"({listed(cards)}); they are turned in an order no one knows"
    )


def _card_turned(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} card is turned: her turn begins"


def _status(e: Mapping[str, Any], n: Names) -> str:
    kite = e.get("kite_roll")
    movement = f"movement {e['movement']}" + (f" (the kite rolled {kite})" if kite is not None else "")
    if e.get("sail"):  # mixed power (CM-MOV-19..21)
        movement += f" ({e['sail']} of it from her sail)"
    limits = [
        word
        for word, on in (
            ("no change of altitude", e["no_altitude_change"]),
            ("no change of direction", e["no_direction_change"]),
            ("every point of movement must be used", e["whole_movement"]),
        )
        if on
    ]
    return f"{e['ship']} checks her panel: {movement}" + (f"; lights lit: {', '.join(limits)}" if limits else "")


def _turn_ended(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} turn is over"


def _lights_cycled(e: Mapping[str, Any], n: Names) -> str:
    return f"End of round {e['round']}: red lights go out, amber lights turn red and the Fired markers come off"


# --- the move -----------------------------------------------------------------------------------------------

STEP_WORDS = {
    "ahead": "goes ahead",
    "climb ahead": "climbs ahead",
    "descend ahead": "descends ahead",
    "port": "turns to port",
    "starboard": "turns to starboard",
    "power port": "makes a power turn to port",
    "power starboard": "makes a power turn to starboard",
    "climb": "climbs in her hex",
    "descend": "descends in her hex",
}


def _moved(e: Mapping[str, Any], n: Names) -> str:
    step = str(e["step"])
    doing = STEP_WORDS.get(step, step)
    where = hex_name(e["hex"])
    cost = e.get("cost")
    paid = f" ({plural(cost, 'movement point')})" if type(cost) is int and cost else ""
    return f"{e['ship']} {doing}{paid}: {where}, {facing_name(e['facing'])}, at {e['band']}"


def _move_held(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} cannot move: {e['why']}"


def _move_done(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} move is over: {plural(e['hexes'], 'hex')} moved"


def _scores(e: Mapping[str, Any]) -> tuple[int, int]:
    """The two totals of an opposed roll (a ram, a collision, a grapple, a round of boarding, a strike)."""
    mine, theirs = (int(score) for score in seq(e["scores"]))
    return mine, theirs


def _ram(e: Mapping[str, Any], n: Names) -> str:
    mine, theirs = _scores(e)
    head = f"{e['ship']} rams {e['target']}: {mine} against {theirs}"
    if e["hit"]:
        return f"{head}, a hit for {plural(e['damage'], 'point')} (her ram value and {plural(e['speed'], 'hex')} moved)"
    return f"{head}: {e['target']} slips aside and {e['ship']} slides past"


def _collision(e: Mapping[str, Any], n: Names) -> str:
    mine, theirs = _scores(e)
    head = f"{e['ship']} comes into the hex and band of {e['other']}: {mine} against {theirs}"
    return f"{head}, the same score: they collide" if e["collided"] else f"{head}: they pass clear"


# --- fire and damage ------------------------------------------------------------------------------------------


def _shot(shot: Mapping[str, Any], n: Names) -> str:
    reach = f"{shot['band']} range {shot['range']}" if shot.get("band") else f"range {shot['range']}"
    return f"{gun_words(shot['ship'], shot['gun'], n)} at {shot['target']} ({reach})"


def _volley(e: Mapping[str, Any], n: Names) -> str:
    shots = [_shot(obj(s), n) for s in seq(e["shots"])]
    return "Every order is carried out at once: " + "; ".join(shots) if shots else "No gun fires"


def _gun_fired(e: Mapping[str, Any], n: Names) -> str:
    return f"{gun_words(e['ship'], e['gun'], n, e['name'])} fires and takes its Fired marker"


def _damage_due(e: Mapping[str, Any], n: Names) -> str:
    by = f" from {e['by']}" if e.get("by") else ""
    crew = e.get("crew") or 0
    if crew:
        return f"{e['ship']} takes {plural(crew, 'anti-personnel hit')}{by}, to be read on her crew chart"
    return f"{e['ship']} takes a hit{by}: {plural(e['points'], 'point')} to mark on her damage track"


BOX_WORDS = {
    panels.HULL: "a Hull box",
    panels.GUN: "a Gun box: a gun may be lost",
    panels.GUN_CHOSEN: "a GUN box: a gun may be lost",
    panels.MEDIUM: "a Medium box: she can fly no higher than Medium",
    panels.LOW: "a Low box: she can fly no higher than Low",
    panels.SPEED: "a Speed box: one movement less",
    panels.BOARDING_PARTY: "a Boarding Party box",
    panels.CRITICAL: "a Critical box: a roll on her critical chart",
    panels.GROUND: "the last box, Ground",
}


def _box_crossed(e: Mapping[str, Any], n: Names) -> str:
    box = str(e["box"])
    return f"{e['ship']} crosses off {BOX_WORDS.get(box, box)}"


def _gun_lost(e: Mapping[str, Any], n: Names) -> str:
    chosen = f", {possessive(e['chosen_by'])} choice (a GUN box, CM-GUN-03)" if e.get("chosen_by") else ""
    return f"{gun_words(e['ship'], e['gun'], n, e['name'])} is destroyed{chosen}"


def _party_lost(e: Mapping[str, Any], n: Names) -> str:
    what = "a flight of Flying Martians" if e["flight"] else "a boarding party"
    grapnel = ", and her power grapnel with it" if e.get("grapnel") else ""
    return f"{e['ship']} loses {what}{grapnel}"


def _crew_hit(e: Mapping[str, Any], n: Names) -> str:
    by = f" from {e['by']}" if e.get("by") else ""
    lost = int(e["parties"])
    cost = f"cost her {plural(lost, 'boarding party')}" if lost else "cost her nothing"
    return f"{possessive(e['ship'])} crew chart: {plural(e['hits'], 'anti-personnel hit')}{by} {cost}"


def _critical(e: Mapping[str, Any], n: Names) -> str:
    critical = str(e["critical"])
    if e["permanent"]:
        return f"Critical hit on {e['ship']}: {critical}, for the rest of the battle"
    lights = panels.CRITICAL_LIGHTS.get(critical, ())
    goes = "light goes" if len(lights) == 1 else "lights go"
    return f"Critical hit on {e['ship']}: {critical}; her {listed(lights)} {goes} amber at the end of the turn"


def _band_lost(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} can climb no higher than {e['ceiling']} now"


def _dropped(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} drops from {e['from']} to {e['band']}"


def _amber_lit(e: Mapping[str, Any], n: Names) -> str:
    lights = [str(light) for light in seq(e["lights"])]
    why = listed(str(c) for c in seq(e["criticals"]))
    word = "light turns" if len(lights) == 1 else "lights turn"
    return f"{possessive(e['ship'])} {listed(lights)} {word} amber ({why})"


def _fire_burns(e: Mapping[str, Any], n: Names) -> str:
    return f"The fire aboard {e['ship']} burns on: one box crossed"


def _repaired(e: Mapping[str, Any], n: Names) -> str:
    if e["light"] == panels.FIRE:
        return f"{possessive(e['ship'])} crew puts the fire out"
    return f"{possessive(e['ship'])} crew mends it early: her {e['light']} light is green again"


FATE_WORDS = {
    kinds.CRASHED: "falls to the ground and crashes",
    kinds.SUNK: "is destroyed",
    kinds.STRUCK: "strikes her colours",
    kinds.LEFT: "leaves the battle",
}


def _fate(e: Mapping[str, Any], n: Names) -> str:
    status = str(e["status"])
    why = f" ({e['why']})" if e.get("why") else ""
    return f"{e['ship']} {FATE_WORDS.get(status, status)}{why}"


# --- the decisions, as the log shows them -----------------------------------------------------------------------


def _orders(choice: Any, n: Names) -> str:
    shots = [obj(s) for s in seq(obj(choice).get("shots"))]
    if not shots:
        return "hold fire"
    return listed(f"{gun_words(s['ship'], s['gun'], n)} at {s['target']}" for s in shots)


def _move_words(choice: Any) -> str:
    if isinstance(choice, Mapping):
        steps, ram = seq(choice.get("steps")), choice.get("ram")
    else:
        steps, ram = seq(choice), None
    plan = listed((str(s) for s in steps), last="then") or "no steps"
    return f"{plan}, ramming {ram}" if ram else plan


def _answer(kind: Any, choice: Any, n: Names) -> str | None:
    """A Cloudships decision's answer in words; None for another kind (the engine's words stand)."""
    if choice is None:
        return None  # a secret answer blanked in this side's view: the engine says "kept secret"
    if kind in (FIRE_ORDERS, RETURN_FIRE):
        return _orders(choice, n)
    if kind == MOVE_DECISION:
        return _move_words(choice)
    if kind == TURN_CARD:
        return "turn it"
    if kind == ORDNANCE_DECISION:
        return _ordnance_words(choice)
    if kind == FLIGHTS_DECISION:
        return _flight_orders_words(choice)
    return None


def _decision(e: Mapping[str, Any], n: Names) -> str:
    said = _answer(e.get("decision"), e.get("choice"), n)
    if said is None:
        return ENGINE_TELLERS[DECISION](e, n)
    return f"{n.side(e.get('side'))} answers {e.get('decision')}: {said}"


def _decisions(e: Mapping[str, Any], n: Names) -> str:
    told = []
    for answer in obj(e.get("answers")).values():
        answer = obj(answer)
        kind = answer.get("decision")
        said = _answer(kind, answer.get("choice"), n)
        if said is None:
            return ENGINE_TELLERS[DECISIONS](e, n)
        told.append(f"{n.side(answer.get('side'))}, {kind}: {said}")
    return "Decided: " + "; ".join(told) if told else "The decisions are in"


# --- grappling and boarding (docs/cloudships.md section 8) ------------------------------------------------------


def _grapple_tried(e: Mapping[str, Any], n: Names) -> str:
    mine, theirs = _scores(e)
    how = "fires her power grapnel at" if e["grapnel"] else "throws grapples on"
    head = f"{e['ship']} {how} {e['target']}: {mine} against {theirs}"
    return f"{head}: the lines hold" if e["held"] else f"{head}: the lines are cut"


def _grappled(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['attacker']} and {e['defender']} are grappled: the boarding action begins"


def _boarding_fought(e: Mapping[str, Any], n: Names) -> str:
    ours, theirs = _scores(e)
    head = f"{possessive(e['attacker'])} boarders fight {possessive(e['defender'])} crew: {ours} against {theirs}"
    losses = ", ".join(f"{ship} loses {plural(points, 'point')}" for ship, points in dict(e["losses"]).items())
    if e["winner"] == ATTACKERS:
        return f"{head}; the boarders win ({losses})"
    if e["winner"] == DEFENDERS:
        return f"{head}; the defenders win ({losses})"
    return f"{head}; neither side gives way ({losses})"


def _losses_taken(e: Mapping[str, Any], n: Names) -> str:
    lost = [
        f"{e['parties']} boarding part{'y' if e['parties'] == 1 else 'ies'}" if e.get("parties") else "",
        plural(e["flights"], "flight") + " of Flying Martians" if e.get("flights") else "",
        f"{e['marked']} more marked off" if e.get("marked") else "",
    ]
    said = ", ".join(word for word in lost if word)
    return f"{e['ship']} takes her boarding losses: {said}" if said else f"{e['ship']} loses nobody"


def _grapples_cut(e: Mapping[str, Any], n: Names) -> str:
    return f"The grapples between {e['attacker']} and {e['defender']} are cut: {e['why']}"


def _boarding_done(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} boarding step is over"


# --- mines and torpedoes (docs/cloudships.md section 10) ---------------------------------------------------------


def _let_out(e: Mapping[str, Any], n: Names) -> str:
    where = f", riding at {e['band']}" if e.get("band") else ", hanging where it reaches nothing"
    return f"{e['ship']} lets out her {e['name']} ({e['gun']}) on its cable{where}"


def _winched_in(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} winches her {e['name']} ({e['gun']}) back aboard"


def _torpedo_launched(e: Mapping[str, Any], n: Names) -> str:
    return f"{e['ship']} launches a Smutts torpedo ({e['gun']}), heading {facing_name(e['facing'])}"


def _torpedo_flew(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} torpedo ({e['gun']}) flies on to {hex_name(e['hex'])}"


def _contact(e: Mapping[str, Any], n: Names) -> str:
    mine, theirs = _scores(e)
    head = f"{possessive(e['ship'])} {e['system']} ({e['gun']}) strikes at {e['target']}: {mine} against {theirs}"
    return f"{head}: it explodes against her" if e["hit"] else f"{head}: she slips clear"


def _torpedo_gone(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} torpedo ({e['gun']}) is gone: {e['why']}"


def _readied(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} mines and torpedoes are seen to"


def _ordnance_words(choice: Any) -> str:
    if not isinstance(choice, Mapping):
        return "nothing"
    parts = [
        f"{label} {', '.join(str(g) for g in choice.get(key) or ())}"
        for key, label in (("winch_in", "winch in"), ("let_out", "let out"), ("launch", "launch"))
        if choice.get(key)
    ]
    return "; ".join(parts) or "nothing"


# --- Flying Martians deployed (the flights slice) -------------------------------------------------------------------


def _flight(e: Mapping[str, Any]) -> str:
    return f"{possessive(e['ship'])} flight {e['flight']}"


def _where(e: Mapping[str, Any]) -> str:
    return f"{hex_name(e['hex'])} at {e['band']}"


def _flight_deployed(e: Mapping[str, Any], n: Names) -> str:
    return f"{_flight(e)} of Flying Martians takes wing from her, at {_where(e)}"


def _flight_flew(e: Mapping[str, Any], n: Names) -> str:
    path = listed((str(step) for step in seq(e.get("path"))), last="then") or "nowhere"
    return f"{_flight(e)} flies {path}, to {_where(e)}"


def _flight_redocked(e: Mapping[str, Any], n: Names) -> str:
    return f"{_flight(e)} is back aboard her, among her boarding parties again"


def _flights_ready(e: Mapping[str, Any], n: Names) -> str:
    return f"{possessive(e['ship'])} Flying Martians are seen to"


def _flight_attacked(e: Mapping[str, Any], n: Names) -> str:
    who = f"a flight aboard {e['ship']}" if not e.get("flight") else _flight(e)
    return f"{who} swoops on {e['target']} at {e['band']} range: {plural(e['hits'], 'hit')}"


def _flight_fired_on(e: Mapping[str, Any], n: Names) -> str:
    mother, number = seq(e.get("flight"))
    result = "wiped out" if e.get("wiped") else "shrugs it off"
    return f"{e['ship']} fires on {possessive(mother)} flight {number}: {plural(e['hits'], 'hit')}, it {result}"


def _flight_orders_words(choice: Any) -> str:
    orders = obj(choice)
    said = [f"deploy {orders['deploy']}" if orders.get("deploy") else ""]
    said += [f"flight {number} flies {len(seq(path))} steps" for number, path in obj(orders.get("fly")).items()]
    said += [f"flight {number} redocks" for number in seq(orders.get("redock"))]
    return listed(word for word in said if word) or "nothing"


TELLERS: dict[str, Teller] = {
    TURN: _round,  # the engine's turn is the round of cards
    DECK_MADE: _deck_made,
    CARD_TURNED: _card_turned,
    STATUS_CHECKED: _status,
    MOVED: _moved,
    MOVE_HELD: _move_held,
    MOVE_DONE: _move_done,
    RAM_TRIED: _ram,
    COLLISION_CHECK: _collision,
    VOLLEY: _volley,
    GUN_FIRED: _gun_fired,
    DAMAGE_DUE: _damage_due,
    BOX_CROSSED: _box_crossed,
    GUN_LOST: _gun_lost,
    PARTY_LOST: _party_lost,
    CREW_HIT: _crew_hit,
    CRITICAL: _critical,
    BAND_LOST: _band_lost,
    DROPPED: _dropped,
    AMBER_LIT: _amber_lit,
    FIRE_BURNS: _fire_burns,
    LIGHTS_CYCLED: _lights_cycled,
    REPAIRED: _repaired,
    FATE: _fate,
    TURN_ENDED: _turn_ended,
    DECISION: _decision,
    DECISIONS: _decisions,
    GRAPPLE_TRIED: _grapple_tried,
    GRAPPLED: _grappled,
    BOARDING_FOUGHT: _boarding_fought,
    LOSSES_TAKEN: _losses_taken,
    GRAPPLES_CUT: _grapples_cut,
    BOARDING_DONE: _boarding_done,
    LET_OUT: _let_out,
    WINCHED_IN: _winched_in,
    TORPEDO_LAUNCHED: _torpedo_launched,
    TORPEDO_FLEW: _torpedo_flew,
    CONTACT: _contact,
    TORPEDO_GONE: _torpedo_gone,
    READIED: _readied,
    FLIGHT_DEPLOYED: _flight_deployed,
    FLIGHT_FLEW: _flight_flew,
    FLIGHT_REDOCKED: _flight_redocked,
    FLIGHTS_READY: _flights_ready,
    FLIGHT_ATTACKED: _flight_attacked,
    FLIGHT_HIT: _flight_fired_on,
}

# Bookkeeping a reader may fold away: each gun's marker (the volley names the shots), the end of a move or a
# turn, and the engine's requests and answers.
DETAIL = frozenset({GUN_FIRED, MOVE_DONE, TURN_ENDED, STATUS_CHECKED, BOARDING_DONE, READIED, FLIGHTS_READY})
DETAIL |= ENGINE_DETAIL


def narrate(event: Mapping[str, Any], names: Names) -> str | None:
    return tell(TELLERS, event, names) or tell(ENGINE_TELLERS, event, names)


def is_detail(event: Mapping[str, Any]) -> bool:
    return str(event.get("kind")) in DETAIL
