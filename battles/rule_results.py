"""The rule-results report: which tests tagged with which clauses ran, and how each one ended.

The test suite's plugin (tests/rules_report.py) writes it at the end of every pytest session; ``manage.py
rules_coverage`` reads it. A clause counts as covered only when a test tagged with it PASSED in its last run
(README.md, "Rule coverage").

Merge policy (one file, many runs): results are kept per test node id and per *variant* (the database the run
used: ``postgresql``, ``sqlite``), and a run replaces only the entries of the tests it ran in its own variant.
So ``make test`` (the suite on PostgreSQL, then the ``-m sqlite`` slice on SQLite) keeps both runs' results, and a
targeted ``pytest -k ...`` afterwards updates just the tests it ran. A *complete* run (no paths, no ``-k``/``-m``,
nothing deselected, every collected test reported, no collection error) also drops the entries of its variant
for tests that no longer exist or no longer carry a rule tag. A test's outcome across variants: ``failed`` if its
last outcome in any variant failed, else ``passed`` if one passed, else the first of xfailed/xpassed/skipped.

Pure Python: no Django, no pytest.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FORMAT = 1
RUNS_KEPT = 20

PASSED, FAILED, SKIPPED, XFAILED, XPASSED = "passed", "failed", "skipped", "xfailed", "xpassed"
# The order in which a test's outcomes across variants settle its one outcome (first match wins).
OUTCOME_ORDER = (FAILED, PASSED, XFAILED, XPASSED, SKIPPED)


class ReportMissing(Exception):
    """There is no readable rule-results report at the path."""


def report_path(var_dir: Path) -> Path:
    return var_dir / "test-results" / "rules.json"


def outcome_of(phases: dict[str, tuple[str, bool]]) -> str | None:
    """One test's outcome from its reports: phase (setup/call/teardown) -> (outcome, was an xfail).

    None when the test has no final result (the run stopped before its call).
    """
    if any(outcome == FAILED for outcome, _ in phases.values()):
        return FAILED
    setup = phases.get("setup")
    if setup is not None and setup[0] == SKIPPED:
        return XFAILED if setup[1] else SKIPPED
    call = phases.get("call")
    if call is None:
        return None
    outcome, xfail = call
    if outcome == SKIPPED:
        return XFAILED if xfail else SKIPPED
    return XPASSED if xfail else PASSED


def settle(outcomes: Iterable[str]) -> str:
    """The outcome of a test that ran in several variants (see the module's merge policy)."""
    seen = set(outcomes)
    return next((outcome for outcome in OUTCOME_ORDER if outcome in seen), SKIPPED)


@dataclass
class Run:
    """One pytest session's results, as the plugin hands them over."""

    variant: str
    complete: bool
    # Every test node id the session collected and selected (tagged or not), and what each tagged one did.
    selected: set[str]
    tagged: dict[str, tuple[str, ...]]
    outcomes: dict[str, str]
    args: list[str] = field(default_factory=list)
    commit: str | None = None
    at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def meta(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for outcome in self.outcomes.values():
            counts[outcome] = counts.get(outcome, 0) + 1
        return {
            "at": self.at.isoformat(timespec="seconds"),
            "commit": self.commit,
            "variant": self.variant,
            "complete": self.complete,
            "args": self.args,
            "tests_selected": len(self.selected),
            "tagged_tests": {outcome: counts[outcome] for outcome in sorted(counts)},
        }


def merge(previous: dict[str, Any] | None, run: Run) -> dict[str, Any]:
    """The report after ``run``, merged into ``previous`` by node id and variant (module docstring)."""
    tests: dict[str, Any] = dict(previous["tests"]) if previous else {}
    at = run.at.isoformat(timespec="seconds")
    for node_id in list(tests):
        entry = tests[node_id]
        outcomes = dict(entry["outcomes"])
        # A test this run selected but which is untagged now, or (complete run) which is gone, loses this variant.
        if (node_id in run.selected and node_id not in run.tagged) or (run.complete and node_id not in run.selected):
            outcomes.pop(run.variant, None)
        if outcomes:
            tests[node_id] = {**entry, "outcomes": outcomes}
        else:
            del tests[node_id]
    for node_id, tags in run.tagged.items():
        finished = run.outcomes.get(node_id)
        if finished is None:  # selected but never finished (the run was stopped): keep what we knew
            continue
        entry = tests.get(node_id, {"outcomes": {}})
        tests[node_id] = {
            "clauses": sorted(tags),
            "outcomes": {**entry["outcomes"], run.variant: {"outcome": finished, "at": at}},
        }
    earlier: list[dict[str, Any]] = list(previous.get("runs", [])) if previous else []
    runs = [*earlier[-(RUNS_KEPT - 1) :], run.meta()]
    last_complete = dict(previous.get("last_complete_run", {})) if previous else {}
    if run.complete:
        last_complete[run.variant] = run.meta()
    by_clause: dict[str, dict[str, str]] = {}
    for node_id in sorted(tests):
        outcome = settle(value["outcome"] for value in tests[node_id]["outcomes"].values())
        for clause in tests[node_id]["clauses"]:
            by_clause.setdefault(clause, {})[node_id] = outcome
    return {
        "format": FORMAT,
        "written_at": at,
        "runs": runs,
        "last_complete_run": last_complete,
        "tests": {node_id: tests[node_id] for node_id in sorted(tests)},
        # Derived from "tests" (what the command reads), kept for a reader of the file: clause -> test -> outcome.
        "clauses": {clause: by_clause[clause] for clause in sorted(by_clause)},
    }


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Two pytest sessions finishing at once must not lose one's results: read-merge-write under a file lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def record(path: Path, run: Run) -> dict[str, Any]:
    """Merge ``run`` into the report at ``path`` (created if missing; an unreadable one is started afresh)."""
    with _locked(path):
        try:
            previous: dict[str, Any] | None = _read(path)
        except ReportMissing:
            previous = None
        report = merge(previous, run)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
            out.write("\n")
        os.replace(temporary, path)
    return report


def _read(path: Path) -> dict[str, Any]:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ReportMissing(f"no test results at {path}") from exc
    except (OSError, ValueError) as exc:
        raise ReportMissing(f"the test results at {path} cannot be read ({exc})") from exc
    if not isinstance(report, dict) or report.get("format") != FORMAT or not isinstance(report.get("tests"), dict):
        raise ReportMissing(f"the test results at {path} are not a format-{FORMAT} rule-results report")
    return report


@dataclass(frozen=True)
class TaggedTest:
    node_id: str
    outcome: str
    variants: dict[str, str]


@dataclass(frozen=True)
class Results:
    """A report as read: where it came from, and clause -> the tests tagged with it and how each one ended."""

    path: Path
    written_at: datetime
    last_run: dict[str, Any]
    last_complete_run: dict[str, dict[str, Any]]
    by_clause: dict[str, list[TaggedTest]]

    def passing(self, clause_id: str) -> bool:
        return any(test.outcome == PASSED for test in self.by_clause.get(clause_id, []))


def load(path: Path) -> Results:
    report = _read(path)
    by_clause: dict[str, list[TaggedTest]] = {}
    for node_id, entry in sorted(report["tests"].items()):
        variants = {variant: value["outcome"] for variant, value in sorted(entry["outcomes"].items())}
        test = TaggedTest(node_id=node_id, outcome=settle(variants.values()), variants=variants)
        for clause in entry["clauses"]:
            by_clause.setdefault(clause, []).append(test)
    runs = report.get("runs") or [{}]
    return Results(
        path=path,
        written_at=datetime.fromisoformat(report["written_at"]),
        last_run=runs[-1],
        last_complete_run=report.get("last_complete_run", {}),
        by_clause=by_clause,
    )
