"""The umpire's correction forms on a captain's page and a ship's page (campaign.corrections). Thin: the page's
selector decides who may open the captain or ship (404 otherwise), the form checks the fields, the service refuses
anyone but the umpire (403) and says why in words."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from campaign import captain_selectors, corrections
from campaign.models import CrewQuality
from campaign.refusals import refusal_words


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


class CaptainRenameForm(forms.Form):
    name = forms.CharField(max_length=80, label="His name")
    reason = forms.CharField(max_length=300, help_text="Why: the change is entered in the audit.")


class ShipCorrectForm(forms.Form):
    name = forms.CharField(max_length=80, label="Her name")
    crew_quality = forms.ChoiceField(choices=CrewQuality.choices, label="Her crew")
    reason = forms.CharField(max_length=300, help_text="Why: the change is entered in the audit.")


def _correct(request: HttpRequest, form: forms.Form, change: Callable[[], object], done: str) -> None:
    if not form.is_valid():
        messages.error(request, "A correction needs every field filled in and a reason.")
        return
    try:
        change()
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, done)


@login_required
@require_POST
def captain_rename_view(request: HttpRequest, pk: int) -> HttpResponse:
    captain = captain_selectors.captain_for_user(user=_user(request), captain_id=pk)
    form = CaptainRenameForm(request.POST)
    _correct(
        request,
        form,
        lambda: corrections.captain_rename(captain_id=captain.pk, umpire=_user(request), **form.cleaned_data),
        "The captain's name is corrected and audited.",
    )
    return redirect("captain_detail", pk=pk)


@login_required
@require_POST
def ship_correct_view(request: HttpRequest, pk: int) -> HttpResponse:
    ship = captain_selectors.ship_for_user(user=_user(request), ship_id=pk)
    form = ShipCorrectForm(request.POST)
    _correct(
        request,
        form,
        lambda: corrections.ship_correct(ship_id=ship.pk, umpire=_user(request), **form.cleaned_data),
        "The ship is corrected and audited.",
    )
    return redirect("ship_detail", pk=pk)
