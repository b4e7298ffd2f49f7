"""Sky Galleons' answer schemas (battles.engine.answers): what a side may answer to each open decision, as
fields that offer only legal choices, on the state as the deciding side sees it.

Every option offered is an answer, or a part of one, that the engine accepts on its own
(``resolver.check_decision``). Parts put together (two guns' shots, several orders) are judged again by
``validate`` when the answer is sent, and a combination the rules forbid comes back with the rule's reason.

* A listed decision (first player, relative position, avoid, crack crew...): one of its options, in words.
* ``move`` and ``fly``: a path built step by step; the steps offered are those the engine accepts after the
  plan so far (or that keep to the held course the ship must follow, SG-CREW-08), then a ram or grapple
  (SG-RAM-06, SG-GRAP-01) or a boarding from the air (SG-HM-05), and drops on an enemy below (SG-LF-01).
* ``fire``: each gun (and Hale battery, grapnel, discharger) with the targets it may fire at now.
* ``initiative orders``: reliefs and gun crews, colours struck, boarding parties (SG-BRD-01), portable guns
  trained (SG-MG-04), a signal (SG-SIG-01), the other orders the ruleset lists, the ram count (SG-RAM-01).
* ``plot movement``, ``place ship``, ``reinforcement``, ``board`` (SG-BRD-05..07): their legal choices.
* Any other open-ended decision: the ruleset's candidate answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from battles.engine import answers, hexgrid, resolver
from battles.engine.answers import AnswerSchema, Field, Group, Hex, Many, Number, One, Option, Path, Progress, Repeat
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.engine.telling import value_words
from battles.engine.words import and_list, capfirst, possessive
from battles.rules.sky_galleons import (
    candidates,
    combat,
    flying,
    movement,
    ordnance,
    portable_guns,
    queries,
    signals,
    special_rules,
    standing,
    validate,
)
from galleons import catalog
from galleons.record import altitude_levels

if TYPE_CHECKING:
    from battles.engine.ruleset import Ruleset
    from battles.rules.sky_galleons.board import Board

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
DROP_WORDS = {
    ordnance.LIQUID_FIRE: "liquid fire",
    ordnance.SPIKES: "spikes",
    ordnance.BOMB_RACK: "bombs",
    ordnance.DROGUE: "drogue torpedoes",
}
COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")
RELIEF_RANKS = ("petty_officer", "officer", "captain")
STATIONS = ("helm", "trim")
PARTY_RANKS = ("captain", "officers", "marine_officers", "petty_officers", "deckhands", "marines")
MAX_PLAN = 40  # steps: no legal move is longer; a longer plan in a URL is somebody's mischief
HANDLED = ("crew", "strike", "ram", "parties", "train", "signal")
TITLES = {
    "move": "Move {ships}",
    "fire": "Fire",
    "initiative orders": "Initiative orders",
    "place ship": "Set up {ships}",
    "first player": "Who moves first?",
    "relative position": "Ships in one hex",
    "avoid": "Avoid the ram or grapple?",
    "avoid collision": "Avoid the collision?",
    "board": "Send boarders across",
    "fly": "Fly {ships}",
    "crack crew": "Which ship has the crack crew?",
    "reinforcement": "Bring in a reinforcement",
    "plot movement": "Plot the moves",
}


@dataclass(frozen=True)
class Asked:
    """One request being described: the ruleset, the state as its side sees it, the sides' names."""

    rs: Ruleset[Board]
    state: BattleState[Board]
    request: DecisionRequest
    sides: Mapping[str, str]

    def legal(self, choice: JSON) -> bool:
        request = self.request
        return (
            resolver.check_decision(self.rs, self.state, side=request.side, request_id=request.id, choice=choice)
            is None
        )

    def rejection(self, choice: JSON) -> str | None:
        request = self.request
        found = resolver.check_decision(self.rs, self.state, side=request.side, request_id=request.id, choice=choice)
        return None if found is None else found.reason

    def side(self, key: Any) -> str:
        if key is None:
            return "nobody"
        return self.sides.get(str(key), str(key).replace("_", " ").title())

    def gun(self, ship: str, gun_id: str) -> str:
        record = self.state.board.by_name.get(ship)
        weapon = ""
        if record is not None:
            try:
                weapon = catalog.weapon(record.gun(gun_id).weapon_id).name
            except (KeyError, ValueError):
                weapon = ""
        return f"{possessive(ship)} gun {gun_id} ({weapon})" if weapon else f"{possessive(ship)} gun {gun_id}"


def schema(
    rs: Ruleset[Board],
    state: BattleState[Board],
    request: DecisionRequest,
    *,
    partial: JSON = None,
    sides: Mapping[str, str] | None = None,
) -> AnswerSchema:
    """The answer schema for one open request; ``partial``: the move built so far (a list of steps)."""
    asked = Asked(rs, state, request, sides or {})
    plan = [str(t) for t in partial] if isinstance(partial, list) else []
    title = TITLES.get(request.kind, capfirst(request.kind)).format(ships=", ".join(request.ships))
    root, layout = _root(asked, plan)
    return AnswerSchema(request.id, root, title=title, clause=request.rule, layout=layout)


def _root(asked: Asked, plan: list[str]) -> tuple[Field, str]:
    request = asked.request
    if request.options is not None:
        return _options_field(asked), "options"
    builders: dict[str, tuple[Callable[[Asked], Field], str]] = {
        "fire": (_fire, "fire"),
        "plot movement": (_plot, "plot"),
        "initiative orders": (_orders, "orders"),
        "place ship": (_place, "place"),
        "reinforcement": (_reinforcement, "reinforcement"),
        "board": (_board, "board"),
    }
    if request.kind == "move":
        return _move(asked, plan), "move"
    if request.kind == flying.FLY:
        return _fly(asked, plan), "move"
    if request.kind in builders:
        build, layout = builders[request.kind]
        return build(asked), layout
    return _candidates(asked), "candidates"


def _label(request: DecisionRequest) -> str:
    return capfirst(request.prompt) if request.prompt else "Your answer"


# --- listed options and candidates -------------------------------------------------------------------------


def _options_field(asked: Asked) -> Field:
    request = asked.request
    options = tuple(Option(o, option_words(asked, o)) for o in request.options or ())
    return One(key="choice", label=_label(request), options=options, default=request.default, clause=request.rule)


def option_words(asked: Asked, option: JSON) -> str:
    """A listed option in words: sides by name, a relative position as who is on whose aspect."""
    request = asked.request
    if request.kind == "first player":
        return f"{asked.side(option)} moves first"
    if request.kind == "relative position" and isinstance(option, list) and len(request.ships) == 2:
        mine, theirs = request.ships
        return f"{theirs} on {possessive(mine)} {option[0]}, {mine} on {possessive(theirs)} {option[1]}"
    if request.kind in ("avoid", "avoid collision"):
        if option is True:
            return "Avoid (it costs movement points)"
        if option is False:
            return "Hold on and do not avoid"
        return capfirst(value_words(option))
    return value_words(option)


def plan_words(plan: Sequence[str]) -> str:
    """A move's steps in order: "ahead, port, then ahead"."""
    return and_list(plan, last=", then").replace(" , then", ", then") if plan else "hold course (no steps)"


def _candidates(asked: Asked) -> Field:
    request = asked.request
    seen: set[str] = set()
    options: list[Option] = []
    for choice in [request.default, *asked.rs.candidates(asked.state, request)]:
        value = answers.encode(choice)
        if value in seen or not asked.legal(choice):
            continue
        seen.add(value)
        options.append(Option(choice, value_words(choice) or "(nothing)"))
    default = options[0].value if options else None
    return One(key="choice", label=_label(request), options=tuple(options), default=default, clause=request.rule)


# --- move and fly ----------------------------------------------------------------------------------------------


def clean_plan(record: Any, plan: Sequence[str]) -> list[str]:
    """A plan from a URL: step tokens this ship may name, else nothing."""
    if len(plan) > MAX_PLAN:
        return []
    kinds = movement.step_kinds(record)
    return list(plan) if all(t in kinds for t in plan) else []


def _move(asked: Asked, plan: list[str]) -> Field:
    state, request = asked.state, asked.request
    record = state.board.ship(request.ships[0])
    plan = clean_plan(record, plan)
    default = [str(s) for s in request.default] if isinstance(request.default, list) else []
    allowed = queries.allowance(state, record)
    held = allowed.held_speed is not None

    def accepts(steps: list[str]) -> bool:
        # A held course is one plan: its steps are offered one by one though only the whole of it is legal.
        return asked.legal(list[JSON](steps)) or (held and steps == default[: len(steps)])

    problem = asked.rejection(list[JSON](plan))
    vocabulary = tuple(Option(token, _step_words(token, plan, record)) for token in movement.step_kinds(record))
    progress = Progress(
        steps=tuple(plan),
        words=plan_words(plan),
        spent=movement.plan_cost(plan, kite=record.is_kite),
        budget=allowed.speed,
        accepted=tuple(str(o.value) for o in vocabulary if accepts([*plan, str(o.value)])),
        complete=problem is None,
        problem=problem or "",
        outcome=_ends(asked, record, plan) if problem is None else "",
        note="nobody is at her helm, so she holds her course and speed" if held else "",
    )
    attacks: list[Option] = []
    if problem is None and state.options.get("advanced"):
        for other in state.board.fighting():
            if other.name == record.name:
                continue
            for kind in ("ram", "grapple"):
                if asked.legal({"steps": list[JSON](plan), kind: other.name}):
                    whose = "" if other.side == record.side else f" ({asked.side(other.side)})"
                    attacks.append(Option({kind: other.name}, f"{capfirst(kind)} {other.name}{whose}"))
    drops = _drops(asked, record, plan) if problem is None and plan else ()
    path = Path(key="steps", label="Steps", steps=vocabulary, default=tuple(default), progress=progress)
    return _path_group(path, attacks, "Just move", drops, clause=request.rule)


def _path_group(path: Path, attacks: Sequence[Option], just: str, drops: Sequence[Field], *, clause: str) -> Field:
    """The plan, then what it ends with (a ram, a grapple, a boarding) and what is dropped on the way."""
    fields: list[Field] = [path]
    if attacks:
        label = "At the end of this plan"
        fields.append(One(key="attack", label=label, merge=True, options=(Option(None, just), *attacks)))
    if drops:
        label = "Drops as she passes over (made in the hex of each target)"
        fields.append(Repeat(key="drops", label=label, optional=True, items=tuple(drops)))
    return Group(key="", bare="steps", fields=tuple(fields), clause=clause)


def _fly(asked: Asked, plan: list[str]) -> Field:
    """A flying party's move built step by step like a ship's (SG-HM-03/04), ending with a boarding of a
    ship in the hex it reaches, at her altitude (SG-HM-05)."""
    state, request = asked.state, asked.request
    board = state.board
    party = flying.find(board.flyers, request.ships[0])
    assert party is not None, request.ships
    tokens = (*flying.directions(), movement.CLIMB, movement.DESCEND)
    if len(plan) > MAX_PLAN or not all(t in tokens for t in plan):
        plan = []
    problem = asked.rejection(list[JSON](plan))
    boardings: list[Option] = []
    cost, ends = 0, ""
    if problem is None:
        for ship in board.fighting():
            if asked.legal({"steps": list[JSON](plan), "board": ship.name}):
                if ship.side == party.side:
                    words = f"Land on {ship.name} and join her crew"
                else:
                    words = f"Board {ship.name} ({asked.side(ship.side)})"
                boardings.append(Option({"board": ship.name}, words))
        path = flying.trace(party, plan, terrain=board.terrain, turn=state.turn)
        cost = sum(step.cost for step in path)
        hex_, altitude = flying.end_of(party, path)
        ends = f"ends at {_where(hex_, None, altitude)}" if plan else f"stays at {_where(hex_, None, altitude)}"
    progress = Progress(
        steps=tuple(plan),
        words=", ".join(FLY_WORDS.get(t, t) for t in plan),
        spent=cost,
        budget=flying.fint("movement", "allowance"),
        accepted=tuple(t for t in tokens if asked.legal([*plan, t])),
        complete=problem is None,
        problem=problem or "",
        outcome=ends,
    )
    vocabulary = tuple(Option(t, FLY_WORDS.get(t, t)) for t in tokens)
    steps = Path(key="steps", label="Steps", steps=vocabulary, progress=progress)
    return _path_group(steps, boardings, "Just fly", (), clause=request.rule)


def _drops(asked: Asked, record: Any, plan: list[str]) -> tuple[Field, ...]:
    """What the ship may drop on an enemy below as this plan takes her over it (SG-LF-01, SG-CG-66/75): for
    each enemy and weapon, the counts the engine accepts with these steps."""
    fields: list[Field] = []
    board = asked.state.board
    for weapon in ordnance.DROPS:
        ready = len(record.items_of(weapon, states=("raised", "lowered") if weapon == ordnance.DROGUE else ("loaded",)))
        if not ready:
            continue
        for other in [*board.fighting(), *board.emplacements()]:
            if other.side == record.side or other.position is None:
                continue
            counts = [
                Option({"target": other.name, "weapon": weapon, "count": n}, str(n))
                for n in range(1, ready + 1)
                if asked.legal(
                    {"steps": list[JSON](plan), "drops": [{"target": other.name, "weapon": weapon, "count": n}]}
                )
            ]
            if counts:
                label = f"Drop {DROP_WORDS[weapon]} on {other.name} ({asked.side(other.side)}) as she passes over"
                options = (Option(None, "None"), *counts)
                fields.append(One(key=str(len(fields)), label=label, options=options, widget="select"))
    return tuple(fields)


def _step_words(token: str, plan: list[str], record: Any) -> str:
    dropped = movement.DESCEND in plan
    cost = movement.step_cost(token, first_drop=not dropped, kite=record.is_kite)
    words = STEP_WORDS.get(token, token)
    return f"{words} ({cost} MP)" if cost else words


def _ends(asked: Asked, record: Any, plan: list[str]) -> str:
    if not plan:
        return f"stays at {_where(record.position, record.facing, record.altitude)}"
    try:
        allowed = queries.allowance(asked.state, record)
        path = movement.trace(record, plan, allowed=allowed, terrain=asked.state.board.terrain)
    except movement.PlanError:
        return ""
    last = path[-1]
    text = f"ends at {_where(last.hex, last.facing, last.altitude)}"
    return f"{text}; she has {last.ends}" if last.ends else text


def _where(hex_: Any, facing: Any, altitude: Any) -> str:
    if hex_ is None:
        return "nowhere on the map"
    col, row = hexgrid.to_odd_q(hex_)
    heading = f"facing {COMPASS[facing % 6]}" if type(facing) is int else ""
    parts = [f"hex [{col}, {row}]", heading, f"altitude {altitude}"]
    return ", ".join(part for part in parts if part)


def _plot(asked: Asked) -> Field:
    """Each plotting ship: the plots she may make, half her move at most (SG-ERR-24/25), one per place she can
    end at, the others' plots left as the default."""
    state, request = asked.state, asked.request
    default = request.default if isinstance(request.default, dict) else {}
    given = default.get("plots")
    plots: dict[str, JSON] = dict(given) if isinstance(given, dict) else {}
    fields: list[Field] = []
    for name in request.ships:
        record = state.board.ship(name)
        seen: set[tuple[Any, ...] | None] = set()
        options: list[Option] = []
        for plan, steps in [([], []), *candidates.traced_moves(state, record)]:
            end = (steps[-1].hex, steps[-1].facing, steps[-1].altitude) if steps else None
            if end in seen or not asked.legal({"plots": {**plots, name: list[JSON](plan)}}):
                continue
            seen.add(end)
            where = _ends(asked, record, plan)
            words = capfirst(plan_words(plan) if plan else "no move")
            options.append(Option(list[JSON](plan), f"{words}: {where}" if where else words))
        mine = plots.get(name, [])
        label = f"{possessive(name)} plot"
        fields.append(One(key=name, label=label, options=tuple(options), default=mine, widget="select"))
    return Group(key="", fields=(Group(key="plots", fields=tuple(fields)),), clause=request.rule)


# --- fire ----------------------------------------------------------------------------------------------------


def _fire(asked: Asked) -> Field:
    """One choice per gun (or battery, or flying party's arms): hold fire, or each legal target."""
    state, request = asked.state, asked.request
    by_gun: dict[tuple[str, str], list[Option]] = {}
    seen: set[str] = set()

    def offer(firer: str, gun: str, shot: dict[str, JSON], label: str) -> None:
        value = answers.encode(shot)
        if value in seen or not asked.legal({"shots": [shot]}):
            return
        seen.add(value)
        by_gun.setdefault((firer, gun), []).append(Option(shot, label))

    advanced = bool(state.options.get("advanced"))
    for solution in validate.solutions(state, request.side):
        base: dict[str, JSON] = {"ship": solution.firer, "gun": solution.gun_id, "target": solution.target}
        kinds = [solution.ammunition] + (_ammunition(state.board, solution) if advanced else [])
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
    slots: list[Field] = []
    for index, ((firer, gun), options) in enumerate(sorted(by_gun.items())):
        battery = f"{possessive(firer)} Hale battery {gun[8:]}"
        legend = asked.gun(firer, gun) if not gun.startswith("battery ") else battery
        slots.append(One(key=str(index), label=legend, options=(Option(None, "Hold fire"), *options)))
    return Group(key="", fields=(Repeat(key="shots", items=tuple(slots)),), clause=request.rule)


def _ammunition(board: Any, solution: Any) -> list[str]:
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
        distance = solution.effective_range if solution.effective_range is not None else ""
        parts.append(f"{solution.band} range {distance}".strip())
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


def _special_shots(state: BattleState[Board], side: str) -> list[tuple[str, str, dict[str, JSON], str]]:
    """Hale salvoes, grapnels and Smutts launches the side might declare (each is judged before it is offered)."""
    board = state.board
    marks = [s.name for s in (*board.fighting(), *board.emplacements()) if s.side != side]
    found: list[tuple[str, str, dict[str, JSON], str]] = []
    for ship in board.fighting(side):
        for gun in ship.guns:
            if ordnance.is_discharger(gun):
                launch: dict[str, JSON] = {"ship": ship.name, "gun": gun.id, "launch": True}
                found.append((ship.name, gun.id, launch, "Launch a torpedo"))
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


def _orders(asked: Asked) -> Field:
    """The orders as an object (crew, strike, parties, train, signal, the other orders, ram), each part shown
    under its ship's heading."""
    state, request = asked.state, asked.request
    advanced = bool(state.options.get("advanced"))

    def fine(choice: dict[str, JSON]) -> bool:
        return asked.legal({"crew": [], "strike": [], **choice})

    ships = state.board.fighting(request.side)
    crew: list[Field] = []
    strike: list[Field] = []
    parties: list[Field] = []
    train: list[Field] = []
    for ship in ships:
        crew += _crew_slots(asked, ship, fine, start=len(crew))
        if fine({"strike": [ship.name]}):
            label = f"{ship.name} strikes her colours"
            option = (Option(ship.name, label),)
            strike.append(
                One(key=str(len(strike)), options=option, widget="checkbox", optional=True, section=ship.name)
            )
        if advanced and not ship.party.men:
            parties += _party(ship, fine, key=str(len(parties)))
        train += _training(asked, ship, fine, start=len(train))
    fields: list[Field] = [
        Repeat(key="crew", items=tuple(crew), clause="SG-CREW-08"),
        Repeat(key="strike", items=tuple(strike)),
        Repeat(key="parties", items=tuple(parties), optional=True, clause="SG-BRD-01"),
        Repeat(key="train", items=tuple(train), optional=True, clause="SG-MG-04"),
    ]
    if state.options.get("signals"):
        fields += _signal(asked, ships)
    atoms = _order_atoms(asked)
    if atoms:
        fields.append(Many(key="order", merge=True, options=tuple(atoms), section="Other orders"))
    if state.options.get(standing.OPTION):
        foes = [s.name for s in state.board.fighting() if not state.board.ally(request.side, s)]
        fields.append(standing.schema(state, request.side, foes))
    if advanced:
        counts = tuple(Option(n, str(n)) for n in range(len(ships) + 1) if fine({"ram": n}))
        if len(counts) > 1:
            label = "How many of your ships will try to ram or grapple this turn?"
            section = "Ramming and grappling"
            ram = One(
                key="ram", label=label, options=counts, default=0, widget="select", section=section, optional=True
            )
            fields.append(ram)
    return Group(key="", fields=tuple(fields), clause=request.rule)


def _crew_slots(asked: Asked, ship: Any, fine: Callable[[dict[str, JSON]], bool], *, start: int) -> list[Field]:
    """Reliefs at an empty helm or trim station, by rank, and men to short-handed guns (SG-CREW-08)."""
    slots: list[Field] = []

    def add(label: str, options: list[Option], nobody: str) -> None:
        key = str(start + len(slots))
        choices = (Option(None, nobody), *options)
        slots.append(One(key=key, label=label, options=choices, widget="select", section=ship.name))

    for station in STATIONS:
        ranks = [
            Option({"ship": ship.name, "relief": station, "rank": rank}, rank.replace("_", " "))
            for rank in RELIEF_RANKS
            if fine({"crew": [{"ship": ship.name, "relief": station, "rank": rank}]})
        ]
        if ranks:
            add(f"Nobody at the {station}: who takes it over?", ranks, "Nobody")
    for gun in ship.guns:
        if gun.destroyed or gun.manned >= gun.crew:
            continue
        moves: list[Option] = []
        sources = ["deckhands", *(f"gun:{g.id}" for g in ship.guns if g.id != gun.id and g.manned and not g.destroyed)]
        for source in sources:
            for men in range(gun.crew - gun.manned, 0, -1):
                change: JSON = {"ship": ship.name, "gun": gun.id, "men": men, "from": source}
                if fine({"crew": [change]}):
                    whence = f"gun {source[4:]}" if source.startswith("gun:") else source
                    moves.append(Option(change, f"{men} from the {whence}"))
        if moves:
            add(f"{asked.gun(ship.name, gun.id)}: {gun.manned} of {gun.crew} crew", moves, "No change")
    return slots


def _party(ship: Any, fine: Callable[[dict[str, JSON]], bool], *, key: str) -> list[Field]:
    """A boarding party formed of the men of each rank (SG-BRD-01); all at 0 forms none."""
    from battles.rules.sky_galleons.board import party_of  # the ruleset imports this module

    usual = party_of(ship)
    if not fine({"parties": [{"ship": ship.name, "men": usual}]}):
        return []
    ranks = tuple(
        Number(key=rank, label=rank.replace("_", " "), low=0, high=ship.crew.count(rank), optional=True)
        for rank in PARTY_RANKS
        if ship.crew.count(rank)
    )
    hint = f"As a captain would form it: {value_words(usual)}. Leave all at 0 to form none."
    men = Group(key="men", fields=ranks)
    label = "Form a boarding party"
    fixed: dict[str, JSON] = {"ship": ship.name}
    return [
        Group(
            key=key,
            label=label,
            hint=hint,
            fields=(men,),
            fixed=fixed,
            optional=True,
            widget="party",
            section=ship.name,
        )
    ]


def _training(asked: Asked, ship: Any, fine: Callable[[dict[str, JSON]], bool], *, start: int) -> list[Field]:
    """Each portable machinegun: the aspect to train it on, sealed from the enemy (SG-MG-04/06)."""
    fields: list[Field] = []
    trained = asked.state.board.trained
    for gun in ship.guns:
        if gun.destroyed or not combat.is_portable(gun):
            continue
        aspects = [
            Option({"ship": ship.name, "gun": gun.id, "aspect": aspect.value}, aspect.value)
            for aspect in hexgrid.Aspect
            if portable_guns.moves(ship, trained, gun.id, aspect.value)
            and fine({"train": [{"ship": ship.name, "gun": gun.id, "aspect": aspect.value}]})
        ]
        if aspects:
            now = "/".join(portable_guns.trained_record(ship, trained).gun(gun.id).arcs)
            label = f"{asked.gun(ship.name, gun.id)} (portable, on the {now}): train it on"
            options = (Option(None, "Leave it"), *aspects)
            key = str(start + len(fields))
            fields.append(One(key=key, label=label, options=options, widget="select", section=ship.name))
    return fields


def _signal(asked: Asked, ships: Sequence[Any]) -> list[Field]:
    """Hoist one signal of a few words from a ship whose signalman stands (SG-SIG-01/04); its words stay
    sealed from the enemy unless it can read them (SG-SIG-05)."""
    senders = tuple(Option(s.name, s.name) for s in ships if signals.can_signal(s))
    if not senders:
        return []
    friends = [s.name for s in ships]
    others = [s.name for s in asked.state.board.ships if s.name not in set(friends)]
    to = (Option(signals.ALL, "All ships"), *(Option(n, n) for n in [*friends, *others]))
    hint = f"At most {signals.max_words()} words; leave empty to hoist none."
    fields: tuple[Field, ...] = (
        One(key="ship", label="Hoisted by", options=senders, default=senders[0].value, widget="select"),
        One(key="to", label="To", options=to, default=to[0].value, widget="select"),
        answers.Text(key="words", label="Words", hint=hint, optional=True),
    )
    return [Group(key="signal", fields=fields, optional=True, needs="words", section="Signal", clause="SG-SIG-01")]


def _order_atoms(asked: Asked) -> list[Option]:
    """The ruleset's other candidate orders, one checkbox each (disband, recall, cut, tow, prizes, flyers...)."""
    found: list[Option] = []
    seen: set[str] = set()
    for candidate in asked.rs.candidates(asked.state, asked.request):
        if not isinstance(candidate, dict):
            continue
        atom: dict[str, JSON] = {k: v for k, v in candidate.items() if k not in HANDLED and v not in ([], {}, None)}
        if not atom or not asked.legal({"crew": [], "strike": [], **atom}):
            continue
        value = answers.encode(atom)
        if value not in seen:
            seen.add(value)
            found.append(Option(atom, order_words(atom)))
    return found


def order_words(atom: Mapping[str, JSON]) -> str:
    words = []
    for key, value in atom.items():
        for item in value if isinstance(value, list) else [value]:
            words.append(_order_word(key, item))
    return "; ".join(words)


def _order_word(key: str, item: JSON) -> str:
    pair = isinstance(item, list) and len(item) == 2
    thing = item if isinstance(item, dict) else {}
    if key == "disband":
        return f"Disband {possessive(item)} boarding party"
    if key == "recall":
        return f"Recall {possessive(item)} boarders"
    if key == "cut" and pair and isinstance(item, list):
        return f"{item[0]} cuts her grapple with {item[1]}"
    if key == "tow" and pair and isinstance(item, list):
        return f"{item[0]} takes {item[1]} in tow"
    if key == "prizes" and thing:
        return "; ".join(f"Prize {name}: {value_words(word)}" for name, word in thing.items())
    if key == "flying_parties" and thing:
        return f"{thing.get('ship')} sends out a flying party: {value_words(thing.get('men'))}"
    if key == "recall_flyers":
        return f"Recall flying party {item}"
    if key == "mines" and thing:
        return f"{thing.get('ship')} {'raises' if thing.get('raised') else 'lowers'} her tether mines"
    if key == "drogues" and thing:
        return f"{thing.get('ship')} {'lowers' if thing.get('lowered') else 'raises'} her drogues"
    if key == "reload" and thing:
        return f"{thing.get('ship')} reloads bomb rack {thing.get('rack')}"
    if key == "cut_mines":
        return f"{item} cuts her tether mines loose"
    return f"{key.replace('_', ' ')}: {value_words(item)}"


# --- set-up, reinforcements, boarding ---------------------------------------------------------------------


def _facings(allowed: Callable[[int], bool] = lambda n: True) -> tuple[Option, ...]:
    return tuple(Option(n, f"{n}: {COMPASS[n]}") for n in range(6) if allowed(n))


def _spot(value: JSON) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(type(n) is int for n in value):
        return (int(str(value[0])), int(str(value[1])))
    return None


def _place(asked: Asked) -> Field:
    """The hexes where the ship may be set up at her default facing and altitude, the facings, the altitudes."""
    state, request = asked.state, asked.request
    record = state.board.ship(request.ships[0])
    default = request.default if isinstance(request.default, dict) else {}
    facing, altitude = default.get("facing", record.facing), default.get("altitude", record.altitude)
    spot = default.get("hex")
    spots = tuple(
        hexgrid.to_odd_q(hex_)
        for hex_ in state.board.terrain.hexes()
        if asked.legal({"hex": list(hexgrid.to_odd_q(hex_)), "facing": facing, "altitude": altitude})
    )
    levels = tuple(
        Option(a, a) for a in altitude_levels() if asked.legal({"hex": spot, "facing": facing, "altitude": a})
    )
    facings = _facings(lambda n: asked.legal({"hex": spot, "facing": n, "altitude": altitude}))
    hint = (
        f"Each list holds what is open to {record.name} with the other two as first shown (altitude {altitude}, "
        f"facing {facing}); the three together are judged again when you send them."
    )
    fields: tuple[Field, ...] = (
        Hex(key="hex", label="Hex [column, row]", allowed=spots, only_allowed=False, default=_spot(spot), hint=hint),
        One(key="facing", label="Facing", options=facings, default=facing, widget="select"),
        One(key="altitude", label="Altitude", options=levels, default=altitude, widget="select"),
    )
    return Group(key="", fields=fields, clause=request.rule)


def _reinforcement(asked: Asked) -> Field:
    board = asked.state.board
    request = asked.request
    rule = special_rules.pending_reinforcement(board)
    default = request.default if isinstance(request.default, dict) else {}
    if rule is None:
        return Group(key="", fields=(), clause=request.rule)
    classes = rule["classes"] if isinstance(rule["classes"], list) else []
    kinds = tuple(Option(c, value_words(c)) for c in classes)
    spots = tuple(hexgrid.to_odd_q(h) for h in special_rules.arrival_hexes(board, rule))
    fields: tuple[Field, ...] = (
        One(key="class", label="Ship", options=kinds, default=default.get("class"), widget="select"),
        Hex(
            key="hex",
            label=f"Hex [column, row] in the {rule['arrive']}",
            allowed=spots,
            default=_spot(default.get("hex")),
        ),
        One(key="facing", label="Facing", options=_facings(), default=default.get("facing", 0), widget="select"),
    )
    return Group(key="", fields=fields, clause=request.rule)


def _board(asked: Asked) -> Field:
    """The men each ship may send across to each ship it may board (SG-BRD-05..07): 0 sends none."""
    slots: list[Field] = []
    for ship, targets in sorted(queries.boarding_options(asked.state, asked.request.side).items()):
        for target, most in sorted(targets.items()):
            men = Number(key="men", label=f"Men to {target} (up to {most})", low=0, high=most, optional=True)
            fixed: dict[str, JSON] = {"ship": ship, "target": target}
            section = f"{possessive(ship)} boarding party"
            slots.append(Group(key=str(len(slots)), fields=(men,), fixed=fixed, optional=True, section=section))
    return Group(key="", fields=(Repeat(key="boardings", items=tuple(slots)),), clause=asked.request.rule)
