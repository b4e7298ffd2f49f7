"""Cloudships' answer schemas (battles.engine.answers): how a side spells its answer to each open decision, as
fields the generic renderer draws. The move is a path built step by step: the steps offered are those the rules
accept next (manoeuvre.take), with the points spent and where she ends; then a ram on a ship whose hex the plan
enters at her band (CM-RAM-01). Fire orders and return fire: one slot per gun that may fire, holding fire or
at one of its targets, each labelled with the range and the score it needs. Every other decision: the engine's
default (its listed options)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from battles.engine import answers, hexgrid
from battles.engine.answers import AnswerSchema, Field, Group, Many, One, Option, Path, Progress, Repeat
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import boarding, deployed, firing, gunnery, manoeuvre, ordnance, panels, validate
from battles.rules.cloudships_2023.board import Board, Flight, FlightShot, Shot
from battles.rules.cloudships_2023.kinds import (
    AT_FLIGHTS_KEY,
    BOARD_DECISION,
    FIRE_ORDERS,
    FLIGHTS_DECISION,
    FLIGHTS_KEY,
    HIT_FIRST,
    LOSSES_DECISION,
    MOVE_DECISION,
    ORDNANCE_DECISION,
    PARTY_HITS_DECISION,
    RETURN_FIRE,
)
from battles.rules.cloudships_2023.manoeuvre import Mover, PlanError, Way

STEP_WORDS = {
    manoeuvre.AHEAD: "Ahead",
    manoeuvre.PORT: "Turn to port",
    manoeuvre.STARBOARD: "Turn to starboard",
    manoeuvre.POWER_PORT: "Power turn to port",
    manoeuvre.POWER_STARBOARD: "Power turn to starboard",
    manoeuvre.CLIMB: "Climb in place",
    manoeuvre.DESCEND: "Descend in place",
    manoeuvre.CLIMB_AHEAD: "Climb ahead",
    manoeuvre.DESCEND_AHEAD: "Descend ahead",
}
COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")
MAX_PLAN = 40  # steps: no legal move is longer
TITLES = {FIRE_ORDERS: "Fire orders", RETURN_FIRE: "Return fire"}


def schema(
    state: BattleState[Board], request: DecisionRequest, *, partial: JSON = None, sides: Mapping[str, str] | None = None
) -> AnswerSchema:
    if request.kind in validate.FIRE_DECISIONS:
        return fire_schema(state, request)
    if request.kind in (BOARD_DECISION, LOSSES_DECISION, PARTY_HITS_DECISION):
        return boarding_schema(request)
    if request.kind == ORDNANCE_DECISION:
        return ordnance_schema(state, request)
    if request.kind == FLIGHTS_DECISION:
        return flights_schema(state.board, request)
    if request.kind != MOVE_DECISION:
        return answers.default_schema(request)
    plan = _clean(partial)
    root = move_field(state, request, plan, sides or {})
    return AnswerSchema(request.id, root, title=f"Move {request.ships[0]}", clause=request.rule, layout="move")


def _clean(partial: JSON) -> list[str]:
    """A plan being built (from a URL): known steps only, else nothing."""
    if not isinstance(partial, list) or len(partial) > MAX_PLAN:
        return []
    return [str(t) for t in partial] if all(t in manoeuvre.STEPS for t in partial) else []


def move_field(state: BattleState[Board], request: DecisionRequest, plan: list[str], sides: Mapping[str, str]) -> Field:
    name = request.ships[0]
    move = validate.mover_of(state, name)
    problem = validate.move_problem(state, name, list[JSON](plan))
    way = _way(move, plan)
    progress = Progress(
        steps=tuple(plan),
        words=", ".join(plan) if plan else "stay where she is",
        spent=manoeuvre.cost(plan),
        budget=move.status.movement,
        accepted=tuple(token for token in manoeuvre.STEPS if way is not None and _takes(move, way, token, len(plan))),
        complete=problem is None,
        problem="" if problem is None else f"{problem.clause}: {problem.reason}",
        outcome=_ends(way) if way is not None else "",
        note=_limits(move),
    )
    vocabulary = tuple(Option(token, _step_words(token)) for token in manoeuvre.STEPS)
    default = tuple(str(t) for t in request.default) if isinstance(request.default, list) else ()
    path = Path(key="steps", label="Steps", steps=vocabulary, default=default, progress=progress)
    fields: list[Field] = [path]
    rams = _rams(state, move, plan, sides) if problem is None else []
    if rams:
        label = "On the way (CM-RAM-01)"
        fields.append(One(key="attack", label=label, merge=True, options=(Option(None, "Just move"), *rams)))
    return Group(key="", bare="steps", fields=tuple(fields), clause=request.rule)


def _way(move: Mover, plan: Sequence[str]) -> Way | None:
    """Where the plan so far has taken her, or None if some step of it is refused."""
    way = manoeuvre.start(move)
    try:
        for number, token in enumerate(plan):
            way, _ = manoeuvre.take(move, way, token, number)
    except PlanError:
        return None
    return way


def _takes(move: Mover, way: Way, token: str, number: int) -> bool:
    try:
        manoeuvre.take(move, way, token, number)
    except PlanError:
        return False
    return True


def _rams(state: BattleState[Board], move: Mover, plan: list[str], sides: Mapping[str, str]) -> list[Option]:
    found = []
    for other in state.board.flying():
        if validate.move_problem(state, move.name, {"steps": list[JSON](plan), "ram": other.name}) is None:
            whose = sides.get(other.side, other.side)
            found.append(Option({"ram": other.name}, f"Ram {other.name} ({whose})"))
    return found


def _step_words(token: str) -> str:
    cost = manoeuvre.COST[token]
    return f"{STEP_WORDS[token]} ({cost} MP)" if cost else STEP_WORDS[token]


def _ends(way: Way) -> str:
    if way.ended:
        return f"she has {way.ended}"
    col, row = hexgrid.to_odd_q(way.hex)
    return f"ends at hex [{col}, {row}] facing {COMPASS[way.facing]}, {way.band}"


def _limits(move: Mover) -> str:
    status = move.status
    notes = [
        "no turns (No Direction Change)" if status.no_direction_change else "",
        "no band changed (No Altitude Change)" if status.no_altitude_change else "",
        "every point spent (Bridge Hit)" if status.whole_movement else "",
        f"a kite: {move.kite_turns} turn(s) this move" if move.motive == panels.KITE else "",
        f"the last {status.sail} MP are the sail's: no power turns, one turn" if status.sail else "",  # CM-MOV-22
    ]
    return "; ".join(note for note in notes if note)


# --- fire orders and return fire ------------------------------------------------------------------------


def fire_schema(state: BattleState[Board], request: DecisionRequest) -> AnswerSchema:
    """Fire orders or return fire (CM-FIRE, CM-SEQ-07)."""
    title = f"{TITLES[request.kind]}: {validate.firer_of(request)}"
    root = fire_field(state.board, request)
    flying = flight_fire_fields(state.board, request)
    if flying:
        root = Group(key="", fields=(*root.fields, *flying), clause=request.rule)
    if validate.chosen_guns(state):
        root = Group(key="", fields=(*root.fields, hit_first_field(state.board, request)), clause=request.rule)
    return AnswerSchema(request.id, root, title=title, clause=request.rule, layout="fire")


def hit_first_field(board: Board, request: DecisionRequest) -> Field:
    """With the GUN option (CM-GUN-03..05): for each ship the orders may fire at, the guns of hers a GUN box
    should take, the first of them it can (in the panel's order)."""
    targets = validate.targets_for(board, request)
    fields = tuple(
        Many(
            key=ship.name,
            label=f"If a GUN box is crossed on {ship.name}, take first",
            options=tuple(
                Option(gun.number, f"{gun.name} ({gun.number}, {gun.position})") for gun in ship.working_guns()
            ),
            optional=True,
            clause="CM-GUN-03",
        )
        for ship in targets
    )
    return Group(key=HIT_FIRST, fields=fields, clause="CM-GUN-03")


def fire_field(board: Board, request: DecisionRequest) -> Group:
    """One slot per gun that may fire at someone: hold fire, or one of its targets."""
    firer = board.ship_named(validate.firer_of(request))
    legal = firing.legal_shots(board, firer, validate.targets_for(board, request))
    slots: list[Field] = []
    for number in dict.fromkeys(shot.gun for shot in legal):
        gun = firer.gun(number)
        options = [Option(shot.to_json(), shot_words(board, shot)) for shot in legal if shot.gun == number]
        label = f"{possessive(firer.name)} {gun.name} ({gun.number}, {gun.position})"
        slots.append(One(key=str(number), label=label, options=(Option(None, "Hold fire"), *options)))
    return Group(key="", fields=(Repeat(key="shots", items=tuple(slots)),), clause=request.rule)


def shot_words(board: Board, shot: Shot) -> str:
    """The target, the range and what the gun needs: "Locust, short range 3, hits on 3+"."""
    aim = firing.aim(board, shot)
    gun = board.ship_named(shot.ship).gun(shot.gun)
    if aim.band is None:
        return f"{shot.target}, range {aim.range}, hits without a roll ({gun.roll or '1d6'} damage)"
    superior = board.ship_named(shot.ship).panel.superior
    needed = gunnery.score_to_hit(gun.kind, short=aim.band == firing.SHORT, superior=superior)
    what = "crew hits" if gun.kind == panels.ANTI_PERSONNEL else "hits"
    return f"{shot.target}, {aim.band} range {aim.range}, {what} on {needed}+"


# --- grappling and boarding (the boarding slice) ------------------------------------------------------------------


def boarding_schema(request: DecisionRequest) -> AnswerSchema:
    """The boarding slice's listed decisions, each option in the captain's words: what to do with the ship in her
    hex (CM-BRD-01/17/18), which of his parties and flights his boarding losses take (CM-BRD-11), and how many of
    his Boarding Party boxes take a flight (CM-FLY-25)."""
    spoken = {BOARD_DECISION: boarding.words, LOSSES_DECISION: _losses_words}.get(request.kind, _party_hits_words)
    options = tuple(Option(option, spoken(option)) for option in request.options or ())
    label = request.prompt or request.kind
    root = One(key="choice", label=label, options=options, default=request.default, clause=request.rule)
    title = f"{request.kind[:1].upper()}{request.kind[1:]}: {', '.join(request.ships)}"
    return AnswerSchema(request.id, root, title=title, clause=request.rule, layout="options")


def _losses_words(option: JSON) -> str:
    losses = boarding.Losses.of(option)
    lost = [
        f"{losses.parties} boarding part{'y' if losses.parties == 1 else 'ies'}" if losses.parties else "",
        f"{losses.flights} flight{'' if losses.flights == 1 else 's'} of Flying Martians" if losses.flights else "",
        f"{losses.marked} more marked off" if losses.marked else "",
    ]
    return "Lose " + ", ".join(word for word in lost if word) if any(lost) else "Lose nothing"


def _party_hits_words(option: JSON) -> str:
    flights = int(str(option["flights"])) if isinstance(option, dict) else 0
    return (
        f"{flights} of them take a flight of Flying Martians, the rest boarding parties"
        if flights
        else ("Boarding parties only")
    )


# --- mines and torpedoes at the start of a ship's turn ----------------------------------------------------------

ORDNANCE_FIELDS = (
    ("let_out", "Let out on the cable (CM-TM-01, CM-DT-01)", "CM-TM-01"),
    ("winch_in", "Winch back in (CM-TM-02)", "CM-TM-02"),
    ("launch", "Launch a Smutts torpedo: 10 hexes a turn, straight on, for two turns (CM-SMT-01)", "CM-SMT-01"),
)


def ordnance_schema(state: BattleState[Board], request: DecisionRequest) -> AnswerSchema:
    """One choice of several for each thing she may do: the systems she may let out, winch in or launch, each
    labelled with what it does (the band it rides, its damage)."""
    name = request.ships[0]
    ship = state.board.ship_named(name)
    ready = ordnance.choices(state.board, ship, really_low=validate.really_low(state))
    offered = {"let_out": ready.let_out, "winch_in": ready.winch_in, "launch": ready.launch}
    fields: list[Field] = []
    for key, label, clause in ORDNANCE_FIELDS:
        options = tuple(Option(n, system_words(state, ship.gun(n), ship.band)) for n in offered[key])
        if options:
            fields.append(Many(key=key, label=label, options=options, optional=True, clause=clause))
    root = Group(key="", fields=tuple(fields), clause=request.rule)
    return AnswerSchema(request.id, root, title=f"Mines and torpedoes: {name}", clause=request.rule, layout="orders")


def system_words(state: BattleState[Board], gun: panels.Gun, band: str) -> str:
    """ "Tether mine (9), rides High, 1d6+2": the system, where it strikes from here, its damage."""
    head = f"{gun.name} ({gun.number})"
    if gun.kind == panels.SMUTTS:
        return f"{head}, flies at {band}, {gun.roll} (no bonus for a superior crew)"
    reach = ordnance.reach(gun.kind, band, really_low=validate.really_low(state))
    return f"{head}, rides {reach or 'nowhere'}, {gun.roll}"


# --- Flying Martians deployed (the flights slice: CM-FLY-02..21, CM-FLY-27) ---------------------------------------


def flights_schema(board: Board, request: DecisionRequest) -> AnswerSchema:
    """How many flights to deploy; for each flight on the table, where it flies (every end it can reach, the
    path shown); which of them redock (CM-FLY-04..06, CM-FLY-20)."""
    ship = board.ship_named(request.ships[0])
    fields: list[Field] = []
    aboard = deployed.aboard_to_deploy(ship)
    if aboard:
        counts = tuple(Option(n, f"{n} of {aboard}" if n else "None") for n in range(aboard + 1))
        fields.append(One(key="deploy", label="Deploy flights from aboard (CM-FLY-04)", options=counts, default=0))
    out = board.martians.of(ship.name)
    if out:
        fields.append(Group(key="fly", fields=tuple(_flight_path_field(board, flight) for flight in out)))
        options = tuple(Option(flight.number, deployed.flight_name(flight.key)) for flight in out)
        label = f"Redock: those that end in {possessive(ship.name)} hex at her band (CM-FLY-20)"
        fields.append(Many(key="redock", label=label, options=options, optional=True, clause="CM-FLY-20"))
    root = Group(key="", fields=tuple(fields), clause=request.rule)
    return AnswerSchema(request.id, root, title=f"Flying Martians: {ship.name}", clause=request.rule, layout="orders")


def _flight_path_field(board: Board, flight: Flight) -> Field:
    options = []
    for (hex_, band), path in deployed.every_end(board, flight).items():
        col, row = hexgrid.to_odd_q(hex_)
        steps = ", ".join(path) or "stays where it is"
        options.append(Option(list[JSON](path), f"to [{col}, {row}] at {band} ({steps})"))
    label = f"{deployed.flight_name(flight.key)} flies (CM-FLY-06..12)"
    return One(key=str(flight.number), label=label, options=tuple(options), default=[], clause="CM-FLY-06")


def flight_fire_fields(board: Board, request: DecisionRequest) -> tuple[Field, ...]:
    """In the fire form: a slot per flight that may attack (each flight aboard ready, each on the table), and a
    slot per anti-personnel gun that may fire at an enemy flight (CM-FLY-13/14/27)."""
    firer = board.ship_named(validate.firer_of(request))
    back = request.kind == RETURN_FIRE
    legal = deployed.legal_flight_shots(board, firer, validate.targets_for(board, request), return_fire=back)
    attacks = [shot for shot in legal if not shot.gun]
    slots: list[Field] = []
    aboard = [shot for shot in attacks if shot.number == 0]
    for place in range(deployed.aboard_ready(board, firer) if aboard else 0):
        slots.append(_attack_slot(f"aboard {place + 1}", f"A flight aboard {firer.name} (no arc)", aboard))
    for number in dict.fromkeys(shot.number for shot in attacks if shot.number):
        mine = [shot for shot in attacks if shot.number == number]
        slots.append(_attack_slot(str(number), deployed.flight_name((firer.name, number)), mine))
    guns: list[Field] = []
    for number in dict.fromkeys(shot.gun for shot in legal if shot.gun):
        options = [Option(s.to_json(), deployed.flight_name(s.flight)) for s in legal if s.gun == number]
        label = f"{possessive(firer.name)} {firer.gun(number).name} ({number}) at a flight"
        guns.append(One(key=str(number), label=label, options=(Option(None, "Hold fire"), *options)))
    found: list[Field] = []
    if slots:
        found.append(Repeat(key=FLIGHTS_KEY, items=tuple(slots)))
    if guns:
        found.append(Repeat(key=AT_FLIGHTS_KEY, items=tuple(guns)))
    return tuple(found)


def _attack_slot(key: str, label: str, shots: list[FlightShot]) -> Field:
    options = tuple(Option(shot.to_json(), f"attack {shot.target}") for shot in shots)
    return One(key=key, label=f"{label}: as a Nordenfelt, 5 dice", options=(Option(None, "Hold off"), *options))
