"""The battle outcome: what a finished battle hands a campaign, typed and versioned, the same for every ruleset.

A ruleset gives it through ``Ruleset.outcome(initial, final)``: the winner, the reason, the turns, and per ship her
sides at the start and the end, her fate, her captor, her crew lost, her captain's fate and her record after the
battle (in the ruleset's own record format; a campaign bridge turns it into the campaign's ship record). The
campaign reads nothing else of a battle. ``detail`` carries the ruleset's own fuller report on a ship, for its
campaign bridge only.

The fate and captain words are the campaign's vocabulary (the Red Captain campaign is built on Sky Galleons); a
ruleset whose rules say otherwise maps its own words onto them. ``FORMAT`` is bumped by any change a reader must
know about; ``from_json`` refuses a format newer than it reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from battles.engine.events import JSON, JSONObject, plain
from battles.engine.jsonread import read_int, read_list, read_object, read_opt_str, read_str

if TYPE_CHECKING:
    from collections.abc import Iterable

    from battles.engine.state import BattleState

FORMAT = 1

# A ship's fate at the end of the battle.
FIGHTING, LANDED, ESCAPED, STRUCK = "fighting", "landed", "escaped", "struck"
CAPTURED, SCUTTLED, CRASHED, CRASH_LANDED = "captured", "scuttled", "crashed", "crash-landed"
FATES = (FIGHTING, LANDED, ESCAPED, STRUCK, CAPTURED, SCUTTLED, CRASHED, CRASH_LANDED)
# Her captain's fate (CAPTURED and CRASH_LANDED serve for him too).
ABOARD, AWAY, KILLED = "aboard", "away", "killed"
CAPTAIN_FATES = (ABOARD, AWAY, KILLED, CAPTURED, CRASH_LANDED)


class OutcomeFormatError(ValueError):
    pass


@dataclass(frozen=True)
class ShipOutcome:
    """One vessel after the battle. ``crew_away``: her men alive off her at the end (boarders, prize crews...);
    ``prisoners``: her men taken with her; ``prize_crew`` and ``prize_guard``: the captors' men aboard her, by
    their own ship; ``captain``: her captain's fate, None for a ship that had none."""

    name: str
    side_at_start: str
    side_at_end: str
    fate: str
    captured_by: str | None = None
    class_id: str | None = None
    crew_at_start: int = 0
    crew_lost: int = 0
    crew_away: int = 0
    prisoners: int = 0
    captain: str | None = None
    towed_by: str | None = None
    prize_crew: Mapping[str, int] = field(default_factory=dict)
    prize_guard: str | None = None
    record: JSON = None
    detail: JSONObject = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.fate not in FATES:
            raise OutcomeFormatError(f"{self.name}: no fate {self.fate!r} (one of {', '.join(FATES)})")
        if self.captain is not None and self.captain not in CAPTAIN_FATES:
            raise OutcomeFormatError(f"{self.name}: no captain's fate {self.captain!r}")

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "side_at_start": self.side_at_start,
            "side_at_end": self.side_at_end,
            "fate": self.fate,
            "captured_by": self.captured_by,
            "class_id": self.class_id,
            "crew_at_start": self.crew_at_start,
            "crew_lost": self.crew_lost,
            "crew_away": self.crew_away,
            "prisoners": self.prisoners,
            "captain": self.captain,
            "towed_by": self.towed_by,
            "prize_crew": dict(self.prize_crew),
            "prize_guard": self.prize_guard,
            "record": plain(self.record),
            "detail": read_object(plain(self.detail)),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ShipOutcome:
        return cls(
            name=read_str(data["name"]),
            side_at_start=read_str(data["side_at_start"]),
            side_at_end=read_str(data["side_at_end"]),
            fate=read_str(data["fate"]),
            captured_by=read_opt_str(data.get("captured_by")),
            class_id=read_opt_str(data.get("class_id")),
            crew_at_start=read_int(data.get("crew_at_start", 0)),
            crew_lost=read_int(data.get("crew_lost", 0)),
            crew_away=read_int(data.get("crew_away", 0)),
            prisoners=read_int(data.get("prisoners", 0)),
            captain=read_opt_str(data.get("captain")),
            towed_by=read_opt_str(data.get("towed_by")),
            prize_crew={str(k): read_int(v) for k, v in read_object(data.get("prize_crew", {})).items()},
            prize_guard=read_opt_str(data.get("prize_guard")),
            record=plain(data.get("record")),
            detail=read_object(plain(data.get("detail", {}))),
        )


@dataclass(frozen=True)
class BattleOutcome:
    """The battle's end: ``winner`` a side key (None for a draw or a battle not over), ``reason`` in words."""

    ruleset: str
    version: str
    winner: str | None
    reason: str
    turns: int
    over: bool
    ships: tuple[ShipOutcome, ...] = ()
    format: int = FORMAT

    @classmethod
    def of(cls, final: BattleState[Any], ships: Iterable[ShipOutcome]) -> BattleOutcome:
        """The battle as ``final`` leaves it (who won, why, after how many turns), with each ship's outcome as her
        ruleset reads it."""
        return cls(
            ruleset=final.ruleset,
            version=final.version,
            winner=final.winner,
            reason=final.result,
            turns=final.turn,
            over=final.over,
            ships=tuple(ships),
        )

    def ship(self, name: str) -> ShipOutcome | None:
        return next((ship for ship in self.ships if ship.name == name), None)

    def to_json(self) -> JSONObject:
        return {
            "format": self.format,
            "ruleset": self.ruleset,
            "version": self.version,
            "winner": self.winner,
            "reason": self.reason,
            "turns": self.turns,
            "over": self.over,
            "ships": [ship.to_json() for ship in self.ships],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BattleOutcome:
        found = read_int(data.get("format"))
        if not 1 <= found <= FORMAT:
            raise OutcomeFormatError(f"battle outcome format {found}: this reader knows 1 to {FORMAT}")
        return cls(
            ruleset=read_str(data["ruleset"]),
            version=read_str(data["version"]),
            winner=read_opt_str(data.get("winner")),
            reason=read_str(data.get("reason", "")),
            turns=read_int(data["turns"]),
            over=bool(data["over"]),
            ships=tuple(ShipOutcome.from_json(read_object(s)) for s in read_list(data.get("ships", []))),
            format=found,
        )
