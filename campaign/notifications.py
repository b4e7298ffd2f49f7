"""Telling members what needs them: in-app notifications, email, and the campaign's chat webhook.

Services like the rest (keyword-only, atomic): the rows are written in the caller's transaction and the
email or webhook post is queued after commit, so a rolled-back change tells nobody. A member gets one unread
notification of a kind per page (a battle that keeps needing his decision does not flood his inbox until he
has looked); a ``dedupe_key`` makes each telling happen once however often the caller runs.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign, Membership, Notification, Role, WebhookDelivery
from config import task_queue


def notify(
    *,
    users: Iterable[User],
    campaign: Campaign,
    kind: str,
    title: str,
    dedupe_key: str,
    body: str = "",
    url: str = "",
    refresh_unread: bool = False,
) -> list[Notification]:
    """Notify each user once per ``dedupe_key``, unless an unread notification of the same kind for the same
    page is still waiting. Emails go out after commit. ``refresh_unread``: the waiting one is given these words
    instead (what is wanted now, not what was wanted when it was made), without a second email."""
    made: list[Notification] = []
    for user in {u.pk: u for u in users}.values():
        unread = Notification.objects.filter(user=user, kind=kind, url=url, read_at__isnull=True)
        if url and unread.exists():
            if refresh_unread:
                _refresh(unread, title=title, body=body, dedupe_key=dedupe_key)
            continue
        notification, created = Notification.objects.get_or_create(
            user=user,
            dedupe_key=dedupe_key[:120],
            defaults={"campaign": campaign, "kind": kind, "title": title[:200], "body": body, "url": url[:300]},
        )
        if created:
            made.append(notification)
    if made:
        for notification in made:
            if notification.user.email:
                task_queue.after_commit("campaign.send_notification_email", notification.pk)
    return made


def _refresh(unread: QuerySet[Notification], *, title: str, body: str, dedupe_key: str) -> None:
    """Give the newest unread notification of a page the latest words (its key too, so the same news told again
    is still told once); a key another of the user's notifications holds already leaves it as it was."""
    waiting = unread.order_by("-created_at", "-pk").first()
    if waiting is None or Notification.objects.filter(user=waiting.user, dedupe_key=dedupe_key[:120]).exists():
        return
    waiting.title, waiting.body, waiting.dedupe_key = title[:200], body, dedupe_key[:120]
    waiting.save(update_fields=["title", "body", "dedupe_key"])


def post_to_webhook(*, campaign: Campaign, text: str, dedupe_key: str) -> WebhookDelivery | None:
    """Queue a message for the campaign's chat, once per key; nothing when the campaign has no webhook."""
    if not campaign.webhook_url:
        return None
    delivery, created = WebhookDelivery.objects.get_or_create(
        campaign=campaign, dedupe_key=dedupe_key[:120], defaults={"text": text}
    )
    if created:
        task_queue.after_commit("campaign.deliver_webhook", delivery.pk)
    return delivery


def umpires_of(campaign: Campaign) -> list[User]:
    return [m.user for m in Membership.objects.filter(campaign=campaign, role=Role.UMPIRE).select_related("user")]


@transaction.atomic
def notifications_mark_read(*, user: User, ids: Iterable[int] | None = None) -> int:
    """Mark the user's notifications read: the given ones, or all. Returns how many changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    return unread.update(read_at=timezone.now())
