"""The umpire's desk page and its forms. Thin: a selector reads, a form checks the fields, a service writes
(strategic_map.desk), and the service's refusal comes back in its own words. A player of the campaign is told by
every desk URL that it is the umpire's page (403); a stranger gets 404, as if there were no such campaign."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from campaign import auction_selectors
from campaign.models import Captain, Membership
from campaign.refusals import refusal_words
from strategic_map import desk, desk_selectors, map_selectors, mapdata

NUMBER_WORDS = "A number is a die's face, 1 to 6, or empty for no roll."


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


def _reason_field() -> forms.CharField:
    return forms.CharField(max_length=300, help_text="Why: the change is entered in the audit.")


class ReasonForm(forms.Form):
    reason = _reason_field()


class DayRunForm(forms.Form):
    # The day the umpire saw as next: a resent form finds it run and runs nothing more.
    day = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = _reason_field()


class ExtensionForm(forms.Form):
    captain = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, help_text="One captain, or everyone."
    )
    until = forms.DateTimeField(
        label="Orders due by",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="UTC.",
    )
    reason = _reason_field()

    def __init__(self, *args: Any, captains: list[Captain], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["captain"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "Everyone"), *((c.pk, f"Captain {c.name} ({c.player.public_name})") for c in captains)]


def _number_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=1,
        max_value=6,
        error_messages={"min_value": NUMBER_WORDS, "max_value": NUMBER_WORDS, "invalid": NUMBER_WORDS},
    )


class TerritoryNumbersForm(forms.Form):
    territory = forms.ChoiceField(choices=())
    move_through = _number_field("Moving through")
    patrol = _number_field("Patrolling")
    reason = _reason_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["territory"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(name, name) for name in mapdata.mars_map().territories]


class TrekCellForm(forms.Form):
    allegiance = forms.ChoiceField(choices=())
    row = forms.ChoiceField(choices=())
    die = forms.IntegerField(min_value=1, max_value=6, error_messages={"min_value": "1 to 6.", "max_value": "1 to 6."})
    code = forms.CharField(max_length=8, help_text=desk.TREK_CODES)
    reason = _reason_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table = mapdata.mars_map().epic_trek_table.table
        allegiance, row = self.fields["allegiance"], self.fields["row"]
        assert isinstance(allegiance, forms.ChoiceField)
        assert isinstance(row, forms.ChoiceField)
        allegiance.choices = [(name, name.title()) for name in table]
        row.choices = [(name, name.replace("_", " ")) for name in next(iter(table.values()))]


def trek_cell_name(allegiance: str, row: str, die: int) -> str:
    """The grid's input for one cell of the trek table."""
    return f"trek-{allegiance}-{row}-{die}"


class TrekTableForm(forms.Form):
    """The whole grid: one short text field per cell (the codes themselves are the service's to check)."""

    reason = _reason_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for allegiance, rows in mapdata.mars_map().epic_trek_table.table.items():
            for row in rows:
                for die in range(1, 7):
                    self.fields[trek_cell_name(allegiance, row, die)] = forms.CharField(max_length=8)

    def table(self) -> dict[str, dict[str, list[str]]]:
        reference = mapdata.mars_map().epic_trek_table.table
        return {
            allegiance: {
                row: [self.cleaned_data[trek_cell_name(allegiance, row, die)] for die in range(1, 7)] for row in rows
            }
            for allegiance, rows in reference.items()
        }


@login_required
@require_GET
def desk_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = desk_selectors.desk_membership(user=_user(request), slug=slug)
    campaign = membership.campaign
    captains = desk_selectors.campaign_captains(campaign=campaign)
    encounters = desk_selectors.open_encounters(campaign=campaign)
    context = {
        "campaign": campaign,
        "membership": membership,
        "calendar": desk_selectors.desk_calendar(campaign=campaign),
        # The umpire's map: every ship, route, encounter and trek (map_selectors decides, with his membership);
        # strategic_map.drawing escapes every name it writes.
        "map_svg": mark_safe(map_selectors.map_svg(map_selectors.map_sight_for(membership=membership))),
        "ships": desk_selectors.ships_at_sea(campaign=campaign),
        "encounters": encounters,
        # The encounter battles still being fought, each ending with its window (strategic_map.encounter_clock).
        "clocked": [encounter for encounter in encounters if encounter.battle_on_clock],
        "battles": desk_selectors.open_battles(campaign=campaign),
        "treks": desk_selectors.treks_under_way(campaign=campaign),
        "auctions": auction_selectors.auctions_for_member(user=_user(request), campaign=campaign, open_only=True),
        "audit": desk_selectors.audit_log(campaign=campaign),
        "rolls": desk_selectors.dice_log(campaign=campaign),
        "rules": desk_selectors.map_rules_view(campaign=campaign),
        "reason_form": ReasonForm(),
        "extension_form": ExtensionForm(captains=captains),
        "territory_form": TerritoryNumbersForm(),
        "trek_cell_form": TrekCellForm(),
        "trek_codes": desk.TREK_CODES,
        "faces": desk.DIE_FACES,
    }
    return render(request, "strategic_map/desk.html", context)


def _form_words(form: forms.Form) -> str:
    """The form's problems in a line, each after the field's name ("Patrolling: A number is ...")."""
    parts = []
    for field, problems in form.errors.items():
        words = " ".join(str(problem) for problem in problems)
        if field in form.fields:
            label = form.fields[field].label or field.replace("_", " ").replace("-", " ").capitalize()
            words = f"{label}: {words}"
        parts.append(words)
    return " ".join(parts)


def _desk_post(
    request: HttpRequest,
    slug: str,
    form: forms.Form,
    change: Callable[[Membership, dict[str, Any]], str],
    anchor: str,
) -> HttpResponse:
    """One of the desk's forms: 403 to a player, 404 to a stranger, the form's fields checked, the service called,
    and back to the desk with what happened (or why not) in words."""
    membership = desk_selectors.desk_membership(user=_user(request), slug=slug)
    if not form.is_valid():
        messages.error(request, _form_words(form))
    else:
        try:
            done = change(membership, form.cleaned_data)
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, refusal_words(error))
        else:
            messages.success(request, done)
    return redirect(reverse("campaign_desk", kwargs={"slug": slug}) + f"#{anchor}")


@login_required
@require_POST
def desk_pause(request: HttpRequest, slug: str) -> HttpResponse:
    def change(membership: Membership, data: dict[str, Any]) -> str:
        desk.campaign_pause(campaign_id=membership.campaign_id, umpire=_user(request), reason=data["reason"])
        return "The campaign is paused: no day ticks until you resume it."

    return _desk_post(request, slug, ReasonForm(request.POST), change, "calendar")


@login_required
@require_POST
def desk_resume(request: HttpRequest, slug: str) -> HttpResponse:
    def change(membership: Membership, data: dict[str, Any]) -> str:
        campaign = desk.campaign_resume(
            campaign_id=membership.campaign_id, umpire=_user(request), reason=data["reason"]
        )
        when = f"{campaign.next_tick_at:%d %b %Y %H:%M} UTC" if campaign.next_tick_at else "when you run it"
        return f"The campaign runs again: the next day ticks {when}."

    return _desk_post(request, slug, ReasonForm(request.POST), change, "calendar")


@login_required
@require_POST
def desk_extend(request: HttpRequest, slug: str) -> HttpResponse:
    membership = desk_selectors.desk_membership(user=_user(request), slug=slug)
    form = ExtensionForm(request.POST, captains=desk_selectors.campaign_captains(campaign=membership.campaign))

    def change(membership: Membership, data: dict[str, Any]) -> str:
        extension = desk.order_extension_grant(
            campaign_id=membership.campaign_id,
            umpire=_user(request),
            captain_id=data["captain"],
            until=data["until"],
            reason=data["reason"],
        )
        who = f"Captain {extension.captain.name}" if extension.captain is not None else "Everyone"
        return f"{who} may send orders for day {extension.day} until {extension.until:%d %b %Y %H:%M} UTC."

    return _desk_post(request, slug, form, change, "calendar")


@login_required
@require_POST
def desk_run_day(request: HttpRequest, slug: str) -> HttpResponse:
    def change(membership: Membership, data: dict[str, Any]) -> str:
        days = desk.day_run_now(
            campaign_id=membership.campaign_id, umpire=_user(request), reason=data["reason"], day=data["day"]
        )
        if not days:
            return f"Day {data['day']} has run already: nothing more was run."
        return f"Day {days[-1]} has run." if len(days) == 1 else f"Days {days[0]} to {days[-1]} have run."

    return _desk_post(request, slug, DayRunForm(request.POST), change, "calendar")


@login_required
@require_POST
def desk_territory_numbers(request: HttpRequest, slug: str) -> HttpResponse:
    def change(membership: Membership, data: dict[str, Any]) -> str:
        desk.territory_numbers_set(
            campaign_id=membership.campaign_id,
            umpire=_user(request),
            territory=data["territory"],
            move_through=data["move_through"],
            patrol=data["patrol"],
            reason=data["reason"],
        )

        def words(n: int | None) -> str:
            return "no roll" if n is None else f"{n} or less"

        return (
            f"{data['territory']}: an encounter on {words(data['move_through'])} moving through, "
            f"{words(data['patrol'])} patrolling."
        )

    return _desk_post(request, slug, TerritoryNumbersForm(request.POST), change, "territory-numbers")


@login_required
@require_POST
def desk_trek_cell(request: HttpRequest, slug: str) -> HttpResponse:
    def change(membership: Membership, data: dict[str, Any]) -> str:
        cell = desk.TrekCell(allegiance=data["allegiance"], row=data["row"], die=data["die"], code=data["code"])
        desk.trek_table_set(campaign_id=membership.campaign_id, umpire=_user(request), reason=data["reason"], cell=cell)
        row = cell.row.replace("_", " ")
        return f"The trek table's {cell.allegiance} {row} row reads {desk.trek_code(cell.code)} on a {cell.die}."

    return _desk_post(request, slug, TrekCellForm(request.POST), change, "trek-table")


@login_required
@require_POST
def desk_trek_table(request: HttpRequest, slug: str) -> HttpResponse:
    form = TrekTableForm(request.POST)

    def change(membership: Membership, data: dict[str, Any]) -> str:
        desk.trek_table_set(
            campaign_id=membership.campaign_id, umpire=_user(request), reason=data["reason"], table=form.table()
        )
        return "The trek table is saved."

    return _desk_post(request, slug, form, change, "trek-table")
