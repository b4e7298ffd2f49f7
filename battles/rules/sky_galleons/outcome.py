"""The Sky Galleons battle outcome: the typed, versioned outcome (battles/engine/outcome.py) a campaign reads.

Built from the battle result (results.py, results.json: fates, crew, captains) and the final board: each vessel's
fate and captor, her men lost, away and taken prisoner, her captain's fate (SGC-TREK-01), her tower (SG-TOW-01),
the captors' prize crew and guard aboard a prize (SG-BRD-21/22), and her record at the end as a ``galleons``
ShipRecord (the campaign's record format: the campaign bridge, campaign.py, turns it into the campaign's record).
``detail["away"]`` keeps the result's men away by where they are (boarders, flying and landing parties, prize
crews, guards), which the bridge needs to bring the prize crews and guards home. Ground batteries, mines and
target hexes are no ships: they are not in the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.events import JSONObject
from battles.engine.outcome import BattleOutcome, ShipOutcome
from battles.engine.state import BattleState
from battles.rules.sky_galleons import results
from battles.rules.sky_galleons.board import Board


def battle_outcome(initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
    """The outcome of the battle from ``initial`` (its first state) to ``final`` (its last, over or not)."""
    report = results.result(initial, final)
    captains = {str(entry["ship"]): str(entry["fate"]) for entry in report["captains"]}
    ships = tuple(ship_outcome(final.board, entry, captains.get(str(entry["name"]))) for entry in report["ships"])
    return BattleOutcome.of(final, ships)


def ship_outcome(board: Board, entry: Mapping[str, Any], captain: str | None) -> ShipOutcome:
    """One vessel's outcome from her result entry (results.py ``_ship``) and her record on the final board."""
    name = str(entry["name"])
    crew: Mapping[str, Any] = entry["crew"]
    away = {str(where): int(men) for where, men in (crew.get("away") or {}).items()}
    prize: Mapping[str, Any] = entry.get("prize") or {}
    guard: Mapping[str, Any] = prize.get("guard") or {}
    detail: JSONObject = {"away": dict(away)}
    return ShipOutcome(
        name=name,
        side_at_start=str(entry["side_at_start"]),
        side_at_end=str(entry["side_at_end"]),
        fate=str(entry["fate"]),
        captured_by=_text(entry.get("captured_by")),
        class_id=_text(entry.get("class_id")),
        crew_at_start=int(crew["at_start"]),
        crew_lost=int(crew["lost"]),
        crew_away=sum(away.values()),
        prisoners=int(crew.get("prisoners") or 0),
        captain=captain,
        towed_by=_text(entry.get("towed_by")),
        prize_crew={str(ship): int(men) for ship, men in (prize.get("prize_crew") or {}).items()},
        prize_guard=_text(guard.get("ship")),
        record=board.ship(name).to_json(),
        detail=detail,
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
