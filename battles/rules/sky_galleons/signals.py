"""Signal communication (SG-SIG-01..05): which ships can signal, and which can read whom.

* A ship signals and reads signals through its signalman. Killed and not replaced (a crew change in the
  Initiative Phase puts another crewman in his place: :func:`replace_signalman`), the ship is cut off: it
  can neither signal nor read (SG-SIG-01, SG-SIG-03).
* No ship can read the signals of a ship that is on fire and upwind of it (SG-SIG-02, SG-SIG-05).

:func:`links` sums this up for the battle app (who may talk to whom; a player cut off from his side must
be written to instead, SG-SIG-03). The optional signal rule (SG-SIG-04/05, option ``signals``): each side
may hoist one signal of at most six words a turn, written with its initiative orders (sealed from the other
sides) as ``{"ship": sender, "to": ship or "all", "words": "..."}``; it is read once the orders are in by
every ship able to read it, and with naval codes (option ``naval_codes``) only by the sender's own side.
Readings in data/optional-rules.json ``signals``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import DataFile, read_object
from battles.engine.resolver import Context
from battles.engine.words import possessive
from galleons.record import ShipRecord

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board

OPTIONAL_RULES = DataFile(Path(__file__).parent / "data" / "optional-rules.json")

ALL = "all"
ORDER_KEYS = frozenset({"ship", "to", "words"})


def max_words() -> int:
    return OPTIONAL_RULES.whole("signals", "max_words")


def can_signal(record: ShipRecord) -> bool:
    """Afloat with a signalman at his post, his own or a replacement (SG-SIG-01)."""
    return record.afloat and record.position is not None and record.crew.signalman > 0


def replace_signalman(record: ShipRecord, post: str) -> ShipRecord:
    """Another crewman, from ``post``, takes the dead signalman's place (SG-SIG-01). Raises ValueError."""
    posts = OPTIONAL_RULES.texts("signals", "replacement_posts")
    if post not in posts:
        raise ValueError(f"the signalman's place is taken by one of the {', '.join(posts)}")
    crew = record.crew
    if crew.signalman:
        raise ValueError(f"{possessive(record.name)} signalman is still at his post")
    if crew.count(post) < 1:
        raise ValueError(f"{record.name} has no {post} left to take the signalman's place")
    return replace(record, crew=crew.with_count(post, crew.count(post) - 1).with_count("signalman", 1))


def upwind(reader: Hex, sender: Hex, wind: int) -> bool:
    """Is ``sender`` upwind of ``reader``: does the line from the reader to it point into the wind (the
    hexside ``wind`` blows from, 0 = north, clockwise)? Exact: the dot product of the two in the plane of
    the map, scaled to whole numbers, is positive. A ship exactly abeam, or in the same hex, is not."""
    step = hexgrid.DIRECTIONS[wind % 6]
    away = sender - reader
    # Flat-top pixels, x = 3/2 q and y = sqrt(3) (r + q/2); four times their dot product:
    return 9 * away.q * step.q + 3 * (2 * away.r + away.q) * (2 * step.r + step.q) > 0


def can_read(reader: ShipRecord, sender: ShipRecord, wind: int | None) -> bool:
    """Can ``reader`` make out ``sender``'s signals (SG-SIG-01/02)? Both need a signalman; the sender must not
    be burning upwind of the reader (without a wind the smoke hides nothing)."""
    if reader.name == sender.name or not (can_signal(reader) and can_signal(sender)):
        return False
    assert reader.position is not None
    assert sender.position is not None
    return not (sender.fire > 0 and wind is not None and upwind(reader.position, sender.position, wind))


def readers(sender: ShipRecord, ships: Iterable[ShipRecord], wind: int | None) -> list[str]:
    """The ships that can read ``sender``'s signals, in the order given."""
    return [ship.name for ship in ships if can_read(ship, sender, wind)]


def links(ships: Sequence[ShipRecord], wind: int | None) -> dict[str, dict[str, JSON]]:
    """For each ship: can it signal, whose signals can it read, who can read its own; and whether it is cut off
    from its side (no friend it can read or that can read it, while it has friends: SG-SIG-01/03)."""
    found: dict[str, dict[str, JSON]] = {}
    for ship in ships:
        reads = [other.name for other in ships if can_read(ship, other, wind)]
        read_by = readers(ship, ships, wind)
        friends = {other.name for other in ships if other.side == ship.side and other.name != ship.name}
        found[ship.name] = {
            "side": ship.side,
            "can_signal": can_signal(ship),
            "reads": list[JSON](reads),
            "read_by": list[JSON](read_by),
            "cut_off": bool(friends) and not (friends & set(reads) and friends & set(read_by)),
        }
    return found


def order_problem(order: JSON, own: Mapping[str, ShipRecord], names: Iterable[str]) -> tuple[str, str] | None:
    """What is wrong with a side's signal order (clause, reason), or None. ``own`` is the side's ships in the
    fight as they stand after this phase's crew changes; ``names`` every ship in the battle."""
    if not isinstance(order, dict) or set(order) != ORDER_KEYS:
        return "SG-SIG-04", 'a signal is {"ship": your ship, "to": a ship or "all", "words": "six words at most"}'
    words = order["words"]
    if not isinstance(words, str) or not words.split():
        return "SG-SIG-04", "a signal has words"
    if len(words.split()) > max_words():
        return "SG-SIG-04", f"a signal is {max_words()} words at most, not {len(words.split())}"
    sender = own.get(str(order["ship"]))
    if sender is None:
        return "SG-SIG-04", f"{order['ship']} is not one of your ships in the fight: {sorted(own)}"
    if not can_signal(sender):
        return "SG-SIG-01", f"{possessive(sender.name)} signalman is dead and nobody has taken his place"
    to = order["to"]
    if to != ALL and (not isinstance(to, str) or to not in set(names) or to == sender.name):
        return "SG-SIG-04", 'a signal is addressed to another ship by name, or to "all"'
    return None


def reading_sides(
    sender: ShipRecord, ships: Sequence[ShipRecord], wind: int | None, *, naval_codes: bool
) -> dict[str, list[str]]:
    """Each side that gets the signal, with its ships that can read it: the sender's own side always (it
    wrote it), and with naval codes no other; without them every side with a ship that can read it
    (SG-SIG-05)."""
    able = set(readers(sender, ships, wind))
    sides = [sender.side] + [s.side for s in ships if s.side != sender.side]
    found: dict[str, list[str]] = {}
    for side in dict.fromkeys(sides):
        mine = [s.name for s in ships if s.side == side and s.name in able]
        if side == sender.side or (mine and not naval_codes):
            found[side] = mine
    return found


# --- in the sequence of play ------------------------------------------------------------------------------


def orders_problem(
    choice: dict[str, JSON], records: Mapping[str, ShipRecord], names: Iterable[str]
) -> Rejection | None:
    """A side's signal order, if it hoists one (SG-SIG-01/04)."""
    if "signal" not in choice:
        return None
    wrong = order_problem(choice["signal"], records, names)
    return None if wrong is None else Rejection(*wrong)


def hoist(ctx: Context[Board], orders: Sequence[tuple[str, dict[str, JSON]]]) -> None:
    """Each side's signal, read once the orders are in: one event for each side that may read it, naming its
    ships able to (SG-SIG-04/05)."""
    for _, choice in orders:
        if "signal" not in choice:
            continue
        order = read_object(choice["signal"])
        sender = ctx.board.ship(str(order["ship"]))
        if not ctx.board.in_fight(sender):
            continue
        codes = bool(ctx.option("naval_codes"))
        for side, able in reading_sides(sender, ctx.board.fighting(), ctx.board.wind, naval_codes=codes).items():
            hoisted = {"ship": sender.name, "to": order["to"], "words": order["words"], "readers": able}
            clauses = ["SG-SIG-04", "SG-SIG-05"]
            ctx.emit("signal", {**hoisted, "clauses": clauses}, ships=[sender.name], secret_to=side)
