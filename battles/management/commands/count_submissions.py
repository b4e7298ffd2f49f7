"""manage.py count_submissions: how often each side sits down to answer, per turn, over AI-played battles.

    python manage.py count_submissions --runs 10
    python manage.py count_submissions --runs 10 --option standing_orders=false

Every shipped scenario of the ruleset (or --scenario), played --runs times on the seeds of simulate number
--seed, with the options the battle app proposes for web play (the ruleset's play_defaults) and any --option
over them. The decisions a side answers together are one submission; those its standing orders answered are
none (battles/engine/windows.py). Prints each scenario's median, 95th percentile and most submissions per side
per turn, and the share of side-turns with at most two.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles import engine_io
from battles.engine import ruleset as registry
from battles.engine import simulate, windows
from battles.management.commands.simulate_battle import read_options


class Command(BaseCommand):
    help = "Submissions per side per turn over AI-played battles of every shipped scenario (issue 20's measure)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", default=settings.DEFAULT_RULESET)
        parser.add_argument("--scenario", help="one scenario slug (default: every shipped scenario)")
        parser.add_argument("--runs", type=int, default=3)
        parser.add_argument("--seed", type=int, default=5, help="the simulation number the seeds derive from")
        parser.add_argument("--option", action="append", default=[], help="ruleset option KEY=JSON, repeatable")

    def handle(self, *args: Any, **options: Any) -> None:
        engine_io.discover_rulesets()
        try:
            rules = registry.get(options["ruleset"])
        except KeyError as error:
            raise CommandError(str(error)) from error
        chosen = {**rules.play_defaults, **read_options(options["option"])}
        scenarios = rules.example_scenarios()
        if options["scenario"]:
            scenarios = [s for s in scenarios if s.get("slug") == options["scenario"]]
            if not scenarios:
                raise CommandError(f"no scenario {options['scenario']!r}")
        if options["runs"] < 1:
            raise CommandError("--runs is at least 1")
        for scenario in scenarios:
            played = simulate.runs(rules, scenario, number=options["seed"], count=options["runs"], options=chosen)
            figures = windows.figures([(b.events, b.initial.sides, b.final.turn) for b in played])
            self.stdout.write(f"{scenario.get('title', scenario.get('slug'))}: {figures.line()}")
