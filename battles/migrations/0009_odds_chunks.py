"""Issue 21: an odds run's outcomes are stored per chunk (OddsChunk), written once each, in place of one list
re-saved whole after every chunk. The outcomes of existing runs move into chunks of the plan the code now uses
(battles.engine.simulate.chunk_plan, copied below as it stands today, so this migration means the same later);
a trailing part-chunk of an unfinished run is dropped: its runs are played again, on the same seeds."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

FIRST_CHUNK = 6
CHUNK_GROWTH = (10, 15, 20)
LARGEST_CHUNK = 25


def chunk_plan(runs):
    sizes = iter((FIRST_CHUNK, *CHUNK_GROWTH))
    plan = []
    start = 0
    while start < runs:
        stop = min(runs, start + next(sizes, LARGEST_CHUNK))
        plan.append((start, stop))
        start = stop
    return plan


def outcomes_into_chunks(apps, schema_editor):
    OddsRun = apps.get_model("battles", "OddsRun")
    OddsChunk = apps.get_model("battles", "OddsChunk")
    for run in OddsRun.objects.exclude(outcomes=[]).iterator():
        OddsChunk.objects.bulk_create(
            OddsChunk(run=run, index=index, start=start, stop=stop, outcomes=run.outcomes[start:stop])
            for index, (start, stop) in enumerate(chunk_plan(run.runs))
            if stop <= len(run.outcomes)
        )


def chunks_into_outcomes(apps, schema_editor):
    OddsRun = apps.get_model("battles", "OddsRun")
    for run in OddsRun.objects.all().iterator():
        chunks = run.chunks.order_by("index")
        outcomes = []
        for chunk in chunks:  # only the unbroken prefix: the old code resumed from len(outcomes)
            if chunk.start != len(outcomes):
                break
            outcomes.extend(chunk.outcomes)
        OddsRun.objects.filter(pk=run.pk).update(outcomes=outcomes)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0008_battle_live"),
    ]

    operations = [
        migrations.CreateModel(
            name="OddsChunk",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("index", models.PositiveIntegerField()),
                ("start", models.PositiveIntegerField()),
                ("stop", models.PositiveIntegerField()),
                ("outcomes", models.JSONField(default=list)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "run",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="chunks", to="battles.oddsrun"
                    ),
                ),
            ],
            options={
                "ordering": ["run", "index"],
                "constraints": [models.UniqueConstraint(fields=("run", "index"), name="odds_chunk_once")],
            },
        ),
        migrations.RunPython(outcomes_into_chunks, chunks_into_outcomes),
        migrations.RemoveField(
            model_name="oddsrun",
            name="outcomes",
        ),
        migrations.AlterField(
            model_name="oddsrun",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "Queued"),
                    ("running", "Running"),
                    ("done", "Done"),
                    ("failed", "Failed"),
                    ("stopped", "Stopped"),
                ],
                default="queued",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="oddsrun",
            name="summary",
            field=models.JSONField(blank=True, help_text="The distribution, once done or stopped.", null=True),
        ),
    ]
