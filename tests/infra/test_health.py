"""GET /healthz: the database, and Redis when configured."""

from __future__ import annotations

import pytest

from tests.services import redis_url_for_tests


@pytest.mark.django_db
def test_healthy_with_the_embedded_default(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": "not configured"}}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_unhealthy_when_the_configured_redis_does_not_answer(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "checks": {"database": "ok", "redis": "unavailable"}}


@pytest.mark.django_db
@pytest.mark.redis
def test_healthy_with_a_real_redis(client, settings):
    settings.REDIS_URL = redis_url_for_tests()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "redis": "ok"}


@pytest.mark.django_db
def test_only_get_is_allowed(client):
    assert client.post("/healthz").status_code == 405
