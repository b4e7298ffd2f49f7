"""Settings: one module, driven by the environment, with embedded defaults.

With no environment at all the site runs as a development server on SQLite (WAL, immediate transactions),
Celery tasks run eagerly in-process and the cache is local memory. Each variable below switches one part
to its production form; README.md lists them.

    DJANGO_ENV=production   secure defaults (DEBUG off, HTTPS-only cookies, HSTS); SECRET_KEY required
    SECRET_KEY              signing key
    DATABASE_URL            postgres://... for PostgreSQL (anything dj-database-url reads)
    REDIS_URL               redis://... for the Celery broker and result backend and the cache
    ALLOWED_HOSTS           comma-separated host names
    CSRF_TRUSTED_ORIGINS    comma-separated origins (https://club.example)
    EMAIL_HOST ...          SMTP instead of the console email backend
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Lets the admin, forms and DRF generics be written with type arguments (ModelAdmin[Campaign]) at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("RED_CAPTAIN_VAR_DIR", BASE_DIR / "var"))


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DJANGO_ENV = env_str("DJANGO_ENV", "development")
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV must be 'development' or 'production', not {DJANGO_ENV!r}")
PRODUCTION = DJANGO_ENV == "production"

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

DEBUG = env_bool("DEBUG", not PRODUCTION)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Campaign chat webhooks may post to loopback/private addresses only in development (tests post to a local
# server); in production an umpire's URL must be public https.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", not PRODUCTION)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "accounts",
    "campaign",
    "strategic_map",
    "battles",
    # Above campaign and strategic_map: the whole-campaign export and import (its commands).
    "campaign_transfer",
]
# A ruleset package with a Django face of its own (its management commands, in battles/rules/<package>/management/) is
# an app too. Found on disk, so no ruleset is named here (DESIGN.md 3b); its pure modules stay pure (pyproject's
# import contract lets only battles.rules.*.management import Django).
INSTALLED_APPS += sorted(
    f"battles.rules.{found.name}"
    for found in (BASE_DIR / "battles" / "rules").iterdir()
    if found.is_dir() and not found.name.startswith("_") and (found / "management" / "commands").is_dir()
)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Straight after SecurityMiddleware, as WhiteNoise asks: the static files (see WHITENOISE_* below).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A NUL or other control character in a path is a 404 before any view (and any database) sees it.
    "config.paths.control_characters_not_found",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its lockout response.
    "axes.middleware.AxesMiddleware",
]

# WhiteNoise serves the static files in every environment, so that `make run` (runserver) and gunicorn serve them
# the same way: "whitenoise.runserver_nostatic" above stops runserver's own static handler from shadowing it.
# In production it serves the collected, compressed, cache-busted files from STATIC_ROOT; in development it
# finds each file in the source folders at request time (USE_FINDERS, AUTOREFRESH), so no collectstatic is needed
# and an edited stylesheet shows on the next reload. Tied to DJANGO_ENV and not to DEBUG (WhiteNoise's default),
# so a development server run with DEBUG=false, or under pytest-django (which turns DEBUG off), still finds them.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaign.context_processors.notifications",
            ],
        },
    },
]


# --- Database -----------------------------------------------------------------------------------------


def sqlite_database(path: Path) -> dict[str, Any]:
    """The embedded default: WAL so readers never block the writer, and IMMEDIATE transactions so two
    writers queue on the lock at BEGIN instead of failing mid-transaction with 'database is locked'."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=20000",
        },
        # A file (not :memory:) so that a test's Celery worker process can share it; one per test run.
        "TEST": {"NAME": VAR_DIR / f"test-db-{os.getpid()}.sqlite3"},
    }


DATABASE_URL = env_str("DATABASE_URL")
DATABASES: dict[str, Any]
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True),
    }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {"default": sqlite_database(VAR_DIR / "db.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# --- Redis, cache and Celery --------------------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "red-captain"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
# No broker configured: run every task in-process at .delay() time, errors raised to the caller.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged only after it finished, and a worker that dies mid-task gives the message back:
# every task is written to be safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# With Redis, a message a dead worker took is handed out again once it has been unacknowledged for the
# visibility timeout; the sweep that looks for such messages runs every restore interval. The timeout must
# outlast the longest task (ours take seconds; a duplicate run is harmless anyway, tasks are idempotent).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = timedelta(days=1)
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "clear-expired-sessions": {
        "task": "accounts.tasks.clear_expired_sessions",
        "schedule": float(env_int("SESSION_CLEANUP_SECONDS", 6 * 3600)),
    },
    # Sides that let a battle deadline pass get the battle's default answer (battles.services).
    "battle-deadlines": {
        "task": "battles.apply_deadlines",
        "schedule": float(env_int("BATTLE_DEADLINE_SECONDS", 60)),
    },
    "battle-deadline-reminders": {
        "task": "battles.remind_deadlines",
        "schedule": float(env_int("BATTLE_REMINDER_SECONDS", 15 * 60)),
    },
    # Campaigns whose next day is due tick it (strategic_map.tick): every ship at sea sails the day.
    "tick-due-campaigns": {
        "task": "strategic_map.tick_due_campaigns",
        "schedule": float(env_int("CAMPAIGN_TICK_SECONDS", 60)),
    },
    # Encounter battles that finished but whose result a lost message never carried back (strategic_map.arrival).
    "encounter-results-sweep": {
        "task": "strategic_map.encounter_results_sweep",
        "schedule": float(env_int("ENCOUNTER_SWEEP_SECONDS", 5 * 60)),
    },
}
# The daily tick sails the ships at sea this many voyages to a transaction (a bounded number of queries each).
TICK_CHUNK_SIZE = env_int("TICK_CHUNK_SIZE", 200)
# Test-only: hold each chunk's transaction open this many milliseconds, so that a test can kill a worker mid-tick.
TICK_TEST_CHUNK_PAUSE_MS = env_int("TICK_TEST_CHUNK_PAUSE_MS", 0)


# --- Accounts ------------------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Sign-in rate limit (django-axes): after AXES_FAILURE_LIMIT failures for one user name from one address,
# that pair is locked out for the cool-off period.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client's address behind this many reverse proxies: the one the outermost proxy appended to X-Forwarded-For
# (accounts/client_address.py; axes' own AXES_IPWARE_* settings need django-ipware, which is not installed).
AXES_IPWARE_PROXY_COUNT = env_int("AXES_PROXY_COUNT", 1 if PRODUCTION else 0)
AXES_CLIENT_IP_CALLABLE = "accounts.client_address.client_address"
AXES_VERBOSE = False

EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Red Captain <umpire@red-captain.invalid>")


# --- API -------------------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # The API's conventions (config/api.py, config/api_schema.py): bounded JSON bodies, validated pages, a detail
    # in every refusal, and a schema that documents every status an operation answers.
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.ApiAutoSchema",
    "DEFAULT_PARSER_CLASSES": ["config.api.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "config.api.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api.api_exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Red Captain API",
    "DESCRIPTION": "Campaigns, captains, voyages and battles for Red Captain privateer campaigns.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the drf-spectacular-sidecar package: the docs page loads nothing from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies get their own components, so a required string's minLength (it may not be blank) is in the
    # request's schema and not claimed of every response.
    "COMPONENT_SPLIT_REQUEST": True,
}


# --- Static files, i18n -------------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
# Files served at the site's root rather than under STATIC_URL: /favicon.ico, which browsers and tools ask
# for unprompted (pages name static/favicon.svg).
WHITENOISE_ROOT = BASE_DIR / "public"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# The tactical ruleset a battle or a campaign gets when none is chosen (a key of battles.engine.ruleset's registry).
DEFAULT_RULESET = "sky_galleons"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True


# --- Security ------------------------------------------------------------------------------------------

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # HTMX reads the token from the page, not the cookie; Django's default.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}
