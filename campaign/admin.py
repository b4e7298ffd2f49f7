"""Django admin for staff: campaigns with their members and invitation links."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from campaign.models import (
    Auction,
    AuditEntry,
    Bid,
    Campaign,
    CampaignRoll,
    CampaignShip,
    Captain,
    ChronicleEntry,
    Invitation,
    LedgerEntry,
    Membership,
    VoyageExperience,
)


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
    list_display = ("name", "slug", "day", "created_by", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created_by", "created_at", "day")
    inlines = (MembershipInline, InvitationInline)
    fieldsets = (
        (None, {"fields": ("name", "slug", "description", "webhook_url", "created_by", "created_at")}),
        ("Calendar", {"fields": ("day", "hours_per_day", "order_deadline_hours")}),
        ("Battles", {"fields": ("tactical_ruleset", "tactical_options")}),
        ("Auctions and prizes", {"fields": ("auction_style", "auction_days", "merchant_cargo_fraction")}),
        (
            "Encounters and treks",
            {
                "fields": (
                    "holdback_voyages",
                    "encounter_battle_days",
                    "encounter_battle_turns",
                    "trek_days_per_roll",
                )
            },
        ),
        ("Winning", {"fields": ("winner_by", "time_limit_weeks", "money_goal", "rank_dead_below_living")}),
        (
            "Starting out",
            {
                "fields": (
                    "starting_advance",
                    "advance_is_loan",
                    "starting_quality",
                    "starting_yard",
                    "recruit_cost_per_man",
                    "new_captain_after_death",
                )
            },
        ),
    )

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


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Money, dice and the audit are written by the services alone: the admin shows them, never edits them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Captain)
class CaptainAdmin(admin.ModelAdmin[Captain]):
    """Names and cities may be corrected here; money and status change through the captain's page (or the API),
    where the umpire gives a reason and the change is audited."""

    list_display = ("name", "campaign", "player", "status", "city", "balance", "fame_weeks", "voyages")
    list_filter = ("status", "campaign")
    search_fields = ("name", "player__username", "campaign__name")
    readonly_fields = ("campaign", "player", "status", "balance", "advance_owed", "fame_weeks", "voyages", "created_at")
    list_select_related = ("campaign", "player")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a captain is founded by his player, with the advance entered in the ledger


@admin.register(CampaignShip)
class CampaignShipAdmin(admin.ModelAdmin[CampaignShip]):
    list_display = ("name", "campaign", "captain", "class_id", "status", "city", "crew_quality", "coal_days")
    list_filter = ("status", "crew_quality", "campaign")
    search_fields = ("name", "class_id", "captain__name")
    readonly_fields = (
        "campaign",
        "captain",
        "class_id",
        "design",
        "record",
        "yard",
        "original_price",
        "hull_price",
        "original_crew",
        "captured_by",
        "created_at",
    )
    list_select_related = ("campaign", "captain")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # ships are bought at the yard or taken as prizes


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("captain", "day", "kind", "amount", "balance_after", "memo", "reason", "created_at")
    list_filter = ("kind",)
    search_fields = ("captain__name", "memo", "reason")
    list_select_related = ("captain",)


@admin.register(Auction)
class AuctionAdmin(ReadOnlyAdmin):
    list_display = ("ship", "lot", "campaign", "reserve", "style", "status", "closes_on_day", "winner", "price")
    list_filter = ("status", "lot", "style")
    list_select_related = ("ship", "campaign", "winner")


@admin.register(Bid)
class BidAdmin(ReadOnlyAdmin):
    list_display = ("auction", "captain", "amount", "status", "created_at")
    list_filter = ("status",)
    list_select_related = ("auction__ship", "captain")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "actor", "action", "captain", "reason", "created_at")
    list_filter = ("action",)
    search_fields = ("reason", "captain__name")
    list_select_related = ("campaign", "actor", "captain")


@admin.register(ChronicleEntry)
class ChronicleEntryAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "day", "kind", "text", "created_at")
    list_filter = ("kind",)


@admin.register(CampaignRoll)
class CampaignRollAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "seq", "day", "purpose", "sides", "result", "captain")
    search_fields = ("purpose",)
    list_select_related = ("campaign", "captain")


@admin.register(VoyageExperience)
class VoyageExperienceAdmin(ReadOnlyAdmin):
    list_display = ("ship", "voyage_key", "prize", "losses", "threshold", "quality_before", "quality_after")
    list_select_related = ("ship",)
