"""The schema (``/api/schema/``) says what the API answers, read statically over every operation: the refusals
each can give are documented, each as JSON with a ``detail``, and a required string of a request may not be
empty (the API refuses a blank one). The fuzzing (test_schema_fuzz.py) checks the answers themselves."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def schema() -> dict[str, Any]:
    response = Client().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = document["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def test_every_operation_documents_the_refusals_it_can_give_each_with_a_detail():
    document = schema()
    missing, shapeless = [], []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            queried = any(p["in"] == "query" for p in operation.get("parameters", []))
            expected = {"403"}
            if "{" in path:
                expected.add("404")  # an object the user may not see, or a word for an id
            if "requestBody" in operation or queried or method != "get":
                expected.add("400")
            if method != "get":
                expected.add("409")
            missing += [f"{method.upper()} {path} {code}" for code in sorted(expected - set(responses))]
            for code, response in responses.items():
                if code.startswith("4"):
                    body = resolve(document, response.get("content", {}).get("application/json", {}).get("schema", {}))
                    if "detail" not in body.get("required", []):
                        shapeless.append(f"{method.upper()} {path} {code}")
    assert missing == []
    assert shapeless == []


def test_a_required_string_of_a_request_may_not_be_empty():
    document = schema()
    unbounded = []
    for name, component in document["components"]["schemas"].items():
        if not name.endswith("Request"):
            continue
        for field in component.get("required", []):
            prop = resolve(document, component["properties"][field])
            if prop.get("type") == "string" and "enum" not in prop and prop.get("minLength", 0) < 1:
                unbounded.append(f"{name}.{field}")
    request_components = [name for name in document["components"]["schemas"] if name.endswith("Request")]
    assert len(request_components) >= 10  # each request body has its own component, apart from the responses'
    assert unbounded == []
