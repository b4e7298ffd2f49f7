"""The API's conventions, once for every endpoint (settings.REST_FRAMEWORK names these classes):

- bodies are JSON of bounded size and depth (BoundedJSONParser): anything else is a 400, never a 500;
- lists page with validated ``limit`` and ``offset`` and a maximum page (BoundedLimitOffsetPagination);
- every refusal is JSON with a ``detail`` in words (api_exception_handler), field errors alongside it;
- a path under ``api/`` that no route matches answers a JSON 404 (api_not_found), not the site's HTML page;
- the schema documents every status an operation answers (config.api_schema), each error with ErrorSerializer;
- a JSON body's strings are strings, its numbers numbers (StrictRequestSerializer): ``{"name": 0}`` is a 400.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, ResolverMatch, resolve
from rest_framework import serializers
from rest_framework.exceptions import ParseError, UnsupportedMediaType, ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response

MAX_BODY = 64 * 1024  # bytes: a decision or a design is a few hundred; this is generous
MAX_DEPTH = 32  # nesting of a JSON body: answers are shallow, and deep nesting is a way to exhaust the stack
PAGE_SIZE = 100
MAX_PAGE = 500
MAX_OFFSET = 10**9  # far past any list, far inside a bigint


# --- bodies --------------------------------------------------------------------------------------------------


def json_depth(value: Any) -> int:
    """How deeply a JSON value nests (iteratively: the point is not to recurse on hostile input)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class BoundedJSONParser(JSONParser):
    """JSON bodies up to MAX_BODY bytes and MAX_DEPTH levels; anything else is a ParseError (400). The standard
    parser hands a deeply nested body to the recursive json module, whose RecursionError is a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        raw = stream.read(MAX_BODY + 1) if stream is not None else b""
        if len(raw) > MAX_BODY:
            raise ParseError(f"The body is larger than {MAX_BODY} bytes.")
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
            raise ParseError(f"The body is not JSON: {str(error)[:200]}") from error
        if json_depth(data) > MAX_DEPTH:
            raise ParseError(f"The body nests deeper than {MAX_DEPTH} levels.")
        return data


# --- query parameters ----------------------------------------------------------------------------------------


def bounded_int(params: Mapping[str, Any], name: str, *, default: int, low: int, high: int) -> int:
    """An integer query parameter between ``low`` and ``high``: anything else (a word, 1e20, 10**20, a negative
    offset) is a 400 naming the parameter, never a silent default nor a number the database cannot hold."""
    text = params.get(name)
    if text is None or text == "":
        return default
    text = str(text).strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > 19:  # 19 digits: past a bigint already
        raise ValidationError({name: f"{name} is a whole number from {low} to {high}."})
    value = int(text)
    if not low <= value <= high:
        raise ValidationError({name: f"{name} is a whole number from {low} to {high}."})
    return value


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=`` (1 to MAX_PAGE, PAGE_SIZE by default) and ``?offset=`` (0 to MAX_OFFSET), validated."""

    default_limit = PAGE_SIZE
    max_limit = MAX_PAGE

    def get_limit(self, request: Request) -> int:
        return bounded_int(request.query_params, self.limit_query_param, default=PAGE_SIZE, low=1, high=MAX_PAGE)

    def get_offset(self, request: Request) -> int:
        return bounded_int(request.query_params, self.offset_query_param, default=0, low=0, high=MAX_OFFSET)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": MAX_PAGE, "default": PAGE_SIZE},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET, "default": 0},
        }
        for parameter in parameters:
            parameter["schema"] = {**parameter["schema"], **bounds.get(parameter["name"], {})}
        return parameters


# --- refusals ------------------------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer[Any]):
    """Every refusal of the API: ``detail`` says why; a bad field's messages are also under its own name."""

    detail = serializers.CharField(help_text="Why, in words for the player.")
    clause = serializers.CharField(
        required=False, help_text="The rule (SG-...) or engine clause (ENG-...) the request breaks, if any."
    )


def _words(errors: Any, field: str = "") -> list[str]:
    """DRF's nested error messages, flattened into "field: message" lines."""
    if isinstance(errors, Mapping):
        return [
            line
            for key, value in errors.items()
            for line in _words(value, key if key in ("non_field_errors", "detail") else f"{field}.{key}".lstrip("."))
        ]
    if isinstance(errors, list | tuple):
        return [line for value in errors for line in _words(value, field)]
    return [f"{field}: {errors}" if field else str(errors)]


def with_detail(data: Any) -> dict[str, Any]:
    """The body of a refusal with a ``detail`` string, whatever shape the refusal came in."""
    if isinstance(data, Mapping):
        body = dict(data)
        if isinstance(body.get("detail"), str):
            return body
        if "detail" in body:
            body["detail"] = " ".join(_words(body["detail"])) or "Refused."
        else:
            body["detail"] = " ".join(_words(data)) or "Refused."
        return body
    return {"detail": " ".join(_words(data)) or "Refused.", "errors": data}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, with a service's Django ValidationError as a 400 (the caller's mistake, never a 500), a body
    that is not JSON as a 400 like every other malformed one, and a ``detail`` in every refusal."""
    if isinstance(exc, DjangoValidationError):
        exc = ValidationError(exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages})
    if isinstance(exc, UnsupportedMediaType):
        exc = ParseError("The body must be JSON (Content-Type: application/json).")
    from rest_framework.views import exception_handler  # here: rest_framework.views imports this module's parser

    response = exception_handler(exc, context)
    if response is not None and response.status_code >= 400:
        response.data = with_detail(response.data)
    return response


def api_not_found(request: HttpRequest, path: str = "") -> HttpResponse:
    """Any path under ``api/`` no route matches (``/api/battles/abc/``): the API's 404, in JSON. A GET of a route
    without its final slash is still sent on to it, as Django's APPEND_SLASH did before this route caught it."""
    if request.method in ("GET", "HEAD") and not request.path.endswith("/"):
        match = resolve_or_none(request.path_info + "/")
        if match is not None and match.url_name != "api_not_found":
            return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    return JsonResponse({"detail": "Not found."}, status=404)


def resolve_or_none(path: str) -> ResolverMatch | None:
    try:
        return resolve(path)
    except Resolver404:
        return None


# --- strict request bodies -----------------------------------------------------------------------------------


class StrictRequestSerializer(serializers.Serializer[Any]):
    """A JSON request body whose values have the schema's types: DRF's fields coerce (the number 0 becomes the
    name "0", the string "5" the integer 5, "yes" True), which the schema does not say and a client should not
    rely on. Query parameters are text and stay with the plain fields."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            errors = {
                name: [message]
                for name, field in self.fields.items()
                if not field.read_only and name in data and (message := _wrong_type(field, data[name]))
            }
            if errors:
                raise ValidationError(errors)
        return super().to_internal_value(data)


def _wrong_type(field: serializers.Field[Any, Any, Any, Any], value: Any) -> str | None:
    """DRF's own message for a value of the wrong JSON type, or None (a null is the field's allow_null's call)."""
    if value is None:
        return None
    messages = field.error_messages
    kind = type(value).__name__
    if isinstance(field, serializers.ChoiceField | serializers.CharField) and not isinstance(value, str):
        return "Not a valid string."
    if isinstance(field, serializers.BooleanField) and not isinstance(value, bool):
        return str(messages["invalid"])
    if isinstance(field, serializers.IntegerField) and (isinstance(value, bool) or not isinstance(value, int)):
        return str(messages["invalid"])
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return str(messages["not_a_list"]).format(input_type=kind)
        wrong = [_wrong_type(field.child, item) for item in value]
        return next((f"Item {i}: {message}" for i, message in enumerate(wrong) if message), None)
    if isinstance(field, serializers.DictField) and not isinstance(value, dict):
        return str(messages["not_a_dict"]).format(input_type=kind)
    return None
