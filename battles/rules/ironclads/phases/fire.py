"""Phase 3, the Firing Phase (IC-SEQ-08). Wired once the fire rules (arcs, zone of fire, salvoes, saves, damage,
problems) are on main; until then the phase opens and no gun fires (docs/ironclads.md "The turn, in the app")."""

from __future__ import annotations

from battles.engine.resolver import Context
from battles.rules.ironclads.battle import Battle
from battles.rules.ironclads.kinds import FIRING


def fire_phase(ctx: Context[Battle]) -> bool:
    """True when the phase is over; False when a decision is open."""
    ctx.begin_phase(FIRING)
    return True
