"""Suite-wide test configuration.

Real services, never mocks: tests marked ``postgres`` need the run's database to be PostgreSQL and tests
marked ``redis`` need a Redis server (and start a real Celery worker). Outside CI they skip with the
reason; with CI=true they fail instead, so a green CI means they really ran.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from battles.checklist import checklist_clauses
from tests.celery_worker import LiveWorker, current_database_url, running_worker
from tests.services import in_ci, redis_problem, redis_url_for_tests

TESTS_DIR = Path(__file__).resolve().parent

# The embedded-default slice: these folders also run on SQLite in every `make test` (marker `sqlite`).
# The battle clock and its reminders run under `make run` too (the beat's tasks, eager), on SQLite.
SQLITE_SLICE = (
    "accounts",
    "campaign",
    "reference",
    "infra/test_settings.py",
    "infra/test_health.py",
    "battles/test_battle_notifications.py",
    "battles/test_battle_clock.py",
)

# Every session records how its rule-tagged tests ended (var/test-results/rules.json, read by rules_coverage).
pytest_plugins = ["tests.rules_report"]


def pytest_sessionstart(session: pytest.Session) -> None:
    # The rule results are merged per database: the SQLite slice of `make test` adds to the PostgreSQL run.
    from tests.rules_report import VARIANT  # imported here: pytest_plugins loads (and assert-rewrites) it first

    session.config.stash[VARIANT] = connection.vendor


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    known = checklist_clauses()
    for item in items:
        relative = Path(str(item.fspath)).resolve().relative_to(TESTS_DIR).as_posix()
        # A test that needs PostgreSQL (row locks raced by threads) is not part of the SQLite slice.
        if relative.startswith(SQLITE_SLICE) and not item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.sqlite)
        for marker in item.iter_markers(name="rule"):
            unknown = [clause for clause in marker.args if clause not in known]
            if unknown or not marker.args:
                raise pytest.UsageError(f"{item.nodeid}: rule marker names unknown clauses {unknown or '(none)'}")


def skip_or_fail(reason: str) -> None:
    """Outside CI a missing service skips the test; in CI it is a failure."""
    if in_ci():
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _require_marked_services(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        skip_or_fail(f"needs PostgreSQL (this run's database is {connection.vendor}); set TEST_DATABASE_URL")
    if request.node.get_closest_marker("redis"):
        problem = redis_problem(redis_url_for_tests())
        if problem:
            skip_or_fail(f"needs Redis at {redis_url_for_tests()}: {problem}")


@pytest.fixture(autouse=True)
def _seeded_battles(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every battle a database test starts gets a seed fixed by the test's name and the battle's place in it.

    With fresh random seeds a test about one thing met, once in a hundred runs, dice that changed its
    premise (a crew stunned before the move the test makes, SG-CRIT-37): a rule working, not the one under
    test. Random play over many seeds is the conformance suite's work. A test that needs particular dice
    still patches ``dice.new_seed`` itself, after this.
    """
    on_database = {"db", "transactional_db"} & set(request.fixturenames) or request.node.get_closest_marker("django_db")
    if not on_database:
        yield  # no database, no battle: the pure tests keep the real dice (tests/engine/test_dice.py)
        return
    from battles.engine import dice

    count = itertools.count()

    def seed_of_this_test() -> bytes:
        return hashlib.sha256(f"{request.node.nodeid}#{next(count)}".encode()).digest()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dice, "new_seed", seed_of_this_test)
        yield


@pytest.fixture
def live_celery_worker(transactional_db: None) -> Iterator[LiveWorker]:
    """A real ``celery worker`` process on Redis, sharing this test's database.

    The test process is switched from eager mode to the broker for the duration of the test, so
    ``task.delay()`` really crosses Redis to the worker. Data must be committed to be seen by the
    worker: the fixture asks for ``transactional_db``.
    """
    problem = redis_problem(redis_url_for_tests())
    if problem:
        skip_or_fail(f"needs Redis at {redis_url_for_tests()}: {problem}")
    with running_worker(redis_url=redis_url_for_tests(), database_url=current_database_url()) as worker:
        yield worker


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """PBKDF2's deliberate slowness buys nothing in tests; subprocess servers keep the real hashers."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


SERVICE_MARKERS = ("postgres", "redis", "browser", "sqlite")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Say how many tests of each real-service kind ran and passed, so a CI log proves they executed."""
    counts = {marker: {"passed": 0, "skipped": 0, "failed": 0} for marker in SERVICE_MARKERS}
    for outcome in ("passed", "skipped", "failed", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            keywords = getattr(report, "keywords", {})
            for marker in SERVICE_MARKERS:
                if marker in keywords:
                    counts[marker]["failed" if outcome == "error" else outcome] += 1
    terminalreporter.section("real services")
    terminalreporter.write_line(f"database: {connection.vendor}")
    for marker, numbers in counts.items():
        terminalreporter.write_line(
            f"{marker:9} passed {numbers['passed']:4}  skipped {numbers['skipped']:4}  failed {numbers['failed']:4}"
        )
