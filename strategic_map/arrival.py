"""Arrival and the battle's result carried back into the campaign: owned by the arrival work. INTERFACE ONLY."""

from __future__ import annotations


def voyage_arrive(*, voyage_id: int, city: str, day: int) -> None:
    """The ship ended her day in a friendly city: the voyage ends, prizes in tow go to auction
    (campaign.auctions.prize_land), the crew experience check is made (campaign.yard.voyage_end_experience),
    she is in port (repairs possible), steam ships coal. Idempotent."""
    raise NotImplementedError("voyage_arrive")


def encounter_result_apply(*, encounter_id: int) -> bool:
    """Carry a finished encounter battle's result back into the campaign (damage, casualties, prizes in tow,
    ships lost, treks). Idempotent (Encounter.applied_at); False when there was nothing to do."""
    raise NotImplementedError("encounter_result_apply")
