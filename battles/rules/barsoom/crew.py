"""A ship's crew as crew points: the stand-in for the figures the text leaves to its host game (Witchfinder General
or En Garde!, which the app does not have). Pure: numbers in, records out; docs/barsoom.md section 8 gives every
decision.

- A crew is counted in men, not figures: fighting men free on deck, the helmsmen, the men throwing or cutting
  grapples this turn, the repair crew with the 6s it has saved, and boarding parties away aboard other ships.
  Each man is in one place at a time, so a man at the helm, the grapnels or the repairs does nothing else
  (BR-GRAP-07, BR-REP-05): only the men free on deck fight, cross over or fire.
- Complements per class (data/crew.json): the text says only "all the crew that will fit" (BR-CLS-04/05/11), so
  the stand-in numbers are 40, 20 and 4 men, of whom 2, 1 and 1 at the helm.
- Helmsmen: the text names incapacitated helmsmen as a cause of losing control (BR-OOC-01), so they are counted
  apart. With none left the ship is out of control until men are sent to the helm.
- Repairs (BR-REP-*): each man of the repair crew rolls a D6 a turn; every three 6s, saved from turn to turn,
  mend one repairable result of the owner's choice, a fire among them (BR-REP-07).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from battles.engine.frozen import evolve
from battles.engine.jsonread import DataFile

TABLES = DataFile(Path(__file__).resolve().parent / "data" / "crew.json")

T = TypeVar("T")

# The groups a man can be in aboard his own ship: what Crew.lose takes casualties from.
DECK, HELM, GRAPPLERS, REPAIRERS = "deck", "helm", "grapplers", "repairers"
GROUPS = (DECK, HELM, GRAPPLERS, REPAIRERS)


@dataclass(frozen=True, slots=True)
class Boarders:
    """A boarding party away: ``men`` of this crew aboard the ship named ``aboard``."""

    aboard: str
    men: int


@dataclass(frozen=True, slots=True)
class RepairCrew:
    """The men at the repairs and the 6s they have rolled towards the next mend (BR-REP-04: 6s are saved)."""

    men: int = 0
    sixes: int = 0


@dataclass(frozen=True, slots=True)
class Crew:
    """One ship's crew in men. ``men`` are the fighting men free on deck; the rest are busy (see the module)."""

    men: int
    helm: int
    grapplers: int = 0
    repair: RepairCrew = RepairCrew()
    away: tuple[Boarders, ...] = ()

    @property
    def aboard(self) -> int:
        """Every man of hers still on her: the deck, the helm, the grapnels and the repairs."""
        return self.men + self.helm + self.grapplers + self.repair.men

    @property
    def helmless(self) -> bool:
        """No helmsman left: one of the text's causes of a ship out of control (BR-OOC-01)."""
        return self.helm == 0

    def party_aboard(self, ship: str) -> int:
        """How many of her men are away aboard ``ship``."""
        return sum(party.men for party in self.away if party.aboard == ship)

    # --- setting men to a task, and back: every move takes men free on deck, so a busy man is never counted twice

    def _from_deck(self, men: int, task: str) -> int:
        if men < 0:
            raise ValueError(f"cannot set {men} men to {task}")
        if men > self.men:
            raise ValueError(f"only {self.men} men are free on deck to set to {task}, not {men}")
        return self.men - men

    def to_helm(self, men: int) -> Crew:
        """Men sent to the helm: how a helmless ship gets back under control."""
        return evolve(self, men=self._from_deck(men, "the helm"), helm=self.helm + men)

    def to_grapnels(self, men: int) -> Crew:
        """Men set as grapplers or ungrapplers for this turn (BR-GRAP-06); they do nothing else (BR-GRAP-07)."""
        return evolve(self, men=self._from_deck(men, "the grapnels"), grapplers=self.grapplers + men)

    def stand_down(self) -> Crew:
        """The turn is over: the grapplers are free on deck again (they were busy for that turn only)."""
        return evolve(self, men=self.men + self.grapplers, grapplers=0)

    def join_repairs(self, men: int) -> Crew:
        """Men picked for the repair crew and sent to the repairs (BR-REP-02), joining at any time (BR-REP-06)."""
        crew = RepairCrew(self.repair.men + men, self.repair.sixes)
        return evolve(self, men=self._from_deck(men, "the repairs"), repair=crew)

    def leave_repairs(self, men: int) -> Crew:
        """Men leaving the repair crew for the deck (BR-REP-06); the 6s rolled stay saved (BR-REP-04)."""
        if not 0 <= men <= self.repair.men:
            raise ValueError(f"only {self.repair.men} men are at the repairs, not {men}")
        return evolve(self, men=self.men + men, repair=RepairCrew(self.repair.men - men, self.repair.sixes))

    def send(self, ship: str, men: int) -> Crew:
        """Men who got across to ``ship`` (crossing, a jump that carried, an abseil): boarders away."""
        return evolve(self, men=self._from_deck(men, "board"), away=_add(self.away, ship, men))

    def recall(self, ship: str, men: int) -> Crew:
        """Boarders back from ``ship`` onto her deck."""
        if not 0 <= men <= self.party_aboard(ship):
            raise ValueError(f"only {self.party_aboard(ship)} men are aboard {ship}, not {men}")
        return evolve(self, men=self.men + men, away=_add(self.away, ship, -men))

    # --- losses ---------------------------------------------------------------------------------------------

    def lose(self, group: str, men: int) -> Crew:
        """``men`` of a group aboard out of the fight (dead, wounded, fallen): never below none."""
        if group not in GROUPS:
            raise ValueError(f"no crew group {group!r}: one of {', '.join(GROUPS)}")
        if group == REPAIRERS:
            return evolve(self, repair=RepairCrew(max(0, self.repair.men - men), self.repair.sixes))
        field = {DECK: "men", HELM: "helm", GRAPPLERS: "grapplers"}[group]
        return evolve(self, **{field: max(0, getattr(self, field) - men)})

    def lose_away(self, ship: str, men: int) -> Crew:
        """Boarders lost aboard ``ship`` (fallen in the fight there, or surrendered)."""
        return evolve(self, away=_add(self.away, ship, -min(men, self.party_aboard(ship))))

    def struck(self) -> Crew:
        """Her ship is taken: every man still aboard is a prisoner. Her boarding parties away fight on."""
        return Crew(men=0, helm=0, away=self.away)


def _add(away: tuple[Boarders, ...], ship: str, men: int) -> tuple[Boarders, ...]:
    """The parties away with ``men`` more aboard ``ship`` (fewer when negative); an emptied party is gone."""
    total = sum(party.men for party in away if party.aboard == ship) + men
    others = tuple(party for party in away if party.aboard != ship)
    return (*others, Boarders(ship, total)) if total > 0 else others


def complement(ship_class: str) -> Crew:
    """The crew a ship of ``ship_class`` (capital, medium, small) sails with: the stand-in for "all the crew that
    will fit" (BR-CLS-04/05/11)."""
    return Crew(men=TABLES.whole("complement", ship_class, "men"), helm=TABLES.whole("complement", ship_class, "helm"))


def prize_crew(men: int) -> Crew:
    """The boarders who took a ship are her crew now, all on deck: she is helmless until some take the helm."""
    return Crew(men=men, helm=0)


# --- repairs ------------------------------------------------------------------------------------------------------


def repair_turn(repair: RepairCrew, faces: Sequence[int], outstanding: int) -> tuple[RepairCrew, int]:
    """A turn at the repairs: one D6 a man (BR-REP-03), ``outstanding`` repairable results waiting. Returns the crew
    with the 6s it saves (BR-REP-04) and how many results are mended: one for every three 6s so far. With nothing
    left to mend the spare 6s go: they were rolled for damage that is mended now."""
    if len(faces) != repair.men:
        raise ValueError(f"a repair crew of {repair.men} rolls {repair.men} dice, not {len(faces)}")
    needed, success = TABLES.whole("repair", "sixes_to_mend"), TABLES.whole("repair", "succeeds_on")
    sixes = repair.sixes + sum(1 for face in faces if face >= success)
    mends = min(max(0, outstanding), sixes // needed)
    saved = sixes - mends * needed if mends < outstanding else 0
    return RepairCrew(repair.men, saved), mends


def mended(outstanding: Sequence[T], mends: int, first: Sequence[T] = ()) -> tuple[T, ...]:
    """What is still to mend after ``mends`` repairs: the owner's choice in ``first`` goes first, then the oldest.
    A fire is a result like any other: mending it puts it out (BR-REP-07)."""
    left = list(outstanding)
    for result in [*first, *outstanding]:
        if mends == 0:
            break
        if result in left:
            left.remove(result)
            mends -= 1
    return tuple(left)
