"""The fold: how each Cloudships event changes the board, as a table from event kind to a pure function of the
board and the event's data. Kinds it does not list (the engine's, and the events that only tell: a status
read, a band lost, a fire burning) leave the board as it is. Nothing here rolls or decides: replaying the log
through this table rebuilds any state of the battle."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from battles.engine.events import DECISIONS, Event
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list, read_object, read_str
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.board import (
    Board,
    BoardingRound,
    DamageDue,
    Deck,
    Flight,
    FlightOrders,
    Grapple,
    MoveOrder,
    OrdnanceOrders,
    Ship,
    Shot,
    Torpedo,
    TurnStatus,
    Volley,
    flight_shot,
)
from battles.rules.cloudships_2023.kinds import (
    AMBER_LIT,
    AT_FLIGHTS_KEY,
    BOARD_DECISION,
    BOARDING_DONE,
    BOARDING_FOUGHT,
    BOX_CROSSED,
    CARD_TURNED,
    CONTACT,
    CRASHED,
    CRITICAL,
    DAMAGE_DUE,
    DECK_MADE,
    DROPPED,
    FATE,
    FIRE_ORDERS,
    FLIGHT_ATTACKED,
    FLIGHT_DEPLOYED,
    FLIGHT_FLEW,
    FLIGHT_HIT,
    FLIGHT_REDOCKED,
    FLIGHTS_DECISION,
    FLIGHTS_KEY,
    FLIGHTS_READY,
    GRAPPLED,
    GRAPPLES_CUT,
    GUN_FIRED,
    GUN_LOST,
    HIT_FIRST,
    LET_OUT,
    LIGHTS_CYCLED,
    LOSSES_DECISION,
    LOSSES_TAKEN,
    MOVE_DECISION,
    MOVE_DONE,
    MOVED,
    ORDNANCE_DECISION,
    PARTY_HITS_DECISION,
    PARTY_LOST,
    READIED,
    REPAIRED,
    RETURN_FIRE,
    STATUS_CHECKED,
    TORPEDO_FLEW,
    TORPEDO_GONE,
    TORPEDO_LAUNCHED,
    TURN_ENDED,
    VOLLEY,
    WINCHED_IN,
)
from battles.rules.cloudships_2023.panels import AMBER, CRITICAL_LIGHTS, GREEN, RED

Fold = Callable[[Board, Mapping[str, Any]], Board]


def _ship(board: Board, data: Mapping[str, Any]) -> Ship:
    return board.ship_named(read_str(data["ship"]))


def _deck_made(board: Board, data: Mapping[str, Any]) -> Board:
    cards = tuple(read_str(card) for card in read_list(data["cards"]))
    return replace(board, deck=Deck(cards=cards), active=None, status=None, due=())


def _card_turned(board: Board, data: Mapping[str, Any]) -> Board:
    card = read_str(data["ship"])
    deck = replace(board.deck, turned=(*board.deck.turned, card))
    return replace(board, deck=deck, active=card, status=None)


def _status_checked(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, status=TurnStatus.from_json(data))


def _gun_fired(board: Board, data: Mapping[str, Any]) -> Board:
    """A Fired marker on the gun (CM-SEQ-10); a one-shot weapon is spent for good (CM-FIRE-12)."""
    ship, number = _ship(board, data), read_int(data["gun"])
    spent = (*ship.spent, number) if ship.gun(number).one_shot else ship.spent
    return board.with_ship(replace(ship, fired=(*ship.fired, number), spent=spent))


def _damage_due(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, due=(*board.due, DamageDue.from_json(data)))


def _box_crossed(board: Board, data: Mapping[str, Any]) -> Board:
    ship = _ship(board, data)
    return board.with_ship(replace(ship, crossed=ship.crossed + 1))


def _gun_lost(board: Board, data: Mapping[str, Any]) -> Board:
    ship = _ship(board, data)
    return board.with_ship(replace(ship, guns_lost=(*ship.guns_lost, read_int(data["gun"]))))


def _party_lost(board: Board, data: Mapping[str, Any]) -> Board:
    """A party or a flight aboard is lost; the power grapnel goes with the first such hit (CM-PG-04)."""
    ship = _ship(board, data)
    if data["flight"]:
        return board.with_ship(replace(ship, flights=ship.flights - 1, grapnel=False))
    return board.with_ship(replace(ship, parties=ship.parties - 1, grapnel=False))


def _critical(board: Board, data: Mapping[str, Any]) -> Board:
    """A critical that lights lights waits for step 5 (CM-SEQ-12); any other is permanent (CM-LIGHT-07)."""
    ship, critical = _ship(board, data), read_str(data["critical"])
    if critical in CRITICAL_LIGHTS:
        return board.with_ship(replace(ship, pending=(*ship.pending, critical)))
    return board.with_ship(replace(ship, criticals=(*ship.criticals, critical)))


def _dropped(board: Board, data: Mapping[str, Any]) -> Board:
    return board.with_ship(replace(_ship(board, data), band=read_str(data["band"])))


def _amber_lit(board: Board, data: Mapping[str, Any]) -> Board:
    ship = _ship(board, data)
    lit = {read_str(light): AMBER for light in read_list(data["lights"])}
    return board.with_ship(replace(ship.with_lights(lit), pending=()))


def _lights_cycled(board: Board, data: Mapping[str, Any]) -> Board:
    """Every ship: reds off, then ambers to red (CM-SEQ-14/15), and every Fired marker off (CM-SEQ-16)."""
    after = {GREEN: GREEN, RED: GREEN, AMBER: RED}
    ships = tuple(
        replace(ship, lights=tuple((light, after[colour]) for light, colour in ship.lights), fired=())
        for ship in board.ships
    )
    return replace(board, ships=ships)


def _repaired(board: Board, data: Mapping[str, Any]) -> Board:
    ship = _ship(board, data)
    return board.with_ship(ship.with_lights({read_str(data["light"]): GREEN}))


def _fate(board: Board, data: Mapping[str, Any]) -> Board:
    """A ship out of the fight: her grapples are cut on both ends; a crashed ship lies on the ground."""
    ship, status = _ship(board, data), read_str(data["status"])
    band = panels.GROUND if status == CRASHED else ship.band
    out = replace(ship, status=status, band=band, grappled=())
    ships = tuple(
        out if s.name == ship.name else replace(s, grappled=tuple(name for name in s.grappled if name != ship.name))
        for s in board.ships
    )
    return replace(board, ships=ships)


def _turn_ended(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, active=None, status=None, due=())


# --- fire (step 3): the orders answered are kept on the board until the volley is rolled ---------------------


def _fire_orders(board: Board, choice: Any) -> Board:
    """The active captain's orders (CM-SEQ-07): step 3 begins with them."""
    return replace(board, volley=Volley(shots=_shots(choice)))


def _return_fire(board: Board, choice: Any) -> Board:
    """One captain's return fire at the active ship (CM-SEQ-08), with the others answered in the same batch."""
    volley = board.volley or Volley()
    return replace(board, volley=replace(volley, answered=True, returned=(*volley.returned, *_shots(choice))))


def _shots(choice: Any) -> tuple[Shot, ...]:
    return tuple(Shot.from_json(read_object(shot)) for shot in read_list(read_object(choice)["shots"]))


# A batch of answers folded answer by answer, in the order asked, by the decision's kind; each fold takes the
# answer's choice as it was given (a move may be a bare list of steps).
AnswerFold = Callable[[Board, Any], Board]
ANSWER_FOLDS: dict[str, AnswerFold] = {FIRE_ORDERS: _fire_orders, RETURN_FIRE: _return_fire}


def _decisions(board: Board, data: Mapping[str, Any]) -> Board:
    answers = read_object(data["answers"])
    for request_id in read_list(data["order"]):
        answer = read_object(answers[read_str(request_id)])
        fold = ANSWER_FOLDS.get(read_str(answer["decision"]))
        if fold is not None:
            board = fold(board, answer["choice"])
    return board


def _volley(board: Board, data: Mapping[str, Any]) -> Board:
    """The orders are carried out: the dice that follow say the rest (GUN_FIRED, DAMAGE_DUE)."""
    return replace(board, volley=None)


FOLDS: dict[str, Fold] = {
    DECK_MADE: _deck_made,
    CARD_TURNED: _card_turned,
    STATUS_CHECKED: _status_checked,
    GUN_FIRED: _gun_fired,
    DAMAGE_DUE: _damage_due,
    BOX_CROSSED: _box_crossed,
    GUN_LOST: _gun_lost,
    PARTY_LOST: _party_lost,
    CRITICAL: _critical,
    DROPPED: _dropped,
    AMBER_LIT: _amber_lit,
    LIGHTS_CYCLED: _lights_cycled,
    REPAIRED: _repaired,
    FATE: _fate,
    TURN_ENDED: _turn_ended,
    DECISIONS: _decisions,
    VOLLEY: _volley,
}


# --- the move (the movement slice) ------------------------------------------------------------------------------


def _move_written(board: Board, choice: Any) -> Board:
    """The active ship's move, once answered, is kept until it is made (an ANSWER_FOLDS entry)."""
    return replace(board, move=MoveOrder.from_json(choice))


def _moved(board: Board, data: Mapping[str, Any]) -> Board:
    ship = _ship(board, data)
    hex_ = Hex.from_json(data["hex"])
    return board.with_ship(replace(ship, hex=hex_, facing=read_int(data["facing"]), band=read_str(data["band"])))


def _move_done(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, move=None)


ANSWER_FOLDS[MOVE_DECISION] = _move_written
FOLDS.update({MOVED: _moved, MOVE_DONE: _move_done})


# --- grappling and boarding (the boarding slice) ------------------------------------------------------------------


def _pair(data: Mapping[str, Any]) -> Grapple:
    return Grapple(attacker=read_str(data["attacker"]), defender=read_str(data["defender"]))


def _grappled(board: Board, data: Mapping[str, Any]) -> Board:
    """The lines hold (CM-BRD-04): the action is on the board and each ship names the other as grappled."""
    grapple = _pair(data)
    attacker, defender = board.ship_named(grapple.attacker), board.ship_named(grapple.defender)
    board = board.with_ship(replace(attacker, grappled=(*attacker.grappled, defender.name)))
    board = board.with_ship(replace(defender, grappled=(*defender.grappled, attacker.name)))
    return replace(board, grapples=(*board.grapples, grapple))


def _grapples_cut(board: Board, data: Mapping[str, Any]) -> Board:
    """The boarders repelled or cast off (CM-BRD-18): the action is over and the ships let go of each other."""
    grapple = _pair(data)
    attacker, defender = board.ship_named(grapple.attacker), board.ship_named(grapple.defender)
    board = board.with_ship(replace(attacker, grappled=tuple(n for n in attacker.grappled if n != defender.name)))
    board = board.with_ship(replace(defender, grappled=tuple(n for n in defender.grappled if n != attacker.name)))
    return replace(board, grapples=tuple(g for g in board.grapples if g != grapple))


def _boarding_fought(board: Board, data: Mapping[str, Any]) -> Board:
    losses = tuple((ship, read_int(points)) for ship, points in read_object(data["losses"]).items())
    fight = BoardingRound(read_str(data["attacker"]), read_str(data["defender"]), read_str(data["winner"]), losses)
    return replace(board, fight=fight)


def _losses_taken(board: Board, data: Mapping[str, Any]) -> Board:
    """Boarding value marked off: parties, flights, then the rest (CM-BRD-11/16); the power grapnel goes with the
    first party or flight lost (CM-PG-04, docs/cloudships.md section 8)."""
    ship = _ship(board, data)
    parties, flights = read_int(data["parties"]), read_int(data["flights"])
    grapnel = ship.grapnel and parties + flights == 0
    changed = replace(
        ship,
        parties=ship.parties - parties,
        flights=ship.flights - flights,
        marked=ship.marked + read_int(data["marked"]),
        grapnel=grapnel,
    )
    return board.with_ship(changed)


def _boarding_done(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, boarding=None, fight=None)


def _board_order(board: Board, choice: Any) -> Board:
    """The active captain's boarding order, kept until the boarding step carries it out."""
    return replace(board, boarding=choice)


def _party_hits(board: Board, choice: Any) -> Board:
    """How many of a ship's Boarding Party boxes take a flight at this step (CM-FLY-25)."""
    given = read_object(choice)
    hits = (*(board.flight_hits or ()), (read_str(given["ship"]), read_int(given["flights"])))
    return replace(board, flight_hits=hits)


def _losses_split(board: Board, choice: Any) -> Board:
    """Which parties and flights a captain's boarding losses take (CM-BRD-11)."""
    if board.fight is None:
        return board
    given = read_object(choice)
    splits = (*board.fight.splits, (read_str(given["ship"]), given))
    return replace(board, fight=replace(board.fight, splits=splits))


def _struck_or_gone(board: Board, data: Mapping[str, Any]) -> Board:
    """A ship out of the fight ends every boarding action she was in; one that struck to boarders is their prize
    (CM-BRD-20/21)."""
    name = read_str(data["ship"])
    grapples = tuple(g for g in board.grapples if name not in (g.attacker, g.defender))
    ship = board.ship_named(name)
    return replace(board.with_ship(replace(ship, taken_by=read_str(data.get("taken_by", "")))), grapples=grapples)


def _flight_hit(board: Board, data: Mapping[str, Any]) -> Board:
    """A flight lost to a Boarding Party box: one fewer of the flights her captain gave at this step (CM-FLY-25)."""
    name = read_str(data["ship"])
    if not data["flight"] or board.flight_hits is None:
        return board
    return replace(board, flight_hits=tuple((n, k - 1 if n == name else k) for n, k in board.flight_hits))


def _turn_over(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, flight_hits=None)


def _then(first: Fold, second: Fold) -> Fold:
    """Two folds of one kind, made one: the slices' folds of FATE, PARTY_LOST and TURN_ENDED each do their part."""
    return lambda board, data: second(first(board, data), data)


ANSWER_FOLDS.update({BOARD_DECISION: _board_order, PARTY_HITS_DECISION: _party_hits, LOSSES_DECISION: _losses_split})
FOLDS.update(
    {
        GRAPPLED: _grappled,
        GRAPPLES_CUT: _grapples_cut,
        BOARDING_FOUGHT: _boarding_fought,
        LOSSES_TAKEN: _losses_taken,
        BOARDING_DONE: _boarding_done,
        FATE: _then(FOLDS[FATE], _struck_or_gone),
        PARTY_LOST: _then(FOLDS[PARTY_LOST], _flight_hit),
        TURN_ENDED: _then(FOLDS[TURN_ENDED], _turn_over),
    }
)


# --- exotic ordnance (the ordnance slice: CM-SMT, CM-TM, CM-DT) ---------------------------------------------------


def _ordnance(board: Board, **changes: Any) -> Board:
    return replace(board, ordnance=replace(board.ordnance, **changes))


def _ordnance_orders(board: Board, choice: Any) -> Board:
    """The start-of-turn orders, kept until carried out (an ANSWER_FOLDS entry)."""
    return _ordnance(board, orders=OrdnanceOrders.from_json(choice))


def _cable(data: Mapping[str, Any]) -> tuple[str, int]:
    return read_str(data["ship"]), read_int(data["gun"])


def _let_out(board: Board, data: Mapping[str, Any]) -> Board:
    return _ordnance(board, out=(*board.ordnance.out, _cable(data)))


def _winched_in(board: Board, data: Mapping[str, Any]) -> Board:
    return _ordnance(board, out=tuple(cable for cable in board.ordnance.out if cable != _cable(data)))


def _torpedo_launched(board: Board, data: Mapping[str, Any]) -> Board:
    return _ordnance(board, torpedoes=(*board.ordnance.torpedoes, Torpedo.from_json(data)))


def _torpedo_flew(board: Board, data: Mapping[str, Any]) -> Board:
    hex_, flights, which = Hex.from_json(data["hex"]), read_int(data["flight"]), _cable(data)
    torpedoes = tuple(
        replace(t, hex=hex_, flights=flights) if (t.ship, t.gun) == which else t for t in board.ordnance.torpedoes
    )
    return _ordnance(board, torpedoes=torpedoes)


def _gone(board: Board, which: tuple[str, int]) -> Board:
    """A torpedo or a cable's weapon no longer at large."""
    torpedoes = tuple(t for t in board.ordnance.torpedoes if (t.ship, t.gun) != which)
    out = tuple(cable for cable in board.ordnance.out if cable != which)
    return _ordnance(board, torpedoes=torpedoes, out=out)


def _contact(board: Board, data: Mapping[str, Any]) -> Board:
    """A hit explodes the weapon: the torpedo or the mine is gone (CM-SMT-05, CM-TM-12); a miss carries on."""
    return _gone(board, _cable(data)) if data["hit"] else board


def _torpedo_gone(board: Board, data: Mapping[str, Any]) -> Board:
    return _gone(board, _cable(data))


def _readied(board: Board, data: Mapping[str, Any]) -> Board:
    return _ordnance(board, orders=None, readied=(read_str(data["ship"]), read_int(data["round"])))


ANSWER_FOLDS[ORDNANCE_DECISION] = _ordnance_orders
FOLDS.update(
    {
        LET_OUT: _let_out,
        WINCHED_IN: _winched_in,
        TORPEDO_LAUNCHED: _torpedo_launched,
        TORPEDO_FLEW: _torpedo_flew,
        CONTACT: _contact,
        TORPEDO_GONE: _torpedo_gone,
        READIED: _readied,
    }
)


# --- the GUN option (CM-GUN-03..05): the guns named to be hit first, kept until the turn ends ---------------------


def _hit_first(board: Board, choice: Any) -> Board:
    """Fire orders or return fire naming, per target, the guns the firer wants her to lose first."""
    named = read_object(choice).get(HIT_FIRST) or {}
    shots = _shots(choice)
    if not named or not shots:
        return board
    firer = shots[0].ship
    added = tuple((firer, read_str(t), tuple(read_int(n) for n in read_list(g))) for t, g in read_object(named).items())
    return replace(board, hit_first=(*board.hit_first, *added))


def _hit_first_done(board: Board, data: Mapping[str, Any]) -> Board:
    return replace(board, hit_first=()) if board.hit_first else board


def _answer_then(first: AnswerFold, second: AnswerFold) -> AnswerFold:
    return lambda board, choice: second(first(board, choice), choice)


ANSWER_FOLDS.update(
    {
        FIRE_ORDERS: _answer_then(ANSWER_FOLDS[FIRE_ORDERS], _hit_first),
        RETURN_FIRE: _answer_then(ANSWER_FOLDS[RETURN_FIRE], _hit_first),
    }
)
FOLDS[TURN_ENDED] = _then(FOLDS[TURN_ENDED], _hit_first_done)


# --- Flying Martians deployed (the flights slice: CM-FLY-02..21, CM-FLY-27) ----------------------------------------


def _martians(board: Board, **changes: Any) -> Board:
    return replace(board, martians=replace(board.martians, **changes))


def _flight_key(data: Mapping[str, Any]) -> tuple[str, int]:
    return read_str(data["ship"]), read_int(data["flight"])


def _flight_orders(board: Board, choice: Any) -> Board:
    """The start-of-turn orders for her flights, kept until carried out (an ANSWER_FOLDS entry)."""
    return _martians(board, orders=FlightOrders.from_json(choice))


def _flight_deployed(board: Board, data: Mapping[str, Any]) -> Board:
    """One flight fewer aboard, one more on the table in her hex and band (CM-FLY-04)."""
    ship, number = _ship(board, data), read_int(data["flight"])
    flight = Flight(ship.name, number, Hex.from_json(data["hex"]), read_str(data["band"]))
    board = board.with_ship(replace(ship, flights=ship.flights - 1))
    return _martians(board, out=(*board.martians.out, flight))


def _flight_flew(board: Board, data: Mapping[str, Any]) -> Board:
    key, hex_, band = _flight_key(data), Hex.from_json(data["hex"]), read_str(data["band"])
    out = tuple(replace(f, hex=hex_, band=band) if f.key == key else f for f in board.martians.out)
    return _martians(board, out=out)


def _flight_redocked(board: Board, data: Mapping[str, Any]) -> Board:
    """Back aboard: one more flight in her boarding parties (CM-FLY-21)."""
    ship, key = _ship(board, data), _flight_key(data)
    board = board.with_ship(replace(ship, flights=ship.flights + 1))
    return _martians(board, out=tuple(f for f in board.martians.out if f.key != key))


def _flights_ready(board: Board, data: Mapping[str, Any]) -> Board:
    return _martians(board, orders=None, flown=(read_str(data["ship"]), read_int(data["round"])))


def _flight_attacked(board: Board, data: Mapping[str, Any]) -> Board:
    """A flight aboard that fired is done for the round, as any gun (CM-FLY-27, CM-FIRE-01)."""
    if read_int(data["flight"]) != 0:
        return board
    return _martians(board, fired=(*board.martians.fired, read_str(data["ship"])))


def _flight_fired_on(board: Board, data: Mapping[str, Any]) -> Board:
    """Three anti-personnel hits or more wipe a flight out (CM-FLY-16)."""
    if not data["wiped"]:
        return board
    mother, number = read_list(data["flight"])
    key = (read_str(mother), read_int(number))
    return _martians(board, out=tuple(f for f in board.martians.out if f.key != key))


def _flight_shots(board: Board, choice: Any) -> Board:
    """Fire orders or return fire naming flights' attacks and guns at flights: kept until the volley."""
    orders = read_object(choice)
    named = [*read_list(orders.get(FLIGHTS_KEY, [])), *read_list(orders.get(AT_FLIGHTS_KEY, []))]
    if not named:
        return board
    return _martians(board, shots=(*board.martians.shots, *(flight_shot(item) for item in named)))


def _flights_rolled(board: Board, data: Mapping[str, Any]) -> Board:
    return _martians(board, shots=()) if board.martians.shots else board


def _flights_rested(board: Board, data: Mapping[str, Any]) -> Board:
    """End of round: the flights aboard may fire again, as Fired markers come off (CM-SEQ-16)."""
    return _martians(board, fired=()) if board.martians.fired else board


def _mother_gone(board: Board, data: Mapping[str, Any]) -> Board:
    """A ship out of the fight takes her deployed flights with her: they have no turn of their own (decided)."""
    name = read_str(data["ship"])
    if not board.martians.of(name):
        return board
    return _martians(board, out=tuple(f for f in board.martians.out if f.ship != name))


ANSWER_FOLDS.update(
    {
        FLIGHTS_DECISION: _flight_orders,
        FIRE_ORDERS: _answer_then(ANSWER_FOLDS[FIRE_ORDERS], _flight_shots),
        RETURN_FIRE: _answer_then(ANSWER_FOLDS[RETURN_FIRE], _flight_shots),
    }
)
FOLDS.update(
    {
        FLIGHT_DEPLOYED: _flight_deployed,
        FLIGHT_FLEW: _flight_flew,
        FLIGHT_REDOCKED: _flight_redocked,
        FLIGHTS_READY: _flights_ready,
        FLIGHT_ATTACKED: _flight_attacked,
        FLIGHT_HIT: _flight_fired_on,
        VOLLEY: _then(FOLDS[VOLLEY], _flights_rolled),
        LIGHTS_CYCLED: _then(FOLDS[LIGHTS_CYCLED], _flights_rested),
        FATE: _then(FOLDS[FATE], _mother_gone),
    }
)


def apply(state: BattleState[Board], event: Event) -> Board:
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state.board, event.data)
