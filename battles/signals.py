"""Signals the battles app sends for other apps to act on, without the battles app knowing them.

``battle_finished`` is sent (keyword ``battle_id``) inside the transaction that stores a battle's result, so a
receiver that queues work should do it with ``transaction.on_commit``: the result is there once it runs.
"""

from __future__ import annotations

from django.dispatch import Signal

battle_finished = Signal()
