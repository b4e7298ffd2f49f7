from django.apps import AppConfig


class StrategicMapConfig(AppConfig):
    name = "strategic_map"
    verbose_name = "Strategic map"
