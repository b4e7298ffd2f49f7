"""The phases: functions over the resolver's Context, one module per part of the turn. sequence.py dispatches."""
