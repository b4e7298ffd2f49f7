"""The Movement Cards: a ship's deck, the plot of a turn and its restrictions, the optional rule, initiative and the
order the cards are revealed in (BR-SEQ-02/03, BR-MOV-01/02, BR-MOV-08..12, BR-MOV-14, BR-CARD-01..10,
BR-OPT-01, BR-OOC-02/03; docs/barsoom.md section 4). Pure: dice come in as faces the phases rolled.

A plot is the cards in the order they will be revealed, e.g. ``("Ahead", "Turn right", "Ahead")``. ``judge`` takes
it or refuses it naming the clause; with the optional rule on it may take a plot that breaks one restriction, and
says which card broke which, so the phase rolls the Damage table when that card has been executed (BR-OPT-02).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from battles.rules.barsoom.kinds import (
    ASCENDS,
    CARDS,
    DESCEND,
    EXTRA_ASCEND,
    HELD_TURNS,
    MOVES,
    RESTRICTION_IGNORED,
    REVERSE,
    STOP,
    TURNS,
)
from battles.rules.barsoom.owed import DamageOwed, fixed_rolls, owed
from battles.rules.barsoom.ships import ShipClass
from battles.rules.barsoom.tables import MOVEMENT


def options_per_turn(options_lost: int = 0) -> int:
    """Cards a ship plots a turn: three (BR-MOV-01), one fewer for each Control damage (BR-DMG-08), none once all
    three are gone: she can no longer manoeuvre (BR-MOV-14)."""
    return max(0, MOVEMENT.whole("options_per_turn") - options_lost)


# --- the deck ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """The cards a ship may plot from: her full deck, less what damage discarded (BR-CARD-10). Counts by card,
    in the text's order; a card's count caps how often it can be plotted in a turn (BR-CARD-09)."""

    counts: tuple[tuple[str, int], ...]

    @classmethod
    def full(cls, ship_class: ShipClass, *, nautical: bool = False) -> Deck:
        """A ship's whole deck (BR-CARD-01..08): the Extra Ascend for small craft only. A nautical ship has no use
        for the altitude cards: the text drops every rule about altitude for her (BR-SEQ-06)."""
        counts = MOVEMENT.get("deck")
        only_small = MOVEMENT.texts("small_craft_only")
        left_out = (*ASCENDS, DESCEND) if nautical else ()
        return cls(
            tuple(
                (card, int(counts[card]))
                for card in CARDS
                if (ship_class.extra_ascend or card not in only_small) and card not in left_out
            )
        )

    def count(self, card: str) -> int:
        return dict(self.counts).get(card, 0)

    @property
    def size(self) -> int:
        return sum(count for _, count in self.counts)

    def cards(self) -> tuple[str, ...]:
        """Every card, one entry each, in the text's order: what a random pick is made from."""
        return tuple(card for card, count in self.counts for _ in range(count))

    def without(self, discards: Iterable[str]) -> Deck:
        """The deck after damage discards these cards (BR-CARD-10: rows 3, 4, 5, 7 of the Damage table). A card
        the deck has no more of is not there to discard: it changes nothing (what such a result then means is the
        damage rules' business, BR-DMG-15)."""
        counts = dict(self.counts)
        for card in discards:
            if card not in CARDS:
                raise ValueError(f"{card!r} is no Movement Card")
            if counts.get(card, 0) > 0:
                counts[card] -= 1
        return Deck(tuple((card, counts[card]) for card, _ in self.counts))  # a card gone keeps its place, at 0

    def with_back(self, card: str, full: Deck) -> Deck:
        """The deck with a discarded card repaired back, never beyond the full deck."""
        counts = dict(self.counts)
        if counts.get(card, 0) >= full.count(card):
            return self
        return Deck(tuple((c, counts.get(c, 0) + (c == card)) for c, _ in full.counts))


# --- the plot and its restrictions ---------------------------------------------------------------------------


def played(value: str) -> tuple[str, bool]:
    """A plotted value as the card played and whether it turns: "Turn right (held)" is the Turn right card played
    as no turn (BR-MOV-05's "up to"); every other value is the card itself, played in full."""
    return (HELD_TURNS[value], False) if value in HELD_TURNS else (value, True)


def cards_of(plot: Sequence[str]) -> tuple[str, ...]:
    """The cards a plot plays, a held Turn counted as the Turn card it is: what the restrictions and the deck judge
    (a Turn played as no turn is still the Turn card played, docs/barsoom.md section 9)."""
    return tuple(played(value)[0] for value in plot)


class Breach(NamedTuple):
    """A card that breaks a restriction (or another rule of the plot): its place in the plot (0-based; None: the
    plot as a whole), the clause and why."""

    card: int | None
    clause: str
    reason: str


@dataclass(frozen=True)
class Allowance:
    """What a ship's stats allow beyond the default restrictions (BR-MOV-09..11, BR-CLS-07/08), and her
    cards a turn."""

    ascends: int = 1
    reverses: int = 1
    turns_per_forward: int = 1
    options: int = 3
    small_craft: bool = False

    @classmethod
    def of(cls, ship_class: ShipClass, options_lost: int = 0) -> Allowance:
        return cls(
            ascends=ship_class.ascends_per_turn,
            reverses=ship_class.reverses_per_turn,
            turns_per_forward=ship_class.turns_per_forward,
            options=options_per_turn(options_lost),
            small_craft=ship_class.extra_ascend,
        )


class Plotted(NamedTuple):
    """A plot taken: its cards, and under the optional rule the one restriction it breaks (None if none)."""

    cards: tuple[str, ...]
    ignored: Breach | None = None


def breaches(plot: Sequence[str], allowance: Allowance) -> list[Breach]:
    """Every restriction the plot breaks, card by card, in plot order (BR-MOV-09..12). A card may break two."""
    found: list[Breach] = []
    ascends = reverses = 0
    last_move = ""  # the last Ahead or Reverse so far
    stopped = False  # a Stop since it
    turns_run = 0  # Turns in a row just before this card
    run_follows_move = False  # that run of Turns came straight after an Ahead or Reverse
    previous = ""
    for number, card in enumerate(plot):
        if card in ASCENDS:
            ascends += 1
            if ascends > allowance.ascends:
                found.append(Breach(number, "BR-MOV-09", f"card {number + 1}: Ascend {ascends} times in a turn"))
        if card == REVERSE:
            reverses += 1
            if reverses > allowance.reverses:
                found.append(Breach(number, "BR-MOV-11", f"card {number + 1}: Reverse {reverses} times in a turn"))
        if card in MOVES:
            if last_move and last_move != card and not stopped:
                found.append(Breach(number, "BR-MOV-12", f"card {number + 1}: {card} after {last_move} with no Stop"))
            last_move, stopped = card, False
        elif card == STOP:
            stopped = True
        if card in TURNS:
            if previous in MOVES:
                turns_run, run_follows_move = 1, True
            else:
                turns_run += 1
                run_follows_move = run_follows_move and previous in TURNS
            if not run_follows_move:
                found.append(
                    Breach(number, "BR-MOV-10", f"card {number + 1}: a Turn comes straight after an Ahead or Reverse")
                )
            elif turns_run > allowance.turns_per_forward:
                many = "one Turn" if allowance.turns_per_forward == 1 else f"{allowance.turns_per_forward} Turns"
                found.append(Breach(number, "BR-MOV-10", f"card {number + 1}: {many} after each Ahead or Reverse"))
        else:
            turns_run, run_follows_move = 0, False
        previous = card
    return found


def judge(plot: Sequence[str], deck: Deck, allowance: Allowance, *, ignore_one: bool = False) -> Plotted | Breach:
    """Take a plot or refuse it with the clause it breaks. ``ignore_one``: the optional rule (BR-OPT-01), under which
    a plot may break one restriction, once, and the breach comes back with the plot. The deck's limits (a card
    she has not got) and the number of cards are no restrictions: never ignored."""
    for number, card in enumerate(plot):
        if card not in CARDS:
            return Breach(number, "BR-MOV-01", f"card {number + 1}: {card!r} is no Movement Card")
        if card == EXTRA_ASCEND and not allowance.small_craft:
            return Breach(number, "BR-CARD-08", f"card {number + 1}: the Extra Ascend is for small craft only")
    if len(plot) != allowance.options:
        return Breach(None, _options_clause(allowance.options), f"plot {allowance.options} cards, not {len(plot)}")
    broken = breaches(plot, allowance)
    if broken and not ignore_one:
        return broken[0]
    if len(broken) > 1:
        where = ", ".join(f"card {b.card + 1 if b.card is not None else '?'} ({b.clause})" for b in broken)
        return Breach(
            broken[1].card, "BR-OPT-01", f"only one restriction may be ignored a turn; this plot breaks {where}"
        )
    for card in CARDS:
        wanted = plot.count(card)
        if wanted > deck.count(card):
            clause = "BR-CARD-10" if wanted <= _full_count(card) else "BR-CARD-09"
            return Breach(None, clause, f"{wanted} x {card} plotted, the deck holds {deck.count(card)}")
    return Plotted(tuple(plot), broken[0] if broken else None)


def ignored_damage(ship: str, breach: Breach) -> DamageOwed:
    """The optional rule's price: once the card that broke the restriction is executed, one d10 on the Damage table,
    its effect added to the move (BR-OPT-02)."""
    reason = RESTRICTION_IGNORED
    return owed(ship, fixed_rolls(reason), reason, "BR-OPT-02")


def _options_clause(options: int) -> str:
    if options == MOVEMENT.whole("options_per_turn"):
        return "BR-MOV-01"
    return "BR-MOV-14" if options == 0 else "BR-DMG-08"


def _full_count(card: str) -> int:
    return int(MOVEMENT.get("deck", card))


# --- out of control ----------------------------------------------------------------------------------------


def out_of_control(deck: Deck, *, helm_manned: bool = True, declared: bool = False) -> bool:
    """Is she out of control (BR-OOC-01)? The text names steering damage, incapacitated helmsmen and "other
    reasons" and defines none: steering damage is every Turn card gone from her deck (the Damage table's row 5 takes
    them one at a time, BR-DMG-07), the helmsmen are the crew rules' to count (``helm_manned``), and any other
    reason is a scenario's or the umpire's (``declared``)."""
    return declared or not helm_manned or not any(deck.count(card) for card in TURNS)


def random_dice(deck: Deck) -> tuple[int, ...]:
    """The dice an out-of-control ship's random options are drawn with (BR-OOC-02): one die as big as her deck,
    then one a card smaller (drawn without putting back)."""
    size = deck.size
    return tuple(size - n for n in range(min(_random_options(), size)))


def random_options(deck: Deck, faces: Sequence[int]) -> tuple[str, ...]:
    """An out-of-control ship's two random options, drawn from her deck as it stands (BR-OOC-02/03): the first
    face picks a card from the whole deck, the next from what is left. Then she Descends (movement.py)."""
    left = list(deck.cards())
    picked: list[str] = []
    for face in faces[: _random_options()]:
        if not 1 <= face <= len(left):
            raise ValueError(f"a random pick from {len(left)} cards is 1 to {len(left)}, not {face}")
        picked.append(left.pop(face - 1))
    return tuple(picked)


def _random_options() -> int:
    return MOVEMENT.whole("out_of_control", "random_options")


# --- initiative and the order of reveal -------------------------------------------------------------------


def initiative(rounds: Sequence[Mapping[str, int]]) -> tuple[str, ...] | None:
    """The sides in initiative order, highest roll first (BR-SEQ-02), from the first round of rolls and any roll-offs
    between sides that tied (each later round holds the rolls of sides still tied). None while a tie stands:
    ``tied`` names the sides that roll again."""
    if not rounds:
        return None
    order = _rank(tuple(rounds[0]), rounds, 0)
    return None if order is None else tuple(order)


def tied(rounds: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    """The sides that must roll again before the initiative order stands (empty: it stands)."""
    if not rounds:
        return ()
    return _first_tie(tuple(rounds[0]), rounds, 0)


def _groups(sides: Sequence[str], rolls: Mapping[str, int]) -> list[list[str]]:
    scores = sorted({rolls[side] for side in sides}, reverse=True)
    return [[side for side in sides if rolls[side] == score] for score in scores]


def _rank(sides: Sequence[str], rounds: Sequence[Mapping[str, int]], depth: int) -> list[str] | None:
    order: list[str] = []
    for group in _groups(sides, rounds[depth]):
        if len(group) == 1:
            order += group
            continue
        if depth + 1 >= len(rounds):
            return None
        ranked = _rank(group, rounds, depth + 1)
        if ranked is None:
            return None
        order += ranked
    return order


def _first_tie(sides: Sequence[str], rounds: Sequence[Mapping[str, int]], depth: int) -> tuple[str, ...]:
    for group in _groups(sides, rounds[depth]):
        if len(group) > 1:
            if depth + 1 >= len(rounds):
                return tuple(group)
            tie = _first_tie(group, rounds, depth + 1)
            if tie:
                return tie
    return ()


def reveal_order(sides: Sequence[str], ships: Mapping[str, Sequence[tuple[str, int]]]) -> tuple[tuple[str, int], ...]:
    """The order the plotted cards are revealed and executed (BR-SEQ-03): card by card, the sides alternating in
    initiative order; a side with several ships brings them in its own order, one ship a side at a time, so the
    sides alternate ship by ship. ``ships``: per side, (ship, cards she plotted). Gives (ship, card's place)."""
    order: list[tuple[str, int]] = []
    most_cards = max((cards for fleet in ships.values() for _, cards in fleet), default=0)
    most_ships = max((len(fleet) for fleet in ships.values()), default=0)
    for slot in range(most_cards):
        for place in range(most_ships):
            for side in sides:
                fleet = ships.get(side, ())
                if place < len(fleet) and slot < fleet[place][1]:
                    order.append((fleet[place][0], slot))
    return tuple(order)
