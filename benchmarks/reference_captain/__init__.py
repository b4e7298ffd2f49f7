"""The reference opponent of issue 21: the Sky Galleons AI captain frozen as it stood when that issue began.

``tactics.py``, ``candidates.py`` and ``scenario_ai.py`` here are copies of battles/rules/sky_galleons/ at commit
107e6ba, changed only in their imports (each other, not the live modules). The live captain may cache, prune
and narrow what it likes as long as it does not lose to this one: benchmarks/test_bench_ai_match.py plays
them against each other (`make bench`). Keep these files as they are; they are a yardstick, not product code.
The rules modules they import (movement, combat, queries...) are the live ones: their behaviour is pinned by
the fingerprints (tests/rules/sky_galleons/test_fingerprints.py), so the reference plays as it did.
"""

from __future__ import annotations

from typing import Any

from battles.engine import policies
from battles.engine.ruleset import Ruleset
from benchmarks.reference_captain.tactics import Captain


def reference_policy(ruleset: Ruleset[Any], seed: bytes, side: str) -> policies.Policy:
    """The reference captain for ``side`` on the side's own dice, as simulate.policy_for draws them."""
    del ruleset
    return Captain(seed + b"|" + side.encode(), f"captain {side}")
