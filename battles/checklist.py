"""The rule-clause checklist (docs/rules/CHECKLIST.md) and which tests tag which clauses.

Tests name the clauses they check with ``@pytest.mark.rule("SG-FIRE-03", ...)``. Coverage is read from the
test sources (a plain scan, no test run needed), so ``manage.py rules_coverage`` answers in a second.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

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


@dataclass
class RulesetCoverage:
    prefix: str
    title: str
    total: int = 0
    covered: list[str] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    uncovered_source_missing: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * len(self.covered) / self.total if self.total else 0.0


def coverage_report(tagged: dict[str, set[str]] | None = None) -> list[RulesetCoverage]:
    tagged = tagged_clauses() if tagged is None else tagged
    report = {prefix: RulesetCoverage(prefix=prefix, title=title) for prefix, title in RULESETS.items()}
    for clause in checklist_clauses().values():
        entry = report[clause.prefix]
        entry.total += 1
        if clause.id in tagged:
            entry.covered.append(clause.id)
        else:
            entry.uncovered.append(clause.id)
            if clause.source_missing:
                entry.uncovered_source_missing.append(clause.id)
    return list(report.values())


def unknown_tags(tagged: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Tagged ids that are not in the checklist (typos): tag -> files."""
    tagged = tagged_clauses() if tagged is None else tagged
    known = checklist_clauses()
    return {clause_id: files for clause_id, files in tagged.items() if clause_id not in known}
