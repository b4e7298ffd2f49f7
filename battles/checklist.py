"""The rule-clause checklist (docs/rules/CHECKLIST.md) and which tests cover which clauses.

Tests name the clauses they check with ``@pytest.mark.rule("SG-FIRE-03", ...)``. A clause is covered only when a
test tagged with it passed in its last run, as the rule-results report of the test runs says
(battles/rule_results.py); a tag in the source alone covers nothing. The sources are still scanned (a plain
parse, no run) for tags that name no clause (typos) and for tagged tests the report has never seen run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from battles.rule_results import PASSED, Results

PROJECT_DIR = Path(__file__).resolve().parent.parent
CHECKLIST_PATH = PROJECT_DIR / "docs" / "rules" / "CHECKLIST.md"
TESTS_DIR = PROJECT_DIR / "tests"

CLAUSE_LINE = re.compile(r"^- \[(?P<id>[A-Z]+-[A-Z0-9]+(?:-[A-Z0-9]+)*)\] (?P<text>.*)$")

# The checklist's own table of prefixes, in its order.
RULESETS: dict[str, str] = {
    "SG": "Sky Galleons of Mars (tactical, optional rules, scenarios, errata, Cloudships & Gunboats)",
    "SGD": "Sky Galleons ship design and rating",
    "SGC": "Sky Galleons campaign rules",
    "AG": "Agility rules",
    "CM": "Cloudships of Mars 2023",
    "BR": "Sky Ships of Barsoom",
    "IC": "Ironclads 1850-1890",
}


@dataclass(frozen=True)
class Clause:
    id: str
    text: str

    @property
    def prefix(self) -> str:
        return self.id.split("-", 1)[0]

    @property
    def source_missing(self) -> bool:
        return "source missing" in self.text


@cache
def checklist_clauses() -> dict[str, Clause]:
    clauses: dict[str, Clause] = {}
    for line in CHECKLIST_PATH.read_text(encoding="utf-8").splitlines():
        match = CLAUSE_LINE.match(line)
        if match:
            clauses[match["id"]] = Clause(id=match["id"], text=match["text"])
    return clauses


def _rule_marker_args(node: ast.AST) -> Iterator[str]:
    """Clause ids in every ``pytest.mark.rule(...)`` / ``mark.rule(...)`` call below ``node``."""
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "rule":
            for arg in call.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def tagged_clauses(test_files: Iterable[Path] | None = None, *, root: Path = PROJECT_DIR) -> dict[str, set[str]]:
    """Clause id -> the test files (paths relative to ``root``) that tag it."""
    files = sorted(TESTS_DIR.rglob("test_*.py")) if test_files is None else list(test_files)
    tagged: dict[str, set[str]] = {}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for clause_id in _rule_marker_args(tree):
            tagged.setdefault(clause_id, set()).add(str(path.relative_to(root)))
    return tagged


NOT_RUN = "not run"


@dataclass
class RulesetCoverage:
    """One ruleset's clauses: covered (a tagged test passed), and the rest, with those tagged but not passing."""

    prefix: str
    title: str
    total: int = 0
    covered: list[str] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    uncovered_source_missing: list[str] = field(default_factory=list)
    # Clause -> (test, outcome) for the uncovered clauses that tests do tag: failed, skipped, xfailed, xpassed, or
    # "not run" (tagged in a source file the results have never seen run; the file stands for the test).
    tagged_not_passing: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    @property
    def percent(self) -> float:
        return 100.0 * len(self.covered) / self.total if self.total else 0.0


def coverage_report(
    results: Results | None, tagged_in_source: dict[str, set[str]] | None = None
) -> list[RulesetCoverage]:
    """Per ruleset, the clauses a tagged test passed in ``results`` (None: no results, nothing is covered)."""
    by_clause = results.by_clause if results is not None else {}
    source = tagged_in_source or {}
    report = {prefix: RulesetCoverage(prefix=prefix, title=title) for prefix, title in RULESETS.items()}
    for clause in checklist_clauses().values():
        entry = report[clause.prefix]
        entry.total += 1
        tests = by_clause.get(clause.id, [])
        if any(test.outcome == PASSED for test in tests):
            entry.covered.append(clause.id)
            continue
        entry.uncovered.append(clause.id)
        if clause.source_missing:
            entry.uncovered_source_missing.append(clause.id)
        seen_files = {test.node_id.split("::", 1)[0] for test in tests}
        not_passing = [(test.node_id, test.outcome) for test in tests]
        not_passing += [(path, NOT_RUN) for path in sorted(source.get(clause.id, ())) if path not in seen_files]
        if not_passing:
            entry.tagged_not_passing[clause.id] = not_passing
    return list(report.values())


def unknown_tags(tagged: dict[str, set[str]] | None = None, results: Results | None = None) -> dict[str, set[str]]:
    """Tagged ids that are not in the checklist (typos), in the sources or in the results: tag -> files/tests."""
    tagged = tagged_clauses() if tagged is None else tagged
    known = checklist_clauses()
    unknown = {clause_id: set(files) for clause_id, files in tagged.items() if clause_id not in known}
    for clause_id, tests in (results.by_clause if results is not None else {}).items():
        if clause_id not in known:
            unknown.setdefault(clause_id, set()).update(test.node_id for test in tests)
    return unknown
