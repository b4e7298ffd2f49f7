"""Admin for the ship and weapon reference tables: read-only, with what is stated and what is not."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from battles.models import Battle, BattleSide, Correction, Decision, ShipClass, WeaponType


class ReferenceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """View only: edit the data files and run load_reference_data instead."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ShipClass)
class ShipClassAdmin(ReferenceAdmin):
    list_display = (
        "name",
        "category",
        "data_status",
        "confidence",
        "stand_in",
        "hull_size",
        "speed",
        "max_altitude",
        "tonnage",
        "price",
    )
    list_filter = ("data_status", "confidence", "category", "yard_type")
    search_fields = ("name", "slug")

    @admin.display(boolean=True, description="stand-in", ordering="data_status")
    def stand_in(self, obj: ShipClass) -> bool:
        """Anything short of fully stated has reconstructed (designed) figures."""
        return not obj.is_stated


@admin.register(WeaponType)
class WeaponTypeAdmin(ReferenceAdmin):
    list_display = ("name", "slug", "category", "cost", "authoritative_source")
    list_filter = ("category", "authoritative_source")
    search_fields = ("name", "slug")


class BattleSideInline(admin.TabularInline):  # type: ignore[type-arg]
    model = BattleSide
    extra = 0
    fields = ("key", "name", "controller", "user", "left")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Battles for the umpire's overview. The log, the state and the dice seed are not shown or edited here:
    a battle changes only through the services (corrections leave an audit entry), and the seed stays secret
    until the end (the battle page publishes it then)."""

    list_display = (
        "title",
        "campaign",
        "mode",
        "status",
        "private",
        "turn",
        "phase",
        "deadline",
        "winner",
        "created_at",
    )
    list_filter = ("status", "mode", "private", "campaign")
    search_fields = ("title", "scenario_slug")
    fields = (
        "campaign",
        "title",
        "scenario_slug",
        "ruleset_key",
        "ruleset_version",
        "options",
        "mode",
        "status",
        "private",
        "turn",
        "phase",
        "deadline",
        "decision_hours",
        "deadline_default",
        "winner",
        "result_reason",
        "seed_commitment",
        "created_by",
        "created_at",
        "finished_at",
    )
    # Only the title: a deadline or a default changes a battle's course, so it goes through a service with a
    # reason like every other umpire override.
    readonly_fields = tuple(f for f in fields if f != "title")
    inlines = (BattleSideInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # battles start from the battle form or the API, through the services


@admin.register(Correction)
class CorrectionAdmin(ReferenceAdmin):
    list_display = ("battle", "request_id", "made_by", "reason", "created_at")


@admin.register(Decision)
class DecisionAdmin(ReferenceAdmin):
    """Every answer sent, read only: applied, set aside by a correction, or refused when it came to be applied
    (with the engine's reason). Corrections go through the battle's correction form."""

    list_display = ("battle", "request_id", "kind", "turn", "side", "source", "applied_seq", "refused", "created_at")
    list_filter = ("source", "kind")
    search_fields = ("battle__title", "request_id", "refused")
    list_select_related = ("battle", "side")
