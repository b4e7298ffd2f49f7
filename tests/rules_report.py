"""A pytest plugin: at the end of a session, record how every test tagged ``@pytest.mark.rule(...)`` ended.

It writes (merges into) the rule-results report, var/test-results/rules.json by default (``--rules-report PATH``
elsewhere, ``--no-rules-report`` not at all), which ``manage.py rules_coverage`` reads. The format and the merge
policy across partial runs are battles/rule_results.py's. The suite loads it from tests/conftest.py, which also
names the run's variant (the database vendor); on its own it runs as ``pytest -p tests.rules_report``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from battles.rule_results import FAILED, Run, outcome_of, record, report_path

VARIANT = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rules-report", "rule-results report (manage.py rules_coverage)")
    group.addoption("--rules-report", metavar="PATH", help="where to merge this run's results of rule-tagged tests")
    group.addoption("--no-rules-report", action="store_true", help="do not record this run's rule-tagged results")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(clause, ...): the rule clause(s) from CHECKLIST.md this test checks")
    if config.getoption("no_rules_report"):
        return
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: it tells the controller what it collected
        config.pluginmanager.register(WorkerCollection(config), "rules-report-worker")
        return
    config.pluginmanager.register(RulesReport(config), "rules-report-recorder")


def rule_clauses(item: pytest.Item) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c for marker in item.iter_markers(name="rule") for c in marker.args))


class WorkerCollection:
    """Under pytest-xdist the controller collects nothing: each worker sends it, when it finishes, the tests
    it collected, their clauses and how many were deselected (every worker collects the same tests)."""

    def __init__(self, config: pytest.Config) -> None:
        self.output: dict[str, object] = config.workeroutput  # type: ignore[attr-defined]
        self.deselected = 0

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected += len(items)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        tagged = {item.nodeid: list(rule_clauses(item)) for item in session.items}
        self.output["rules_selected"] = list(tagged)
        self.output["rules_tagged"] = {node_id: clauses for node_id, clauses in tagged.items() if clauses}
        self.output["rules_deselected"] = self.deselected


def _git_commit(root: Path) -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True)
    return done.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


class RulesReport:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.selected: set[str] = set()
        self.tagged: dict[str, tuple[str, ...]] = {}
        self.phases: dict[str, dict[str, tuple[str, bool]]] = {}
        self.deselected = 0
        self.collection_failed = False
        self.written: Path | None = None

    def path(self) -> Path:
        given = self.config.getoption("rules_report")
        if given:
            return Path(given)
        var_dir = os.environ.get("RED_CAPTAIN_VAR_DIR")  # the same place settings.VAR_DIR names
        return report_path(Path(var_dir) if var_dir else self.config.rootpath / "var")

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected += len(items)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collection_failed = True

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            self.selected.add(item.nodeid)
            clauses = rule_clauses(item)
            if clauses:
                self.tagged[item.nodeid] = clauses

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: object, error: object) -> None:
        """A pytest-xdist worker finished: take what it collected (see WorkerCollection)."""
        output = getattr(node, "workeroutput", {})
        if "rules_selected" not in output:  # the worker died before it collected
            self.collection_failed = True
            return
        self.selected.update(output["rules_selected"])
        self.tagged.update({node_id: tuple(clauses) for node_id, clauses in output["rules_tagged"].items()})
        self.deselected = max(self.deselected, output["rules_deselected"])

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # Every test's phases are kept: under xdist the reports arrive before the workers say which are tagged.
        outcome = FAILED if report.outcome == "failed" else report.outcome
        self.phases.setdefault(report.nodeid, {})[report.when] = (outcome, hasattr(report, "wasxfail"))

    def run(self, exitstatus: int) -> Run:
        outcomes = {node_id: outcome_of(self.phases[node_id]) for node_id in self.tagged if node_id in self.phases}
        finished = {node_id: outcome for node_id, outcome in outcomes.items() if outcome is not None}
        config = self.config
        complete = (
            config.args_source != pytest.Config.ArgsSource.ARGS  # the testpaths, or the directory
            and not config.getoption("keyword")
            and not config.getoption("markexpr")
            and not self.deselected
            and not self.collection_failed
            and exitstatus != pytest.ExitCode.INTERRUPTED
            and len(finished) == len(self.tagged)
        )
        return Run(
            variant=config.stash.get(VARIANT, "default"),
            complete=bool(complete),
            selected=self.selected,
            tagged=self.tagged,
            outcomes=finished,
            args=list(config.invocation_params.args),
            commit=_git_commit(config.rootpath),
        )

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if not self.selected:  # --collect-only, or nothing collected: nothing ran, nothing to record
            return
        if session.config.getoption("collectonly"):
            return
        path = self.path()
        record(path, self.run(exitstatus))
        self.written = path

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.written is not None:
            recorded = len(self.tagged.keys() & self.phases.keys())
            terminalreporter.write_line(f"rule results: {recorded} tagged tests recorded in {self.written}")
