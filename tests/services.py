"""Which real services the test run can use.

``python -m tests.services database-url`` prints the PostgreSQL URL for the test run when PostgreSQL
answers, else an empty line (the suite then runs on SQLite and the PostgreSQL-only tests skip). With
CI=true a missing PostgreSQL or Redis is an error: it exits 1 and the run stops, instead of skipping.
``python -m tests.services redis-url`` does the same for Redis.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def database_url_for_tests() -> str:
    return os.environ.get("TEST_DATABASE_URL", DEFAULT_DATABASE_URL)


def redis_url_for_tests() -> str:
    """The test Redis database; under pytest-xdist each worker takes its own, counting down from the one
    named (gw0 15, gw1 14, ...), because the task tests flush it and their Celery workers share its queues."""
    url = os.environ.get("TEST_REDIS_URL", DEFAULT_REDIS_URL)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return url
    parts = urlsplit(url)
    db = (int(parts.path.strip("/") or 0) - int(worker[2:])) % 16
    return urlunsplit(parts._replace(path=f"/{db}"))


def postgres_problem(url: str) -> str | None:
    """None when PostgreSQL answers at ``url``, else why not."""
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure means "not usable"; the message says which
        return f"{type(exc).__name__}: {exc}".strip()
    return None


def redis_problem(url: str) -> str | None:
    """None when Redis answers PING at ``url``, else why not."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    except Exception as exc:  # any failure means "not usable"
        return f"{type(exc).__name__}: {exc}".strip()
    finally:
        client.close()
    return None


def main(argv: list[str]) -> int:
    what = argv[1] if len(argv) > 1 else ""
    if what == "database-url":
        url, problem = database_url_for_tests(), postgres_problem(database_url_for_tests())
        name = "PostgreSQL"
    elif what == "redis-url":
        url, problem = redis_url_for_tests(), redis_problem(redis_url_for_tests())
        name = "Redis"
    else:
        print("usage: python -m tests.services database-url|redis-url", file=sys.stderr)
        return 2
    if problem is None:
        print(url)
        return 0
    if in_ci():
        print(f"CI=true but {name} is not reachable at {url}: {problem}", file=sys.stderr)
        return 1
    print(f"note: {name} is not reachable at {url} ({problem}); its tests will skip", file=sys.stderr)
    print("")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
