"""manage.py rules_coverage [--json] [--ruleset SG] [--uncovered] [--report PATH]: clause coverage of the tests.

A clause counts only when a test tagged with it passed in its last run, read from the rule-results report the
test runs write (var/test-results/rules.json; battles/rule_results.py), never from the tags alone.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.checklist import RULESETS, RulesetCoverage, coverage_report, tagged_clauses, unknown_tags
from battles.rule_results import ReportMissing, Results, load, report_path


def _age(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return "just now"
    if minutes < 120:
        return "1 minute ago" if minutes == 1 else f"{minutes} minutes ago"
    hours = minutes // 60
    return f"{hours} hours ago" if hours < 48 else f"{hours // 24} days ago"


def _run_words(run: dict[str, Any]) -> str:
    kind = "a complete run" if run.get("complete") else "a partial run"
    args = " ".join(run.get("args") or [])
    commit = run.get("commit")
    return (
        f"{kind} on {run.get('variant', '?')}"
        + (f" ({args})" if args and not run.get("complete") else "")
        + (f" at commit {commit}" if commit else "")
    )


class Command(BaseCommand):
    help = (
        "Per ruleset, how many CHECKLIST.md clauses a test tagged with them (@pytest.mark.rule) passed in its last "
        "run, from the test results report (make test writes it)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument("--ruleset", choices=sorted(RULESETS), help="only this clause prefix")
        parser.add_argument(
            "--uncovered", action="store_true", help="list the clauses no passing test covers (and why)"
        )
        parser.add_argument(
            "--report", type=Path, help="the rule-results report to read (default var/test-results/rules.json)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["report"] or report_path(Path(settings.VAR_DIR))
        try:
            results = load(path)
        except ReportMissing as exc:
            raise CommandError(f"{exc}: run make test first (or pytest on the rule tests)") from exc
        in_source = tagged_clauses()
        report = coverage_report(results, in_source)
        if options["ruleset"]:
            report = [entry for entry in report if entry.prefix == options["ruleset"]]
        typos = unknown_tags(in_source, results)
        age = (datetime.now(UTC) - results.written_at).total_seconds()
        if options["json"]:
            self.stdout.write(json.dumps(self._payload(results, report, typos, age), indent=2))
        else:
            self._print(results, report, age, uncovered=options["uncovered"])
        if typos:
            raise CommandError("tests tag clauses that are not in CHECKLIST.md: " + ", ".join(sorted(typos)))

    def _payload(
        self, results: Results, report: list[RulesetCoverage], typos: dict[str, set[str]], age: float
    ) -> dict[str, Any]:
        return {
            "report": {
                "path": str(results.path),
                "written_at": results.written_at.isoformat(),
                "age_seconds": int(age),
                "last_run": results.last_run,
                "last_complete_run": results.last_complete_run,
            },
            "rulesets": [
                {
                    "prefix": entry.prefix,
                    "title": entry.title,
                    "clauses": entry.total,
                    "covered": len(entry.covered),
                    "percent": round(entry.percent, 1),
                    "tagged_not_passing": {
                        clause: [{"test": test, "outcome": outcome} for test, outcome in tests]
                        for clause, tests in entry.tagged_not_passing.items()
                    },
                    "uncovered": entry.uncovered,
                    "uncovered_source_missing": entry.uncovered_source_missing,
                }
                for entry in report
            ],
            "unknown_tags": {tag: sorted(files) for tag, files in sorted(typos.items())},
        }

    def _print(self, results: Results, report: list[RulesetCoverage], age: float, *, uncovered: bool) -> None:
        when = results.written_at.strftime("%Y-%m-%d %H:%M UTC")
        by = _run_words(results.last_run)
        self.stdout.write(f"test results: {results.path}, written {when} ({_age(age)}) by {by}")
        for variant, run in sorted(results.last_complete_run.items()):
            self.stdout.write(f"  last complete run on {variant}: {run.get('at')}")
        self.stdout.write(f"{'ruleset':8} {'covered':>8} {'clauses':>8} {'%':>6} {'tagged, not passing':>20}")
        for entry in report:
            self.stdout.write(
                f"{entry.prefix:8} {len(entry.covered):>8} {entry.total:>8} {entry.percent:>5.1f}%"
                f" {len(entry.tagged_not_passing):>20}"
            )
            if uncovered and entry.tagged_not_passing:
                self.stdout.write("  tagged, not passing:")
                for clause, tests in entry.tagged_not_passing.items():
                    self.stdout.write(f"    {clause}: " + ", ".join(f"{test} ({outcome})" for test, outcome in tests))
            untagged = [clause for clause in entry.uncovered if clause not in entry.tagged_not_passing]
            if uncovered and untagged:
                self.stdout.write("  no test: " + ", ".join(untagged))
        total = sum(entry.total for entry in report)
        covered = sum(len(entry.covered) for entry in report)
        not_passing = sum(len(entry.tagged_not_passing) for entry in report)
        self.stdout.write(
            f"{'total':8} {covered:>8} {total:>8} {100.0 * covered / max(total, 1):>5.1f}% {not_passing:>20}"
        )
