"""The production profile end to end: gunicorn, a Celery worker and Celery beat on PostgreSQL and Redis."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from tests.celery_worker import current_database_url
from tests.services import redis_url_for_tests

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

PROJECT_DIR = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def production_env(transactional_db, tmp_path) -> dict[str, str]:
    env = {
        **{key: value for key, value in os.environ.items() if key not in {"DEBUG", "ALLOWED_HOSTS"}},
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": current_database_url(),
        "REDIS_URL": redis_url_for_tests(),
        "STATIC_ROOT": str(tmp_path / "static"),
        "SESSION_CLEANUP_SECONDS": "1",
        "CELERY_VISIBILITY_TIMEOUT": "5",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
        timeout=180,
    )
    return env


@contextmanager
def process(args: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(args, cwd=PROJECT_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def wait_for(condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


def test_gunicorn_serves_the_site_and_its_static_files_over_https_only(production_env, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    https = {"X-Forwarded-Proto": "https"}
    args = [str(VENV_BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"]
    with process(args, production_env, tmp_path / "gunicorn.log"):
        wait_for(lambda: get(f"{base}/healthz", https)[0] == 200, "gunicorn to answer /healthz")

        status, headers, body = get(f"{base}/healthz", https)
        assert b'"database": "ok"' in body
        assert b'"redis": "ok"' in body
        assert "max-age=31536000" in headers.get("Strict-Transport-Security", "")

        status, headers, _ = get(f"{base}/healthz")
        assert status == 301
        assert headers["Location"].startswith("https://")

        status, headers, body = get(f"{base}/static/admin/css/base.css", https)
        assert status == 200
        assert headers["Content-Type"].startswith("text/css")
        assert len(body) > 1000

        status, headers, body = get(f"{base}/favicon.ico", https)
        assert status == 200
        assert body[:4] == b"\x00\x00\x01\x00"


def test_beat_schedules_housekeeping_and_the_worker_runs_it(production_env, tmp_path):
    Session.objects.create(session_key="stale", session_data="x", expire_date=timezone.now() - timedelta(days=1))
    celery = str(VENV_BIN / "celery")
    worker = [celery, "-A", "config", "worker", "--pool=solo", "--without-gossip", "--without-mingle", "-l", "INFO"]
    beat = [celery, "-A", "config", "beat", "-l", "INFO", "--schedule", str(tmp_path / "beat-schedule")]
    with (
        process(worker, production_env, tmp_path / "worker.log"),
        process(beat, production_env, tmp_path / "beat.log"),
    ):
        wait_for(lambda: not Session.objects.filter(session_key="stale").exists(), "beat -> worker -> cleanup", 90)
    assert "accounts.tasks.clear_expired_sessions" in (tmp_path / "beat.log").read_text()
