"""Every named URL pattern of the site, for the walks that must cover each page (the fog audit, the phone width):
a page added later is listed here by itself, so a walk that cannot fill it fails until it is covered."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

# The admin is the operator's tool (Django's own pages, for the staff at a desk), not a page of the campaign.
ADMIN_NAMESPACE = "admin"


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    kwargs: tuple[str, ...]


def routes(*, require_names: bool = False) -> list[Route]:
    """Every named URL pattern of the site but the admin's, with the names of its arguments; with
    ``require_names`` an unnamed pattern is an error (a walk by name would miss it)."""
    found: list[Route] = []

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != ADMIN_NAMESPACE:
                    walk(pattern.url_patterns, prefix + str(pattern.pattern))
                continue
            assert pattern.name or not require_names, f"URL {prefix}{pattern.pattern} has no name: name it"
            if pattern.name:
                found.append(Route(pattern.name, prefix + str(pattern.pattern), tuple(pattern.pattern.converters)))

    walk(get_resolver().url_patterns, "")
    return found
