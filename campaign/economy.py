"""The Red Captain campaign's money and crew rules as pure functions: prize and cargo sales and the captain's
shares (SGC-AUCT, SGC-CARGO), repair prices (SGC-REPAIR) and the crew experience check on returning from a
voyage (SGC-EXP). No database, no dice: the services roll (seeded, logged) and pass the rolls in.

The numbers are data (campaign/data/campaign-rules.json). Money is whole pounds; where a rule divides, the
rounding is stated where it happens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from battles.engine.jsonread import DataFile

RULES = DataFile(Path(__file__).resolve().parent / "data" / "campaign-rules.json")


def fraction(*path: str) -> Fraction:
    numerator, denominator = RULES.wholes(*path)
    return Fraction(numerator, denominator)


def advance() -> int:
    """The colonial administration's advance to a new captain (SGC-START-09)."""
    return RULES.whole("start", "advance")


def qualities() -> tuple[str, ...]:
    """Crew qualities from the lowest up (SGC-EXP-01)."""
    return RULES.texts("experience", "qualities")


# --- prizes and cargo -----------------------------------------------------------------------------------------


def crown_price(original_price: int) -> int:
    """What a prize fetches from the crown: half her original price (SGC-AUCT-01), rounded down to the pound.
    In an auction it is the reserve."""
    return math.floor(original_price * fraction("prize", "crown_price"))


def captain_share(sale: int) -> int:
    """The capturing captain's tenth of a prize's sale (SGC-MONEY-02, SGC-AUCT-02), rounded down."""
    return math.floor(sale * fraction("prize", "captain_share"))


def own_prize_net_cost(sale: int) -> int:
    """What buying his own prize costs the captain once his share comes back (SGC-AUCT-03/04)."""
    return sale - captain_share(sale)


def cargo_sale(tons: int, die: int) -> int:
    """A prize's cargo sold: tons x 1D6 x 100 pounds, one die for the whole cargo (SGC-CARGO-02)."""
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1 to 6, not {die}")
    return tons * die * RULES.whole("cargo", "pounds_per_ton_per_pip")


def cargo_share(sale: int) -> int:
    """The captain's tenth of the cargo's sale (SGC-CARGO-01/03)."""
    return math.floor(sale * fraction("cargo", "captain_share"))


def merchant_cargo_tons(tonnage: int, cargo_fraction: Fraction | None = None) -> int:
    """A merchant's cargo when the rules give none (SGC-CARGO-05, designed): a fraction of her tonnage, a fifth
    unless the umpire sets another, rounded down."""
    share = fraction("cargo", "merchant_cargo_fraction") if cargo_fraction is None else cargo_fraction
    return math.floor(tonnage * share)


# --- repairs --------------------------------------------------------------------------------------------------


def component_repair_cost(original_cost: int) -> int:
    """Repairing or replacing a component: half what it cost to install (SGC-REPAIR-02/03), rounded up."""
    return math.ceil(original_cost * fraction("repair", "component_fraction"))


def hull_hit_repair_cost(hull_price: int, hull_boxes: int) -> int:
    """One hull hit repaired: the hull's price over its hit boxes, over ten (SGC-REPAIR-04/05), rounded up to the
    pound (designed: the yard does not work for shillings)."""
    if hull_boxes <= 0:
        raise ValueError("a hull has at least one hit box")
    return math.ceil(Fraction(hull_price, hull_boxes) / RULES.whole("repair", "hull_hit_divisor"))


# --- crew experience ------------------------------------------------------------------------------------------


def experience_threshold(original_crew: int) -> int:
    """T, the losses that count: the original crew over six, rounded down (SGC-EXP-02); at least one man
    (SGC-EXP-13, designed: a crew under six would otherwise have none)."""
    return max(1, original_crew // RULES.whole("experience", "crew_per_band"))


@dataclass(frozen=True)
class ExperienceCheck:
    """The experience check on returning from a voyage (SGC-EXP-01..11): ``band`` is how many whole thresholds
    the losses reach; ``fails_at`` the highest roll that spoils the change (0: no roll needed); ``direction``
    +1 a rise, -1 a drop, 0 no change possible."""

    quality: str
    prize: bool
    losses: int
    threshold: int
    band: int
    direction: int
    fails_at: int

    @property
    def needs_roll(self) -> bool:
        return self.direction != 0 and 0 < self.fails_at < RULES.whole("experience", "die")

    def after(self, roll: int | None) -> str:
        """The quality after the check with this roll (None when none is needed)."""
        if self.direction == 0:
            return self.quality
        die = RULES.whole("experience", "die")
        if self.fails_at >= die:
            changes = self.direction < 0  # a drop certain, a rise impossible
        elif self.fails_at == 0:
            changes = self.direction > 0  # a rise automatic, a drop impossible
        else:
            if roll is None or not 1 <= roll <= die:
                raise ValueError(f"the check needs a die roll 1-{die}, not {roll}")
            changes = roll <= self.fails_at if self.direction < 0 else roll > self.fails_at
        if not changes:
            return self.quality
        levels = qualities()
        return levels[levels.index(self.quality) + self.direction]


def experience_check(*, quality: str, original_crew: int, losses: int, prize: bool) -> ExperienceCheck:
    """What the return from a voyage does to the crew's quality (SGC-EXP-01..11).

    With a prize: losses under T raise it one level; losses of k times T raise it unless the die shows k or less
    (six or more thresholds: never). Without a prize a Green crew is not checked; above Green, losses of k times T
    lower it one level on a die of k or less. Crack never rises, Green never drops."""
    levels = qualities()
    if quality not in levels:
        raise ValueError(f"crew quality is one of {', '.join(levels)}, not {quality!r}")
    if losses < 0 or original_crew < 0:
        raise ValueError("crew and losses are counted in men, never below none")
    threshold = experience_threshold(original_crew)
    band = losses // threshold
    rises = prize and quality != levels[-1]
    drops = not prize and quality != levels[0] and band > 0
    direction = 1 if rises else -1 if drops else 0
    return ExperienceCheck(quality, prize, losses, threshold, band, direction, band if direction else 0)
