"""The API's schema (drf-spectacular): every status an operation answers is documented, each refusal with the
API's one error shape (config.api.ErrorSerializer). Apart from config.api because drf-spectacular imports DRF's
views, which import config.api's parser through the settings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

from config.api import ErrorSerializer


class ApiAutoSchema(AutoSchema):
    """drf-spectacular's schema with the refusals every operation can answer, each as an ErrorSerializer body:
    400 (a bad body or query), 403 (not signed in, no CSRF token, not allowed), 404 (an object the user may not
    see, or an id that is not one) and, for a write, 409 (the state of things forbids it now). An operation's own
    ``responses`` keep their descriptions; these fill in what it leaves out."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        has_body = bool(self._get_request_body())  # type: ignore[no-untyped-call]
        codes = ["403"]
        if has_body or (self.method == "GET" and self._has_query_parameters()):
            codes.append("400")
        if "{" in self.path:
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            codes += ["400", "409"]
        for code in codes:
            if code not in responses:
                error = self._get_response_for_code(ErrorSerializer, code, direction=direction)  # type: ignore[no-untyped-call]
                responses[code] = {**error, "description": _ERROR_WORDS[code]}
        return responses

    def _has_query_parameters(self) -> bool:
        return any(parameter.get("in") == "query" for parameter in self._get_parameters())


_ERROR_WORDS = {
    "400": "Bad input: the detail says what, and each bad field's messages are under its name.",
    "403": "Not signed in, no CSRF token for a write, or not allowed to do this.",
    "404": "No such object, or one the user may not see (the same answer, so the API confirms nothing).",
    "409": "The state of things forbids it now (already done, over, not in port...).",
}
