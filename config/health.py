"""GET /healthz: is the database answering, and Redis when it is configured.

200 with {"status": "ok", "checks": {...}} when every configured dependency answers; 503 naming the one
that failed otherwise. It needs no session and reveals nothing beyond up or down.
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

log = logging.getLogger(__name__)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    healthy = True
    for name, check in (("database", check_database), ("redis", check_redis)):
        try:
            checks[name] = check()
        except Exception:  # any failure of a dependency means unhealthy; the log keeps the detail
            log.exception("healthz: %s check failed", name)
            checks[name] = "unavailable"
            healthy = False
    status = "ok" if healthy else "unavailable"
    return JsonResponse({"status": status, "checks": checks}, status=200 if healthy else 503)
