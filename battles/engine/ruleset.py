"""The Ruleset protocol and the registry of rulesets.

A ruleset is an object with a key, a version, its option switches (with defaults) and its tables as
data, and five pieces of behaviour the generic resolver drives:

- ``setup``: the sides and the board of a new battle, from a scenario and the chosen options (no dice:
  set-up rolls happen in the first ``advance``, so they are logged like any other roll);
- ``advance``: carry the battle on from where it stands, emitting events through the Context, until it
  opens a decision or ends the battle;
- ``apply``: fold one event into the board (pure: returns a new board, never mutates);
- ``validate``: judge an answer to one of its decisions, naming the clause an illegal one breaks;
- ``check_invariants``: what must always hold (no negative crew or hull boxes...), for the conformance
  suite;
- ``board_view`` and ``event_view``: the board and the log as one side may see them (hidden information
  stays with its side until the rules reveal it);
- ``battle_result``: what the battle hands on when it ends, as plain versioned JSON (the stored result);
- the presentation (``battles/engine/presentation.py``): names, the log in words, the map and the record
  sheets as data, each with a generic default;
- the battle app's hooks, each with a generic default in ``BaseRuleset``: ``ai_policy`` (who plays a side no
  one plays), ``leaving_policy`` (who answers for a side that surrendered or withdraws), ``deadline_default``
  (the answer a side gets when its deadline passes), ``summary`` (one line for lists), ``tally`` (the odds
  calculator's figures), ``outcome`` (the typed battle outcome, the only thing a campaign reads: outcome.py),
  ``weigh_sides`` (a scenario's sides weighed against the ruleset's advice on balance, before any play; None
  where the rules give none), ``ship_editor`` (how an umpire changes a scenario's ships before the battle, or None:
  ship_editor.py), ``card_designer`` (a ship's record sheet from her particulars, or None: card_designer.py).

Variants subclass a ruleset and override only what differs. A ruleset package registers an instance on
import (``register(SkyGalleons())`` in ``battles/rules/sky_galleons/__init__.py``); ``discover()``
imports every package under ``battles.rules`` but those whose name starts with "_" (docs/rulesets.md).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from battles.engine import answers
from battles.engine.bridge import CampaignBridge
from battles.engine.card_designer import CardDesigner
from battles.engine.decisions import DecisionRequest, Rejection
from battles.engine.events import JSON, Event, JSONObject, canonical, plain
from battles.engine.outcome import FIGHTING, BattleOutcome, ShipOutcome
from battles.engine.presentation import GenericPresentation, Presentation
from battles.engine.ship_editor import ShipEditor
from battles.engine.state import BattleState

if TYPE_CHECKING:
    from battles.engine.policies import Policy
    from battles.engine.resolver import Context

B = TypeVar("B")


@dataclass(frozen=True)
class OptionSpec:
    """One option switch: its key, default, meaning, allowed values (None: any of the default's type)."""

    key: str
    default: JSON
    description: str
    choices: tuple[JSON, ...] | None = None
    clause: str = ""  # the rule clause the option switches, e.g. an optional rule or an erratum


@dataclass(frozen=True)
class SidesWeighed:
    """A scenario's sides weighed against its rules' advice on balancing scenarios: the figures as JSON and the
    report in words (``simulate_battle --balance``)."""

    figures: JSONObject
    words: str


@dataclass(frozen=True)
class Setup(Generic[B]):
    sides: tuple[str, ...]
    board: B


@runtime_checkable
class Ruleset(Presentation, Protocol[B]):
    key: str
    version: str
    title: str
    options: tuple[OptionSpec, ...]
    tables: Mapping[str, JSON]
    # How a campaign's encounters are fought with this ruleset (bridge.py); None: standalone battles only.
    campaign_bridge: CampaignBridge | None
    # Options the battle app proposes for web play where the umpire has not chosen (standing orders...).
    play_defaults: Mapping[str, JSON]
    # How an umpire changes a scenario's ships before the battle (ship_editor.py); None: the ships as given.
    ship_editor: ShipEditor | None
    # A ship's record sheet from her particulars, with the working (card_designer.py); None: the rules give none.
    card_designer: CardDesigner | None

    def setup(self, scenario: Mapping[str, JSON], options: Mapping[str, JSON]) -> Setup[B]: ...

    def board_to_json(self, board: B) -> JSON: ...

    def board_from_json(self, data: JSON) -> B: ...

    def advance(self, ctx: Context[B]) -> None: ...

    def apply(self, state: BattleState[B], event: Event) -> B: ...

    def validate(self, state: BattleState[B], request: DecisionRequest, choice: JSON) -> Rejection | None: ...

    def candidates(self, state: BattleState[B], request: DecisionRequest) -> Sequence[JSON]: ...

    def answer_schema(
        self,
        state: BattleState[B],
        request: DecisionRequest,
        *,
        partial: JSON = None,
        sides: Mapping[str, str] | None = None,
    ) -> answers.AnswerSchema: ...

    def check_invariants(self, state: BattleState[B]) -> list[str]: ...

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]: ...

    def board_view(self, state: BattleState[B], side: str | None) -> JSON: ...

    def roster(self, state: BattleState[B]) -> list[JSONObject]: ...

    def event_view(self, event: Event, side: str | None) -> JSONObject | None: ...

    def battle_result(self, initial: BattleState[B], final: BattleState[B]) -> JSONObject: ...

    # The battle app's hooks (BaseRuleset's defaults: random play, defaults, engine figures).
    def ai_policy(self, seed: bytes, side: str) -> Policy: ...

    def leaving_policy(self, seed: bytes, side: str, how: str) -> Policy: ...

    def deadline_default(self, state: BattleState[B], request: DecisionRequest, seed: bytes) -> JSON: ...

    def standing_answer(self, state: BattleState[B], request: DecisionRequest, seed: bytes) -> JSON | None: ...

    def summary(self, state: BattleState[B]) -> str: ...

    def tally(self, state: BattleState[B]) -> JSONObject: ...

    def outcome(self, initial: BattleState[B], final: BattleState[B]) -> BattleOutcome: ...

    def weigh_sides(self, scenario: Mapping[str, JSON]) -> SidesWeighed | None: ...


# The version of the default battle result's format; a ruleset's own result carries its own.
RESULT_FORMAT = 1


def engine_result(state: BattleState[Any]) -> JSONObject:
    """How the engine's envelope says a battle stands: the winner (a side key; None for a draw or while it
    goes on), the reason, the turns played and whether it is over."""
    return {"winner": state.winner, "reason": state.result, "turns": state.turn, "over": state.over}


class BaseRuleset(GenericPresentation, Generic[B]):
    """Defaults for the optional parts of the protocol (the presentation's in GenericPresentation); subclass
    and fill in the rest."""

    key: str = ""
    version: str = ""
    title: str = ""
    options: tuple[OptionSpec, ...] = ()
    tables: Mapping[str, JSON] = {}
    campaign_bridge: CampaignBridge | None = None
    play_defaults: Mapping[str, JSON] = {}
    ship_editor: ShipEditor | None = None
    card_designer: CardDesigner | None = None

    def board_to_json(self, board: B) -> JSON:
        raise NotImplementedError(f"{type(self).__name__} must say how its board is written as JSON")

    def validate(self, state: BattleState[B], request: DecisionRequest, choice: JSON) -> Rejection | None:
        """Listed options are checked by the engine; an open-ended request needs this overridden."""
        return None

    def candidates(self, state: BattleState[B], request: DecisionRequest) -> Sequence[JSON]:
        """Legal answers an AI policy may pick from: the options, or at least the default."""
        return request.options if request.options is not None else [request.default]

    def answer_schema(
        self,
        state: BattleState[B],
        request: DecisionRequest,
        *,
        partial: JSON = None,
        sides: Mapping[str, str] | None = None,
    ) -> answers.AnswerSchema:
        """How an answer to ``request`` is spelled, on the state as its side sees it (engine/answers.py):
        by default one of the listed options, or raw JSON for an open-ended request. ``partial``: an answer
        being built (a path so far), for live feedback; ``sides``: the sides' names for labels."""
        return answers.default_schema(request)

    def check_invariants(self, state: BattleState[B]) -> list[str]:
        return []

    def example_scenarios(self) -> Sequence[Mapping[str, JSON]]:
        return []

    def roster(self, state: BattleState[B]) -> list[JSONObject]:
        """Who is in the battle, for the battle app's lists: each side's key, display name and ships
        (``{"side", "name", "ships": [{"name", "class"}]}``). By default the bare side keys."""
        return [{"side": side, "name": side, "ships": []} for side in state.sides]

    def side_name(self, state: BattleState[B], side: str) -> str:
        """A side's display name, as the roster gives it."""
        return next((str(s["name"]) for s in self.roster(state) if s.get("side") == side), side)

    def piece_name(self, state: BattleState[B], piece: str) -> str:
        """A piece's name in words; by default its key is its name."""
        return piece

    def board_view(self, state: BattleState[B], side: str | None) -> JSON:
        """The board as ``side`` may see it (None: the umpire, who sees everything). A ruleset whose board
        holds what one side may not know (crew assignments, secret orders) overrides this."""
        return self.board_to_json(state.board)

    def event_view(self, event: Event, side: str | None) -> JSONObject | None:
        """One logged event as ``side`` may see it, or None where it is withheld: by default an event kept
        to another side. A ruleset whose public events carry private detail overrides this to trim them."""
        return event.to_json() if event.visible_to(side) else None

    def battle_result(self, initial: BattleState[B], final: BattleState[B]) -> JSONObject:
        """What the battle from ``initial`` to ``final`` hands on, as plain JSON: by default the engine's own
        result. A ruleset with ships, crews and stores to report overrides this (Sky Galleons: results.py)."""
        return {
            "format": RESULT_FORMAT,
            "ruleset": final.ruleset,
            "version": final.version,
            "battle": engine_result(final),
        }

    # --- the battle app's hooks -------------------------------------------------------------------------

    def ai_policy(self, seed: bytes, side: str) -> Policy:
        """Who plays ``side`` when no one does (``seed``: the side's own): by default random legal play."""
        from battles.engine.policies import RandomPolicy  # policies reads this module

        return RandomPolicy(seed, f"random {side}")

    def leaving_policy(self, seed: bytes, side: str, how: str) -> Policy:
        """Who answers for a side that surrendered or withdraws (``how``) while its pieces are still on the
        map: by default the side lets everything take its default course."""
        from battles.engine.policies import DefaultPolicy

        return DefaultPolicy()

    def deadline_default(self, state: BattleState[B], request: DecisionRequest, seed: bytes) -> JSON:
        """The answer a side gets when its deadline passes ("hold course"): by default the request's own."""
        return request.default

    def standing_answer(self, state: BattleState[B], request: DecisionRequest, seed: bytes) -> JSON | None:
        """The answer ``request``'s side gave in advance, by its standing orders (fire at will, avoid a ram...),
        or None to put the decision to the side. The engine gives it before anyone is asked, so a side sits down
        to answer only what no standing order covers (windows.py counts those). It must read only what the side
        may know and be deterministic (any chance from the ``seed``'s counter-based dice): a re-run makes the
        same answers. By default a ruleset has no standing orders."""
        return None

    def summary(self, state: BattleState[B]) -> str:
        """One short line for lists: the turn, and each side's pieces where the roster names them."""
        if state.over:
            head = f"Over after turn {state.turn}" + (f": {state.result}" if state.result else "")
        else:
            head = f"Turn {state.turn}" if state.turn else "Before the first turn"
        counts = [(str(e["name"]), len(e["ships"]) if isinstance(e["ships"], list) else 0) for e in self.roster(state)]
        if not any(n for _, n in counts):
            return head
        if len({n for _, n in counts}) == 1:
            return f"{head}, {counts[0][1]} ships a side"
        return head + ", " + ", ".join(f"{name} {n}" for name, n in counts)

    def tally(self, state: BattleState[B]) -> JSONObject:
        """The battle in figures for the odds calculator (winner, reason, turns; a ruleset adds ``sides``)."""
        return engine_result(state)

    def weigh_sides(self, scenario: Mapping[str, JSON]) -> SidesWeighed | None:
        """How the scenario's sides weigh by the rules' advice on balance: by default the rules give none."""
        return None

    def outcome(self, initial: BattleState[B], final: BattleState[B]) -> BattleOutcome:
        """The typed outcome a campaign reads: by default the engine's result and the roster's ships, each
        on the side she started on and still fighting (a ruleset that knows fates overrides this)."""
        ships = [
            ShipOutcome(
                name=str(ship["name"]),
                side_at_start=str(entry["side"]),
                side_at_end=str(entry["side"]),
                fate=FIGHTING,
                class_id=str(ship.get("class") or "") or None,
            )
            for entry in self.roster(final)
            for ship in _objects(entry.get("ships"))
        ]
        return BattleOutcome.of(final, ships)


def _objects(value: JSON) -> list[JSONObject]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


class OptionError(ValueError):
    pass


def resolve_options(ruleset: Ruleset[Any], given: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
    """The full option set for a battle: the defaults, overridden by ``given``, each one checked."""
    given = dict(given or {})
    specs = {spec.key: spec for spec in ruleset.options}
    unknown = sorted(set(given) - set(specs))
    if unknown:
        raise OptionError(f"{ruleset.key}: unknown options {unknown}")
    result: dict[str, JSON] = {}
    for key, spec in specs.items():
        value = plain(given.get(key, spec.default))
        if spec.choices is not None:
            if canonical(value) not in {canonical(c) for c in spec.choices}:
                raise OptionError(f"{ruleset.key}: option {key}={value!r} is not one of {list(spec.choices)}")
        elif type(value) is not type(spec.default) and spec.default is not None:
            raise OptionError(f"{ruleset.key}: option {key} must be {type(spec.default).__name__}")
        result[key] = value
    return result


# --- registry ---------------------------------------------------------------------------------------

_registry: dict[str, dict[str, Ruleset[Any]]] = {}


def register(ruleset: Ruleset[Any]) -> Ruleset[Any]:
    """Add a ruleset. Registering the same object twice is harmless; another object under the same
    key and version is a mistake. The latest registered version of a key is its default."""
    if not ruleset.key or not ruleset.version:
        raise ValueError("a ruleset needs a key and a version")
    versions = _registry.setdefault(ruleset.key, {})
    existing = versions.get(ruleset.version)
    if existing is not None and existing is not ruleset:
        raise ValueError(f"ruleset {ruleset.key} {ruleset.version} is already registered")
    versions[ruleset.version] = ruleset
    return ruleset


def unregister(key: str, version: str) -> None:
    versions = _registry.get(key, {})
    versions.pop(version, None)
    if not versions:
        _registry.pop(key, None)


def get(key: str, version: str | None = None) -> Ruleset[Any]:
    """The ruleset a battle recorded (key and version), or the latest version of a key."""
    versions = _registry.get(key)
    if not versions:
        raise KeyError(f"no ruleset {key!r}")
    if version is None:
        return list(versions.values())[-1]
    if version not in versions:
        raise KeyError(f"ruleset {key!r} has no version {version!r} (has {sorted(versions)})")
    return versions[version]


def all_rulesets() -> list[Ruleset[Any]]:
    """Every registered ruleset, every version, sorted by key then registration order."""
    return [rs for key in sorted(_registry) for rs in _registry[key].values()]


def discover(package: str = "battles.rules") -> list[str]:
    """Import ``package`` and every package inside it, so each ruleset registers itself. A package whose name
    starts with "_" is not a ruleset (``battles/rules/_template/``, the skeleton a new one is copied from)."""
    root = importlib.import_module(package)
    imported = [package]
    for info in pkgutil.iter_modules(getattr(root, "__path__", []), prefix=f"{package}."):
        if info.ispkg and not info.name.rpartition(".")[2].startswith("_"):
            importlib.import_module(info.name)
            imported.append(info.name)
    return imported
