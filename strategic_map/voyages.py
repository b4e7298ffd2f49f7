"""The voyage services: setting out from a city with a plan of days, and changing the plan at sea (SGC-MOVE-01..15).

Each service locks in campaign.locks' one order (the campaign's row first; then the voyage, the captain, the
ship, as far as it needs them), checks that the captain and ship are the user's, checks the plan with
strategic_map.voyage_rules from where it starts, and writes.
A refusal is a ``VoyageRefused`` (bad orders: the API answers 400) or a ``VoyageConflict`` (the state of things
forbids it now: 409), both Django ValidationErrors whose messages say why. The reads are voyage_selectors.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from campaign import ledger, locks, sailing_repairs, yard
from campaign.models import Captain, CaptainStatus, ShipStatus
from strategic_map import voyage_selectors as sel
from strategic_map.models import Voyage, VoyageStatus


class VoyageRefused(ValidationError):
    """The orders themselves are wrong (a plan that cannot be sailed): 400."""


class VoyageConflict(ValidationError):
    """The orders may be fine, but not now (already at sea, not in port, the voyage is over): 409."""


def _own_captain(captain_id: int, user: User) -> Captain:
    captain = ledger.lock_captains([captain_id]).get(captain_id)
    if captain is None or captain.player_id != user.pk:
        raise PermissionDenied("That captain is not yours.")
    return captain


def _refuse_plan(errors: tuple[str, ...]) -> VoyageRefused:
    return VoyageRefused({"plan": list(errors)})


@transaction.atomic
def voyage_start(*, captain_id: int, ship_id: int, user: User, plan: Any) -> tuple[Voyage, bool]:
    """The captain takes his ship out of the city she is in port at, with a plan of days. She and he are at sea
    from now; the voyage starts at the city's hex and sails its first day at the next tick.

    A damaged ship leaving Parhoon is first repaired as far as her captain's money goes (SGC-MONEY-03/07, in
    campaign.sailing_repairs' order: hull boxes, destroyed guns, the rest of the bill, new men last), paid through
    the ledger in this transaction under the voyage's own keys; her movement and the plan are checked as she
    will sail, mended. From any other friendly city she sails as she is: only Parhoon repairs (SGC-REPAIR-01).

    Returns the voyage and whether it was created now: the same orders sent twice (a double click, a retried
    request) find the voyage they started and change nothing (and pay nothing again)."""
    captain = _own_captain(captain_id, user)
    ship = locks.ship(captain.campaign, ship_id)
    if ship is None or ship.captain_id != captain.pk:
        raise PermissionDenied("That ship is not yours.")
    campaign = ship.campaign
    current = sel.under_way(ship=ship)
    if current is not None:
        if current.captain_id == captain.pk and current.started_day == campaign.day and current.plan == _sent(plan):
            return current, False
        raise VoyageConflict(f"The {ship.name} is already at sea (voyage {current.pk}): change that voyage's plan.")
    if Voyage.objects.filter(captain=captain, status=VoyageStatus.UNDER_WAY).exists():
        raise VoyageConflict(f"Captain {captain.name} is already at sea in another ship.")
    try:
        start = sel.plan_start(ship=ship, voyage=None)
    except ValueError as error:
        raise VoyageConflict(str(error)) from error
    assert start.city is not None
    if captain.status != CaptainStatus.ASHORE or captain.city.casefold() != ship.city.casefold():
        where = f" at {captain.city}" if captain.city else ""
        raise VoyageConflict(
            f"Captain {captain.name} must be ashore at {start.city.name} to sail the {ship.name}; "
            f"he is {captain.get_status_display().lower()}{where}."
        )
    repairs = sailing_repairs.sailing_repairs(ship, balance=captain.balance)
    mended = sailing_repairs.record_after(ship, repairs) if repairs.needed else None
    if mended is not None:
        ship.record = mended.to_json()  # checked as she will sail; written (and paid) once the voyage exists
    movement = sel.ship_movement(ship, at_sea=False)
    if not movement.can_sail:
        raise VoyageRefused(movement.cannot_sail_because or f"The {ship.name} cannot sail.")
    if not isinstance(plan, list) or not plan:
        raise VoyageRefused({"plan": ["A voyage needs a plan of at least one day."]})
    check = sel.plan_check(ship=ship, plan=plan, start=start, campaign=campaign)
    if not check.valid:
        raise _refuse_plan(check.errors)
    voyage = Voyage.objects.create(
        campaign=campaign,
        captain=captain,
        ship=ship,
        start_city=start.city.name,
        started_day=campaign.day,
        q=start.hex.q,
        r=start.hex.r,
        plan=check.plan,
        plan_updated_at=timezone.now(),
    )
    if mended is not None:
        yard.sailing_repairs_pay(
            captain=captain, ship=ship, user=user, plan=repairs, mended=mended, voyage_id=voyage.pk
        )
    # At sea she is in no city; the arrival sets the city she comes home to.
    ship.status, ship.city = ShipStatus.AT_SEA, ""
    ship.save(update_fields=["status", "city"])
    captain.status, captain.city = CaptainStatus.AT_SEA, ""
    captain.save(update_fields=["status", "city"])
    return voyage, True


def _sent(plan: Any) -> Any:
    """The plan as it would be stored, to compare a repeated order with the first (unchanged if it is not one)."""
    if not isinstance(plan, list):
        return plan
    days = []
    for day in plan:
        if isinstance(day, dict) and day.get("kind") == "patrol" and not day.get("path"):
            days.append({"kind": "patrol"})
        else:
            days.append(day)
    return days


@transaction.atomic
def voyage_plan_set(*, voyage_id: int, user: User, plan: Any) -> Voyage:
    """Replace the voyage's standing plan. Until the next day's order deadline (strategic_map.calendar, the
    umpire's extensions included) the whole plan may change; after it the first day is locked (it will be sailed
    at the tick as it stands) and the new plan replaces the days after it, checked from where the locked day ends.
    The player sends the whole plan, the locked day first and unchanged. An empty plan holds position."""
    campaign = locks.campaign_of(Voyage, voyage_id)  # campaign first, then the voyage (campaign.locks)
    voyage = (
        None
        if campaign is None
        else Voyage.objects.select_for_update(no_key=True, of=("self",))
        .select_related("ship", "captain")
        .filter(pk=voyage_id)
        .first()
    )
    if campaign is None or voyage is None or voyage.captain.player_id != user.pk:
        raise PermissionDenied("That voyage is not yours.")
    voyage.campaign = campaign
    if voyage.status != VoyageStatus.UNDER_WAY:
        raise VoyageConflict(f"That voyage is over ({voyage.get_status_display().lower()}): its plan cannot change.")
    try:
        start = sel.plan_start(ship=voyage.ship, voyage=voyage)
    except ValueError as error:
        raise VoyageConflict(str(error)) from error
    check = sel.plan_check(ship=voyage.ship, plan=plan, start=start, campaign=voyage.campaign)
    if not check.valid:
        raise _refuse_plan(check.errors)
    # The locked days are kept as they stand, whatever was sent for them (the check has made sure it matched).
    new_plan = [*start.locked_plan, *check.plan[start.locked_days :]]
    if new_plan != voyage.plan:
        voyage.plan = new_plan
        voyage.plan_updated_at = timezone.now()
        voyage.save(update_fields=["plan", "plan_updated_at"])
    return voyage
