"""The ship Data Card (IC-SEQ-03, IC-CARD-01/48): ten stat tracks, each a row of numbered boxes of a fixed length
(Appendix E's blank card), of which a ship has the first ``stats`` at the start; stats are lost from the right
(IC-SPD-06), never below nothing. Pure and immutable: every loss gives a new card.

A track's remaining stats are what the rules read: a gun arc's or turret's dice (IC-FIRE-05), the armour's save
dice and the armour halving (IC-FIRE-06, IC-SAVE-02), the maximum speed (IC-SPD-02) and the hull that sinks her at
zero (IC-END-01).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.jsonread import read_bool, read_int, read_list, read_object, read_str

# The gun tracks: four fixed arcs, three turrets (IC-CARD-01).
FORWARD, PORT, STARBOARD, REAR = "forward", "port", "starboard", "rear"
FORWARD_TURRET, CENTRE_TURRET, REAR_TURRET = "forward turret", "centre turret", "rear turret"
ARMOUR, PROPULSION, HULL = "armour", "propulsion", "hull"

ARCS: Final = (FORWARD, PORT, STARBOARD, REAR)  # the fixed gun arcs, and the arcs a turret may bear into
TURRETS: Final = (FORWARD_TURRET, CENTRE_TURRET, REAR_TURRET)
GUN_TRACKS: Final = ARCS + TURRETS
TRACKS: Final = (*GUN_TRACKS, ARMOUR, PROPULSION, HULL)

# Boxes on the card (Appendix E, IC-CARD-24/25/27/28/48): also each track's most stats.
BOXES: Final[Mapping[str, int]] = {
    FORWARD: 10,
    PORT: 25,
    STARBOARD: 25,
    REAR: 10,
    FORWARD_TURRET: 10,
    CENTRE_TURRET: 10,
    REAR_TURRET: 10,
    ARMOUR: 7,
    PROPULSION: 20,
    HULL: 12,
}

# The ship's type by her armour at the start (IC-CARD-26).
WOODEN_SCREW, TINCLAD, IRONCLAD = "wooden screw", "tinclad", "ironclad"


@dataclass(frozen=True, slots=True)
class Track:
    """One row of boxes: ``stats`` she started with, ``lost`` of them crossed off from the right."""

    name: str
    stats: int
    lost: int = 0

    @property
    def left(self) -> int:
        return self.stats - self.lost

    @property
    def boxes(self) -> int:
        return BOXES[self.name]


@dataclass(frozen=True, slots=True)
class DataCard:
    """A ship's card: who she is, her ten tracks, and the arcs each turret bears into (agreed before the game,
    IC-ARC-08; a turret with no stats bears nowhere)."""

    name: str
    nation: str
    years: str
    sisters: tuple[str, ...]
    tracks: tuple[Track, ...]  # in TRACKS order
    turret_arcs: tuple[tuple[str, tuple[str, ...]], ...]  # (turret, the arcs she bears into), in TURRETS order
    monitor: bool = False  # a very low freeboard (IC-CARD-29)

    def track(self, name: str) -> Track:
        return self.tracks[TRACKS.index(name)]

    def left(self, name: str) -> int:
        """What remains on a track: the number the rules read."""
        return self.track(name).left

    def bears(self, turret: str) -> tuple[str, ...]:
        """The arcs a turret may fire into (IC-ARC-08/09)."""
        return dict(self.turret_arcs)[turret]

    @property
    def kind(self) -> str:
        """Wooden screw, tinclad or ironclad, by the Armour she started with (IC-CARD-26)."""
        start = self.track(ARMOUR).stats
        return WOODEN_SCREW if start == 0 else TINCLAD if start <= 2 else IRONCLAD

    def cross_off(self, name: str, count: int) -> tuple[DataCard, int]:
        """Cross off ``count`` stats of one track from the right (IC-SPD-06). Returns the card and how many were
        crossed off; the rest, with nothing left to cross, are misses (IC-DMG-06)."""
        if count < 0:
            raise ValueError(f"a loss is never negative: {count}")
        old = self.track(name)
        crossed = min(count, old.left)
        if not crossed:
            return self, 0
        tracks = list(self.tracks)
        tracks[TRACKS.index(name)] = evolve(old, lost=old.lost + crossed)
        return evolve(self, tracks=tuple(tracks)), crossed


def card(
    name: str,
    stats: Mapping[str, int],
    *,
    nation: str = "",
    years: str = "",
    sisters: tuple[str, ...] = (),
    turret_arcs: Mapping[str, tuple[str, ...]] | None = None,
    monitor: bool = False,
) -> DataCard:
    """A fresh card from each track's stats (a track not named has none). Every figure is checked against its
    track's boxes: a card that cannot be drawn is a ValueError, never a card."""
    unknown = set(stats) - set(TRACKS)
    if unknown:
        raise ValueError(f"{name}: no such track {sorted(unknown)}; the tracks are {', '.join(TRACKS)}")
    for track, value in stats.items():
        if not 0 <= value <= BOXES[track]:
            raise ValueError(f"{name}: {track} has {BOXES[track]} boxes, so 0 to {BOXES[track]} stats, not {value}")
    arcs = dict(turret_arcs or {})
    for turret, bearing in arcs.items():
        if turret not in TURRETS:
            raise ValueError(f"{name}: no turret {turret!r}; the turrets are {', '.join(TURRETS)}")
        if not set(bearing) <= set(ARCS):
            raise ValueError(f"{name}: {turret} bears into {bearing}; the arcs are {', '.join(ARCS)}")
    return DataCard(
        name=name,
        nation=nation,
        years=years,
        sisters=tuple(sisters),
        tracks=tuple(Track(t, stats.get(t, 0)) for t in TRACKS),
        turret_arcs=tuple(
            (t, tuple(a for a in ARCS if a in arcs.get(t, ARCS)) if stats.get(t, 0) else ()) for t in TURRETS
        ),
        monitor=monitor,
    )


def to_json(data_card: DataCard) -> JSONObject:
    return {
        "name": data_card.name,
        "nation": data_card.nation,
        "years": data_card.years,
        "sisters": list(data_card.sisters),
        "stats": {t.name: t.stats for t in data_card.tracks if t.stats},
        "lost": {t.name: t.lost for t in data_card.tracks if t.lost},
        "turrets": {turret: list(arcs) for turret, arcs in data_card.turret_arcs if arcs},
        "monitor": data_card.monitor,
    }


def from_json(data: Mapping[str, JSON]) -> DataCard:
    stats = {str(k): read_int(v) for k, v in read_object(data.get("stats", {})).items()}
    turrets = {
        str(k): tuple(read_str(a) for a in read_list(v)) for k, v in read_object(data.get("turrets", {})).items()
    }
    fresh = card(
        read_str(data["name"]),
        stats,
        nation=read_str(data.get("nation", "")),
        years=read_str(data.get("years", "")),
        sisters=tuple(read_str(s) for s in read_list(data.get("sisters", []))),
        turret_arcs=turrets,
        monitor=read_bool(data.get("monitor", False)),
    )
    for track, lost in read_object(data.get("lost", {})).items():
        fresh, crossed = fresh.cross_off(str(track), read_int(lost))
        if crossed != read_int(lost):
            raise ValueError(f"{fresh.name}: {track} cannot lose {lost} of {fresh.track(str(track)).stats} stats")
    return fresh
