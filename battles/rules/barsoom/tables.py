"""The movement tables (data/movement.json), read once: the deck, the cards a turn, the initiative die, the random
options of a ship out of control, and the Damage-table rolls and modifiers that moves call for."""

from __future__ import annotations

from pathlib import Path

from battles.engine.jsonread import DataFile

MOVEMENT = DataFile(Path(__file__).resolve().parent / "data" / "movement.json")
