"""Pages: the campaign home, a campaign, the umpire's invitations, and joining by invitation.

Thin: parse, call one selector or service, render. Every campaign lookup goes through a selector that
filters by the requesting user, so a non-member gets 404 whatever the URL.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import InvitationRegistrationForm
from accounts.models import User
from battles import engine_io
from battles.forms import add_option_fields, check_options, chosen_options
from campaign.captain_selectors import captains_for_user, commission_for
from campaign.captain_views import SettingsForm
from campaign.models import Campaign, Invitation, Membership, Role
from campaign.notifications import notifications_mark_read
from campaign.refusals import refusal_words
from campaign.selectors import (
    battle_rules,
    campaign_invitations,
    campaign_members,
    invitation_by_token,
    invitation_status,
    membership_for_user,
    membership_of,
    memberships_for_user,
    notifications_for_user,
)
from campaign.services import (
    INVITATION_MAX_DAYS,
    INVITATION_MAX_USES_LIMIT,
    InvitationClosedError,
    campaign_create,
    invitation_accept,
    invitation_closed_reason,
    invitation_create,
    invitation_revoke,
    membership_remove,
    membership_set_role,
    user_register_with_invitation,
)
from campaign.settings_service import SETTINGS

# Registration signs the new user in straight away; with django-axes in AUTHENTICATION_BACKENDS, login()
# must be told which backend vouches for the user.
SIGN_IN_BACKEND = "django.contrib.auth.backends.ModelBackend"


class InvitationCreateForm(forms.Form):
    role = forms.ChoiceField(label="Joins as", choices=Role.choices, initial=Role.PLAYER)
    max_uses = forms.IntegerField(
        label="Uses allowed",
        min_value=1,
        max_value=INVITATION_MAX_USES_LIMIT,
        initial=1,
    )
    expires_in_days = forms.IntegerField(
        label="Valid for (days)", min_value=1, max_value=INVITATION_MAX_DAYS, initial=14
    )


# The "New campaign" page's sections. A setting not named here (a new one) still shows, under "Other settings".
CREATE_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The campaign", ("name", "description")),
    ("The calendar", ("hours_per_day", "order_deadline_hours", "hold_calendar")),
    (
        "Starting out",
        (
            "starting_advance",
            "advance_is_loan",
            "starting_quality",
            "starting_yard",
            "recruit_cost_per_man",
            "new_captain_after_death",
        ),
    ),
    (
        "Encounters and battles",
        (
            "encounter_control",
            "holdback_voyages",
            "encounter_battle_days",
            "encounter_battle_turns",
            "trek_losses",
            "trek_days_per_roll",
        ),
    ),
    # The ruleset, then its own options (a field each, reloaded with HTMX when the ruleset changes).
    ("The battle rules", ("tactical_ruleset",)),
    ("Auctions and prizes", ("auction_style", "auction_days", "merchant_cargo_fraction")),
    ("Winning", ("winner_by", "time_limit_weeks", "money_goal", "rank_dead_below_living")),
    ("The club's chat", ("webhook_url",)),
)


BATTLE_RULES = "The battle rules"
TACTICAL_PREFIX = "tactical_option_"


class CampaignCreateForm(SettingsForm):
    """The umpire's settings form (every setting the settings page has, with the rules' defaults), less the reason
    (a new campaign has nothing to change), plus whether the calendar waits for the umpire. The battle rules are
    chosen among the rulesets that can fight a campaign's encounters (those with a campaign bridge; the default
    settings.DEFAULT_RULESET), their options a field each."""

    hold_calendar = forms.BooleanField(
        label="Hold the calendar until I start it from the umpire's desk",
        required=False,
        initial=True,
        help_text="Players join, found captains, buy ships and plan voyages meanwhile; no day ticks until you "
        "resume the campaign (or run a day) from the desk. Unticked, day 1 ticks one campaign day from now.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, instance=Campaign(), **kwargs)
        del self.fields["reason"]
        self.fields["name"].help_text = "Its address is made from the name."
        self.fields["description"].widget.attrs["rows"] = 3
        del self.fields["tactical_options"]  # a field per option instead
        self._tactical_fields()

    def _tactical_fields(self) -> None:
        offered = {rs.key: rs for rs in engine_io.campaign_rulesets()}
        given = self.data.get("tactical_ruleset") if self.is_bound else self.initial.get("tactical_ruleset")
        key = next((k for k in (given, django_settings.DEFAULT_RULESET, *offered) if k in offered), "")
        self.tactical = offered.get(key)
        self.initial["tactical_ruleset"] = key  # over the model's default, which may not be on offer
        self.fields["tactical_ruleset"] = forms.ChoiceField(
            label="Battle rules",
            choices=[(k, rs.title or k) for k, rs in offered.items()],
            initial=key,
            help_text="The rules the campaign's encounters are fought under: only rules that can fight a "
            "campaign's battles are offered.",
            widget=forms.Select(attrs={"hx-get": reverse("campaign_new_tactical"), "hx-target": "#tactical-options"}),
        )
        self.tactical_keys = (
            add_option_fields(self, self.tactical, {}, TACTICAL_PREFIX) if self.tactical is not None else []
        )

    def tactical_option_fields(self) -> list[forms.BoundField]:
        return [self[TACTICAL_PREFIX + key] for key in self.tactical_keys]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # Kept apart from cleaned_data: the model form would look for a field of that name to fill it from.
        self.tactical_options: dict[str, Any] = {}
        if self.tactical is not None and not any(name.startswith(TACTICAL_PREFIX) for name in self.errors):
            self.tactical_options = chosen_options(self, self.tactical, self.tactical_keys, TACTICAL_PREFIX)
            check_options(self, self.tactical, self.tactical_options)
        return cleaned

    def settings(self) -> dict[str, Any]:
        """The settings chosen, for campaign_create (the name and description go to it by name)."""
        chosen = {key: self.cleaned_data[key] for key in SETTINGS if key in self.cleaned_data}
        chosen["tactical_options"] = self.tactical_options
        return {key: value for key, value in chosen.items() if key not in {"name", "description"}}

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        named = {key for _, keys in CREATE_SECTIONS for key in keys} | {f.name for f in self.tactical_option_fields()}
        sections = [(title, [self[key] for key in keys if key in self.fields]) for title, keys in CREATE_SECTIONS]
        sections = [
            (title, fields + self.tactical_option_fields() if title == BATTLE_RULES else fields)
            for title, fields in sections
        ]
        others = [self[key] for key in self.fields if key not in named]
        if others:
            sections.append(("Other settings", others))
        return [(title, fields) for title, fields in sections if fields]


class MemberChangeForm(forms.Form):
    """The umpire's change to a member: a role, or out of the campaign (campaign.services.membership_*)."""

    member = forms.TypedChoiceField(coerce=int, label="Member")
    change = forms.ChoiceField(
        label="Change",
        choices=[
            (Role.PLAYER, "Make a player"),
            (Role.UMPIRE, "Make an umpire"),
            ("remove", "Take out of the campaign"),
        ],
    )
    reason = forms.CharField(max_length=300, help_text="Why: the change is entered in the audit.")

    def __init__(self, *args: Any, members: list[Membership], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["member"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(m.pk, f"{m.user.public_name} ({m.get_role_display()})") for m in members]


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _user(request: HttpRequest) -> User:
    # login_required has run: the user is a real account, not AnonymousUser.
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Sign in first.")
    return user


def _invitations_context(membership: Membership, form: InvitationCreateForm | None = None) -> dict[str, object]:
    invitations = campaign_invitations(campaign=membership.campaign)
    return {
        "campaign": membership.campaign,
        "invitation_rows": [(invitation, invitation_status(invitation)) for invitation in invitations],
        "invitation_form": form or InvitationCreateForm(),
    }


def _detail_context(membership: Membership, form: InvitationCreateForm | None = None) -> dict[str, object]:
    members = list(campaign_members(campaign=membership.campaign))
    context: dict[str, object] = {
        "campaign": membership.campaign,
        "membership": membership,
        "members": members,
        "captains": captains_for_user(user=membership.user, campaign=membership.campaign),
        "battle_rules": battle_rules(membership.campaign),
        # SGC-START-14: the form to found a captain only when the player may; else why not.
        "commission": commission_for(campaign=membership.campaign, user=membership.user, role=membership.role),
    }
    if membership.is_umpire:  # players never see invitation links, nor the form that changes the members
        context.update(_invitations_context(membership, form))
        context["member_form"] = MemberChangeForm(members=members)
    return context


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    memberships = memberships_for_user(user=_user(request))
    return render(request, "campaign/home.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Any signed-in user starts a campaign here and becomes its umpire."""
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                campaign = campaign_create(
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    created_by=_user(request),
                    campaign_settings=form.settings(),
                    hold_calendar=form.cleaned_data["hold_calendar"],
                )
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, problems)
            else:
                messages.success(
                    request,
                    f"{campaign.name} is founded and you are its umpire. Invite your players with a link below.",
                )
                return redirect("campaign_detail", slug=campaign.slug)
        return render(request, "campaign/new.html", {"form": form}, status=422)
    return render(request, "campaign/new.html", {"form": form})


@login_required
@require_GET
def campaign_new_tactical(request: HttpRequest) -> HttpResponse:
    """HTMX: the options of the battle rules chosen on the "New campaign" page."""
    form = CampaignCreateForm(initial={"tactical_ruleset": request.GET.get("tactical_ruleset", "")})
    return render(request, "campaign/_tactical_options.html", {"form": form})


@login_required
@require_GET
def campaign_detail(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for_user(user=_user(request), slug=slug)
    return render(request, "campaign/detail.html", _detail_context(membership))


def _umpire_membership(
    request: HttpRequest, slug: str, refusal: str = "Only the umpire manages invitations."
) -> Membership:
    membership = membership_for_user(user=_user(request), slug=slug)
    if not membership.is_umpire:
        raise PermissionDenied(refusal)
    return membership


@login_required
@require_POST
def member_change_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The umpire makes a member a player or an umpire, or takes him out of the campaign; back to the campaign's
    page with what happened, or why not, in words."""
    membership = _umpire_membership(request, slug, "Only the umpire manages the campaign's members.")
    form = MemberChangeForm(request.POST, members=list(campaign_members(campaign=membership.campaign)))
    if not form.is_valid():
        messages.error(request, "Choose a member and a change, and give a reason.")
        return redirect(reverse("campaign_detail", kwargs={"slug": slug}) + "#members-heading")
    data = form.cleaned_data
    try:
        if data["change"] == "remove":
            membership_remove(
                campaign_id=membership.campaign_id,
                umpire=_user(request),
                membership_id=data["member"],
                reason=data["reason"],
            )
            done = "The member is out of the campaign."
        else:
            member = membership_set_role(
                campaign_id=membership.campaign_id,
                umpire=_user(request),
                membership_id=data["member"],
                role=data["change"],
                reason=data["reason"],
            )
            done = f"{member.user.public_name} is {member.get_role_display().lower()} of the campaign now."
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, done)
        if data["change"] == "remove" and data["member"] == membership.pk:
            return redirect("home")  # the umpire took himself out: the campaign's page is no longer his to open
    return redirect(reverse("campaign_detail", kwargs={"slug": slug}) + "#members-heading")


def _invitations_response(
    request: HttpRequest, membership: Membership, form: InvitationCreateForm | None, status: int
) -> HttpResponse:
    """HTMX gets the invitations panel to swap in; a plain form post goes back to the campaign page."""
    if _is_htmx(request):
        return render(request, "campaign/_invitations.html", _invitations_context(membership, form), status=status)
    if status >= 400:
        return render(request, "campaign/detail.html", _detail_context(membership, form), status=status)
    return redirect("campaign_detail", slug=membership.campaign.slug)


@login_required
@require_POST
def invitation_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _umpire_membership(request, slug)
    form = InvitationCreateForm(request.POST)
    if form.is_valid():
        try:
            invitation_create(
                campaign=membership.campaign,
                created_by=_user(request),
                role=form.cleaned_data["role"],
                max_uses=form.cleaned_data["max_uses"],
                expires_at=timezone.now() + timedelta(days=form.cleaned_data["expires_in_days"]),
            )
        except ValidationError as exc:
            form.add_error(None, exc.messages)
        else:
            if not _is_htmx(request):  # HTMX shows the new link in place; a flash would turn up a page later
                messages.success(request, "Invitation link created.")
            return _invitations_response(request, membership, None, status=200)
    return _invitations_response(request, membership, form, status=422)


@login_required
@require_POST
def invitation_revoke_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    membership = _umpire_membership(request, slug)
    invitation = campaign_invitations(campaign=membership.campaign).filter(pk=pk).first()
    if invitation is None:
        return render(request, "campaign/error.html", {"message": "No such invitation."}, status=404)
    invitation_revoke(invitation=invitation, revoked_by=_user(request))
    if not _is_htmx(request):
        messages.info(request, "Invitation withdrawn: the link no longer works.")
    return _invitations_response(request, membership, None, status=200)


def _closed(request: HttpRequest, invitation: Invitation, reason: str) -> HttpResponse:
    # 410 Gone: the link was real but will not work again; the page says why and what to do.
    return render(request, "campaign/join_closed.html", {"invitation": invitation, "reason": reason}, status=410)


def _add_service_errors(form: forms.BaseForm, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict") and set(exc.error_dict) <= set(form.fields):
        form.add_error(None, exc)
    else:
        form.add_error(None, exc.messages)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link. Anonymous visitors register; signed-in users confirm; closed links say why."""
    invitation = invitation_by_token(token=token)
    reason = invitation_closed_reason(invitation)
    if reason:
        return _closed(request, invitation, reason)

    if request.user.is_authenticated:
        user = _user(request)
        existing = membership_of(campaign=invitation.campaign, user=user)
        if request.method == "POST":
            try:
                membership, created = invitation_accept(token=token, user=user)
            except InvitationClosedError as exc:
                return _closed(request, invitation, str(exc))
            if created:
                messages.success(
                    request,
                    f"Welcome aboard: you joined {membership.campaign} as {membership.get_role_display()}.",
                )
            else:
                messages.info(request, f"You are already in {membership.campaign}.")
            return redirect("campaign_detail", slug=membership.campaign.slug)
        return render(request, "campaign/join_confirm.html", {"invitation": invitation, "existing": existing})

    form = InvitationRegistrationForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                membership = user_register_with_invitation(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                    email=form.cleaned_data["email"],
                    display_name=form.cleaned_data["display_name"],
                )
            except InvitationClosedError as exc:
                return _closed(request, invitation, str(exc))
            except ValidationError as exc:
                _add_service_errors(form, exc)
            else:
                login(request, membership.user, backend=SIGN_IN_BACKEND)
                messages.success(
                    request,
                    f"Welcome aboard, {membership.user}: you joined {membership.campaign} as "
                    f"{membership.get_role_display()}.",
                )
                return redirect("campaign_detail", slug=membership.campaign.slug)
        status = 400
    return render(request, "campaign/join_register.html", {"invitation": invitation, "form": form}, status=status)


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    notifications = notifications_for_user(user=_user(request))[:100]
    return render(request, "campaign/notifications.html", {"notifications": notifications})


@login_required
@require_POST
def notification_read(request: HttpRequest) -> HttpResponse:
    """Mark one notification read (``id``) or all, then follow it (``next``) or go back to the list."""
    raw = request.POST.get("id", "")
    ids = [int(raw)] if raw.isdigit() else None
    notifications_mark_read(user=_user(request), ids=ids)
    target = request.POST.get("next", "")
    if target.startswith("/") and not target.startswith("//"):
        return redirect(target)
    return redirect("notification_list")
