"""manage.py rules_coverage: clause coverage per ruleset, from the results of the last test runs.

A clause counts only when a test tagged with it passed; the tags in the sources only find typos and tagged tests
that never ran. The plugin (tests/rules_report.py) is run for real over a temporary test file in a pytest
subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.checklist import NOT_RUN, checklist_clauses, coverage_report, tagged_clauses, unknown_tags
from battles.rule_results import Run, load, merge, outcome_of, settle

PROJECT_DIR = Path(__file__).resolve().parents[2]

FOUR_TESTS = """
import pytest

@pytest.mark.rule("SG-FIRE-06")
def test_passes():
    assert 1 + 1 == 2

@pytest.mark.rule("SG-FIRE-07")
def test_fails():
    assert 1 + 1 == 3

@pytest.mark.rule("SG-FIRE-08")
def test_is_skipped():
    pytest.skip("not today")

@pytest.mark.rule("SG-FIRE-09")
@pytest.mark.xfail(reason="known")
def test_expected_to_fail():
    assert False

def test_untagged():
    pass
"""

FOUR = ("passes", "fails", "is_skipped", "expected_to_fail")
ONE_TEST = "import pytest\n\n@pytest.mark.rule('{clause}')\ndef test_x():\n    pass\n"


def run_pytest(directory: Path, report: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in a subprocess over ``directory``, with the rule-results plugin and nothing of this suite."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(PROJECT_DIR)
    command = [sys.executable, "-m", "pytest", "-p", "no:django", "-p", "no:cacheprovider", "-p", "tests.rules_report"]
    return subprocess.run(
        [*command, "--rules-report", str(report), "-q", *args],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def coverage_json(report: Path) -> dict:
    out = StringIO()
    call_command("rules_coverage", "--json", "--report", str(report), stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture
def four_tests_run(tmp_path):
    (tmp_path / "test_four.py").write_text(FOUR_TESTS)
    report = tmp_path / "results" / "rules.json"
    done = run_pytest(tmp_path, report)
    assert done.returncode == 1, done.stdout + done.stderr  # one test fails
    return tmp_path, report


def test_the_checklist_numbers_1511_clauses_in_seven_rulesets():
    clauses = checklist_clauses()
    assert len(clauses) == 1511
    counts = {entry.prefix: entry.total for entry in coverage_report(None)}
    assert counts == {"SG": 597, "SGD": 104, "SGC": 185, "AG": 78, "CM": 241, "BR": 127, "IC": 179}


def test_a_tag_in_the_source_alone_covers_nothing(tmp_path):
    test_file = tmp_path / "test_example.py"
    test_file.write_text(
        "import pytest\n\n@pytest.mark.rule('SG-FIRE-06', 'SGD-SPD-02')\ndef test_x():\n    pass\n"
        "\npytestmark = pytest.mark.rule('SG-NOT-A-CLAUSE')\n"
    )
    tagged = tagged_clauses([test_file], root=tmp_path)
    assert set(tagged) == {"SG-FIRE-06", "SGD-SPD-02", "SG-NOT-A-CLAUSE"}
    assert set(unknown_tags(tagged)) == {"SG-NOT-A-CLAUSE"}
    report = {entry.prefix: entry for entry in coverage_report(None, tagged)}
    assert report["SG"].covered == []
    assert report["SGD"].tagged_not_passing["SGD-SPD-02"] == [("test_example.py", NOT_RUN)]
    assert len(report["SGD"].uncovered) == 104


def test_only_the_passing_tagged_test_covers_its_clause(four_tests_run):
    _, report = four_tests_run
    payload = coverage_json(report)
    by_prefix = {entry["prefix"]: entry for entry in payload["rulesets"]}
    assert by_prefix["SG"]["covered"] == 1
    assert "SG-FIRE-06" not in by_prefix["SG"]["uncovered"]
    # This project's own test files also tag these clauses; the command lists them as not run here.
    not_passing = {
        clause: [test for test in tests if test["test"].startswith("test_four.py")]
        for clause, tests in by_prefix["SG"]["tagged_not_passing"].items()
    }
    assert not_passing["SG-FIRE-07"] == [{"test": "test_four.py::test_fails", "outcome": "failed"}]
    assert not_passing["SG-FIRE-08"] == [{"test": "test_four.py::test_is_skipped", "outcome": "skipped"}]
    assert not_passing["SG-FIRE-09"] == [{"test": "test_four.py::test_expected_to_fail", "outcome": "xfailed"}]
    assert {"SG-FIRE-07", "SG-FIRE-08", "SG-FIRE-09"} <= set(by_prefix["SG"]["uncovered"])
    assert sum(entry["covered"] for entry in payload["rulesets"]) == 1
    assert payload["report"]["path"] == str(report)
    assert payload["report"]["last_run"]["complete"] is True
    assert payload["report"]["last_run"]["tagged_tests"] == {"failed": 1, "passed": 1, "skipped": 1, "xfailed": 1}
    assert payload["unknown_tags"] == {}


def test_a_run_spread_over_xdist_workers_records_what_one_process_records(four_tests_run):
    """make test runs the suite on pytest-xdist workers, where the controller collects nothing itself."""
    directory, alone = four_tests_run
    spread = directory / "results" / "spread.json"
    done = run_pytest(directory, spread, "-n", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "rule results: 4 tagged tests recorded" in done.stdout
    one, two = json.loads(alone.read_text()), json.loads(spread.read_text())
    assert set(two["tests"]) == {f"test_four.py::test_{name}" for name in FOUR}
    assert {k: v["clauses"] for k, v in two["tests"].items()} == {k: v["clauses"] for k, v in one["tests"].items()}
    assert coverage_json(spread)["rulesets"] == coverage_json(alone)["rulesets"]
    assert two["runs"][-1]["complete"] is True
    assert two["runs"][-1]["tagged_tests"] == one["runs"][-1]["tagged_tests"]


def test_a_targeted_run_updates_its_tests_and_keeps_the_rest(four_tests_run):
    directory, report = four_tests_run
    (directory / "test_four.py").write_text(FOUR_TESTS.replace("1 + 1 == 3", "1 + 1 == 2"))
    assert run_pytest(directory, report, "-k", "fails").returncode == 0
    results = load(report)
    outcomes = {clause: [test.outcome for test in tests] for clause, tests in results.by_clause.items()}
    assert outcomes == {
        "SG-FIRE-06": ["passed"],
        "SG-FIRE-07": ["passed"],
        "SG-FIRE-08": ["skipped"],
        "SG-FIRE-09": ["xfailed"],
    }
    assert results.last_run["complete"] is False
    assert results.last_run["args"][-2:] == ["-k", "fails"]
    assert results.last_complete_run["default"]["tagged_tests"]["failed"] == 1
    covered = {entry.prefix: entry.covered for entry in coverage_report(results)}
    assert covered["SG"] == ["SG-FIRE-06", "SG-FIRE-07"]


def test_a_complete_run_forgets_tests_that_are_gone(four_tests_run):
    directory, report = four_tests_run
    (directory / "test_four.py").write_text(ONE_TEST.format(clause="SG-FIRE-08"))
    assert run_pytest(directory, report).returncode == 0
    assert {clause: [t.node_id for t in tests] for clause, tests in load(report).by_clause.items()} == {
        "SG-FIRE-08": ["test_four.py::test_x"]
    }


def test_the_command_errors_without_results(tmp_path):
    with pytest.raises(CommandError, match="run make test first"):
        call_command("rules_coverage", "--report", str(tmp_path / "nothing.json"), stdout=StringIO())
    done = subprocess.run(
        [sys.executable, "manage.py", "rules_coverage", "--report", str(tmp_path / "nothing.json")],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "run make test first" in done.stderr


def test_an_unknown_clause_in_the_results_is_an_error(tmp_path):
    (tmp_path / "test_typo.py").write_text(ONE_TEST.format(clause="SG-FIRE-666"))
    report = tmp_path / "rules.json"
    assert run_pytest(tmp_path, report).returncode == 0
    with pytest.raises(CommandError, match="SG-FIRE-666"):
        call_command("rules_coverage", "--report", str(report), stdout=StringIO())


def test_the_plain_report_says_where_the_results_came_from(four_tests_run):
    _, report = four_tests_run
    out = StringIO()
    call_command("rules_coverage", "--uncovered", "--ruleset", "SG", "--report", str(report), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"test results: {report}, written ")
    assert "(just now) by a complete run on default" in lines[0]
    sg = next(line for line in lines if line.startswith("SG "))
    assert sg.split()[:4] == ["SG", "1", "597", "0.2%"]
    assert any(line.startswith("    SG-FIRE-07: test_four.py::test_fails (failed)") for line in lines)
    assert lines[-1].split()[:3] == ["total", "1", "597"]


def run_of(variant: str, outcomes: dict[str, str], *, complete: bool, tagged: dict[str, tuple[str, ...]]) -> Run:
    return Run(
        variant=variant,
        complete=complete,
        selected=set(tagged) | set(outcomes),
        tagged=tagged,
        outcomes=outcomes,
        at=datetime(2026, 11, 26, 20, tzinfo=UTC) + timedelta(minutes=len(outcomes)),
    )


def test_the_sqlite_slice_merges_with_the_postgresql_run():
    """make test: the suite on PostgreSQL, then the -m sqlite slice; a skip on SQLite keeps the PostgreSQL pass."""
    tagged = {"a::t1": ("SGC-MONEY-08",), "b::t2": ("SG-FIRE-06",), "b::t3": ("SG-FIRE-07",)}
    postgres = merge(None, run_of("postgresql", dict.fromkeys(tagged, "passed"), complete=True, tagged=tagged))
    slice_ = {"a::t1": ("SGC-MONEY-08",), "b::t3": ("SG-FIRE-07",)}
    both = merge(postgres, run_of("sqlite", {"a::t1": "skipped", "b::t3": "failed"}, complete=False, tagged=slice_))
    assert both["clauses"] == {
        "SG-FIRE-06": {"b::t2": "passed"},
        "SG-FIRE-07": {"b::t3": "failed"},
        "SGC-MONEY-08": {"a::t1": "passed"},
    }
    assert set(both["last_complete_run"]) == {"postgresql"}
    assert [run["variant"] for run in both["runs"]] == ["postgresql", "sqlite"]


def test_a_test_whose_tag_was_removed_loses_its_clause():
    tagged = {"a::t1": ("SG-FIRE-06",)}
    first = merge(None, run_of("default", {"a::t1": "passed"}, complete=True, tagged=tagged))
    untagged = Run(variant="default", complete=False, selected={"a::t1"}, tagged={}, outcomes={})
    assert merge(first, untagged)["tests"] == {}


@pytest.mark.parametrize(
    ("phases", "outcome"),
    [
        ({"setup": ("passed", False), "call": ("passed", False), "teardown": ("passed", False)}, "passed"),
        ({"setup": ("passed", False), "call": ("passed", False), "teardown": ("failed", False)}, "failed"),
        ({"setup": ("failed", False)}, "failed"),
        ({"setup": ("skipped", False)}, "skipped"),
        ({"setup": ("passed", False), "call": ("skipped", True)}, "xfailed"),
        ({"setup": ("passed", False), "call": ("passed", True)}, "xpassed"),
        ({"setup": ("passed", False)}, None),
    ],
)
def test_a_tests_outcome_from_its_phases(phases, outcome):
    assert outcome_of(phases) == outcome


def test_a_failure_in_any_variant_settles_the_test_as_failed():
    assert settle(["passed", "failed"]) == "failed"
    assert settle(["skipped", "passed"]) == "passed"
    assert settle(["skipped", "xfailed"]) == "xfailed"
