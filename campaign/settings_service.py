"""The umpire's campaign settings (DESIGN.md section 4): changed only by the umpire, with a reason, audited with
what each setting was and became (DESIGN.md section 6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from accounts.models import User
from battles import engine_io
from battles.engine.ruleset import OptionError, resolve_options
from campaign import locks
from campaign.models import AuditEntry, Campaign, Membership, Role

# What the umpire may set here; the day, the seed and the slug are the campaign's own.
SETTINGS = (
    "name",
    "description",
    "hours_per_day",
    "order_deadline_hours",
    "tactical_ruleset",
    "tactical_options",
    "auction_style",
    "auction_days",
    "holdback_voyages",
    "merchant_cargo_fraction",
    "time_limit_weeks",
    "money_goal",
    "winner_by",
    "rank_dead_below_living",
    "starting_advance",
    "advance_is_loan",
    "starting_quality",
    "starting_yard",
    "recruit_cost_per_man",
    # SGC-START-14: a new captain after a player's is lost or retired, and with what money.
    "new_captain_after_death",
    # SGC-TREK-25: which reading of the epic trek losses the campaign plays.
    "encounter_control",
    "trek_losses",
    # The campaign clock (issue 18): a trek's roll (the rules: a week), an encounter battle's window and turns.
    "trek_days_per_roll",
    "encounter_battle_days",
    "encounter_battle_turns",
    "webhook_url",
)


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def plain_settings(campaign: Campaign, keys: Iterable[str] = SETTINGS) -> dict[str, Any]:
    """The campaign's settings as the audit keeps them (JSON: a Decimal as its string)."""
    return {key: _plain(getattr(campaign, key)) for key in keys}


# The longest a campaign day may last: far past any club's wish, and short of the calendar's end (the next tick is
# reckoned by adding these hours to now).
LONGEST_HOURS = 24 * 365
# The campaign clock's settings in days (an auction, a trek's roll, an encounter battle's window): from one day to
# four weeks; and the turns an encounter battle is expected to take (SG battles rarely pass a few dozen).
LONGEST_DAYS = 28
MOST_TURNS = 40


def _days_between(value: int, what: str) -> str | None:
    return None if 1 <= value <= LONGEST_DAYS else f"{what} 1 to {LONGEST_DAYS} campaign days."


def _tactical_ruleset_problem(campaign: Campaign) -> str | None:
    try:
        engine_io.ruleset_for(campaign.tactical_ruleset)
    except KeyError:
        return f"There are no battle rules {campaign.tactical_ruleset!r}."
    return None


def _tactical_options_problem(campaign: Campaign) -> str | None:
    """The ruleset's own check of the campaign's options (resolve_options): a known option, an allowed value."""
    if not isinstance(campaign.tactical_options, dict) or _tactical_ruleset_problem(campaign):
        return None  # said on its own setting
    try:
        resolve_options(engine_io.ruleset_for(campaign.tactical_ruleset), campaign.tactical_options)
    except OptionError as error:
        return f"These options cannot be played: {error}"
    return None


# Checks of settings, some of which only make sense together: (the settings involved, the one the problem is shown
# on, the check).
# The model's own constraints are here too, so that a refusal names the setting in words.
_TOGETHER: tuple[tuple[frozenset[str], str, Callable[[Campaign], str | None]], ...] = (
    (
        frozenset({"hours_per_day"}),
        "hours_per_day",
        lambda c: (
            None
            if 1 <= c.hours_per_day <= LONGEST_HOURS
            else f"A campaign day lasts from an hour to {LONGEST_HOURS:,} (a year)."
        ),
    ),
    (
        frozenset({"auction_days"}),
        "auction_days",
        lambda c: _days_between(c.auction_days, "An auction runs from"),
    ),
    (
        frozenset({"trek_days_per_roll"}),
        "trek_days_per_roll",
        lambda c: _days_between(c.trek_days_per_roll, "An epic trek rolls once every"),
    ),
    (
        frozenset({"encounter_battle_days"}),
        "encounter_battle_days",
        lambda c: _days_between(c.encounter_battle_days, "An encounter's battle is fought within"),
    ),
    (
        frozenset({"encounter_battle_turns"}),
        "encounter_battle_turns",
        lambda c: (
            None
            if 1 <= c.encounter_battle_turns <= MOST_TURNS
            else f"An encounter's battle is expected to take from 1 to {MOST_TURNS} turns."
        ),
    ),
    (
        frozenset({"merchant_cargo_fraction"}),
        "merchant_cargo_fraction",
        lambda c: None if 0 <= c.merchant_cargo_fraction <= 1 else "A fraction of the tonnage, from 0 to 1.",
    ),
    (
        frozenset({"winner_by", "money_goal"}),
        "money_goal",
        lambda c: (
            "A money goal is needed to win by reaching it." if c.winner_by == "goal" and c.money_goal is None else None
        ),
    ),
    (
        # strategic_map.calendar: orders are due this many hours into the day, so no later than its end.
        frozenset({"hours_per_day", "order_deadline_hours"}),
        "order_deadline_hours",
        lambda c: (
            f"Orders are due within the day: at most {c.hours_per_day} hours into it."
            if c.order_deadline_hours > c.hours_per_day
            else None
        ),
    ),
    (
        frozenset({"tactical_options"}),
        "tactical_options",
        lambda c: None if isinstance(c.tactical_options, dict) else "The tactical options are a JSON object ({}).",
    ),
    (frozenset({"tactical_ruleset"}), "tactical_ruleset", _tactical_ruleset_problem),
    (frozenset({"tactical_ruleset", "tactical_options"}), "tactical_options", _tactical_options_problem),
)


def settings_problems(campaign: Campaign, changed: Iterable[str] = SETTINGS) -> dict[str, str]:
    """What is wrong with settings that go together, for the checks that involve a setting in ``changed`` (so an
    old campaign is not refused an unrelated change); setting -> the problem in words."""
    changed = set(changed)
    problems: dict[str, str] = {}
    for involved, field, check in _TOGETHER:
        if involved & changed and (problem := check(campaign)):
            problems[field] = problem
    return problems


@transaction.atomic
def campaign_update_settings(*, campaign_id: int, umpire: User, changes: dict[str, Any], reason: str) -> Campaign:
    """Apply ``changes`` (setting -> new value) to the campaign; each is validated by the model's own fields."""
    campaign = locks.campaign(campaign_id)  # the first lock, as campaign.locks orders them
    if not Membership.objects.filter(campaign=campaign, user=umpire, role=Role.UMPIRE).exists():
        raise PermissionDenied("Only the campaign's umpire may change its settings.")
    reason = " ".join(reason.split())[:300]
    if not reason:
        raise ValidationError({"reason": "Give a reason: the umpire's changes are audited."})
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise ValidationError({"settings": f"Not settings the umpire changes here: {', '.join(unknown)}."})
    before = {key: _plain(getattr(campaign, key)) for key in changes}
    for key, value in changes.items():
        setattr(campaign, key, value)
    campaign.full_clean(exclude=[f.name for f in Campaign._meta.fields if f.name not in changes])
    changed = {key: _plain(getattr(campaign, key)) for key in changes if _plain(getattr(campaign, key)) != before[key]}
    if not changed:
        return campaign
    problems = settings_problems(campaign, changed)
    if problems:
        raise ValidationError(problems)
    campaign.save(update_fields=list(changed))
    AuditEntry.objects.create(
        campaign=campaign,
        actor=umpire,
        action="settings changed",
        reason=reason,
        data={"before": {k: before[k] for k in changed}, "after": changed},
    )
    return campaign
