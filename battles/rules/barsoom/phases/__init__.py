"""The phases of a Barsoom turn: functions over the resolver's Context, one module per part of the turn
(docs/barsoom.md section 9). sequence.py dispatches; none changes the board itself (the fold does)."""
