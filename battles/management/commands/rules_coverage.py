"""manage.py rules_coverage [--json] [--ruleset SG] [--uncovered]: clause coverage of the tests."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.checklist import RULESETS, coverage_report, unknown_tags


class Command(BaseCommand):
    help = "Per ruleset, how many CHECKLIST.md clauses are tagged by tests (@pytest.mark.rule) and which not."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument("--ruleset", choices=sorted(RULESETS), help="only this clause prefix")
        parser.add_argument("--uncovered", action="store_true", help="list the clauses no test tags")

    def handle(self, *args: Any, **options: Any) -> None:
        report = coverage_report()
        if options["ruleset"]:
            report = [entry for entry in report if entry.prefix == options["ruleset"]]
        typos = unknown_tags()
        if options["json"]:
            payload = {
                "rulesets": [
                    {
                        "prefix": entry.prefix,
                        "title": entry.title,
                        "clauses": entry.total,
                        "covered": len(entry.covered),
                        "percent": round(entry.percent, 1),
                        "uncovered": entry.uncovered,
                        "uncovered_source_missing": entry.uncovered_source_missing,
                    }
                    for entry in report
                ],
                "unknown_tags": {tag: sorted(files) for tag, files in sorted(typos.items())},
            }
            self.stdout.write(json.dumps(payload, indent=2))
        else:
            self.stdout.write(f"{'ruleset':8} {'covered':>8} {'clauses':>8} {'%':>6}")
            for entry in report:
                self.stdout.write(f"{entry.prefix:8} {len(entry.covered):>8} {entry.total:>8} {entry.percent:>5.1f}%")
                if options["uncovered"] and entry.uncovered:
                    self.stdout.write("  not covered: " + ", ".join(entry.uncovered))
            total = sum(entry.total for entry in report)
            covered = sum(len(entry.covered) for entry in report)
            self.stdout.write(f"{'total':8} {covered:>8} {total:>8} {100.0 * covered / max(total, 1):>5.1f}%")
        if typos:
            raise CommandError("tests tag clauses that are not in CHECKLIST.md: " + ", ".join(sorted(typos)))
