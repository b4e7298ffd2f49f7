"""Paths no page has: a control character (NUL above all) in a URL's path answers 404 before any view runs.

Django's ``str`` converter matches anything but a slash, so ``/join/%00/`` reached the invitation query and
PostgreSQL refused the NUL (a 500). No route of the site has a control character in it, so no view need see one:
one check here covers every route, present and future."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse

from config.api import api_not_found


def _has_control_character(path: str) -> bool:
    return any(ord(c) < 32 or ord(c) == 127 for c in path)


def control_characters_not_found(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if _has_control_character(request.path):
            if request.path.startswith("/api/"):
                return api_not_found(request)
            raise Http404("No such page.")  # the site's own 404 page, through Django's handler
        return get_response(request)

    return middleware
