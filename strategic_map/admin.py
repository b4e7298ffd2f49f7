"""Admin for the map reference tables: read-only (the data files are the source), provenance on show."""

from __future__ import annotations

from django.contrib import admin

from battles.admin import ReferenceAdmin
from strategic_map.models import City, MapHex, ReferenceRow, Territory


class MapReferenceAdmin(ReferenceAdmin):
    """The view-only reference admin, with the stand-in flag of the map's rows."""

    @admin.display(boolean=True, description="stand-in", ordering="provenance")
    def stand_in(self, obj: ReferenceRow) -> bool:
        return obj.is_stand_in


@admin.register(Territory)
class TerritoryAdmin(MapReferenceAdmin):
    list_display = ("name", "move_through", "patrol", "stand_in")
    list_filter = ("provenance",)
    search_fields = ("name",)


@admin.register(MapHex)
class MapHexAdmin(MapReferenceAdmin):
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
class CityAdmin(MapReferenceAdmin):
    list_display = ("name", "hex", "owner", "is_start_city", "has_martian_yard", "optional", "stand_in")
    list_filter = ("owner", "has_martian_yard", "optional", "provenance")
    search_fields = ("name",)
    list_select_related = ("hex",)
