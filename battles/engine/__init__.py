"""The tactical engine: pure Python, no Django. Deterministic from a seed; every die is logged."""
