"""Armour saves (IC-SAVE-01..10; docs/ironclads.md "Fire and damage"). The target rolls a save after every salvo,
each on its own (IC-SAVE-01): 1D6 an Armour stat she has left (IC-SAVE-02), each face saving by the range band
(IC-SAVE-03..05; 25 and 50 cm in the middle band, IC-SAVE-10, by ``scale.band``). The owner's choice of which hits
are saved is made for him, criticals first (IC-SAVE-06): a C costs at least what an H does, and of any track. No dice
are rolled here: the phase rolls ``save_dice`` with ``needed(band)`` and passes the faces to ``saved``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from battles.engine import dice
from battles.rules.ironclads.cards import ARMOUR, DataCard
from battles.rules.ironclads.salvo import Score
from battles.rules.ironclads.scale import CLOSE, LONG, MIDDLE

SAVED, NOT_SAVED = "save", "failed save"  # the log counts them: "1 save, 3 failed saves"

# The lowest face that saves, by band (IC-SAVE-03..05).
SAVES_ON: Final[Mapping[str, int]] = {LONG: 3, MIDDLE: 5, CLOSE: 6}


def save_dice(target: DataCard) -> int:
    """1D6 for each Armour stat she has left (IC-SAVE-02); a wooden screw ship rolls none."""
    return target.left(ARMOUR)


def needed(band: str) -> dice.Needed:
    """What each face of a save does at this range, for the roll's log (IC-SAVE-03..05)."""
    low = SAVES_ON[band]
    return dice.each_die(f"{low}-6 saves" if low < 6 else "6 saves", ((low, 6, SAVED),), NOT_SAVED)


def saved(band: str, faces: Sequence[int]) -> int:
    """How many hits the faces save (IC-SAVE-03..05)."""
    return sum(1 for face in faces if face >= SAVES_ON[band])


def unsaved(score: Score, saves: int) -> Score:
    """What the armour leaves, the owner saving criticals first (IC-SAVE-06 decision); saved hits are misses."""
    if saves < 0:
        raise ValueError(f"saves are never negative: {saves}")
    criticals = max(0, score.criticals - saves)
    spare = max(0, saves - score.criticals)
    return Score(criticals=criticals, hits=max(0, score.hits - spare))
