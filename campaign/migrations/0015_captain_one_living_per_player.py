"""SGC-START-14: at most one living captain per player and campaign, held by the database as well as the service
(campaign.captains.captain_found), so two requests at once cannot both found one."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0014_retire_extra_captains_strip_rank"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='captain',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['lost', 'retired']), _negated=True), fields=('campaign', 'player'), name='captain_one_living_per_player'),
        ),
    ]
