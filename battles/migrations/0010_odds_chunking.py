"""Issue 21: an odds run keeps the number of the chunk plan it is split by (battles.engine.simulate.CHUNK_PLANS),
so the plan can change (plan 2: a first wave of small chunks) without changing what the chunks of a run begun
before mean. Every run stored before this migration was split by plan 1 (the plan migration 0009 copies)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0009_odds_chunks"),
    ]

    operations = [
        migrations.AddField(
            model_name="oddsrun",
            name="chunking",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="The chunk plan the runs are split by (battles.engine.simulate.CHUNK_PLANS)."
            ),
            preserve_default=False,
        ),
    ]
