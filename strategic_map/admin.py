"""Admin for the map reference tables: read-only (the data files are the source), provenance on show."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from strategic_map.models import City, MapHex, ReferenceRow, Territory


class ReferenceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """View only: edit the data files and run load_reference_data instead."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(boolean=True, description="stand-in", ordering="provenance")
    def stand_in(self, obj: ReferenceRow) -> bool:
        return obj.is_stand_in


@admin.register(Territory)
class TerritoryAdmin(ReferenceAdmin):
    list_display = ("name", "move_through", "patrol", "stand_in")
    list_filter = ("provenance",)
    search_fields = ("name",)


@admin.register(MapHex)
class MapHexAdmin(ReferenceAdmin):
    list_display = (
        "label",
        "col",
        "row",
        "q",
        "r",
        "terrain",
        "territory",
        "allegiance",
        "city_name",
        "canal_type",
        "stand_in",
    )
    list_filter = ("terrain", "territory", "allegiance", "british", "canal_type", "provenance")
    search_fields = ("label", "city_name", "site_name", "region")
    list_select_related = ("territory",)
    list_per_page = 100


@admin.register(City)
class CityAdmin(ReferenceAdmin):
    list_display = ("name", "hex", "owner", "is_start_city", "has_martian_yard", "optional", "stand_in")
    list_filter = ("owner", "has_martian_yard", "optional", "provenance")
    search_fields = ("name",)
    list_select_related = ("hex",)
