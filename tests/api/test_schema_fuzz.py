"""Schemathesis over the whole API schema (``/api/schema/``), signed in as a player and again as the umpire: every
operation gets a bounded number of generated requests, schema-true ones against the campaign's real objects and
schema-breaking ones (a number where a string goes, a missing field, a word for an id), with a fixed seed. The
schema must be true: no server error, no status the operation does not document, no response the schema does
not describe, every schema-breaking request refused with a 4xx.

The operations are read from the schema, so an endpoint added later is fuzzed too. The figures of each run
(operations, requests, server errors, failures) are printed at the end of the pytest output."""

from __future__ import annotations

import json
import secrets
import string
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api_world import World, api_world

pytestmark = pytest.mark.django_db

# Per operation and way of generating: small enough that both runs stay within a couple of minutes on 2 cores.
EXAMPLES = 6
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,  # the same requests on every run: a failure here is reproducible, never a flake
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: every failure is collected, not minimised
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)
# The name of the report property that carries each run's figures to the terminal summary (tests/api/conftest.py).
SUMMARY = "schemathesis"


@dataclass
class RunFigures:
    operations: int = 0
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)  # one example of each distinct failure
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    def line(self, who: str) -> str:
        spread = ", ".join(f"{status}: {n}" for status, n in sorted(self.statuses.items()))
        return (
            f"schemathesis as {who}: {self.operations} operations, {self.requests} requests, "
            f"{self.server_errors} server errors, {len(self.failures)} distinct failures "
            f"in {self.seconds:.0f} s ({spread})"
        )


@pytest.fixture
def world(django_capture_on_commit_callbacks: Any) -> World:
    return api_world(lambda: django_capture_on_commit_callbacks(execute=True))


@contextmanager
def in_process_requests() -> Iterator[None]:
    """The WSGI app shares the test's connection and transaction, as Django's test client does: the handler's
    close_old_connections would otherwise close the connection in the middle of the test's transaction."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def session_of(user: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The cookies and headers of a signed-in browser: the session and a CSRF token (the API's writes need it)."""
    client = Client()
    client.force_login(user)
    token = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    return {"sessionid": client.cookies["sessionid"].value, "csrftoken": token}, {"X-CSRFToken": token}


def failure_text(failure: Failure) -> str:
    return f"{failure.title}: {failure.message}"[:1500]


def fuzz(schema: Any, app: Any, world: World, user: Any) -> RunFigures:
    cookies, headers = session_of(user)
    figures = RunFigures()
    started = time.monotonic()

    def send(case: Any) -> None:
        # Each request in a savepoint rolled back after it: a write (or PostgreSQL's aborted transaction after
        # an error) never carries over to the next request, so every request meets the same campaign.
        with transaction.atomic():
            response = case.call(app=app, cookies=cookies, headers=headers)
            transaction.set_rollback(True)
        figures.requests += 1
        figures.statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except FailureGroup as group:
            mode = case.meta.generation.mode.value if case.meta else "?"
            for failure in group.exceptions:
                key = f"{case.method} {case.path} [{mode}] {failure.title}"
                figures.failures.setdefault(key, f"{case.as_curl_command()}\n{failure_text(failure)}")

    for result in schema.get_all_operations():
        operation = result.ok()
        figures.operations += 1
        real = {name: value for name, value in world.ids.items() if f"{{{name}}}" in operation.path}
        strategies = [
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=real),  # the campaign's objects
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=real),  # bad bodies and queries
            operation.as_strategy(GenerationMode.NEGATIVE),  # bad ids too
        ]
        for strategy in strategies:
            # Unsatisfiable: nothing of this operation to break (no parameters, no body); its other runs cover it.
            with suppress(Unsatisfiable):
                given(case=strategy)(FUZZ_SETTINGS(lambda case: send(case)))()
    figures.seconds = time.monotonic() - started
    return figures


@pytest.mark.parametrize("who", ["player", "umpire"])
def test_the_api_answers_as_its_schema_says_to_a_player_and_to_the_umpire(world, who, record_property):
    user = world.alice if who == "player" else world.umpire
    raw = Client().get("/api/schema/", {"format": "json"})
    assert raw.status_code == 200
    document = json.loads(raw.content)
    # The session is the test's own, sent with every request: left in the schema, the cookie would be one more
    # "parameter" to leave out, and a request that carried it anyway counted as bad input accepted.
    document.get("components", {}).pop("securitySchemes", None)
    for item in document["paths"].values():
        for operation in item.values():
            operation.pop("security", None)
    schema = schemathesis.openapi.from_dict(document)
    app = get_wsgi_application()
    with in_process_requests():
        figures = fuzz(schema, app, world, user)
    record_property(SUMMARY, figures.line(who))  # the report carries it to the summary, from an xdist worker too
    print(figures.line(who))

    assert figures.operations >= 40
    assert figures.requests >= figures.operations * EXAMPLES
    assert figures.server_errors == 0, "\n\n".join(figures.failures.values())
    assert figures.failures == {}, "\n\n".join(f"{key}\n{text}" for key, text in figures.failures.items())
