"""How the pages word a service's refusal (a ValidationError's messages, or a PermissionDenied's reason)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError


def refusal_words(error: ValidationError | PermissionDenied) -> str:
    return " ".join(getattr(error, "messages", None) or [str(error)])
