"""The generic driver: start a battle, take decisions, resolve, fold events, replay. Any ruleset.

The one rule that makes replay exact: a state only ever changes by folding an event into it
(``apply_event``). While a ruleset resolves, every event it emits through the Context is folded at once,
so ``ctx.state`` is always the fold of the log so far, and ``replay(initial, log)`` rebuilds it.
The dice seed is needed to resolve (to roll new dice), never to replay: the log holds every face.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from battles.engine import dice as dice_
from battles.engine.decisions import (
    ALREADY_DECIDED,
    BATTLE_OVER,
    NO_SUCH_DECISION,
    NOT_AN_OPTION,
    NOT_JSON,
    NOT_YOUR_DECISION,
    STANDING,
    DecisionRequest,
    Rejection,
)
from battles.engine.events import (
    BATTLE_ENDED,
    DECISION,
    DECISION_REQUESTED,
    DECISIONS,
    ENGINE_KINDS,
    ENVELOPE,
    JSON,
    PHASE,
    PUBLIC,
    ROLL,
    TURN,
    Event,
    plain,
    side_only,
)
from battles.engine.ruleset import Ruleset, resolve_options
from battles.engine.state import BattleState

B = TypeVar("B")
T = TypeVar("T")

_ENVELOPE_KEYS = frozenset(ENVELOPE)

# A guard against a ruleset that never stops: no single resolution emits more events than this.
MAX_EVENTS_PER_RESOLUTION = 50_000


class EngineError(RuntimeError):
    """A ruleset or caller broke the engine's protocol (a bug, not a player's illegal move)."""


class ReplayError(EngineError):
    """An event does not fit the state it is folded into: wrong order, gap, or dice out of step."""


@dataclass(frozen=True)
class Accepted(Generic[B]):
    """A decision went in: the new state and the events it caused (the decision, and any resolution)."""

    state: BattleState[B]
    events: list[Event]


# --- the fold -------------------------------------------------------------------------------------


def apply_event(ruleset: Ruleset[B], state: BattleState[B], event: Event) -> BattleState[B]:
    """Fold one event into the state: the engine's envelope first, then the ruleset's board."""
    if event.seq != state.seq:
        raise ReplayError(f"event {event.seq} applied to a state expecting event {state.seq}")
    data = event.data
    changes: dict[str, Any] = {"seq": state.seq + 1}
    if event.kind == ROLL:
        stream, counter = str(data["stream"]), _int(data["counter"])
        if counter != state.dice.get(stream, 0):
            raise ReplayError(f"event {event.seq}: dice stream {stream!r} is at {state.dice.get(stream, 0)}")
        changes["dice"] = {**state.dice, stream: counter + len(_list(data["dice"]))}
    elif event.kind == TURN:  # the envelope carries the new turn / phase
        changes["turn"] = event.turn
    elif event.kind == PHASE:
        changes["phase"] = event.phase
    elif event.kind == DECISION_REQUESTED:
        request = DecisionRequest.from_json(_dict(data["request"]))
        changes["requests"] = (*state.requests, request)
        changes["asked"] = state.asked + 1
    elif event.kind == DECISION:
        request_id = str(data["request"])
        if state.request(request_id) is None or request_id in state.answers:
            raise ReplayError(f"event {event.seq} answers {request_id}, which is not open")
        changes["answers"] = {**state.answers, request_id: data["choice"]}
    elif event.kind == DECISIONS:
        if state.pending():
            raise ReplayError(f"event {event.seq} closes decisions still unanswered")
        changes["requests"] = ()
        changes["answers"] = {}
    elif event.kind == BATTLE_ENDED:
        winner = data["winner"]
        changes.update(over=True, winner=None if winner is None else str(winner), result=str(data["reason"]))
    # The new state, made as BattleState.evolve makes it (every key above is a field).
    enveloped = object.__new__(type(state))
    fields_ = enveloped.__dict__
    fields_.update(state.__dict__)
    fields_.update(changes)
    if event.turn != fields_["turn"] or event.phase != fields_["phase"]:
        raise ReplayError(f"event {event.seq} is stamped turn {event.turn} {event.phase!r}")
    board = ruleset.apply(enveloped, event)
    # The folded board goes into the new state itself rather than a copy of it: the state is made above for this
    # event alone, and the fold only reads it (a fold returns a board, and the memos keep boards and records, never
    # a state). A roll, a decision and every kind without a fold hand back the board as it was.
    fields_["board"] = board
    return enveloped


def replay(ruleset: Ruleset[B], initial: BattleState[B], events: Iterable[Event]) -> BattleState[B]:
    """The state after ``events``: the fold from the initial state. Needs no dice seed."""
    _check_ruleset(ruleset, initial)
    state = initial
    for event in events:
        state = apply_event(ruleset, state, event)
    return state


def _int(value: JSON) -> int:
    if type(value) is not int:
        raise ReplayError(f"expected an integer, got {value!r}")
    return value


def _list(value: JSON) -> list[JSON]:
    if not isinstance(value, list):
        raise ReplayError(f"expected a list, got {value!r}")
    return value


def _dict(value: JSON) -> dict[str, JSON]:
    if not isinstance(value, dict):
        raise ReplayError(f"expected an object, got {value!r}")
    return value


# --- resolving ----------------------------------------------------------------------------------


class Context(Generic[B]):
    """What a ruleset's ``advance`` works through: it reads ``state`` and emits events, nothing else.

    Each emitted event is folded at once, so ``state`` (and ``board``) always reflect everything
    emitted so far.
    """

    def __init__(self, ruleset: Ruleset[B], state: BattleState[B], seed: bytes) -> None:
        self._ruleset = ruleset
        self._seed = seed
        self._state = state
        self.events: list[Event] = []

    @property
    def state(self) -> BattleState[B]:
        return self._state

    @property
    def board(self) -> B:
        return self._state.board

    @property
    def tables(self) -> Mapping[str, JSON]:
        return self._ruleset.tables

    def option(self, key: str) -> JSON:
        return self._state.options[key]

    def _push(
        self,
        kind: str,
        data: Mapping[str, Any],
        *,
        ships: Sequence[str] = (),
        visibility: str = PUBLIC,
        turn: int | None = None,
        phase: str | None = None,
        source: object = None,
        copied: bool = False,
    ) -> Event:
        if len(self.events) >= MAX_EVENTS_PER_RESOLUTION:
            raise EngineError(f"{self._ruleset.key}: more than {MAX_EVENTS_PER_RESOLUTION} events in one go")
        if copied:  # already what plain gives, and the caller's no more (emit's ``copied``)
            clean: JSON = dict(data)
        else:  # plain copies: the caller's dict is not kept
            clean = plain(data if type(data) is dict else dict(data))
        assert isinstance(clean, dict)
        if not _ENVELOPE_KEYS.isdisjoint(clean):
            raise EngineError(f"event data may not use the envelope keys {sorted(clean.keys() & _ENVELOPE_KEYS)}")
        seq = self._state.seq
        turn = self._state.turn if turn is None else turn
        phase = self._state.phase if phase is None else phase
        named = tuple(map(str, ships))
        if _NATIVE_EVENT:  # the compiled build (make fast): its Event has no __dict__, and its __init__ is quick
            event = Event(seq, turn, phase, kind, clean, named, visibility, source)
        else:
            # Event's fields set at once, as its frozen dataclass __init__ would set them one by one (it has no
            # __post_init__ and no default factory to run): made for every event, the __init__ was a tenth of _push.
            event = object.__new__(Event)
            event.__dict__.update(
                seq=seq,
                turn=turn,
                phase=phase,
                kind=kind,
                data=clean,
                ships=named,
                visibility=visibility,
                source=source,
            )
        self._state = apply_event(self._ruleset, self._state, event)
        self.events.append(event)
        return event

    def emit(
        self,
        kind: str,
        data: Mapping[str, Any] | None = None,
        *,
        ships: Sequence[str] = (),
        secret_to: str = "",
        source: object = None,
        copied: bool = False,
    ) -> Event:
        """Record a ruleset event (moved, hit, boarded...). ``secret_to`` keeps it to one side.

        Two shortcuts for an event that carries a large value (a ship's whole record, folded at once):
        ``source``, the immutable value the data was built from, which the ruleset's fold may take instead of
        parsing the data back (Event.source; a replay from the log parses it); ``copied``, the data is already
        what ``plain`` would make of it (fresh lists and objects, every object's keys in sorted order) and
        nothing else holds it, so it is kept without the copy. The ruleset's tests hold both to what the long way
        gives, on whole battles."""
        if kind in ENGINE_KINDS:
            raise EngineError(f"{kind!r} is an engine event; use the Context method for it")
        visibility = side_only(secret_to) if secret_to else PUBLIC
        return self._push(kind, data or {}, ships=ships, visibility=visibility, source=source, copied=copied)

    def roll(
        self,
        purpose: str,
        *,
        count: int = 1,
        sides: int = 6,
        modifiers: Mapping[str, int] | None = None,
        needed: dice_.Needed | dice_.Judge | None = None,
        ships: Sequence[str] = (),
        stream: str = dice_.MAIN,
    ) -> dice_.Roll:
        """Roll the battle's dice; the roll is logged as an event and moves the stream on."""
        result = dice_.make_roll(
            self._seed,
            purpose,
            stream=stream,
            counter=self._state.dice.get(stream, 0),
            count=count,
            sides=sides,
            modifiers=modifiers,
            needed=needed,
        )
        data = result.plain_json()  # built as plain copies it: kept without the copy where it can be
        self._push(ROLL, result.to_json() if data is None else data, ships=ships, copied=data is not None)
        return result

    def pick(self, purpose: str, items: Sequence[T], *, ships: Sequence[str] = (), stream: str = dice_.MAIN) -> T:
        """One of ``items`` at random with one logged die of len(items) sides: the ship a stray shot
        hits, the gun a critical destroys, the next activation card from a deck."""
        if not items:
            raise EngineError(f"{purpose}: nothing to pick from")
        labels = [str(item) for item in items]
        needed = dice_.table(f"1-{len(items)}", [(n + 1, n + 1, label) for n, label in enumerate(labels)])
        rolled = self.roll(purpose, sides=len(items), needed=needed, ships=ships, stream=stream)
        return items[rolled.dice[0] - 1]

    def begin_turn(self, turn: int | None = None) -> None:
        new = self._state.turn + 1 if turn is None else turn
        self._push(TURN, {}, turn=new)

    def begin_phase(self, phase: str) -> None:
        self._push(PHASE, {}, phase=phase)

    def request(
        self,
        side: str,
        kind: str,
        *,
        rule: str,
        options: Sequence[Any] | None = None,
        default: Any = None,
        secret: bool = False,
        prompt: str = "",
        ships: Sequence[str] = (),
        sealed: Sequence[str] = (),
        umpire: bool = False,
    ) -> DecisionRequest:
        """Open a decision for ``side``. Requests opened together are decided simultaneously.

        A listed request defaults to its first option; an open-ended one must name a legal default
        (the answer given for a side that lets its deadline pass). ``sealed``: keys of a secret object
        answer left out when the batch is revealed; the ruleset reads them from the side's own ``decision``
        event. ``umpire``: the umpire answers it in web play, not ``side``'s player (DecisionRequest.umpire);
        public, as everything the umpire decides for the table is.
        """
        if sealed and not secret:
            raise EngineError(f"{kind}: only a secret decision can keep sealed keys")
        if umpire and secret:
            raise EngineError(f"{kind}: the umpire's decision is public, never secret")
        if side not in self._state.sides:
            raise EngineError(f"no side {side!r} in this battle")
        listed = None if options is None else tuple(_list(plain(list(options))))
        if listed is not None and not listed:
            raise EngineError(f"{kind}: a listed decision needs at least one option")
        if default is None and listed is not None:
            default = listed[0]
        request = DecisionRequest(
            # Numbered among the requests (all public), not by the log position: a side's log has gaps where
            # events were kept from it, and an id must not tell it how many.
            id=f"d{self._state.asked}",
            side=side,
            kind=kind,
            phase=self._state.phase,
            rule=rule,
            default=plain(default),
            options=listed,
            secret=secret,
            prompt=prompt,
            ships=tuple(ships),
            sealed=tuple(sealed),
            umpire=umpire,
        )
        problem = _judge(self._ruleset, self._state, request, request.default)
        if problem is not None:
            raise EngineError(f"{kind}: the default answer is illegal ({problem})")
        self._push(DECISION_REQUESTED, {"request": request.to_json()}, ships=ships)
        return request

    def end_battle(self, winner: str | None, reason: str) -> None:
        self._push(BATTLE_ENDED, {"winner": winner, "reason": reason})

    # Engine-internal: answering and closing a batch of decisions.
    def _answer(self, request: DecisionRequest, choice: JSON, *, standing: bool = False) -> None:
        """Log the answer: ``choice`` is a fresh plain copy (``plain``) made for it, so the event keeps it as it
        is, in data whose keys are written in sorted order (Context.emit's ``copied``)."""
        visibility = side_only(request.side) if request.secret else PUBLIC
        data: dict[str, JSON] = {"choice": choice, "decision": request.kind, "request": request.id}
        data["side"] = request.side
        if standing:  # written only when set, so answers by hand keep their old spelling
            data[STANDING] = True
        self._push(DECISION, data, ships=request.ships, visibility=visibility, copied=True)

    def _standing_answers(self) -> bool:
        """Answer what the sides' standing orders can: a decision put to no one (windows.py counts the rest).
        True if any was answered. An order the rules refuse is not given: the side is asked after all."""
        answered = False
        for request in self._state.pending():
            choice = self._ruleset.standing_answer(self._state, request, self._seed)
            clean = None if choice is None else plain(choice)
            if clean is None or _judge(self._ruleset, self._state, request, clean) is not None:
                continue
            self._answer(request, clean, standing=True)  # the plain copy judged, and no one else's
            answered = True
        return answered

    def _close_batch(self) -> None:
        answers = {
            r.id: {"side": r.side, "decision": r.kind, "choice": r.reveal(self._state.answers[r.id])}
            for r in self._state.requests
        }
        # The answers in the order they were asked: the log's JSON sorts an object's keys.
        self._push(DECISIONS, {"answers": answers, "order": [r.id for r in self._state.requests]})


def _judge(ruleset: Ruleset[B], state: BattleState[B], request: DecisionRequest, choice: JSON) -> Rejection | None:
    """Listed options are checked here, naming the request's clause; the ruleset judges the rest."""
    if not request.allows(choice):
        count = len(request.options or ())
        reason = f"{request.kind}: not one of the {count} legal options"
        return Rejection(request.rule or NOT_AN_OPTION, reason)
    return ruleset.validate(state, request, choice)


def _run(ruleset: Ruleset[B], ctx: Context[B]) -> None:
    """Advance until a decision is open or the battle is over."""
    while not ctx.state.over:
        if ctx.state.requests:
            if ctx.state.pending() and not ctx._standing_answers():
                return
            if ctx.state.pending():
                continue
            ctx._close_batch()
            continue
        before = ctx.state.seq
        ruleset.advance(ctx)
        if ctx.state.seq == before:
            raise EngineError(f"{ruleset.key}: advance() emitted nothing and opened no decision")


def new_battle(
    ruleset: Ruleset[B],
    scenario: Mapping[str, JSON],
    *,
    seed_commitment: str,
    options: Mapping[str, JSON] | None = None,
) -> BattleState[B]:
    """The initial state of a battle (no dice rolled yet: the first ``resolve`` does set-up rolls).

    A scenario may set option defaults of its own under ``"options"`` (a basic-rules scenario switches the
    advanced rules off); the ``options`` given for the battle override them."""
    own = scenario.get("options") if isinstance(scenario, Mapping) else None
    chosen = resolve_options(ruleset, {**(own if isinstance(own, Mapping) else {}), **(options or {})})
    setup = ruleset.setup(scenario, chosen)
    if len(set(setup.sides)) != len(setup.sides) or len(setup.sides) < 2:
        raise EngineError(f"{ruleset.key}: a battle needs two or more distinct sides")
    return BattleState(
        ruleset=ruleset.key,
        version=ruleset.version,
        options=chosen,
        sides=tuple(setup.sides),
        seed_commitment=seed_commitment,
        board=setup.board,
    )


def resolve(ruleset: Ruleset[B], state: BattleState[B], seed: bytes) -> Accepted[B]:
    """Carry the battle on until a decision is needed or it ends (a no-op if one is already open)."""
    _check_ruleset(ruleset, state)
    _check_seed(state, seed)
    ctx = Context(ruleset, state, seed)
    _run(ruleset, ctx)
    return Accepted(ctx.state, ctx.events)


def check_decision(
    ruleset: Ruleset[B], state: BattleState[B], *, side: str, request_id: str, choice: Any
) -> Rejection | None:
    """Would this answer be accepted? None if so, else the clause it breaks and why."""
    checked = _checked(ruleset, state, side=side, request_id=request_id, choice=choice)
    return checked if isinstance(checked, Rejection) else None


def _checked(
    ruleset: Ruleset[B], state: BattleState[B], *, side: str, request_id: str, choice: Any
) -> Rejection | tuple[DecisionRequest, JSON]:
    """check_decision's work: the clause the answer breaks, or its request and the answer as plain JSON."""
    _check_ruleset(ruleset, state)
    if state.over:
        return Rejection(BATTLE_OVER, "the battle is over")
    request = state.request(request_id)
    if request is None:
        return Rejection(NO_SUCH_DECISION, f"no open decision {request_id!r}")
    if request.side != side:
        return Rejection(NOT_YOUR_DECISION, f"decision {request_id} is for {request.side}, not {side}")
    if request_id in state.answers:
        return Rejection(ALREADY_DECIDED, f"decision {request_id} is already made")
    try:
        clean = plain(choice)
    except (TypeError, ValueError):
        return Rejection(NOT_JSON, "the answer is not plain JSON data")
    return _judge(ruleset, state, request, clean) or (request, clean)


def with_answers(ruleset: Ruleset[B], state: BattleState[B], answers: Mapping[str, Any]) -> BattleState[B]:
    """The state with these answers to open decisions logged and the batch left open: nothing advances and no die
    is rolled. What a side sees of its own answers while the others' are awaited (the app stores each answer until
    its batch is complete): the same state the engine holds between two ``submit``s. An answer to no open
    decision, or one the rules refuse, is left out."""
    _check_ruleset(ruleset, state)
    ctx = Context(ruleset, state, b"")  # no die is rolled: _answer only logs
    for request_id, choice in answers.items():
        request = ctx.state.request(request_id)
        if request is None or request_id in ctx.state.answers or ctx.state.over:
            continue
        try:
            clean = plain(choice)
        except (TypeError, ValueError):
            continue
        if _judge(ruleset, ctx.state, request, clean) is None:
            ctx._answer(request, clean)
    return ctx.state


def submit(
    ruleset: Ruleset[B], state: BattleState[B], *, side: str, request_id: str, choice: Any, seed: bytes
) -> Accepted[B] | Rejection:
    """Answer one open decision. An illegal answer changes nothing and comes back as a Rejection.

    When it was the last open answer of its batch, the batch is closed (revealing secret answers) and
    the battle resolves on until the next decision or its end.
    """
    checked = _checked(ruleset, state, side=side, request_id=request_id, choice=choice)
    if isinstance(checked, Rejection):
        return checked
    _check_seed(state, seed)
    ctx = Context(ruleset, state, seed)
    request, clean = checked  # the answer's plain copy, judged and then logged: it is no one else's
    ctx._answer(request, clean)
    _run(ruleset, ctx)
    return Accepted(ctx.state, ctx.events)


def submit_defaults(ruleset: Ruleset[B], state: BattleState[B], *, side: str, seed: bytes) -> Accepted[B]:
    """A side's deadline passed: answer all its open decisions with their defaults."""
    events: list[Event] = []
    for request in state.pending(side):
        if state.request(request.id) is None or request.id in state.answers:
            continue  # resolution after an earlier default has moved on
        outcome = submit(ruleset, state, side=side, request_id=request.id, choice=request.default, seed=seed)
        if isinstance(outcome, Rejection):
            raise EngineError(f"default for {request.id} rejected: {outcome}")
        state, events = outcome.state, events + outcome.events
    return Accepted(state, events)


def concede(ruleset: Ruleset[B], state: BattleState[B], *, side: str, seed: bytes) -> Accepted[B]:
    """A side gives the battle up: it ends at once, won by the only other side (a draw among several). The
    ``battle_ended`` event names the side that conceded, so a re-run of the log knows where it happened."""
    _check_ruleset(ruleset, state)
    _check_seed(state, seed)
    if state.over:
        raise EngineError("the battle is already over")
    if side not in state.sides:
        raise EngineError(f"no side {side!r} in this battle")
    others = [s for s in state.sides if s != side]
    ctx = Context(ruleset, state, seed)
    ctx._push(
        BATTLE_ENDED,
        {"winner": others[0] if len(others) == 1 else None, "reason": f"{side} conceded", "conceded": side},
    )
    return Accepted(ctx.state, ctx.events)


def rerun(ruleset: Ruleset[B], initial: BattleState[B], log: Sequence[Event], seed: bytes) -> list[Event]:
    """Play the battle again from its initial state with the seed, giving the logged decisions in their
    logged order (and a logged concession where it came): the events it makes. Equal to ``log`` when every
    die and every consequence in the log is what the seed and the decisions give (verify_battle)."""
    started = resolve(ruleset, initial, seed)
    current, events = started.state, list(started.events)
    for event in log:
        if current.over:
            break
        if event.seq < current.seq:
            continue  # made again already by the re-run
        if event.kind == DECISION:
            data = event.data
            outcome = submit(
                ruleset,
                current,
                side=str(data["side"]),
                request_id=str(data["request"]),
                choice=data["choice"],
                seed=seed,
            )
            if isinstance(outcome, Rejection):
                raise ReplayError(f"event {event.seq}: the logged decision is refused on re-run: {outcome}")
            current, events = outcome.state, events + outcome.events
        elif event.kind == BATTLE_ENDED and "conceded" in event.data:
            conceded = concede(ruleset, current, side=str(event.data["conceded"]), seed=seed)
            current, events = conceded.state, events + conceded.events
    return events


def _check_ruleset(ruleset: Ruleset[Any], state: BattleState[Any]) -> None:
    if (state.ruleset, state.version) != (ruleset.key, ruleset.version):
        raise EngineError(f"this battle is {state.ruleset} {state.version}, not {ruleset.key} {ruleset.version}")


def _check_seed(state: BattleState[Any], seed: bytes) -> None:
    if state.seed_commitment and dice_.commitment(seed) != state.seed_commitment:
        raise EngineError("this seed is not the one the battle committed to")


# Context._push makes each Event without its __init__: nothing may hang on it.
assert not hasattr(Event, "__post_init__")
# The compiled build's Event is a native class (mypyc marks it so): no __dict__ to fill, so _push calls it.
_NATIVE_EVENT = hasattr(Event, "__mypyc_attrs__")
