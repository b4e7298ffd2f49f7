"""Bad input gets a clear 4xx, never a 500, on every page and every API operation: a deeply nested JSON body, an
integer far beyond any database's (``?limit=1e20``, ``?after=100000000000000000000``), a NUL byte in a path
(``/join/%00/``), a word where an id goes, an OPTIONS request. The API answers JSON with a ``detail``.

Generic on purpose: the operations come from the OpenAPI schema and the pages from the URLconf, so a page or an
endpoint added later is walked too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern
from drf_spectacular.generators import SchemaGenerator

from tests.api_world import World, api_world

pytestmark = pytest.mark.django_db

HUGE = "100000000000000000000"  # 10**20: past a bigint, which ends at about 9.2 * 10**18
HUGE_INTEGERS = (HUGE, "-" + HUGE, "1e20")
DEEP = 5000  # levels of nesting: deeper than the interpreter's recursion limit
WRITE_METHODS = ("post", "put", "patch")
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@pytest.fixture
def world(django_capture_on_commit_callbacks: Any) -> World:
    return api_world(lambda: django_capture_on_commit_callbacks(execute=True))


class IsolatedClient(Client):
    """Each request in a savepoint rolled back after it: one request's database error (PostgreSQL aborts the
    transaction) or write never reaches the next."""

    def request(self, **request: Any) -> Any:
        with transaction.atomic():
            response = super().request(**request)
            transaction.set_rollback(True)
        return response


def signed_in(user: Any) -> Client:
    client = IsolatedClient(raise_request_exception=False)
    client.force_login(user)
    return client


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def filled(path: str, ids: dict[str, Any]) -> str:
    """An OpenAPI path with the world's objects in it."""
    return re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)


def problem(response: Any, *, api: bool) -> str | None:
    """What is wrong with the answer to bad input, or None: a 4xx, and from the API JSON with a detail."""
    if response.status_code >= 500:
        return f"{response.status_code}"
    if not api or response.status_code < 400:
        return None
    if not response["Content-Type"].startswith("application/json"):
        return f"{response.status_code} answered {response['Content-Type']}, not JSON"
    body = response.json()
    if not isinstance(body, dict) or not isinstance(body.get("detail"), str):
        return f"{response.status_code} without a detail: {str(body)[:120]}"
    return None


def url_routes() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """Every route of the URLconf (outside the admin) as (route, [(converter, name), ...])."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[str]:
        for entry in patterns:
            if not isinstance(entry.pattern, RoutePattern):
                continue
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                if not route.startswith("admin/"):
                    yield from walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern):
                yield route

    for route in walk(get_resolver().url_patterns, ""):
        yield route, [(m.group("converter") or "str", m.group("name")) for m in PARAMETER.finditer(route)]


def routed(route: str, values: dict[str, str], ids: dict[str, Any]) -> str:
    """The route with ``values`` for its converters (by converter name) and the world's ids elsewhere."""

    def value(m: re.Match[str]) -> str:
        converter = m.group("converter") or "str"
        return values.get(converter, str(ids.get(m.group("name"), 1)))

    return "/" + PARAMETER.sub(value, route)


def test_a_deeply_nested_json_body_is_a_400_on_every_operation_that_takes_one(world):
    client = signed_in(world.alice)
    deep = "[" * DEEP + "]" * DEEP
    failures = []
    for path, method, operation in operations():
        if method not in WRITE_METHODS or "requestBody" not in operation:
            continue
        response = getattr(client, method)(filled(path, world.ids), deep, content_type="application/json")
        wrong = problem(response, api=True)
        if wrong or response.status_code not in (400, 403, 404):
            failures.append(f"{method.upper()} {path}: {wrong or response.status_code}")
    assert failures == [], "\n".join(failures)


def test_an_integer_query_parameter_out_of_bounds_is_a_400(world):
    """``limit``, ``offset``, ``after`` and every other integer in a query: past any bound is a 400 with a detail,
    and a bound is always there (the pagination has its maximum)."""
    client = signed_in(world.umpire)
    failures, tried = [], 0
    for path, method, operation in operations():
        if method != "get":
            continue
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query" or parameter.get("schema", {}).get("type") != "integer":
                continue
            # The other required parameters as they should be, so the bad one is what is answered.
            query = {
                other["name"]: world.ids.get(other["name"], 1)
                for other in operation["parameters"]
                if other["in"] == "query" and other.get("required") and other is not parameter
            }
            for value in HUGE_INTEGERS:
                tried += 1
                response = client.get(filled(path, world.ids), {**query, parameter["name"]: value})
                wrong = problem(response, api=True)
                if wrong or response.status_code != 400:
                    failures.append(f"GET {path}?{parameter['name']}={value}: {wrong or response.status_code}")
    assert tried >= 3 * 3  # at least the paginated list's limit and offset and the battle log's after
    assert failures == [], "\n".join(failures)


def test_every_paginated_list_has_a_maximum_page(world):
    client = signed_in(world.umpire)
    for path, method, operation in operations():
        names = {p["name"] for p in operation.get("parameters", [])}
        if method == "get" and "limit" in names and "offset" in names:
            response = client.get(filled(path, world.ids), {"limit": 10**6})
            assert response.status_code == 400, path
            assert "limit" in response.json()["detail"]


def test_a_nul_byte_or_a_huge_number_in_any_path_is_a_4xx(world):
    """Every route of the URLconf, pages and API: NUL in each text parameter (``/join/%00/``), 10**20 in each id."""
    client = signed_in(world.alice)
    failures = []
    for route, parameters in url_routes():
        if not parameters:
            continue
        for values in ({"str": "%00", "path": "%00"}, {"int": HUGE}, {"str": "a%00b", "slug": "a%00b"}):
            url = routed(route, values, world.ids)
            wrong = problem(client.get(url), api=url.startswith("/api/"))
            if wrong:
                failures.append(f"GET {url}: {wrong}")
    assert failures == [], "\n".join(failures)


def test_a_word_where_the_api_wants_an_id_is_a_json_404(world):
    client = signed_in(world.alice)
    failures = []
    for route, parameters in url_routes():
        if not route.startswith("api/") or not any(converter == "int" for converter, _ in parameters):
            continue
        response = client.get(routed(route, {"int": "abc"}, world.ids))
        wrong = problem(response, api=True)
        if wrong or response.status_code != 404:
            failures.append(f"{route}: {wrong or response.status_code}")
    assert failures == [], "\n".join(failures)
    assert problem(client.get("/api/no-such-thing/"), api=True) is None
    assert client.get("/api/me").headers["Location"] == "/api/me/"  # a missing final slash is still forgiven


def test_options_on_every_api_route_is_not_a_500(world):
    client = signed_in(world.alice)
    failures = []
    for route, _ in url_routes():
        if route.startswith("api/"):
            url = routed(route, {}, world.ids)
            response = client.options(url)
            if response.status_code >= 500:
                failures.append(f"OPTIONS {url}: {response.status_code}")
    assert failures == [], "\n".join(failures)


# Scalars: a list or object field may be free-form JSON the service checks itself (a voyage's plan, previewed).
WRONG_TYPE = {"string": 0, "integer": "1", "boolean": "true"}


def request_properties(document: dict[str, Any], operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The top-level properties of an operation's JSON body, their $refs resolved."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    while "$ref" in body:
        body = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    properties = {}
    for name, prop in body.get("properties", {}).items():
        while "$ref" in prop:
            prop = document["components"]["schemas"][prop["$ref"].rsplit("/", 1)[-1]]
        if not prop.get("readOnly"):
            properties[name] = prop
    return properties


def test_every_body_field_of_the_wrong_json_type_is_refused_by_name(world):
    """Every operation's body, every string, integer and boolean field of it given a JSON value of another type (a
    number for a string, a string for a number or a boolean): a 400 naming each of those fields. DRF alone would take
    the number 0 as the string "0" and "1" as the number 1."""
    client = signed_in(world.alice)
    document = SchemaGenerator().get_schema(request=None, public=True)
    failures, checked = [], 0
    for path, method, operation in operations():
        typed = {
            name: WRONG_TYPE[prop["type"]]
            for name, prop in request_properties(document, operation).items()
            if prop.get("type") in WRONG_TYPE and "enum" not in prop
        }
        if not typed:
            continue
        response = getattr(client, method)(filled(path, world.ids), typed, content_type="application/json")
        if response.status_code in (403, 404):
            continue  # refused before the body is read: the user may not do this at all
        checked += 1
        body = response.json()
        unnamed = sorted(set(typed) - set(body)) if response.status_code == 400 else sorted(typed)
        if unnamed:
            failures.append(f"{method.upper()} {path} {response.status_code}: {unnamed} taken ({str(body)[:160]})")
    # The fix, for an endpoint added later: its body's serializer derives from config.api.StrictRequestSerializer.
    assert checked >= 10
    assert failures == [], "\n".join(failures)


def test_a_string_field_takes_only_a_string(world):
    """``{"name": 0}`` is not a captain's name: a JSON number where the schema says string is a 400."""
    client = signed_in(world.alice)
    response = client.post(f"/api/campaigns/{world.campaign.slug}/captains/", {"name": 0}, "application/json")
    assert response.status_code == 400
    assert "name" in response.json()
