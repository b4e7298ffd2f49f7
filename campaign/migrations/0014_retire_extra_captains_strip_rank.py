"""Before the one-captain rule (SGC-START-14) is a constraint: a player who founded several living captains keeps
his first; the later ones are retired, with an entry in the umpire's audit saying why (their books are kept).
And a captain whose name starts with the rank the pages already put before it ("Captain Captain Robert Drummond")
loses the typed rank, as campaign.captains.captain_name now strips it on founding."""

import re

from django.db import migrations

RANK = re.compile(r"^(?:captain|capt\.?|cpt\.?)\s+", re.IGNORECASE)


def _strip_rank(name):
    while True:
        stripped = RANK.sub("", name, count=1).strip()
        if stripped == name or not stripped:
            return name
        name = stripped


def forwards(apps, schema_editor):
    Captain = apps.get_model("campaign", "Captain")
    AuditEntry = apps.get_model("campaign", "AuditEntry")
    gone = ("lost", "retired")
    kept = {}
    for captain in Captain.objects.exclude(status__in=gone).select_related("campaign").order_by("created_at", "pk"):
        key = (captain.campaign_id, captain.player_id)
        if key not in kept:
            kept[key] = captain
            continue
        before = captain.status
        captain.status = "retired"
        captain.save(update_fields=["status"])
        AuditEntry.objects.create(
            campaign_id=captain.campaign_id,
            actor_id=captain.campaign.created_by_id,
            action="status changed",
            captain=captain,
            reason=(
                f"One captain per player (SGC-START-14): retired in favour of the player's first captain, "
                f"{kept[key].name}"
            )[:300],
            data={"before": {"status": before, "city": captain.city}, "after": {"status": "retired"}},
        )
    for captain in Captain.objects.order_by("pk"):
        name = _strip_rank(captain.name)
        if name == captain.name:
            continue
        taken = set(Captain.objects.filter(campaign_id=captain.campaign_id).values_list("name", flat=True))
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = f"{name} ({n})", n + 1
        captain.name = candidate[:80]
        captain.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0013_new_captain_setting_retired_status"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
