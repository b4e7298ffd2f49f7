"""The decision forms of the battle page: what a side may answer to each open decision, as form fields that
offer only legal choices, and the way back from a posted form to the answer the engine judges.

Reads only (a selector in all but name): every option offered here is an answer, or a part of one, that the
engine accepts on its own (``resolver.check_decision`` on the state as the deciding side sees it). Parts put
together (two guns' shots, several orders) are judged again when the form is posted, and a combination the
rules forbid comes back with the rule's reason.

* A listed decision (first player, relative position, avoid, crack crew...): its options as radio buttons.
* ``move``: a plan built step by step. The buttons offered are the steps the engine accepts after the plan
  so far (or that keep to the held course the ship must follow, SG-CREW-08); the plan may be sent once it is
  a legal move, with a ram or grapple (SG-RAM-06, SG-GRAP-01) where the plan makes one possible.
* ``fire``: each gun (and Hale battery, grapnel, discharger) with the targets it may fire at now, from the
  ruleset's fire solutions (``solutions``), each with its range and the score it needs.
* ``initiative orders``: reliefs at an empty helm or trim station and men to short-handed guns, by rank and
  number, colours struck, the ram and grapple count (SG-RAM-01), boarding parties formed (SG-BRD-01) and the
  other orders the ruleset lists (disband, recall, cut, tow, prizes, flying parties, mines...).
* ``place ship``, ``reinforcement``: the legal hexes, facings and altitudes; ``board``: the men each ship may
  send across to each ship it may board (SG-BRD-05..07).
* Any other open-ended decision: the ruleset's candidate answers.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles import narration
from battles.engine import hexgrid, resolver
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON, canonical
from battles.engine.state import BattleState
from battles.engine.words import capfirst, possessive
from battles.rules.sky_galleons import combat, flying, movement, ordnance, portable_guns, signals, special_rules
from battles.rules.sky_galleons.ruleset import party_of
from galleons.record import altitude_levels

# Steps in words, with what they cost (SG-MOV-02..04, SG-ALT-04..06, SG-KITE-07).
STEP_WORDS = {
    movement.AHEAD: "Ahead",
    movement.PORT: "Turn to port",
    movement.STARBOARD: "Turn to starboard",
    movement.POWER_PORT: "Power turn to port",
    movement.POWER_STARBOARD: "Power turn to starboard",
    movement.CLIMB: "Climb",
    movement.DESCEND: "Descend",
    movement.TACK_PORT: "Tack to port",
    movement.TACK_STARBOARD: "Tack to starboard",
}
RELIEF_RANKS = ("petty_officer", "officer", "captain")
STATIONS = ("helm", "trim")
PARTY_RANKS = ("captain", "officers", "marine_officers", "petty_officers", "deckhands", "marines")
MAX_PLAN = 40  # steps: no legal move is longer; a longer plan in a URL is somebody's mischief


class FormError(ValueError):
    """A posted form that does not spell an answer (tampered or stale); the page shows the message."""


@dataclass(frozen=True)
class Option:
    value: str  # the answer (or its part) as canonical JSON
    label: str
    selected: bool = False


@dataclass
class Field:
    """One control: ``radio`` / ``select`` / ``checkbox`` (``options``), ``number`` (``low`` .. ``high``) or
    ``text``."""

    name: str
    label: str
    control: str
    options: list[Option] = field(default_factory=list)
    low: int = 0
    high: int = 0
    value: str = ""
    hint: str = ""
    parts: list[Field] = field(default_factory=list)  # a ``party``: the men of each rank, and the ship


@dataclass
class Group:
    """Fields under one heading (a ship, a gun)."""

    legend: str
    fields: list[Field]


@dataclass
class MoveBuilder:
    ship: str
    plan: list[str]
    plan_words: str
    cost: int
    allowance: int
    steps: list[Option]  # the next steps offered: value is the token
    legal: bool
    problem: str
    ends: str
    attacks: list[Option]
    held: bool
    drops: list[Field] = field(default_factory=list)  # one select per enemy and droppable weapon: how many

    @property
    def plan_json(self) -> str:
        return json.dumps(self.plan)


@dataclass
class DecisionForm:
    request: DecisionRequest
    side_name: str
    title: str
    form: str  # options / move / fire / orders / plot / place / board / reinforcement / candidates
    groups: list[Group] = field(default_factory=list)
    move: MoveBuilder | None = None
    idempotency_key: str = field(default_factory=lambda: uuid.uuid4().hex)
    error: str = ""
    error_clause: str = ""
    default_words: str = ""

    @property
    def id(self) -> str:
        return self.request.id


def _value(choice: Any) -> str:
    return canonical(choice)


# --- building the forms -----------------------------------------------------------------------------------


def build(
    rs: Any,
    state: BattleState[Any],
    request: DecisionRequest,
    *,
    names: narration.Names = narration.NO_NAMES,
    plan: Sequence[str] | None = None,
    step_by_step: bool = True,
) -> DecisionForm:
    """The form for one open request, on the state as the request's side sees it. ``step_by_step`` False: a
    move is chosen from the ruleset's candidate plans (the umpire's correction form) instead of built."""
    form = DecisionForm(
        request=request,
        side_name=names.side(request.side),
        title=_title(request),
        form="candidates",
        default_words=narration.choice_words(request.kind, request.default),
    )
    if request.options is not None:
        form.form = "options"
        form.groups = [Group("", [_options_field(request, names)])]
        form.default_words = option_words(request, request.default, names)
    elif request.kind == "move" and step_by_step:
        form.form = "move"
        form.move = _move_builder(rs, state, request, list(plan or []), names)
    elif request.kind == flying.FLY and step_by_step:
        form.form = "move"
        form.move = _fly_builder(rs, state, request, list(plan or []), names)
    elif request.kind == "fire":
        form.form = "fire"
        form.groups = _fire_groups(rs, state, request, names)
    elif request.kind == "plot movement":
        form.form = "plot"
        form.groups = [Group("", _plot_fields(rs, state, request))]
    elif request.kind == "initiative orders":
        form.form = "orders"
        form.groups = _orders_groups(rs, state, request, names)
    elif request.kind == "place ship":
        form.form = "place"
        form.groups = [Group("", _place_fields(rs, state, request))]
    elif request.kind == "reinforcement":
        form.form = "reinforcement"
        form.groups = [Group("", _reinforcement_fields(rs, state, request))]
    elif request.kind == "board":
        form.form = "board"
        form.groups = _board_groups(rs, state, request)
    else:
        form.groups = [Group("", [_candidates_field(rs, state, request)])]
    return form


def _title(request: DecisionRequest) -> str:
    ships = ", ".join(request.ships)
    titles = {
        "move": f"Move {ships}",
        "fire": "Fire",
        "initiative orders": "Initiative orders",
        "place ship": f"Set up {ships}",
        "first player": "Who moves first?",
        "relative position": "Ships in one hex",
        "avoid": "Avoid the ram or grapple?",
        "avoid collision": "Avoid the collision?",
        "board": "Send boarders across",
        "fly": f"Fly {ships}",
        "crack crew": "Which ship has the crack crew?",
        "reinforcement": "Bring in a reinforcement",
        "plot movement": "Plot the moves",
    }
    return titles.get(request.kind, capfirst(request.kind))


def legal(rs: Any, state: BattleState[Any], request: DecisionRequest, choice: JSON) -> bool:
    """Would the engine take this answer now? (The one test every option offered here passes.)"""
    return resolver.check_decision(rs, state, side=request.side, request_id=request.id, choice=choice) is None


def _options_field(request: DecisionRequest, names: narration.Names) -> Field:
    options = [
        Option(_value(o), option_words(request, o, names), selected=canonical(o) == canonical(request.default))
        for o in request.options or ()
    ]
    return Field("choice", capfirst(request.prompt) if request.prompt else "Your answer", "radio", options)


def option_words(request: DecisionRequest, option: JSON, names: narration.Names) -> str:
    """A listed option in words: sides by name, a relative position as who is on whose aspect."""
    if request.kind == "first player":
        return f"{names.side(option)} moves first"
    if request.kind == "relative position" and isinstance(option, list) and len(request.ships) == 2:
        mine, theirs = request.ships
        return f"{theirs} on {possessive(mine)} {option[0]}, {mine} on {possessive(theirs)} {option[1]}"
    if request.kind in ("avoid", "avoid collision"):
        if option is True:
            return "Avoid (it costs movement points)"
        if option is False:
            return "Hold on and do not avoid"
        return capfirst(narration.value_words(option))
    return narration.value_words(option)


def _candidates_field(rs: Any, state: BattleState[Any], request: DecisionRequest) -> Field:
    seen: set[str] = set()
    options: list[Option] = []
    for choice in [request.default, *rs.candidates(state, request)]:
        value = _value(choice)
        if value in seen or not legal(rs, state, request, choice):
            continue
        seen.add(value)
        words = narration.choice_words(request.kind, choice)
        options.append(Option(value, words or "(nothing)", selected=not options))
    return Field("choice", capfirst(request.prompt) if request.prompt else "Your answer", "radio", options)


# --- move ----------------------------------------------------------------------------------------------------


def clean_plan(record: Any, plan: Any) -> list[str]:
    """A plan from a URL: step tokens this ship may name, else nothing."""
    if not isinstance(plan, list) or len(plan) > MAX_PLAN:
        return []
    kinds = movement.step_kinds(record)
    return [str(t) for t in plan] if all(t in kinds for t in plan) else []


def _move_builder(
    rs: Any, state: BattleState[Any], request: DecisionRequest, plan: list[str], names: narration.Names
) -> MoveBuilder:
    board = state.board
    record = board.ship(request.ships[0])
    plan = clean_plan(record, plan)
    default = request.default if isinstance(request.default, list) else []
    allowed = rs.allowance(state, record)
    held = allowed.held_speed is not None

    def accepts(steps: list[str]) -> bool:
        # A held course is one plan: its steps are offered one by one though only the whole of it is legal.
        return legal(rs, state, request, list[JSON](steps)) or (held and steps == default[: len(steps)])

    rejection = resolver.check_decision(rs, state, side=request.side, request_id=request.id, choice=list[JSON](plan))
    steps = [
        Option(token, _step_words(token, plan, record))
        for token in movement.step_kinds(record)
        if accepts([*plan, token])
    ]
    attacks: list[Option] = []
    if rejection is None and state.options.get("advanced"):
        for other in board.fighting():
            if other.name == record.name:
                continue
            for kind in ("ram", "grapple"):
                choice: JSON = {"steps": list[JSON](plan), kind: other.name}
                if legal(rs, state, request, choice):
                    whose = "" if other.side == record.side else f" ({names.side(other.side)})"
                    attacks.append(Option(_value({kind: other.name}), f"{capfirst(kind)} {other.name}{whose}"))
    return MoveBuilder(
        ship=record.name,
        plan=plan,
        plan_words=narration.choice_words("move", list[JSON](plan)),
        cost=movement.plan_cost(plan, kite=record.is_kite),
        allowance=allowed.speed,
        steps=steps,
        legal=rejection is None,
        problem="" if rejection is None else rejection.reason,
        ends=_ends(rs, state, record, plan) if rejection is None else "",
        attacks=attacks,
        held=held,
        drops=_drop_fields(rs, state, request, record, plan, names) if rejection is None and plan else [],
    )


def _fly_builder(
    rs: Any, state: BattleState[Any], request: DecisionRequest, plan: list[str], names: narration.Names
) -> MoveBuilder:
    """A flying party's move built step by step like a ship's (SG-HM-03/04), ending with a boarding of a
    ship in the hex it reaches, at her altitude (SG-HM-05)."""
    board = state.board
    party = flying.find(board.flyers, request.ships[0])
    assert party is not None, request.ships
    tokens = (*flying.directions(), movement.CLIMB, movement.DESCEND)
    if len(plan) > MAX_PLAN or not all(t in tokens for t in plan):
        plan = []
    rejection = resolver.check_decision(rs, state, side=request.side, request_id=request.id, choice=list[JSON](plan))
    steps = [
        Option(token, FLY_WORDS.get(token, token)) for token in tokens if legal(rs, state, request, [*plan, token])
    ]
    boardings: list[Option] = []
    if rejection is None:
        for ship in board.fighting():
            if legal(rs, state, request, {"steps": list[JSON](plan), "board": ship.name}):
                if ship.side == party.side:
                    words = f"Land on {ship.name} and join her crew"
                else:
                    words = f"Board {ship.name} ({names.side(ship.side)})"
                boardings.append(Option(_value({"board": ship.name}), words))
    cost, ends = 0, ""
    if rejection is None:
        path = flying.trace(party, plan, terrain=board.terrain, turn=state.turn)
        cost = sum(step.cost for step in path)
        hex_, altitude = flying.end_of(party, path)
        ends = f"ends at {_where(hex_, None, altitude)}" if plan else f"stays at {_where(hex_, None, altitude)}"
    return MoveBuilder(
        ship=party.name,
        plan=plan,
        plan_words=", ".join(FLY_WORDS.get(t, t) for t in plan),
        cost=cost,
        allowance=flying.fint("movement", "allowance"),
        steps=steps,
        legal=rejection is None,
        problem="" if rejection is None else rejection.reason,
        ends=ends,
        attacks=boardings,
        held=False,
    )


FLY_WORDS = {
    "N": "north (1 MP)",
    "NE": "north-east (1 MP)",
    "SE": "south-east (1 MP)",
    "S": "south (1 MP)",
    "SW": "south-west (1 MP)",
    "NW": "north-west (1 MP)",
    movement.CLIMB: "climb (2 MP)",
    movement.DESCEND: "descend (1 MP)",
}


def _plot_fields(rs: Any, state: BattleState[Any], request: DecisionRequest) -> list[Field]:
    """Each plotting ship: the plots she may make, half her move at most (SG-ERR-24/25), one per place she can
    end at, the others' plots left as the default."""
    default = request.default if isinstance(request.default, dict) else {}
    given = default.get("plots")
    plots: dict[str, JSON] = dict(given) if isinstance(given, dict) else {}
    fields: list[Field] = []
    for index, name in enumerate(request.ships):
        record = state.board.ship(name)
        mine = plots.get(name, [])
        seen: set[tuple[Any, ...] | None] = set()
        options: list[Option] = []
        for plan, steps in [([], []), *rs.traced_moves(state, record)]:
            end = (steps[-1].hex, steps[-1].facing, steps[-1].altitude) if steps else None
            if end in seen or not legal(rs, state, request, {"plots": {**plots, name: list[JSON](plan)}}):
                continue
            seen.add(end)
            words = narration.choice_words("move", list[JSON](plan)) or "no move"
            where = _ends(rs, state, record, plan)
            label = f"{capfirst(words)}: {where}" if where else capfirst(words)
            options.append(Option(_value({"ship": name, "steps": plan}), label, selected=plan == mine))
        fields.append(Field(f"plot-{index}", f"{possessive(name)} plot", "select", options))
    return fields


DROP_WORDS = {
    ordnance.LIQUID_FIRE: "liquid fire",
    ordnance.SPIKES: "spikes",
    ordnance.BOMB_RACK: "bombs",
    ordnance.DROGUE: "drogue torpedoes",
}


def _drop_fields(
    rs: Any, state: BattleState[Any], request: DecisionRequest, record: Any, plan: list[str], names: narration.Names
) -> list[Field]:
    """What the ship may drop on an enemy below as this plan takes her over it (SG-LF-01, SG-CG-66/75): for
    each enemy and weapon, the counts the engine accepts with these steps."""
    fields: list[Field] = []
    for weapon in ordnance.DROPS:
        ready = len(record.items_of(weapon, states=("raised", "lowered") if weapon == ordnance.DROGUE else ("loaded",)))
        if not ready:
            continue
        board = state.board
        for other in [*board.fighting(), *board.emplacements()]:
            if other.side == record.side or other.position is None:
                continue
            counts = [
                Option(_value({"target": other.name, "weapon": weapon, "count": n}), str(n))
                for n in range(1, ready + 1)
                if legal(
                    rs,
                    state,
                    request,
                    {"steps": list[JSON](plan), "drops": [{"target": other.name, "weapon": weapon, "count": n}]},
                )
            ]
            if counts:
                label = f"Drop {DROP_WORDS[weapon]} on {other.name} ({names.side(other.side)}) as she passes over"
                fields.append(Field(f"drop-{len(fields)}", label, "select", [Option("", "None"), *counts]))
    return fields


def _step_words(token: str, plan: list[str], record: Any) -> str:
    dropped = movement.DESCEND in plan
    cost = movement.step_cost(token, first_drop=not dropped, kite=record.is_kite)
    words = STEP_WORDS.get(token, token)
    return f"{words} ({cost} MP)" if cost else words


def _ends(rs: Any, state: BattleState[Any], record: Any, plan: list[str]) -> str:
    if not plan:
        return f"stays at {_where(record.position, record.facing, record.altitude)}"
    try:
        path = movement.trace(record, plan, allowed=rs.allowance(state, record), terrain=state.board.terrain)
    except movement.PlanError:
        return ""
    last = path[-1]
    text = f"ends at {_where(last.hex, last.facing, last.altitude)}"
    return f"{text}; she has {last.ends}" if last.ends else text


def _where(hex_: Any, facing: Any, altitude: Any) -> str:
    if hex_ is None:
        return "nowhere on the map"
    col, row = hexgrid.to_odd_q(hex_)
    parts = [f"hex [{col}, {row}]", narration.facing_name(facing), f"altitude {altitude}"]
    return ", ".join(part for part in parts if part)


# --- fire ----------------------------------------------------------------------------------------------------


def _fire_groups(rs: Any, state: BattleState[Any], request: DecisionRequest, names: narration.Names) -> list[Group]:
    """One radio group per gun (or battery, or flying party's arms): hold fire, or each legal target."""
    board = state.board
    by_gun: dict[tuple[str, str], list[Option]] = {}
    seen: set[str] = set()

    def offer(firer: str, gun: str, shot: dict[str, JSON], label: str) -> None:
        value = _value(shot)
        if value in seen or not legal(rs, state, request, {"shots": [shot]}):
            return
        seen.add(value)
        by_gun.setdefault((firer, gun), []).append(Option(value, label))

    advanced = bool(state.options.get("advanced"))
    for solution in rs.solutions(state, request.side):
        base: dict[str, JSON] = {"ship": solution.firer, "gun": solution.gun_id, "target": solution.target}
        kinds = [solution.ammunition] + (_ammunition(board, solution) if advanced else [])
        for ammunition in dict.fromkeys(kinds):
            for rate in ("normal", "max") if advanced and solution.small_arms else ("normal",):
                shot = dict(base)
                if ammunition != "shell":
                    shot["ammunition"] = ammunition
                if rate != "normal":
                    shot["rate"] = rate
                offer(solution.firer, solution.gun_id, shot, _solution_words(solution, ammunition, rate))
    for firer, gun, shot, label in _special_shots(state, request.side):
        offer(firer, gun, shot, label)
    groups = []
    for index, ((firer, gun), options) in enumerate(sorted(by_gun.items())):
        hold = Option("", "Hold fire", selected=True)
        battery = f"{possessive(firer)} Hale battery {gun[8:]}"
        legend = names.gun(firer, gun) if not gun.startswith("battery ") else battery
        groups.append(Group("", [Field(f"shot-{index}", legend, "radio", [hold, *options])]))
    return groups


def _ammunition(board: Any, solution: Any) -> list[str]:
    from battles.rules.sky_galleons import combat

    record = board.by_name.get(solution.firer)
    if record is None or solution.gun_id == combat.MARINES:
        return []
    try:
        return list(combat.ammunition_for(record.gun(solution.gun_id)))
    except (KeyError, ValueError):
        return []


def _solution_words(solution: Any, ammunition: str, rate: str) -> str:
    parts = [str(solution.target)]
    if solution.band:
        parts.append(
            f"{solution.band} range {solution.effective_range if solution.effective_range is not None else ''}".strip()
        )
    mods = ", ".join(f"{v:+d} {k}" for k, v in sorted(solution.modifiers.items()) if v)
    if solution.needed:
        parts.append(f"needs {solution.needed}+" + (f" ({mods})" if mods else ""))
    if solution.shots and solution.shots != 1:
        parts.append(f"{solution.shots} {'dice' if solution.small_arms else 'shots'}")
    if ammunition != "shell":
        parts.append(ammunition)
    if rate == "max":
        parts.append("flat out")
    return ", ".join(parts)


def _special_shots(state: BattleState[Any], side: str) -> list[tuple[str, str, dict[str, JSON], str]]:
    """Hale salvoes, grapnels and Smutts launches the side might declare (each is judged before it is offered)."""
    from battles.rules.sky_galleons import ordnance

    board = state.board
    marks = [s.name for s in (*board.fighting(), *board.emplacements()) if s.side != side]
    found: list[tuple[str, str, dict[str, JSON], str]] = []
    for ship in board.fighting(side):
        for gun in ship.guns:
            if ordnance.is_discharger(gun):
                found.append(
                    (ship.name, gun.id, {"ship": ship.name, "gun": gun.id, "launch": True}, "Launch a torpedo")
                )
            elif ordnance.is_grapnel(gun):
                found += [
                    (ship.name, gun.id, {"ship": ship.name, "gun": gun.id, "target": m}, f"Grapnel at {m}")
                    for m in marks
                ]
        for battery in ship.items_of(ordnance.HALE, states=("loaded",)):
            key = f"battery {battery.id}"
            found += [
                (ship.name, key, {"ship": ship.name, "battery": battery.id, "target": m}, f"Rockets at {m}")
                for m in marks
            ]
    return found


# --- initiative orders ------------------------------------------------------------------------------------


def _orders_groups(rs: Any, state: BattleState[Any], request: DecisionRequest, names: narration.Names) -> list[Group]:
    board = state.board
    side = request.side
    advanced = bool(state.options.get("advanced"))

    def fine(choice: dict[str, JSON]) -> bool:
        return legal(rs, state, request, {"crew": [], "strike": [], **choice})

    groups: list[Group] = []
    ships = board.fighting(side)
    for index, ship in enumerate(ships):
        fields: list[Field] = []
        for station in STATIONS:
            ranks = [
                Option(_value({"ship": ship.name, "relief": station, "rank": rank}), rank.replace("_", " "))
                for rank in RELIEF_RANKS
                if fine({"crew": [{"ship": ship.name, "relief": station, "rank": rank}]})
            ]
            if ranks:
                label = f"Nobody at the {station}: who takes it over?"
                fields.append(Field(f"relief-{index}-{station}", label, "select", [Option("", "Nobody"), *ranks]))
        for gun in ship.guns:
            if gun.destroyed or gun.manned >= gun.crew:
                continue
            moves = [Option("", "No change")]
            sources = [
                "deckhands",
                *(f"gun:{g.id}" for g in ship.guns if g.id != gun.id and g.manned and not g.destroyed),
            ]
            for source in sources:
                for men in range(gun.crew - gun.manned, 0, -1):
                    change: JSON = {"ship": ship.name, "gun": gun.id, "men": men, "from": source}
                    if fine({"crew": [change]}):
                        whence = f"gun {source[4:]}" if source.startswith("gun:") else source
                        moves.append(Option(_value(change), f"{men} from the {whence}"))
            if len(moves) > 1:
                label = f"{names.gun(ship.name, gun.id)}: {gun.manned} of {gun.crew} crew"
                fields.append(Field(f"guncrew-{index}-{gun.id}", label, "select", moves))
        if fine({"strike": [ship.name]}):
            fields.append(
                Field("strike", "", "checkbox", [Option(_value(ship.name), f"{ship.name} strikes her colours")])
            )
        if advanced and not ship.party.men and fine({"parties": [{"ship": ship.name, "men": party_of(ship)}]}):
            parts = [
                Field(f"party-{index}-{rank}", rank.replace("_", " "), "number", low=0, high=ship.crew.count(rank))
                for rank in PARTY_RANKS
                if ship.crew.count(rank)
            ]
            parts.append(Field(f"party-{index}-ship", "", "hidden", value=ship.name))
            hint = f"As a captain would form it: {narration.value_words(party_of(ship))}. Leave all at 0 to form none."
            fields.append(Field(f"party-{index}", "Form a boarding party", "party", hint=hint, parts=parts))
        fields.extend(_training_fields(state, request, ship, index, names, fine))
        if fields:
            groups.append(Group(ship.name, fields))
    if state.options.get("signals"):
        groups.extend(_signal_groups(state, ships, fine))
    atoms = _order_atoms(rs, state, request, names)
    if atoms:
        groups.append(Group("Other orders", [Field("order", "", "checkbox", atoms)]))
    if advanced:
        counts = [Option(str(n), str(n), selected=n == 0) for n in range(len(ships) + 1) if fine({"ram": n})]
        if len(counts) > 1:
            label = "How many of your ships will try to ram or grapple this turn?"
            groups.append(Group("Ramming and grappling", [Field("ram", label, "select", counts)]))
    return groups


def _training_fields(
    state: BattleState[Any], request: DecisionRequest, ship: Any, index: int, names: narration.Names, fine: Any
) -> list[Field]:
    """Each portable machinegun: the aspect to train it on, sealed from the enemy (SG-MG-04/06)."""
    fields: list[Field] = []
    trained = state.board.trained
    for gun in ship.guns:
        if gun.destroyed or not combat.is_portable(gun):
            continue
        aspects = [
            Option(_value({"ship": ship.name, "gun": gun.id, "aspect": aspect.value}), aspect.value)
            for aspect in hexgrid.Aspect
            if portable_guns.moves(ship, trained, gun.id, aspect.value)
            and fine({"train": [{"ship": ship.name, "gun": gun.id, "aspect": aspect.value}]})
        ]
        if aspects:
            now = "/".join(portable_guns.trained_record(ship, trained).gun(gun.id).arcs)
            label = f"{names.gun(ship.name, gun.id)} (portable, on the {now}): train it on"
            fields.append(Field(f"train-{index}-{gun.id}", label, "select", [Option("", "Leave it"), *aspects]))
    return fields


def _signal_groups(state: BattleState[Any], ships: Sequence[Any], fine: Any) -> list[Group]:
    """Hoist one signal of a few words from a ship whose signalman stands (SG-SIG-01/04); its words stay
    sealed from the enemy unless it can read them (SG-SIG-05)."""
    senders = [Option(_value(s.name), s.name) for s in ships if signals.can_signal(s)]
    if not senders:
        return []
    others = [s.name for s in state.board.ships if s.name not in {s.name for s in ships}]
    friends = [s.name for s in ships]
    to = [Option(_value(signals.ALL), "All ships"), *(Option(_value(n), n) for n in [*friends, *others])]
    words = f"At most {signals.max_words()} words; leave empty to hoist none."
    return [
        Group(
            "Signal",
            [
                Field("signal-ship", "Hoisted by", "select", senders),
                Field("signal-to", "To", "select", to),
                Field("signal-words", "Words", "text", hint=words),
            ],
        )
    ]


HANDLED = ("crew", "strike", "ram", "parties", "train", "signal")


def _order_atoms(rs: Any, state: BattleState[Any], request: DecisionRequest, names: narration.Names) -> list[Option]:
    """The ruleset's other candidate orders, one checkbox each (disband, recall, cut, tow, prizes, flyers...)."""
    found: list[Option] = []
    seen: set[str] = set()
    for candidate in rs.candidates(state, request):
        if not isinstance(candidate, dict):
            continue
        atom = {k: v for k, v in candidate.items() if k not in HANDLED and v not in ([], {}, None)}
        if not atom or not legal(rs, state, request, {"crew": [], "strike": [], **atom}):
            continue
        value = _value(atom)
        if value not in seen:
            seen.add(value)
            found.append(Option(value, order_words(atom, names)))
    return found


def order_words(atom: Mapping[str, JSON], names: narration.Names) -> str:
    words = []
    for key, value in atom.items():
        items = value if isinstance(value, list) else [value]
        for item in items:
            words.append(_order_word(key, item, names))
    return "; ".join(words)


def _order_word(key: str, item: JSON, names: narration.Names) -> str:
    if key == "disband":
        return f"Disband {possessive(item)} boarding party"
    if key == "recall":
        return f"Recall {possessive(item)} boarders"
    if key == "cut" and isinstance(item, list) and len(item) == 2:
        return f"{item[0]} cuts her grapple with {item[1]}"
    if key == "tow" and isinstance(item, list) and len(item) == 2:
        return f"{item[0]} takes {item[1]} in tow"
    if key == "prizes" and isinstance(item, dict):
        return "; ".join(f"Prize {name}: {narration.value_words(word)}" for name, word in item.items())
    if key == "flying_parties" and isinstance(item, dict):
        return f"{item.get('ship')} sends out a flying party: {narration.value_words(item.get('men'))}"
    if key == "recall_flyers":
        return f"Recall flying party {item}"
    if key == "mines" and isinstance(item, dict):
        return f"{item.get('ship')} {'raises' if item.get('raised') else 'lowers'} her tether mines"
    if key == "drogues" and isinstance(item, dict):
        return f"{item.get('ship')} {'lowers' if item.get('lowered') else 'raises'} her drogues"
    if key == "reload" and isinstance(item, dict):
        return f"{item.get('ship')} reloads bomb rack {item.get('rack')}"
    if key == "cut_mines":
        return f"{item} cuts her tether mines loose"
    return f"{key.replace('_', ' ')}: {narration.value_words(item)}"


# --- set-up, reinforcements, boarding ---------------------------------------------------------------------


FACINGS = [Option(str(n), f"{n}: {narration.COMPASS[n]}") for n in range(6)]


def _facing_field(default: JSON) -> Field:
    return Field("facing", "Facing", "select", [Option(o.value, o.label, o.value == str(default)) for o in FACINGS])


def _hex_option(col: int, row: int, default: JSON) -> Option:
    return Option(_value([col, row]), f"[{col}, {row}]", selected=default == [col, row])


def _place_fields(rs: Any, state: BattleState[Any], request: DecisionRequest) -> list[Field]:
    """The hexes where the ship may be set up at her default facing and altitude, the facings, the altitudes."""
    record = state.board.ship(request.ships[0])
    default = request.default if isinstance(request.default, dict) else {}
    facing, altitude = default.get("facing", record.facing), default.get("altitude", record.altitude)
    spots = []
    for hex_ in state.board.terrain.hexes():
        col, row = hexgrid.to_odd_q(hex_)
        if legal(rs, state, request, {"hex": [col, row], "facing": facing, "altitude": altitude}):
            spots.append(_hex_option(col, row, default.get("hex")))
    spot = default.get("hex")
    levels = [
        Option(_value(a), a, a == altitude)
        for a in altitude_levels()
        if legal(rs, state, request, {"hex": spot, "facing": facing, "altitude": a})
    ]
    facings = [
        Option(o.value, o.label, o.value == str(facing))
        for n, o in enumerate(FACINGS)
        if legal(rs, state, request, {"hex": spot, "facing": n, "altitude": altitude})
    ]
    hint = (
        f"Each list holds what is open to {record.name} with the other two as first shown (altitude {altitude}, "
        f"facing {facing}); the three together are judged again when you send them."
    )
    return [
        Field("hex", "Hex [column, row]", "select", spots, hint=hint),
        Field("facing", "Facing", "select", facings),
        Field("altitude", "Altitude", "select", levels),
    ]


def _reinforcement_fields(rs: Any, state: BattleState[Any], request: DecisionRequest) -> list[Field]:
    board = state.board
    rule = special_rules.pending_reinforcement(board)
    default = request.default if isinstance(request.default, dict) else {}
    if rule is None:
        return []
    classes = rule["classes"] if isinstance(rule["classes"], list) else []
    kinds = [Option(_value(c), narration.value_words(c), c == default.get("class")) for c in classes]
    spots = [_hex_option(*hexgrid.to_odd_q(h), default.get("hex")) for h in special_rules.arrival_hexes(board, rule)]
    return [
        Field("class", "Ship", "select", kinds),
        Field("hex", f"Hex [column, row] in the {rule['arrive']}", "select", spots),
        _facing_field(default.get("facing", 0)),
    ]


def _board_groups(rs: Any, state: BattleState[Any], request: DecisionRequest) -> list[Group]:
    groups = []
    for index, (ship, targets) in enumerate(sorted(rs.boarding_options(state, request.side).items())):
        fields = []
        for n, (target, most) in enumerate(sorted(targets.items())):
            name = f"board-{index}-{n}"
            fields.append(Field(name, f"Men to {target} (up to {most})", "number", low=0, high=most, value="0"))
            fields.append(Field(f"{name}-to", "", "hidden", value=_value({"ship": ship, "target": target})))
        groups.append(Group(f"{possessive(ship)} boarding party", fields))
    return groups


# --- from a posted form back to an answer -----------------------------------------------------------------


def _json(text: str) -> JSON:
    try:
        value: JSON = json.loads(text)
    except (TypeError, ValueError) as error:
        raise FormError("This form was not filled in by the page; reload it and try again.") from error
    return value


def _int(text: str, what: str) -> int:
    try:
        return int(text or 0)
    except ValueError as error:
        raise FormError(f"{what}: a whole number, please.") from error


def choice_from_post(form: str, data: Any) -> JSON:
    """The answer a posted decision form spells (``data`` is the POST QueryDict). Legality is the engine's."""
    if form in ("options", "candidates"):
        if "choice" not in data:
            raise FormError("Choose one of the answers.")
        return _json(data["choice"])
    if form == "move":
        return _move_from_post(data)
    if form == "fire":
        shots = [_json(v) for k, v in data.items() if k.startswith("shot-") and v]
        return {"shots": shots}
    if form == "orders":
        return _orders_from_post(data)
    if form == "plot":
        plots: dict[str, JSON] = {}
        for key, value in data.items():
            if key.startswith("plot-") and value:
                plot = _json(value)
                if not isinstance(plot, dict) or not isinstance(plot.get("ship"), str):
                    raise FormError("A plot was not understood.")
                plots[str(plot["ship"])] = plot.get("steps", [])
        return {"plots": plots}
    if form == "place":
        return {
            "hex": _json(data.get("hex", "null")),
            "facing": _int(data.get("facing", ""), "Facing"),
            "altitude": _json(data.get("altitude", "null")),
        }
    if form == "reinforcement":
        return {
            "class": _json(data.get("class", "null")),
            "hex": _json(data.get("hex", "null")),
            "facing": _int(data.get("facing", ""), "Facing"),
        }
    if form == "board":
        boardings: list[JSON] = []
        for key, value in data.items():
            if key.startswith("board-") and not key.endswith("-to") and _int(value, "Men") > 0:
                where = _json(data.get(f"{key}-to", "null"))
                if not isinstance(where, dict):
                    raise FormError("The boarding form was not understood.")
                boardings.append({**where, "men": _int(value, "Men")})
        return {"boardings": boardings}
    raise FormError(f"No form for {form!r}.")


def _move_from_post(data: Any) -> JSON:
    """The plan alone, or ``{"steps", "ram"|"grapple", "drops"}`` when the form adds an attack or drops."""
    plan = _json(data.get("plan", "[]"))
    answer: dict[str, JSON] = {}
    attack = data.get("attack", "")
    if attack:
        extra = _json(attack)
        if not isinstance(extra, dict):
            raise FormError("The ram or grapple was not understood.")
        answer.update(extra)
    drops: list[JSON] = [_json(v) for k, v in data.items() if k.startswith("drop-") and v]
    if drops:
        answer["drops"] = drops
    return {"steps": plan, **answer} if answer else plan


def _orders_from_post(data: Any) -> JSON:
    crew: list[JSON] = [
        _json(v) for k, v in data.items() if (k.startswith("relief-") or k.startswith("guncrew-")) and v
    ]
    strike: list[JSON] = [_json(v) for v in data.getlist("strike")]
    orders: dict[str, JSON] = {"crew": crew, "strike": strike}
    parties: list[JSON] = []
    for key in data:
        if key.startswith("party-") and key.endswith("-ship"):
            prefix = key[: -len("ship")]
            men = {rank: _int(data.get(prefix + rank, ""), rank) for rank in PARTY_RANKS}
            men = {rank: n for rank, n in men.items() if n}
            if men:
                parties.append({"ship": data[key], "men": dict[str, JSON](men)})
    if parties:
        orders["parties"] = parties
    for value in data.getlist("order"):
        atom = _json(value)
        if not isinstance(atom, dict):
            raise FormError("An order was not understood.")
        for key, part in atom.items():
            held = orders.get(key)
            if isinstance(held, list) and isinstance(part, list):
                orders[key] = [*held, *part]
            elif isinstance(held, dict) and isinstance(part, dict):
                orders[key] = {**held, **part}
            else:
                orders[key] = part
    if "ram" in data:
        orders["ram"] = _int(data["ram"], "Ships to ram or grapple")
    training: list[JSON] = [_json(v) for k, v in data.items() if k.startswith("train-") and v]
    if training:
        orders["train"] = training
    words = " ".join(str(data.get("signal-words", "")).split())
    if words:
        orders["signal"] = {
            "ship": _json(data.get("signal-ship", "null")),
            "to": _json(data.get("signal-to", "null")),
            "words": words,
        }
    return orders
