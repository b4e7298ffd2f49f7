"""Django admin for staff: campaigns with their members and invitation links."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from campaign.models import Campaign, Invitation, Membership


class MembershipInline(admin.TabularInline[Membership, Campaign]):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)
    fields = ("user", "role", "joined_at")


class InvitationInline(admin.TabularInline[Invitation, Campaign]):
    model = Invitation
    extra = 0
    fields = ("token", "role", "max_uses", "uses", "expires_at", "revoked", "created_by", "created_at")
    # The token is generated, and uses are counted by the service that consumes them.
    readonly_fields = ("token", "uses", "created_by", "created_at")


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ("name", "slug", "created_by", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created_by", "created_at")
    inlines = (MembershipInline, InvitationInline)

    def save_model(self, request: HttpRequest, obj: Campaign, form: ModelForm[Campaign], change: bool) -> None:
        # Staff who create a campaign here own it, as campaign_create would make them.
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    def save_formset(
        self,
        request: HttpRequest,
        form: ModelForm[Campaign],
        formset: BaseInlineFormSet[Any, Campaign, Any],
        change: bool,
    ) -> None:
        # An invitation added inline is sent by whoever added it.
        for instance in formset.save(commit=False):
            if isinstance(instance, Invitation) and instance.created_by_id is None:
                instance.created_by = request.user
            instance.save()
        for deleted in formset.deleted_objects:
            deleted.delete()
        formset.save_m2m()
