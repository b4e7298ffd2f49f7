"""Start and stop a real Celery worker process for the task tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis
from django.db import connection
from kombu import pools as kombu_pools

from config.celery import app as celery_app

PROJECT_DIR = Path(__file__).resolve().parent.parent


@dataclass
class LiveWorker:
    process: subprocess.Popen[bytes]
    redis_url: str
    database_url: str
    log_path: Path
    ready_marks_seen: int = 1

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: the worker dies mid-task without acknowledging it."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def restart(self) -> None:
        """Start a fresh worker process in place of this one (after kill())."""
        self.process = spawn_worker_process(
            redis_url=self.redis_url, database_url=self.database_url, log_path=self.log_path
        )
        self.ready_marks_seen += 1
        wait_until_ready(self)


def current_database_url() -> str:
    """A URL for the database this test run is using (the test database, not the configured one)."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings.get("USER") or ""
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{settings['NAME']}"


# Test-only tasks the worker loads besides the project's own (see tests/infra/probe_tasks.py).
PROBE_TASKS_MODULE = "tests.infra.probe_tasks"


def spawn_worker_process(*, redis_url: str, database_url: str, log_path: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # A killed worker's unacknowledged task is handed out again after this many seconds.
        "CELERY_VISIBILITY_TIMEOUT": "5",
        "CELERY_RESTORE_INTERVAL": "1",
    }
    log_file = log_path.open("ab")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            f"--include={PROBE_TASKS_MODULE}",
            "-n",
            f"test-{os.getpid()}-{time.time_ns()}@%h",
        ],
        cwd=PROJECT_DIR,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    log_file.close()  # the child keeps its own descriptor
    return process


def start_worker(*, redis_url: str, database_url: str, log_path: Path) -> LiveWorker:
    process = spawn_worker_process(redis_url=redis_url, database_url=database_url, log_path=log_path)
    worker = LiveWorker(process=process, redis_url=redis_url, database_url=database_url, log_path=log_path)
    wait_until_ready(worker)
    return worker


def wait_until_ready(worker: LiveWorker, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            raise RuntimeError(f"celery worker exited with {worker.process.returncode}:\n{worker.log()}")
        if worker.log().count(" ready.") >= worker.ready_marks_seen:
            return
        time.sleep(0.2)
    raise RuntimeError(f"celery worker not ready after {timeout}s:\n{worker.log()}")


def stop_worker(worker: LiveWorker) -> None:
    if worker.process.poll() is None:
        worker.process.send_signal(signal.SIGTERM)
        try:
            worker.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()


@contextmanager
def broker_mode(redis_url: str) -> Iterator[None]:
    """Send this process's tasks through Redis instead of running them eagerly."""
    saved = {key: celery_app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    celery_app.conf.update(broker_url=redis_url, result_backend=redis_url, task_always_eager=False)
    reset_connections()
    try:
        yield
    finally:
        celery_app.conf.update(saved)
        reset_connections()


def reset_connections() -> None:
    """Forget pooled broker connections and the cached result backend after the URLs changed."""
    kombu_pools.reset()
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app._backend_cache = None
    celery_app._local.__dict__.pop("backend", None)


@contextmanager
def running_worker(*, redis_url: str, database_url: str) -> Iterator[LiveWorker]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()  # the test Redis database holds nothing but this run's queues and results
    client.close()
    log_dir = PROJECT_DIR / "var" / "test-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"celery-worker-{os.getpid()}-{time.time_ns()}.log"
    worker = start_worker(redis_url=redis_url, database_url=database_url, log_path=log_path)
    try:
        with broker_mode(redis_url):
            yield worker
    finally:
        stop_worker(worker)
