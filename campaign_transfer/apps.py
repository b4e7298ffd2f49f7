from django.apps import AppConfig


class CampaignTransferConfig(AppConfig):
    # An installed app only for its management commands: it has no models.
    name = "campaign_transfer"
    verbose_name = "Campaign export and import"
