"""The umpire's desk: his writes to the campaign's calendar and to the map's stand-in numbers.

Each is the umpire's alone, needs a reason, and is entered in the campaign's audit with what it changed, before
and after (DESIGN.md section 6):

- pause and resume the calendar (while paused no day ticks);
- extend the next day's order deadline for one captain or for everyone (strategic_map.calendar reads them);
- run the next day now (strategic_map.tick does the work; the desk records that the umpire asked for it);
- the territories' encounter numbers (SGC-MAP-03) and the epic trek table (SGC-TREK-11), both designed
  stand-ins a club may change per campaign, stored in CampaignMapRules and read through strategic_map.map_rules.

Chosen here: resuming a campaign whose next tick has passed while it was paused (or that has none) schedules the
next tick one campaign day (``hours_per_day``) from the moment of resuming, so every captain has a whole day to
send his orders, rather than ticking at once the day nobody could plan for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from campaign import locks
from campaign.models import AuditEntry, Campaign, Captain, Membership, Role
from strategic_map import calendar, mapdata
from strategic_map.models import CampaignMapRules, OrderExtension
from strategic_map.tick import campaign_tick

# The die's faces: an encounter number or a trek table loss is one of them.
DIE_FACES = range(1, 7)
# An extension further off than this is taken for a slip of the pen, not a decision.
LONGEST_EXTENSION = timedelta(days=30)
# The trek table's codes as the umpire may write them (SGC-TREK-12..19): Passage, Found, Captured; Lost or
# Attacked with the men lost in every six. A bare L (the rules' Lost without a loss) is Lost with none.
TREK_CODES = "P, F, C, L, L:n or A:n (n from 1 to 6)"
_TREK_CODE = re.compile(r"^(?:(?P<plain>[PFCL])|(?P<losing>[LA])\s*:?\s*(?P<n>[0-9]+))$")


# --- checks shared by every desk service ------------------------------------------------------------------------


def _lock_campaign(campaign_id: int) -> Campaign:
    if not Campaign.objects.filter(pk=campaign_id).exists():
        raise ValidationError({"campaign": "There is no such campaign."})
    return locks.campaign(campaign_id)  # the first lock, as campaign.locks orders them


def require_umpire(campaign: Campaign, user: User) -> None:
    """Refuse anyone but the campaign's umpire."""
    if not Membership.objects.filter(campaign=campaign, user=user, role=Role.UMPIRE).exists():
        raise PermissionDenied("Only the campaign's umpire may do this.")


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError({"reason": "Give a reason: the umpire's changes are audited."})
    return reason[:300]


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _audit(
    campaign: Campaign,
    umpire: User,
    action: str,
    reason: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    *,
    captain: Captain | None = None,
    **extra: Any,
) -> AuditEntry:
    return AuditEntry.objects.create(
        campaign=campaign,
        actor=umpire,
        action=action,
        captain=captain,
        reason=reason,
        data={"before": dict(before), "after": dict(after), **extra},
    )


# --- the calendar ------------------------------------------------------------------------------------------------


def _calendar_state(campaign: Campaign) -> dict[str, Any]:
    return {"paused": campaign.paused, "next_tick_at": _when(campaign.next_tick_at)}


@transaction.atomic
def campaign_pause(*, campaign_id: int, umpire: User, reason: str) -> Campaign:
    """Stop the calendar: no day ticks until the umpire resumes it. Pausing a paused campaign changes nothing."""
    campaign = _lock_campaign(campaign_id)
    require_umpire(campaign, umpire)
    reason = _reason(reason)
    if campaign.paused:
        return campaign
    before = _calendar_state(campaign)
    campaign.paused = True
    campaign.save(update_fields=["paused"])
    _audit(campaign, umpire, "campaign paused", reason, before, _calendar_state(campaign))
    return campaign


@transaction.atomic
def campaign_resume(*, campaign_id: int, umpire: User, reason: str, now: datetime | None = None) -> Campaign:
    """Start the calendar again. A next tick that passed while paused (or none at all) is set a campaign day from
    now; one still to come is kept. Resuming a running campaign changes nothing."""
    campaign = _lock_campaign(campaign_id)
    require_umpire(campaign, umpire)
    reason = _reason(reason)
    if not campaign.paused:
        return campaign
    now = now or timezone.now()
    before = _calendar_state(campaign)
    campaign.paused = False
    if campaign.next_tick_at is None or campaign.next_tick_at <= now:
        campaign.next_tick_at = now + timedelta(hours=max(campaign.hours_per_day, 1))
    campaign.save(update_fields=["paused", "next_tick_at"])
    _audit(campaign, umpire, "campaign resumed", reason, before, _calendar_state(campaign))
    return campaign


@transaction.atomic
def order_extension_grant(
    *,
    campaign_id: int,
    umpire: User,
    until: datetime,
    reason: str,
    captain_id: int | None = None,
    now: datetime | None = None,
) -> OrderExtension:
    """Give one captain (or, with no captain, everyone) until ``until`` to send orders for the next day. The
    day's tick waits for the last extension (strategic_map.calendar)."""
    campaign = _lock_campaign(campaign_id)
    require_umpire(campaign, umpire)
    reason = _reason(reason)
    now = now or timezone.now()
    captain: Captain | None = None
    if captain_id is not None:
        captain = Captain.objects.filter(pk=captain_id, campaign=campaign).first()
        if captain is None:
            raise ValidationError({"captain": "There is no such captain in this campaign."})
    if timezone.is_naive(until):
        raise ValidationError({"until": "Say when the extension runs out, with its time zone."})
    deadline_before = calendar.order_deadline(campaign, captain)
    if until <= now:
        raise ValidationError({"until": "An extension must run out in the future."})
    if deadline_before is not None and until <= deadline_before:
        raise ValidationError(
            {"until": f"Orders are due by {deadline_before:%d %b %Y %H:%M} already: extend past that."}
        )
    if until > now + LONGEST_EXTENSION:
        raise ValidationError({"until": f"An extension runs for {LONGEST_EXTENSION.days} days at most."})
    extension = OrderExtension.objects.create(
        campaign=campaign, day=campaign.day + 1, captain=captain, until=until, reason=reason, granted_by=umpire
    )
    _audit(
        campaign,
        umpire,
        "orders extended",
        reason,
        {"order_deadline": _when(deadline_before), "next_tick_at": _when(calendar.next_tick_at(campaign))},
        {
            "order_deadline": _when(calendar.order_deadline(campaign, captain)),
            "next_tick_at": _when(calendar.next_tick_at(campaign)),
        },
        captain=captain,
        day=extension.day,
        who=f"Captain {captain.name}" if captain is not None else "everyone",
        until=_when(until),
    )
    return extension


def day_run_now(*, campaign_id: int, umpire: User, reason: str, day: int | None = None) -> list[int]:
    """The umpire's "run the day now": the next campaign day ticks at once (strategic_map.tick, idempotent per
    day), and the audit says who asked and why; the days run. ``day`` is the day the umpire saw as next: once it
    has run, asking again (a second click, a resent form) runs nothing rather than the day after. Not one
    transaction: the tick commits its own steps."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise ValidationError({"campaign": "There is no such campaign."})
    require_umpire(campaign, umpire)
    reason = _reason(reason)
    day_before = campaign.day
    if day is not None and day <= day_before:
        return []
    if day is not None and day != day_before + 1:
        raise ValidationError({"day": f"The next day to run is day {day_before + 1}, not day {day}."})
    try:
        # Never past the day asked for: two requests for the same day (racing) tick it once between them.
        days = campaign_tick(campaign_id=campaign_id, days=1, through_day=day)
    except ValueError as error:  # the tick's own refusal (a day it cannot run), in its words
        raise ValidationError({"day": str(error)}) from error
    campaign.refresh_from_db(fields=["day", "next_tick_at", "paused"])
    _audit(
        campaign,
        umpire,
        "day run now",
        reason,
        {"day": day_before},
        {"day": campaign.day, "next_tick_at": _when(campaign.next_tick_at)},
        days_run=list(days),
    )
    return days


# --- the map's stand-in numbers --------------------------------------------------------------------------------


def _map_rules(campaign: Campaign) -> CampaignMapRules:
    rules, _ = CampaignMapRules.objects.select_for_update().get_or_create(campaign=campaign)
    return rules


def _encounter_number(value: object, field: str, words: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in DIE_FACES:
        raise ValidationError({field: f"The {words} number is a die's face, 1 to 6, or none (no roll): not {value!r}."})
    return value


@transaction.atomic
def territory_numbers_set(
    *,
    campaign_id: int,
    umpire: User,
    territory: str,
    move_through: int | None,
    patrol: int | None,
    reason: str,
) -> CampaignMapRules:
    """Set one territory's encounter numbers in this campaign (SGC-MAP-03, SGC-ENC-02): an encounter on 1D6 at or
    under the move-through number for a ship that moved, the patrol number for one that patrolled; none means no
    roll. British territory has none in the reference and gets numbers only this way."""
    campaign = _lock_campaign(campaign_id)
    require_umpire(campaign, umpire)
    reason = _reason(reason)
    mars = mapdata.mars_map()
    try:
        name = mars.territory(territory).name
    except mapdata.UnknownMapName:
        raise ValidationError(
            {"territory": f"{territory!r} is not a territory of the map: one of {', '.join(mars.territories)}."}
        ) from None
    numbers = {
        "move_through": _encounter_number(move_through, "move_through", "move-through"),
        "patrol": _encounter_number(patrol, "patrol", "patrol"),
    }
    rules = _map_rules(campaign)
    reference = mars.territories[name]
    reference_numbers = {"move_through": reference.move_through, "patrol": reference.patrol}
    edits = dict(rules.territory_numbers or {})
    before = edits.get(name, reference_numbers)
    if numbers == before:
        return rules
    # Back to the reference numbers is no edit at all: the desk then labels the territory as the map has it.
    if numbers == reference_numbers:
        edits.pop(name, None)
    else:
        edits[name] = numbers
    rules.territory_numbers = edits
    rules.save(update_fields=["territory_numbers"])
    _audit(campaign, umpire, "territory numbers set", reason, before, numbers, territory=name)
    return rules


@dataclass(frozen=True, slots=True)
class TrekCell:
    """One cell of the trek table: the hex's allegiance, its row (terrain, canal or city) and the die's face."""

    allegiance: str
    row: str
    die: int
    code: str


def trek_code(code: object) -> str:
    """The umpire's trek table code in the table's own spelling ("l2" -> "L:2"); ValueError if it is none."""
    text = "".join(str(code).split()).upper() if isinstance(code, str) else ""
    match = _TREK_CODE.match(text)
    if match is None:
        raise ValueError(f"{code!r} is not a trek table code: {TREK_CODES}")
    if match["plain"] is not None:
        return str(match["plain"])
    losses = int(match["n"])
    if losses not in DIE_FACES:
        raise ValueError(f"{code!r}: the men lost in every six are 1 to 6, not {losses}")
    return f"{match['losing']}:{losses}"


def _reference_table() -> dict[str, dict[str, list[str]]]:
    table = mapdata.mars_map().epic_trek_table.table
    return {allegiance: {row: list(codes) for row, codes in rows.items()} for allegiance, rows in table.items()}


def _checked_table(table: object) -> dict[str, dict[str, list[str]]]:
    """A whole table in the map file's shape, every allegiance and row of the reference and six codes each."""
    reference = _reference_table()
    if not isinstance(table, Mapping) or set(table) != set(reference):
        raise ValidationError({"table": f"The trek table has the columns {', '.join(reference)}, and only those."})
    checked: dict[str, dict[str, list[str]]] = {}
    problems: list[str] = []
    for allegiance, reference_rows in reference.items():
        rows = table[allegiance]
        if not isinstance(rows, Mapping) or set(rows) != set(reference_rows):
            raise ValidationError(
                {"table": f"The {allegiance} column has the rows {', '.join(reference_rows)}, and only those."}
            )
        checked[allegiance] = {}
        for row in reference_rows:
            codes = rows[row]
            if isinstance(codes, str) or not isinstance(codes, Sequence) or len(codes) != len(DIE_FACES):
                raise ValidationError({"table": f"{allegiance} {row}: six codes, one for each face of the die."})
            checked[allegiance][row] = []
            for die, code in enumerate(codes, start=1):
                try:
                    checked[allegiance][row].append(trek_code(code))
                except ValueError as error:
                    problems.append(f"{allegiance} {row}, die {die}: {error}.")
    if problems:
        raise ValidationError({"table": problems})
    return checked


def _cell_changes(
    before: Mapping[str, Mapping[str, Sequence[str]]], after: Mapping[str, Mapping[str, Sequence[str]]]
) -> tuple[dict[str, str], dict[str, str]]:
    old: dict[str, str] = {}
    new: dict[str, str] = {}
    for allegiance, rows in after.items():
        for row, codes in rows.items():
            for die, code in enumerate(codes, start=1):
                was = before[allegiance][row][die - 1]
                if was != code:
                    old[f"{allegiance} {row} {die}"] = was
                    new[f"{allegiance} {row} {die}"] = code
    return old, new


@transaction.atomic
def trek_table_set(
    *,
    campaign_id: int,
    umpire: User,
    reason: str,
    table: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
    cell: TrekCell | None = None,
) -> CampaignMapRules:
    """Set the campaign's epic trek table (SGC-TREK-11): the whole of it, or one cell. Codes are checked
    (``TREK_CODES``); the audit names every cell that changed, before and after."""
    if (table is None) == (cell is None):
        raise ValidationError({"table": "Give the whole table or one cell."})
    campaign = _lock_campaign(campaign_id)
    require_umpire(campaign, umpire)
    reason = _reason(reason)
    rules = _map_rules(campaign)
    reference = _reference_table()
    current = _checked_table(rules.trek_table) if rules.trek_table else reference
    if cell is not None:
        if cell.allegiance not in reference:
            raise ValidationError({"allegiance": f"The trek table's columns are {', '.join(reference)}."})
        if cell.row not in reference[cell.allegiance]:
            raise ValidationError({"row": f"The trek table's rows are {', '.join(reference[cell.allegiance])}."})
        if cell.die not in DIE_FACES:
            raise ValidationError({"die": "The die's face is 1 to 6."})
        try:
            code = trek_code(cell.code)
        except ValueError as error:
            raise ValidationError({"code": f"{error}."}) from None
        wanted = {allegiance: {row: list(codes) for row, codes in rows.items()} for allegiance, rows in current.items()}
        wanted[cell.allegiance][cell.row][cell.die - 1] = code
    else:
        wanted = _checked_table(table)
    old, new = _cell_changes(current, wanted)
    if not new:
        return rules
    # The reference table again is no edit: map_rules then reads the map's own (and its provenance).
    rules.trek_table = {} if wanted == reference else wanted
    rules.save(update_fields=["trek_table"])
    _audit(campaign, umpire, "trek table set", reason, old, new)
    return rules
