"""A campaign as a versioned JSON document and back (``manage.py export_campaign SLUG``, ``manage.py
import_campaign FILE``): everything the campaign owns, from its settings and secret seed to every ledger entry,
auction, battle event and die, so that an import restores it exactly and exporting the import gives the same
document (the slug aside, when a new one is given).

Rows are listed per model in primary-key order and refer to one another by position in those lists, never by
database keys; users by user name (an import creates a missing user with no usable password). The document is
the umpire's: it carries the seeds and every secret, and is never served to a player.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, models, transaction

from accounts.models import User
from battles.models import (
    Battle,
    BattleEvent,
    BattleResult,
    BattleShip,
    BattleSide,
    Correction,
    Decision,
    OddsChunk,
    OddsRun,
)
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
    Notification,
    VoyageExperience,
    WebhookDelivery,
)
from strategic_map.models import (
    CampaignDay,
    CampaignMapRules,
    Encounter,
    EncounterShip,
    EpicTrek,
    OrderExtension,
    TrekRoll,
    Voyage,
    VoyageDay,
)

FORMAT = "red-captain-campaign"
VERSION = 1

Scope = Callable[[Campaign], "models.QuerySet[Any]"]

# The rows of the many-to-many between encounters and the voyages that met them.
ENCOUNTER_VOYAGE: type[models.Model] = Encounter.voyages.through

# In an order where every row's references come before it.
TABLES: list[tuple[str, type[models.Model], Scope]] = [
    ("campaign", Campaign, lambda c: Campaign.objects.filter(pk=c.pk)),
    ("membership", Membership, lambda c: Membership.objects.filter(campaign=c)),
    ("invitation", Invitation, lambda c: Invitation.objects.filter(campaign=c)),
    ("captain", Captain, lambda c: Captain.objects.filter(campaign=c)),
    ("ship", CampaignShip, lambda c: CampaignShip.objects.filter(campaign=c)),
    ("auction", Auction, lambda c: Auction.objects.filter(campaign=c)),
    ("bid", Bid, lambda c: Bid.objects.filter(auction__campaign=c)),
    ("ledger_entry", LedgerEntry, lambda c: LedgerEntry.objects.filter(captain__campaign=c)),
    ("audit_entry", AuditEntry, lambda c: AuditEntry.objects.filter(campaign=c)),
    ("chronicle_entry", ChronicleEntry, lambda c: ChronicleEntry.objects.filter(campaign=c)),
    ("campaign_roll", CampaignRoll, lambda c: CampaignRoll.objects.filter(campaign=c)),
    ("voyage_experience", VoyageExperience, lambda c: VoyageExperience.objects.filter(ship__campaign=c)),
    ("battle", Battle, lambda c: Battle.objects.filter(campaign=c)),
    ("battle_side", BattleSide, lambda c: BattleSide.objects.filter(battle__campaign=c)),
    ("battle_ship", BattleShip, lambda c: BattleShip.objects.filter(battle__campaign=c)),
    ("correction", Correction, lambda c: Correction.objects.filter(battle__campaign=c)),
    ("decision", Decision, lambda c: Decision.objects.filter(battle__campaign=c)),
    ("battle_event", BattleEvent, lambda c: BattleEvent.objects.filter(battle__campaign=c)),
    ("battle_result", BattleResult, lambda c: BattleResult.objects.filter(battle__campaign=c)),
    ("odds_run", OddsRun, lambda c: OddsRun.objects.filter(campaign=c)),
    ("odds_chunk", OddsChunk, lambda c: OddsChunk.objects.filter(run__campaign=c)),
    ("notification", Notification, lambda c: Notification.objects.filter(campaign=c)),
    ("webhook_delivery", WebhookDelivery, lambda c: WebhookDelivery.objects.filter(campaign=c)),
    # --- the campaign on the map (strategic_map) ---
    ("campaign_map_rules", CampaignMapRules, lambda c: CampaignMapRules.objects.filter(campaign=c)),
    ("campaign_day", CampaignDay, lambda c: CampaignDay.objects.filter(campaign=c)),
    ("voyage", Voyage, lambda c: Voyage.objects.filter(campaign=c)),
    ("encounter", Encounter, lambda c: Encounter.objects.filter(campaign=c)),
    # The encounter's voyages (a many-to-many) are rows of its own table, one per (encounter, voyage).
    ("encounter_voyage", ENCOUNTER_VOYAGE, lambda c: ENCOUNTER_VOYAGE._default_manager.filter(encounter__campaign=c)),
    ("encounter_ship", EncounterShip, lambda c: EncounterShip.objects.filter(encounter__campaign=c)),
    ("voyage_day", VoyageDay, lambda c: VoyageDay.objects.filter(campaign=c)),
    ("epic_trek", EpicTrek, lambda c: EpicTrek.objects.filter(campaign=c)),
    ("trek_roll", TrekRoll, lambda c: TrekRoll.objects.filter(trek__campaign=c)),
    ("order_extension", OrderExtension, lambda c: OrderExtension.objects.filter(campaign=c)),
]
LABELS = {model: label for label, model, _ in TABLES}


class ImportRefused(ValueError):
    """The document cannot be imported: the message says why."""


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    """The campaign as a JSON-ready document (format ``red-captain-campaign``, version 1)."""
    positions: dict[type[models.Model], dict[int, int]] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    users: dict[str, dict[str, Any]] = {}
    for label, model, scope in TABLES:
        rows = list(scope(campaign).order_by("pk"))
        positions[model] = {row.pk: index for index, row in enumerate(rows)}
        tables[label] = [_row(row, positions, users) for row in rows]
    return {
        "format": FORMAT,
        "version": VERSION,
        "users": [users[name] for name in sorted(users)],
        "tables": tables,
    }


def _row(
    row: models.Model, positions: dict[type[models.Model], dict[int, int]], users: dict[str, Any]
) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for field in _fields(type(row)):
        if field.is_relation:
            key = getattr(row, field.attname)
            target = field.related_model
            if key is None:
                data[field.name] = None
            elif target is User:
                user = getattr(row, field.name)
                users[user.username] = {
                    "username": user.username,
                    "display_name": user.display_name,
                    "email": user.email,
                }
                data[field.name] = user.username
            elif target in positions:
                data[field.name] = positions[target][key]
            else:  # pragma: no cover - every model a campaign row refers to is exported
                raise ValueError(f"{type(row).__name__}.{field.name} refers outside the campaign")
        else:
            data[field.name] = _plain(getattr(row, field.attname))
    return data


@transaction.atomic
def import_campaign(document: Any, *, slug: str = "") -> Campaign:
    """Restore a campaign from its document, under ``slug`` if given (else the document's, which must be free)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(f"not a {FORMAT} document")
    if document.get("version") != VERSION:
        raise ImportRefused(f"this version reads version {VERSION} documents, not {document.get('version')!r}")
    tables = document.get("tables")
    if not isinstance(tables, dict) or len(tables.get("campaign", [])) != 1:
        raise ImportRefused("the document holds no campaign")
    users = {u["username"]: _user(u) for u in document.get("users", [])}
    created: dict[type[models.Model], list[int]] = {}
    for label, model, _ in TABLES:
        pks: list[int] = []
        # A row may refer to another of its own table, before or after it (a prize towed by a ship): those
        # references are set once the whole table is in.
        own = {f.name: f.attname for f in _fields(model) if f.is_relation and f.related_model is model}
        later: list[tuple[int, dict[str, int]]] = []
        for data in tables.get(label, []):
            if model is Campaign and slug:
                data = {**data, "slug": slug}
            if model is Campaign and Campaign.objects.filter(slug=data["slug"]).exists():
                raise ImportRefused(f"a campaign with the address {data['slug']!r} exists; import under another")
            pending = {attname: data[name] for name, attname in own.items() if data.get(name) is not None}
            row = model(**_values(model, {k: v for k, v in data.items() if k not in own}, created, users))
            try:
                with transaction.atomic():
                    row.save(force_insert=True)
            except IntegrityError as error:
                raise ImportRefused(f"{label} {len(pks)} clashes with what this database holds: {error}") from error
            pks.append(row.pk)
            if pending:
                later.append((row.pk, pending))
        for pk, pending in later:
            if any(not 0 <= position < len(pks) for position in pending.values()):
                raise ImportRefused(f"{label}: a row refers to one of its table that the document does not hold")
            model._default_manager.filter(pk=pk).update(**{name: pks[position] for name, position in pending.items()})
        created[model] = pks
    return Campaign.objects.get(pk=created[Campaign][0])


def _user(data: dict[str, Any]) -> User:
    user = User.objects.filter(username=data["username"]).first()
    if user is None:
        user = User(username=data["username"], display_name=data.get("display_name", ""), email=data.get("email", ""))
        user.set_unusable_password()
        user.save()
    return user


def _values(
    model: type[models.Model],
    data: dict[str, Any],
    created: dict[type[models.Model], list[int]],
    users: dict[str, User],
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in _fields(model):
        if field.name not in data:
            continue  # a field added since the export: its default
        value = data[field.name]
        if field.is_relation:
            target = field.related_model
            if value is None:
                values[field.attname] = None
            elif target is User:
                values[field.attname] = users[value].pk
            else:
                values[field.attname] = created[target][value]  # type: ignore[index]
        else:
            values[field.attname] = field.to_python(value)
    return values
