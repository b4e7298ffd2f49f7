"""The Sky Galleons AI as the ruleset offers it (the protocol's ai_policy and leaving_policy): tactics.py's
Captain for a side the AI plays, and its Leaving for a side that surrendered or withdraws. The rules never
import this module or tactics.py; the ruleset object reaches the AI only through these two functions.
"""

from __future__ import annotations

from battles.engine.policies import Policy
from battles.rules.sky_galleons.tactics import Captain, Leaving


def captain(seed: bytes, side: str) -> Policy:
    """The AI captain for a side (battles.engine.simulate.policy_for)."""
    return Captain(seed, f"captain {side}")


def leaving(seed: bytes, side: str, how: str) -> Policy:
    """Who answers for a side that surrendered (``surrender``) or withdraws (``withdraw``) in the battle app."""
    return Leaving(seed, f"leaving {side}", how)
