"""Admin for the map reference tables (read-only: the data files are the source, provenance on show) and for the
campaign's rows on the map (read-only: the tick, its dice and the umpire's desk write them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from battles.admin import ReferenceAdmin
from campaign.admin import ReadOnlyAdmin
from strategic_map.models import (
    CampaignDay,
    CampaignMapRules,
    City,
    Encounter,
    EncounterShip,
    EpicTrek,
    MapHex,
    OrderExtension,
    ReferenceRow,
    Territory,
    TrekRoll,
    Voyage,
    VoyageDay,
)


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


# --- the campaign on the map (issue 7) -------------------------------------------------------------------------------
# Positions, days, encounters and treks come from the daily tick and its dice; extensions and map rules from the
# umpire's desk, where each change is checked and audited. The admin shows them all and edits none: a change made
# here would skip the audit (and the dice's log).


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class VoyageDayInline(ReadOnlyInline):
    model = VoyageDay
    fk_name = "voyage"
    fields = ("day", "kind", "territory", "encounter_number", "encounter_roll", "encounter", "coal_burned", "note")


class EncounterShipInline(ReadOnlyInline):
    model = EncounterShip
    fields = ("name", "category", "class_id", "crew_quality", "boarding_quality", "towed_by", "draw_roll")


class TrekRollInline(ReadOnlyInline):
    model = TrekRoll
    fields = ("seq", "day", "q", "r", "row", "allegiance", "roll", "result", "losses", "party_after")


@admin.register(CampaignMapRules)
class CampaignMapRulesAdmin(ReadOnlyAdmin):
    """Edited on the umpire's desk (audited), shown here."""

    list_display = ("campaign", "territories_edited", "trek_table_edited")
    list_select_related = ("campaign",)

    @admin.display(description="territories edited")
    def territories_edited(self, obj: CampaignMapRules) -> str:
        return ", ".join(sorted(obj.territory_numbers or {})) or "none"

    @admin.display(boolean=True, description="trek table edited")
    def trek_table_edited(self, obj: CampaignMapRules) -> bool:
        return bool(obj.trek_table)


@admin.register(Voyage)
class VoyageAdmin(ReadOnlyAdmin):
    list_display = ("pk", "campaign", "captain", "ship", "status", "start_city", "started_day", "q", "r", "end_city")
    list_filter = ("status", "campaign")
    search_fields = ("captain__name", "ship__name")
    list_select_related = ("campaign", "captain", "ship")
    inlines = (VoyageDayInline,)


@admin.register(CampaignDay)
class CampaignDayAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "day", "started_at", "finished_at", "ships_moved", "encounters")
    list_filter = ("campaign",)
    list_select_related = ("campaign",)


@admin.register(VoyageDay)
class VoyageDayAdmin(ReadOnlyAdmin):
    list_display = ("voyage", "day", "kind", "territory", "encounter_number", "encounter_roll", "encounter")
    list_filter = ("kind", "campaign")
    list_select_related = ("voyage", "encounter_roll", "encounter")


@admin.register(Encounter)
class EncounterAdmin(ReadOnlyAdmin):
    list_display = ("pk", "campaign", "day", "territory", "result", "status", "battle", "applied_at")
    list_filter = ("status", "campaign")
    search_fields = ("result", "territory")
    list_select_related = ("campaign", "battle")
    inlines = (EncounterShipInline,)


@admin.register(EncounterShip)
class EncounterShipAdmin(ReadOnlyAdmin):
    list_display = ("name", "encounter", "category", "class_id", "crew_quality", "boarding_quality", "towed_by")
    list_filter = ("category", "crew_quality")
    search_fields = ("name", "class_id")
    list_select_related = ("encounter",)


@admin.register(EpicTrek)
class EpicTrekAdmin(ReadOnlyAdmin):
    list_display = ("pk", "campaign", "captain", "cause", "status", "started_day", "party", "party_start", "rolls")
    list_filter = ("status", "cause", "campaign")
    search_fields = ("captain__name",)
    list_select_related = ("campaign", "captain")
    inlines = (TrekRollInline,)


@admin.register(TrekRoll)
class TrekRollAdmin(ReadOnlyAdmin):
    list_display = ("trek", "seq", "day", "row", "allegiance", "roll", "result", "losses", "party_after")
    list_filter = ("result", "allegiance")
    list_select_related = ("trek", "roll")


@admin.register(OrderExtension)
class OrderExtensionAdmin(ReadOnlyAdmin):
    """Granted on the umpire's desk (audited), shown here."""

    list_display = ("campaign", "day", "captain", "until", "granted_by", "reason", "created_at")
    list_filter = ("campaign",)
    list_select_related = ("campaign", "captain", "granted_by")
