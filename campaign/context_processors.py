"""Template context for every page: the signed-in member's unread notification count (one query)."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User
from campaign.selectors import unread_notification_count


def notifications(request: HttpRequest) -> dict[str, int]:
    user = getattr(request, "user", None)
    if not isinstance(user, User):
        return {}
    return {"unread_notifications": unread_notification_count(user=user)}
