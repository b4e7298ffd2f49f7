"""The bridge between stored battles and the pure engine: rulesets, states and events to and from rows.

Kept apart from services and selectors so that both read a battle's state the same way, and so the
only place that turns the secret seed into bytes is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from battles.engine import events as events_
from battles.engine import ruleset as ruleset_
from battles.engine import state as state_
from battles.engine.bridge import CampaignBridge
from battles.engine.events import Event
from battles.engine.outcome import BattleOutcome
from battles.engine.ruleset import Ruleset
from battles.engine.state import BattleState

if TYPE_CHECKING:
    from battles.models import Battle

_discovered = False


def ruleset_for(key: str, version: str | None = None) -> Ruleset[Any]:
    """A registered ruleset (every package under battles.rules registers itself on first use)."""
    discover_rulesets()
    return ruleset_.get(key, version)


def rulesets() -> list[Ruleset[Any]]:
    """Every registered ruleset, the latest version of each key (the one a new battle is fought under), by key."""
    discover_rulesets()
    latest: dict[str, Ruleset[Any]] = {}
    for rs in ruleset_.all_rulesets():  # each key's versions in registration order: the last is the latest
        latest[rs.key] = rs
    return list(latest.values())


def campaign_rulesets() -> list[Ruleset[Any]]:
    """The rulesets a campaign may fight its encounters with: those with a campaign bridge (bridge.py); a ruleset
    without one is for standalone battles only."""
    return [rs for rs in rulesets() if rs.campaign_bridge is not None]


def discover_rulesets() -> None:
    """Import every ruleset package once, so each has registered itself."""
    global _discovered
    if not _discovered:
        ruleset_.discover()
        _discovered = True


class NoCampaignBridge(ValueError):
    """The ruleset offers standalone battles only: it cannot fight a campaign's encounters."""


def campaign_bridge(key: str) -> CampaignBridge:
    """How a campaign fights its encounters with the ruleset ``key`` (battles/engine/bridge.py)."""
    found = ruleset_for(key).campaign_bridge
    if found is None:
        raise NoCampaignBridge(f"the ruleset {key!r} cannot fight a campaign's encounters (it has no campaign bridge)")
    return found


def rules_of(battle: Battle) -> Ruleset[Any]:
    return ruleset_for(battle.ruleset_key, battle.ruleset_version)


def current_state(battle: Battle) -> BattleState[Any]:
    """The fold of the battle's live log, from the stored snapshot."""
    return state_.state_from_json(rules_of(battle), battle.state)


def initial_state(battle: Battle) -> BattleState[Any]:
    return state_.state_from_json(rules_of(battle), battle.initial_state)


def state_text(rs: Ruleset[Any], state: BattleState[Any]) -> str:
    return state_.state_to_json(rs, state)


def seed_bytes(battle: Battle) -> bytes:
    """The battle's secret dice seed. Only resolution and verification call this."""
    return bytes.fromhex(battle.seed)


def event_from_row(data: dict[str, Any]) -> Event:
    return Event.from_json(data)


def event_row_data(event: Event) -> events_.JSONObject:
    return event.to_json()


def battle_outcome(battle: Battle) -> BattleOutcome | None:
    """A finished battle's typed outcome, the campaign's only reading of it: the one stored with its result, or
    for a result stored before outcomes were, the ruleset's outcome of its first and last states. None before
    the battle has a result."""
    from battles.models import BattleResult  # as above: this module is read before the apps are ready

    stored = BattleResult.objects.filter(battle=battle).values_list("data", flat=True).first()
    if stored is None:
        return None
    kept = stored.get(BattleResult.OUTCOME_KEY) if isinstance(stored, dict) else None
    if isinstance(kept, dict):
        return BattleOutcome.from_json(kept)
    return rules_of(battle).outcome(initial_state(battle), current_state(battle))
