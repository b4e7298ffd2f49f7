"""Pages for captains and the campaign's standings: found a captain, a captain's page (his ships and his bank
statement), the leaderboard with the wealth chart, the chronicle and the winner. Thin: selectors read, services
write; another player's captain answers 404."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from battles import engine_io
from campaign import auction_selectors, captain_selectors, captains, settings_service, standings
from campaign.chart import wealth_chart_svg
from campaign.correction_views import CaptainRenameForm
from campaign.map_link import the_map
from campaign.models import Campaign, CaptainStatus
from campaign.refusals import refusal_words
from campaign.selectors import membership_for_user

LEDGER_ROWS = 200


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


class CaptainFoundForm(forms.Form):
    name = forms.CharField(max_length=80, label="Your captain's name")


class AdjustForm(forms.Form):
    amount = forms.IntegerField(label="Pounds (negative to take money out)")
    reason = forms.CharField(max_length=300)


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=CaptainStatus.choices)
    city = forms.CharField(max_length=60, required=False)
    reason = forms.CharField(max_length=300)


@login_required
@require_POST
def captain_found_view(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for_user(user=_user(request), slug=slug)
    form = CaptainFoundForm(request.POST)
    if form.is_valid():
        try:
            captain = captains.captain_found(
                campaign=membership.campaign, user=_user(request), name=form.cleaned_data["name"]
            )
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, refusal_words(error))
        else:
            messages.success(request, f"Captain {captain.name} holds a Red Captain's commission.")
            return redirect("captain_detail", pk=captain.pk)
    else:
        messages.error(request, "Give your captain a name.")
    return redirect("campaign_detail", slug=slug)


@login_required
@require_GET
def captain_detail(request: HttpRequest, pk: int) -> HttpResponse:
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    membership = membership_for_user(user=_user(request), slug=captain.campaign.slug)
    context = {
        "campaign": captain.campaign,
        "captain": captain,
        "membership": membership,
        "ships": captain_selectors.captain_ships(captain=captain),
        "ledger": captain_selectors.captain_ledger(captain=captain)[:LEDGER_ROWS],
        "escrow": auction_selectors.escrow_held(captain=captain),
        "trek": the_map().trek_under_way(captain.pk) if captain.status == CaptainStatus.TREKKING else None,
        "adjust_form": AdjustForm() if membership.is_umpire else None,
        "status_form": StatusForm(initial={"status": captain.status, "city": captain.city})
        if membership.is_umpire
        else None,
        "rename_form": CaptainRenameForm(initial={"name": captain.name}) if membership.is_umpire else None,
    }
    return render(request, "campaign/captain.html", context)


def _umpire_change(
    request: HttpRequest, pk: int, form: forms.Form, incomplete: str, change: Callable[..., object], done: str
) -> HttpResponse:
    """An umpire's audited change to a captain from his page: the form's fields go to the service as they are."""
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    if not form.is_valid():
        messages.error(request, incomplete)
        return redirect("captain_detail", pk=pk)
    try:
        change(captain_id=captain.pk, umpire=_user(request), **form.cleaned_data)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, done)
    return redirect("captain_detail", pk=pk)


@login_required
@require_POST
def captain_adjust_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _umpire_change(
        request,
        pk,
        AdjustForm(request.POST),
        "An adjustment needs a whole number of pounds and a reason.",
        captains.captain_adjust_money,
        "The adjustment is entered in the ledger and the audit.",
    )


@login_required
@require_POST
def captain_status_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _umpire_change(
        request,
        pk,
        StatusForm(request.POST),
        "A status change needs a status and a reason.",
        captains.captain_set_status,
        "The captain's status is changed and audited.",
    )


@login_required
@require_GET
def campaign_standings(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for_user(user=_user(request), slug=slug)
    campaign = membership.campaign
    context = {
        "campaign": campaign,
        "membership": membership,
        "board": standings.leaderboard(campaign=campaign),
        "ranked_by": standings.ranked_by(campaign),
        "chart": wealth_chart_svg(standings.wealth_over_time(campaign=campaign), today=campaign.day),
        "verdict": standings.winner(campaign=campaign),
        "chronicle": captain_selectors.chronicle(membership=membership)[:100],
    }
    return render(request, "campaign/standings.html", context)


CLOCK_LIMITS = {
    "auction_days": settings_service.LONGEST_DAYS,
    "trek_days_per_roll": settings_service.LONGEST_DAYS,
    "encounter_battle_days": settings_service.LONGEST_DAYS,
    "encounter_battle_turns": settings_service.MOST_TURNS,
}


class SettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    reason = forms.CharField(max_length=300, help_text="Why: the change is audited.")

    # Declared (not from the model field) so that a URL typed without a scheme means https.
    webhook_url = forms.URLField(required=False, assume_scheme="https", max_length=500)

    class Meta:
        model = Campaign
        fields = tuple(key for key in settings_service.SETTINGS if key != "webhook_url")
        # Words for the settings the model names only in code (shared with the "New campaign" page).
        labels = {
            "hours_per_day": "Real hours in a campaign day",
            "order_deadline_hours": "Orders due, hours into the day",
            "starting_advance": "Starting money, £ (the advance)",
            "encounter_control": "Who commands the ships met",
            "tactical_ruleset": "Battle rules",
            "tactical_options": "Tactical options",
            "auction_days": "Campaign days an auction runs",
            "trek_days_per_roll": "Campaign days between an epic trek's rolls",
            "encounter_battle_days": "Campaign days to fight an encounter's battle",
            "encounter_battle_turns": "Turns an encounter's battle is expected to take",
        }
        help_texts = {
            "hours_per_day": "From one day's tick to the next: 24 plays a day a day, 168 a day a week.",
            "order_deadline_hours": "Orders for the next day close this many hours into the day, before it ticks.",
            "starting_advance": "The colonial administration's advance to each new captain (£30,000 in the rules).",
            "tactical_options": "The battles' options as JSON; {} plays the rules as written.",
            "auction_days": "A prize's auction closes at the end of this many campaign days after she lands; "
            "then the highest bid buys her, or the crown at its reserve. From 1 to 28.",
            "trek_days_per_roll": "A captain walking home rolls on the trek table once a week in the rules: 7. "
            "Fewer days is a house rule, shown to the players. From 1 to 28.",
            "encounter_battle_days": "An encounter's battle must be fought within this many campaign days; "
            "the AI captains finish what is left. From 1 to 28.",
            "encounter_battle_turns": "How many turns such a battle is expected to take: each turn's deadline is "
            "the window shared out between them. From 1 to 40.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("webhook_url", self.instance.webhook_url)
        # The model's check constraints as the fields' own limits, so a refusal is shown on the field, in words.
        hours, fraction = self.fields["hours_per_day"], self.fields["merchant_cargo_fraction"]
        assert isinstance(hours, forms.IntegerField)
        assert isinstance(fraction, forms.DecimalField)
        hours.validators.append(MinValueValidator(1))
        hours.widget.attrs["min"] = 1
        fraction.validators.extend([MinValueValidator(0), MaxValueValidator(1)])
        fraction.widget.attrs.update(min=0, max=1)
        # The clock's settings: the browser's own limits; the service's checks say the same in words.
        for key, most in CLOCK_LIMITS.items():
            self.fields[key].widget.attrs.update(min=1, max=most)
        self._battle_rules()

    def _battle_rules(self) -> None:
        """The battle rules a choice of those that can fight a campaign's encounters (a campaign bridge), as on the
        "New campaign" page; the campaign's own kept on offer even if it has lost its bridge since."""
        offered = {rs.key: rs.title for rs in engine_io.campaign_rulesets()}
        current = self.instance.tactical_ruleset
        if current and current not in offered:
            offered[current] = current
        rules = self.fields["tactical_ruleset"]
        self.fields["tactical_ruleset"] = forms.ChoiceField(
            choices=list(offered.items()),
            label=rules.label,
            help_text="Every encounter battle from now on is fought under these rules (one already open keeps its "
            "own); set the options to suit them.",
        )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The umpire's settings page: every campaign setting, changed with a reason (audited)."""
    membership = membership_for_user(user=_user(request), slug=slug)
    if not membership.is_umpire:
        raise PermissionDenied("Only the umpire changes the campaign's settings.")
    campaign = membership.campaign
    if request.method == "POST":
        form = SettingsForm(request.POST, instance=Campaign.objects.get(pk=campaign.pk))
        if form.is_valid():
            changes = {key: form.cleaned_data[key] for key in settings_service.SETTINGS if key in form.changed_data}
            try:
                settings_service.campaign_update_settings(
                    campaign_id=campaign.pk, umpire=_user(request), changes=changes, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, problems)
            else:
                messages.success(request, "Settings saved and audited." if changes else "Nothing was changed.")
                return redirect("campaign_settings", slug=slug)
        return render(request, "campaign/settings.html", {"campaign": campaign, "form": form}, status=422)
    return render(request, "campaign/settings.html", {"campaign": campaign, "form": SettingsForm(instance=campaign)})
