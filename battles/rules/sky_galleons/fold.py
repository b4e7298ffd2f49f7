"""The fold: the board after each event, as a table {event kind: fold} built from the events each module of
the ruleset defines (SG-SEQ-01..12). A fold is pure and never re-runs a rule: record changes travel as ``ship``
events carrying the whole new record. An event kind with no fold leaves the board as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from battles.engine.decisions import WHOLE
from battles.engine.events import DECISION, DECISIONS, JSON, TURN, Event
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list, read_object
from battles.engine.state import BattleState
from battles.rules.sky_galleons import avoidance, flying, movement, ordnance_play, plotting, portable_guns
from battles.rules.sky_galleons.board import Answer, Board, Fold, read_aspects, read_counts
from battles.rules.sky_galleons.kinds import ESCAPED
from battles.rules.sky_galleons.prizes import Prize
from galleons.record import ShipRecord

State = BattleState[Board]


def apply(state: State, event: Event) -> Board:
    """The board after ``event``: its kind's fold, or the board unchanged."""
    fold = FOLDS.get(event.kind)
    return state.board if fold is None else fold(state, event)


# --- ships and their moves (SG-MOV-01..06, SG-ALT-10, SG-DMG-15) --------------------------------------------


def _ship(state: State, event: Event) -> Board:
    board = state.board
    if type(event.source) is ShipRecord:  # the record the live event was built from (basics.commit): what the
        # parse gives. Not checked again here (check_record was a tenth of a shot's cost): the rules build only
        # records the parse accepts, and test_engine_shortcuts parses and checks every ship event's record of
        # whole battles (check_record); a log read back parses, and so checks, each one.
        return board.with_ship(event.source)
    # The record the event replaces lends its unchanged parts (guns, crew...): the same record, parsed in part.
    data = event.data["record"]
    like = board.by_name.get(str(data.get("name"))) if isinstance(data, dict) else None
    return board.with_ship(ShipRecord.from_json(data, like=like))


def _moved(state: State, event: Event) -> Board:
    board, data = state.board, event.data
    ship = board.ship(str(data["ship"]))
    moved = _placed_at(ship, data)
    if ship.status == "landed" and data["step"] == movement.CLIMB:
        moved = moved.evolve(status="flying")  # taking off again
    ends = data.get("ends", "")
    out = board.out
    if ends == movement.LANDED:
        moved = moved.evolve(status="landed")
    elif ends in (movement.CRASH_LANDED, movement.CRASHED):
        moved = moved.evolve(status="crashed")
    elif ends == movement.LEFT_MAP:  # off the map is out of the fight at once
        out = {**board.out, ship.name: ESCAPED}
    same_hex = {k: v for k, v in board.same_hex.items() if ship.name not in k.split("|")}
    # The most frequent fold of a battle: the board made once, as with_ship and then evolve would make it.
    ships = tuple(moved if s.name == moved.name else s for s in board.ships)
    return board.evolve(ships=ships, same_hex=same_hex, out=out)


def _forced_drop(state: State, event: Event) -> Board:
    board, data = state.board, event.data
    ship = board.ship(str(data["ship"]))
    status = "crashed" if data.get("crashed") else ship.status
    return board.with_ship(ship.evolve(altitude=str(data["altitude"]), status=status))


def _placed(state: State, event: Event) -> Board:
    board = state.board
    ship = board.ship(str(event.data["ship"]))
    return board.with_ship(_placed_at(ship, event.data)).evolve(placed=(*board.placed, ship.name))


def _move_done(state: State, event: Event) -> Board:
    board, name = state.board, str(event.data["ship"])
    return board.evolve(
        moves_done=(*board.moves_done, name),
        moved={**board.moved, name: board.moved.get(name, 0) + read_int(event.data["hexes"])},
        decided=(),
    )


def _out(state: State, event: Event) -> Board:
    return state.board.evolve(out={**state.board.out, str(event.data["ship"]): str(event.data["reason"])})


def _kite_die(state: State, event: Event) -> Board:
    board = state.board
    return board.evolve(kite_dice={**board.kite_dice, str(event.data["ship"]): read_int(event.data["die"])})


def _relative_position(state: State, event: Event) -> Board:
    declared = read_aspects(event.data["aspects"])
    return state.board.evolve(same_hex={**state.board.same_hex, str(event.data["pair"]): declared}, decided=())


def _reinforcement(state: State, event: Event) -> Board:
    board, record = state.board, ShipRecord.from_json(event.data["record"])
    return board.evolve(
        ships=(*board.ships, record),
        roles={**board.roles, record.name: "warship"},
        crew_at_start={**board.crew_at_start, record.name: record.crew_aboard},
    )


def _placed_at(ship: ShipRecord, data: Mapping[str, JSON]) -> ShipRecord:
    """The ship at the hex, facing and altitude a ``moved`` or ``placed`` event carries."""
    return ship.evolve(
        position=Hex.from_json(data["hex"]), facing=read_int(data["facing"]), altitude=str(data["altitude"])
    )


SHIPS: Mapping[str, Fold] = {
    "ship": _ship,
    "moved": _moved,
    "forced drop": _forced_drop,
    "placed": _placed,
    "move done": _move_done,
    "out": _out,
    "kite die": _kite_die,
    "relative position": _relative_position,
    "reinforcement": _reinforcement,
}


# --- the sequence of play (SG-SEQ-01..12) ------------------------------------------------------------------


def _stage(state: State, event: Event) -> Board:
    board, data = state.board, event.data
    phase_no = read_int(data["phase_no"]) if "phase_no" in data else board.phase_no
    same_phase = phase_no == board.phase_no
    return board.evolve(
        stage=str(data["stage"]),
        asking=str(data["asking"]),
        phase_no=phase_no,
        moves_done=board.moves_done if same_phase else (),
        crossing=board.crossing if same_phase else {},
        written=board.written if same_phase else (),
        decided=(),
    )


def _asking(state: State, event: Event) -> Board:
    return state.board.evolve(asking=str(event.data["ship"]), decided=())


def _standing_orders(state: State, event: Event) -> Board:
    """A side's standing orders, logged to it alone (standing.py)."""
    board = state.board
    return board.evolve(standing={**board.standing, str(event.data["side"]): event.data["orders"]})


def _moves_written(state: State, event: Event) -> Board:
    """The moving side's moves, written at once and carried out in this order (movement_phase.go_on)."""
    moves = read_object(event.data["moves"])
    return state.board.evolve(written=tuple((str(name), moves[str(name)]) for name in read_list(event.data["order"])))


def _turn(state: State, event: Event) -> Board:
    """A new turn: what was counted for the last one starts again (SG-SEQ-01)."""
    board = state.board
    return board.evolve(
        last_moved=dict(board.moved),
        moved={},
        order=(),
        phase_no=0,
        moves_done=(),
        rammers={},
        ram_attempts={},
        avoiding={},
        held_move=None,
        kite_dice={},
        plots={},
        written=(),
        plotted={},
        avoiders=(),
        owed=dict(board.owing),
        owing={},
    )


def _movement_order(state: State, event: Event) -> Board:
    return state.board.evolve(order=tuple(str(s) for s in read_list(event.data["order"])))


def _placement_order(state: State, event: Event) -> Board:
    return state.board.evolve(placing=tuple(str(s) for s in read_list(event.data["ship_order"])))


def _wind(state: State, event: Event) -> Board:
    return state.board.evolve(wind=read_int(event.data["direction"]))


def _mark(state: State, event: Event) -> Board:
    data = event.data
    marks = {k: v for k, v in state.board.marks.items() if k != data["key"]}
    if data["value"] is not None:
        marks[str(data["key"])] = data["value"]
    return state.board.evolve(marks=marks)


SEQUENCE: Mapping[str, Fold] = {
    "stage": _stage,
    "asking": _asking,
    "standing orders": _standing_orders,
    "moves written": _moves_written,
    TURN: _turn,
    "movement order": _movement_order,
    "placement order": _placement_order,
    "wind": _wind,
    "mark": _mark,
}


# --- answers (secret answers revealed at once, SG-SEQ-02, SG-MG-06, SG-SIG-05) ------------------------------


def _decisions(state: State, event: Event) -> Board:
    board, data = state.board, event.data
    answers = read_object(data["answers"])
    decided = tuple(
        Answer(
            str(read_object(a)["side"]),
            str(read_object(a)["decision"]),
            _unsealed(read_object(a)["choice"], board.sealed.get(key)),
        )
        for key, a in sorted(answers.items(), key=_asked_order(data))
    )
    return board.evolve(decided=decided, sealed={})


def _decision(state: State, event: Event) -> Board:
    """A secret answer's sealed keys, kept for the fold (the public reveal lacks them)."""
    board = state.board
    request = state.request(str(event.data["request"]))
    choice = event.data["choice"]
    if request is not None and WHOLE in request.sealed:  # a move written for later: the whole answer
        return board.evolve(sealed={**board.sealed, request.id: {WHOLE: choice}})
    if request is not None and request.sealed and isinstance(choice, dict):
        part = {k: v for k, v in choice.items() if k in request.sealed}
        return board.evolve(sealed={**board.sealed, request.id: part}) if part else board
    return board


def _asked_order(data: Mapping[str, JSON]) -> Callable[[tuple[str, JSON]], int]:
    """Sort a batch's answers in the order they were asked: the batch's ``order`` (older logs without it sort by
    the number in the ids, d<n>)."""
    order = data.get("order")
    if isinstance(order, list):
        place = {str(request_id): n for n, request_id in enumerate(order)}
        return lambda item: place[item[0]]
    return lambda item: int(item[0][1:])


def _unsealed(choice: JSON, sealed: JSON) -> JSON:
    """A revealed answer with its sealed keys put back (they were kept from the public reveal)."""
    if isinstance(sealed, dict) and WHOLE in sealed:
        return sealed[WHOLE]
    if isinstance(choice, dict) and isinstance(sealed, dict):
        return {**choice, **sealed}
    return choice


ANSWERS: Mapping[str, Fold] = {DECISIONS: _decisions, DECISION: _decision}


# --- close action: rams, grapples, tows, boarders, prizes (SG-RAM, SG-GRAP, SG-TOW, SG-BRD) ----------------


def _grappled(state: State, event: Event) -> Board:
    board = state.board
    a, b = (board.ship(str(n)) for n in read_list(event.data["pair"]))
    return board.with_ship(_grapple(a, b.name)).with_ship(_grapple(b, a.name))


def _grapple_cut(state: State, event: Event) -> Board:
    board = state.board
    a, b = (board.ship(str(n)) for n in read_list(event.data["pair"]))
    tows = {k: v for k, v in board.tows.items() if {k, v[0]} != {a.name, b.name}}  # the tow is cast off
    return board.with_ship(_ungrapple(a, b.name)).with_ship(_ungrapple(b, a.name)).evolve(tows=tows)


def _tow_rigged(state: State, event: Event) -> Board:
    data = event.data
    tows = {**state.board.tows, str(data["towed"]): (str(data["tower"]), read_int(data["rigged_turn"]))}
    return state.board.evolve(tows=tows)


def _towed(state: State, event: Event) -> Board:
    board, data = state.board, event.data
    if data["hex"] is None:
        return board
    return board.with_ship(_placed_at(board.ship(str(data["ship"])), data))


def _ram_declarations(state: State, event: Event) -> Board:
    return state.board.evolve(rammers=read_counts(event.data["declared"]), ram_attempts={})


def _held_move(state: State, event: Event) -> Board:
    board, side = state.board, str(event.data["side"])
    attempts = {**board.ram_attempts, side: board.ram_attempts.get(side, 0) + 1}
    return board.evolve(held_move=event.data["move"], ram_attempts=attempts)


def _crossing(state: State, event: Event) -> Board:
    board, data = state.board, event.data
    crossing = {**board.crossing, str(data["ship"]): (str(data["target"]), read_int(data["men"]))}
    return board.evolve(crossing=crossing, decided=())


def _captured(state: State, event: Event) -> Board:
    return state.board.evolve(captured={**state.board.captured, str(event.data["ship"]): str(event.data["by"])})


def _prize(state: State, event: Event) -> Board:
    """A crewed prize rejoins the fight on her captor's side (SG-BRD-21)."""
    board, data = state.board, event.data
    name = str(data["ship"])
    out = {k: v for k, v in board.out.items() if k != name} if data["rejoins"] else board.out
    return board.evolve(prizes={**board.prizes, name: Prize.from_json(data["prize"])}, out=out)


def _grapple(record: ShipRecord, other: str) -> ShipRecord:
    if other in record.grappled_with:
        return record
    return record.evolve(grappled_with=(*record.grappled_with, other))


def _ungrapple(record: ShipRecord, other: str) -> ShipRecord:
    return record.evolve(grappled_with=tuple(n for n in record.grappled_with if n != other))


CLOSE_ACTION: Mapping[str, Fold] = {
    "grappled": _grappled,
    "grapple cut": _grapple_cut,
    "tow rigged": _tow_rigged,
    "towed": _towed,
    "ram declarations": _ram_declarations,
    "held move": _held_move,
    "crossing": _crossing,
    "captured": _captured,
    "prize": _prize,
}


def _flyers(state: State, event: Event) -> Board:
    """Flying parties formed, moved or gone (flying.py, SG-HM-02..06)."""
    board = state.board
    return board.evolve(flyers=flying.fold(board.flyers, event.kind, event.data, event.turn))


FLYING: Mapping[str, Fold] = dict.fromkeys(flying.EVENTS, _flyers)


def _table(*parts: Mapping[str, Fold]) -> Mapping[str, Fold]:
    """One table from each module's folds; an event kind folded twice is a mistake, not an override."""
    table: dict[str, Fold] = {}
    for part in parts:
        twice = set(table) & set(part)
        if twice:
            raise ValueError(f"event kinds folded twice: {sorted(twice)}")
        table.update(part)
    return MappingProxyType(table)


FOLDS = _table(
    SHIPS,
    SEQUENCE,
    ANSWERS,
    CLOSE_ACTION,
    FLYING,
    avoidance.FOLDS,
    plotting.FOLDS,
    portable_guns.FOLDS,
    ordnance_play.FOLDS,
)
