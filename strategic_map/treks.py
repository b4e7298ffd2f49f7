"""Epic treks (SGC-TREK): owned by the trek work. INTERFACE ONLY for now."""

from __future__ import annotations

from strategic_map.models import EpicTrek


def trek_start(
    *, captain_id: int, cause: str, q: int, r: int, party: int, day: int, encounter_id: int | None = None
) -> EpicTrek:
    """The captain survived the loss of his ship: he and ``party`` men (himself included) set out from (q, r)."""
    raise NotImplementedError("trek_start")


def treks_advance(*, campaign_id: int, day: int) -> int:
    """Walk every trek under way in the campaign one step for campaign day ``day``; the number advanced.
    Idempotent per (trek, day)."""
    raise NotImplementedError("treks_advance")
