from django.apps import AppConfig


class StrategicMapConfig(AppConfig):
    name = "strategic_map"
    verbose_name = "Strategic map"

    def ready(self) -> None:
        # A finished encounter battle flows back into the campaign; the battles app only sends the signal.
        from battles.signals import battle_finished
        from campaign import map_link
        from strategic_map.arrival_tasks import on_battle_finished
        from strategic_map.campaign_link import StrategicMap

        battle_finished.connect(on_battle_finished, dispatch_uid="strategic_map.encounter_result")
        # The campaign asks its map through campaign.map_link: it sits below the strategic map and never imports it.
        map_link.register(StrategicMap())
