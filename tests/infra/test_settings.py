"""Settings come from the environment, with embedded defaults (README: Configuration)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.backends.sqlite3.base import DatabaseWrapper

from config.settings import sqlite_database
from tests.services import redis_url_for_tests

PROJECT_DIR = Path(__file__).resolve().parents[2]

# Variables a developer's shell or CI may have set; each subprocess starts without them.
ENV_SWITCHES = (
    "DJANGO_ENV",
    "SECRET_KEY",
    "DEBUG",
    "DATABASE_URL",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "EMAIL_HOST",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {key: value for key, value in os.environ.items() if key not in ENV_SWITCHES}
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); from django.conf import settings; {code}"],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def settings_json(expression: str, **env: str) -> object:
    result = run_django(f"import json; print(json.dumps({expression}, default=str))", **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production_env() -> dict[str, str]:
    return {
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "club.example",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
        "REDIS_URL": "redis://127.0.0.1:6379/15",
    }


def test_the_embedded_default_is_sqlite_with_eager_tasks_and_a_local_cache():
    found = settings_json(
        "[settings.DATABASES['default']['ENGINE'], settings.CELERY_TASK_ALWAYS_EAGER,"
        " settings.CACHES['default']['BACKEND'], settings.DEBUG]"
    )
    assert found == ["django.db.backends.sqlite3", True, "django.core.cache.backends.locmem.LocMemCache", True]


def test_database_url_selects_postgresql_and_redis_url_the_broker_and_cache():
    found = settings_json(
        "[settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'],"
        " settings.CELERY_TASK_ALWAYS_EAGER, settings.CELERY_BROKER_URL, settings.CACHES['default']['BACKEND']]",
        DATABASE_URL="postgres://club:pw@db.internal:5432/redcaptain",
        REDIS_URL="redis://cache.internal:6379/2",
    )
    assert found == [
        "django.db.backends.postgresql",
        "redcaptain",
        False,
        "redis://cache.internal:6379/2",
        "django.core.cache.backends.redis.RedisCache",
    ]


def test_tasks_are_acknowledged_late_and_given_back_when_a_worker_dies():
    found = settings_json(
        "[settings.CELERY_TASK_ACKS_LATE, settings.CELERY_TASK_REJECT_ON_WORKER_LOST]",
        REDIS_URL="redis://127.0.0.1:6379/15",
    )
    assert found == [True, True]


def test_whitenoise_serves_static_files_in_development_from_the_sources_and_in_production_collected():
    expression = (
        "['whitenoise.middleware.WhiteNoiseMiddleware' in settings.MIDDLEWARE, settings.WHITENOISE_USE_FINDERS,"
        " settings.WHITENOISE_AUTOREFRESH, settings.STORAGES['staticfiles']['BACKEND']]"
    )
    # Development, also with DEBUG off: no collectstatic needed, runserver is styled.
    assert settings_json(expression, DEBUG="false") == [
        True,
        True,
        True,
        "django.contrib.staticfiles.storage.StaticFilesStorage",
    ]
    assert settings_json(expression, **production_env()) == [
        True,
        False,
        False,
        "whitenoise.storage.CompressedManifestStaticFilesStorage",
    ]


def test_the_sqlite_default_runs_in_wal_mode_with_immediate_transactions(tmp_path):
    settings_dict = {
        **sqlite_database(tmp_path / "embedded.sqlite3"),
        "ATOMIC_REQUESTS": False,
        "AUTOCOMMIT": True,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "TIME_ZONE": None,
        "USER": "",
        "PASSWORD": "",
        "HOST": "",
        "PORT": "",
    }
    wrapper = DatabaseWrapper(settings_dict, alias="embedded-check")
    # Open the raw connection the way Django does, outside pytest-django's guard on the test database.
    raw = wrapper.get_new_connection(wrapper.get_connection_params())
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA busy_timeout").fetchone()[0] == 20000
        assert wrapper.transaction_mode == "IMMEDIATE"
    finally:
        raw.close()


def test_production_requires_a_secret_key():
    result = run_django("print('started')", DJANGO_ENV="production")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_malformed_boolean_is_a_clear_configuration_error():
    result = run_django("print('started')", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_check_deploy_reports_nothing_for_the_production_profile():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=PROJECT_DIR,
        env={**{k: v for k, v in os.environ.items() if k not in ENV_SWITCHES}, **production_env()},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.parametrize("bad_env", [{"DJANGO_ENV": "staging"}, {"AXES_FAILURE_LIMIT": "five"}])
def test_unknown_or_malformed_values_stop_the_start(bad_env):
    result = run_django("print('started')", **bad_env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


@pytest.mark.parametrize(
    ("named", "worker", "taken"),
    [
        ("redis://127.0.0.1:6379/15", "", "redis://127.0.0.1:6379/15"),  # one process: the database named
        ("redis://127.0.0.1:6379/15", "gw0", "redis://127.0.0.1:6379/15"),
        ("redis://127.0.0.1:6379/15", "gw3", "redis://127.0.0.1:6379/12"),
        ("redis://:pw@host:6380/1", "gw2", "redis://:pw@host:6380/15"),  # counting down wraps past 0
        ("redis://127.0.0.1:6379", "gw1", "redis://127.0.0.1:6379/15"),  # no database named is database 0
    ],
)
def test_each_xdist_worker_takes_its_own_redis_database(monkeypatch, named, worker, taken):
    """The task tests flush the test Redis database and their Celery workers share its queues: two pytest-xdist
    workers on one database would take each other's tasks (README, Testing)."""
    monkeypatch.setenv("TEST_REDIS_URL", named)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    assert redis_url_for_tests() == taken
