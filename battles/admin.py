"""Admin for the ship and weapon reference tables: read-only, with what is stated and what is not."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from battles.models import ShipClass, WeaponType


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
