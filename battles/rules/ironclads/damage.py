"""Damage resolution (IC-DMG-01..14, IC-SAVE-07/08; docs/ironclads.md "Fire and damage").

Through the Firing Phase every unsaved hit is noted on the target's card: C for a critical, H for an ordinary hit,
each keeping the arcs of hers it was fired into (IC-DMG-13). In Phase 3B each C's 1D3 is rolled (the phase rolls;
``d3`` reads the face), then the owner makes ONE decision for the ship: a track for every C and for every H
(``Allocation``). ``refusals`` checks it whole; ``resolve`` crosses it off, criticals first (IC-DMG-02).
``default_allocation`` is a sensible owner's choice, for the AI and for an owner who does not answer in time.

Readings (docs): a C or an H must be put on a track with a stat left while the ship has any (an empty track is
not one of her stat types any more); an H fired into two arcs (a firer astride one of her lines) may come from
either arc's guns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from battles.rules.ironclads.arcs import Refusal, turret_bears
from battles.rules.ironclads.cards import ARCS, ARMOUR, HULL, PROPULSION, TRACKS, TURRETS, DataCard
from battles.rules.ironclads.salvo import Score

DANGER_HULL: Final = 3  # a hull this low can go in one critical: the owner guards hull and propulsion


def d3(face: int) -> int:
    """A D6 read as a D3: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (IC-SEQ-02)."""
    if not 1 <= face <= 6:
        raise ValueError(f"a D6 shows 1 to 6, not {face}")
    return (face + 1) // 2


@dataclass(frozen=True, slots=True)
class Noted:
    """The Hits line of a card (IC-SAVE-07): each unsaved C and H with the arcs of hers it was fired into."""

    criticals: tuple[tuple[str, ...], ...] = ()
    hits: tuple[tuple[str, ...], ...] = ()

    def note(self, unsaved: Score, fired_into: tuple[str, ...]) -> Noted:
        """Add a salvo's unsaved hits (IC-SAVE-07/08)."""
        return Noted(
            criticals=self.criticals + (fired_into,) * unsaved.criticals,
            hits=self.hits + (fired_into,) * unsaved.hits,
        )

    @property
    def line(self) -> str:
        """As the card writes it: "CCHH"."""
        return "C" * len(self.criticals) + "H" * len(self.hits)

    def __bool__(self) -> bool:
        return bool(self.criticals or self.hits)


@dataclass(frozen=True, slots=True)
class Allocation:
    """The owner's one decision (IC-DMG-05/10): a track for each C, in the order of their 1D3s, and a track for
    each H, in the order noted (the order they are crossed off in)."""

    criticals: tuple[str, ...]
    hits: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Loss:
    """One hit crossed off: the track, the stats it demanded, the stats crossed; the rest were misses."""

    track: str
    demanded: int
    crossed: int
    critical: bool

    @property
    def missed(self) -> int:
        return self.demanded - self.crossed


@dataclass(frozen=True, slots=True)
class Resolution:
    """The card after Phase 3B and what each hit did; the Hits line is then clear (IC-DMG-07)."""

    card: DataCard
    losses: tuple[Loss, ...]


def _any_left(data_card: DataCard, tracks: Sequence[str]) -> bool:
    return any(data_card.left(t) for t in tracks)


def _hit_refusal(data_card: DataCard, track: str, fired_into: tuple[str, ...]) -> Refusal | None:
    """May this H be crossed off this track, the card as it now stands (IC-DMG-10..12)?"""
    if track in ARCS and track not in fired_into and _any_left(data_card, fired_into):
        arcs = " or ".join(a for a in fired_into if data_card.left(a))
        return Refusal("IC-DMG-11", f"an H on the guns comes off the {arcs} first: it was fired into that arc")
    if track in TURRETS:
        bearing = [t for t in TURRETS if any(turret_bears(data_card, t, a) for a in fired_into)]
        if track not in bearing and _any_left(data_card, bearing):
            turrets = " or ".join(t for t in bearing if data_card.left(t))
            return Refusal("IC-DMG-12", f"an H on the turrets comes off the {turrets} first: it bears that way")
    return None


def _walk(
    data_card: DataCard, noted: Noted, demands: Sequence[int], allocation: Allocation
) -> tuple[Resolution, tuple[Refusal, ...]]:
    refusals: list[Refusal] = []
    if len(demands) != len(noted.criticals):
        refusals.append(Refusal("IC-DMG-04", f"{len(noted.criticals)} criticals need as many 1D3s"))
    if len(allocation.criticals) != len(noted.criticals) or len(allocation.hits) != len(noted.hits):
        refusals.append(Refusal("IC-DMG-01", f"every hit needs a track: {noted.line} on the card"))
    if refusals:
        return Resolution(data_card, ()), tuple(refusals)
    losses: list[Loss] = []
    card = data_card
    steps: list[tuple[str, int, bool, tuple[str, ...]]] = [
        (t, d, True, arcs) for t, d, arcs in zip(allocation.criticals, demands, noted.criticals, strict=True)
    ]
    steps += [(t, 1, False, arcs) for t, arcs in zip(allocation.hits, noted.hits, strict=True)]
    for number, (track, demand, critical, fired_into) in enumerate(steps, start=1):
        name = f"{'C' if critical else 'H'} {number if critical else number - len(allocation.criticals)}"
        refused = _refusal(card, track, critical, fired_into)
        if refused is not None:
            refusals.append(Refusal(refused.clause, f"{name}: {refused.reason}"))
            continue
        card, crossed = card.cross_off(track, demand)
        losses.append(Loss(track, demand, crossed, critical))
    return Resolution(card, tuple(losses)), tuple(refusals)


def _refusal(data_card: DataCard, track: str, critical: bool, fired_into: tuple[str, ...]) -> Refusal | None:
    if track not in TRACKS:
        return Refusal("IC-CARD-01", f"no such track as {track!r}")
    if not data_card.left(track) and _any_left(data_card, TRACKS):
        clause = "IC-DMG-05" if critical else "IC-DMG-10"
        return Refusal(clause, f"the {track} has nothing left to cross off; choose a track she still has")
    return None if critical else _hit_refusal(data_card, track, fired_into)


def refusals(data_card: DataCard, noted: Noted, demands: Sequence[int], allocation: Allocation) -> tuple[Refusal, ...]:
    """Everything wrong with an allocation, each with its clause; none means ``resolve`` may cross it off."""
    return _walk(data_card, noted, demands, allocation)[1]


def resolve(data_card: DataCard, noted: Noted, demands: Sequence[int], allocation: Allocation) -> Resolution:
    """Cross off the criticals, each its whole 1D3 from its one track with the shortfall a miss (IC-DMG-04..06),
    then each H one stat (IC-DMG-10) (IC-DMG-02/03). An allocation with refusals is a ValueError."""
    resolution, refused = _walk(data_card, noted, demands, allocation)
    if refused:
        raise ValueError("; ".join(f"{r.clause}: {r.reason}" for r in refused))
    return resolution


# --- the sensible owner ------------------------------------------------------------------------------------


def _stat_cost(data_card: DataCard, track: str, enemy_arcs: frozenset[str]) -> float:
    """What the next stat of a track is worth to her: what a careful captain gives up last."""
    left = data_card.left(track)
    danger = data_card.left(HULL) <= DANGER_HULL
    if track == HULL:
        return 1000.0 if left == 1 else 100.0 if danger else 20.0  # the hull sinks her (IC-END-01)
    if track == PROPULSION:
        return 8.0 if danger else 3.0  # the way home when she is sinking
    if track == ARMOUR:
        return 11.0 if left == 3 else 5.0  # at 2 she no longer halves the enemy's dice, and can burn
    bears = track in enemy_arcs if track in ARCS else any(turret_bears(data_card, track, a) for a in enemy_arcs)
    return 4.0 if bears else 1.0  # guns that cannot bear on the enemy go first


def _cost(data_card: DataCard, track: str, demand: int, enemy_arcs: frozenset[str]) -> float:
    total, card = 0.0, data_card
    for _ in range(min(demand, data_card.left(track))):
        total += _stat_cost(card, track, enemy_arcs)
        card, _crossed = card.cross_off(track, 1)
    return total


def _cheapest(data_card: DataCard, demand: int, enemy_arcs: frozenset[str], allowed: Sequence[str]) -> str:
    candidates = [t for t in allowed if data_card.left(t)] or list(TRACKS)
    return min(candidates, key=lambda t: _cost(data_card, t, demand, enemy_arcs))  # ties: the card's order


def default_allocation(data_card: DataCard, noted: Noted, demands: Sequence[int]) -> Allocation:
    """A sensible owner's decision (the AI's and the deadline's): every hit where it costs her least, guns that
    cannot bear on the enemy first, then propulsion, armour, and the hull last; while the hull is low, propulsion
    is spared too. The biggest criticals are placed first, each on the track where most of it is a miss."""
    enemy_arcs = frozenset(a for arcs in noted.criticals + noted.hits for a in arcs)
    card = data_card
    criticals: dict[int, str] = {}
    for index in sorted(range(len(demands)), key=lambda i: -demands[i]):
        track = _cheapest(card, demands[index], enemy_arcs, TRACKS)
        criticals[index] = track
        card, _crossed = card.cross_off(track, demands[index])
    hits: list[str] = []
    for fired_into in noted.hits:
        allowed = [t for t in TRACKS if _hit_refusal(card, t, fired_into) is None]
        track = _cheapest(card, 1, enemy_arcs, allowed)
        hits.append(track)
        card, _crossed = card.cross_off(track, 1)
    chosen = Allocation(criticals=tuple(criticals[i] for i in range(len(demands))), hits=tuple(hits))
    if not refusals(data_card, noted, demands, chosen):
        return chosen
    return _in_order(data_card, noted, demands, enemy_arcs)


def _in_order(data_card: DataCard, noted: Noted, demands: Sequence[int], enemy_arcs: frozenset[str]) -> Allocation:
    """Every hit in the order it is crossed off, each where it costs her least of what the rules then allow: the
    default where placing the biggest criticals first breaks a rule (a smaller C, crossed off before a bigger one,
    would find its track already emptied by it on a ship with almost nothing left)."""
    card = data_card
    criticals: list[str] = []
    for demand in demands:
        left = [t for t in TRACKS if card.left(t)] or list(TRACKS)
        track = _cheapest(card, demand, enemy_arcs, left)
        criticals.append(track)
        card, _crossed = card.cross_off(track, demand)
    hits: list[str] = []
    for fired_into in noted.hits:
        allowed = [t for t in TRACKS if _hit_refusal(card, t, fired_into) is None]
        track = _cheapest(card, 1, enemy_arcs, allowed)
        hits.append(track)
        card, _crossed = card.cross_off(track, 1)
    return Allocation(criticals=tuple(criticals), hits=tuple(hits))
