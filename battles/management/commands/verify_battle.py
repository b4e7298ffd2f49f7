"""manage.py verify_battle ID: re-run a stored battle from its seed over its logged decisions.

Prints each problem found and exits non-zero, or prints ``verified: N events, M dice``. The same check the
battle API publishes once a battle is over (selectors.battle_verification); run here it also serves a battle
still in play, since the server holds the seed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles import selectors
from battles.models import Battle


class Command(BaseCommand):
    help = "Re-run a battle from its seed over its logged decisions: every die and every event must come out the same."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("battle_id", type=int, help="the battle's id")

    def handle(self, *args: Any, **options: Any) -> None:
        battle = Battle.objects.filter(pk=options["battle_id"]).first()
        if battle is None:
            raise CommandError(f"There is no battle {options['battle_id']}.")
        verification = selectors.battle_verification(battle=battle)
        if not verification.verified:
            for problem in verification.problems:
                self.stdout.write(problem)
            raise CommandError(f"battle {battle.pk} does not verify: {len(verification.problems)} problem(s)")
        self.stdout.write(f"verified: {verification.events} events, {verification.dice} dice")
