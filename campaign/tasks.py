"""Sending what campaign.notifications queued (prize auctions close at the campaign's tick: campaign.auctions).
Safe to run twice: each task checks whether its work is done."""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from campaign.models import Notification, WebhookDelivery

WEBHOOK_TIMEOUT = 10


@shared_task(name="campaign.send_notification_email")
def send_notification_email(notification_id: int) -> bool:
    with transaction.atomic():
        notification = (
            # Only the notification's row: the user and campaign are joined in to read (campaign/locks.py).
            Notification.objects.select_for_update(of=("self",))
            .select_related("user", "campaign")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None or notification.emailed_at is not None or not notification.user.email:
            return False
        link = f"{settings.SITE_URL.rstrip('/')}{notification.url}" if notification.url else ""
        body = "\n\n".join(part for part in (notification.body, link) if part)
        send_mail(
            f"[{notification.campaign.name}] {notification.title}",
            body or notification.title,
            None,
            [notification.user.email],
        )
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["emailed_at"])
    return True


@shared_task(name="campaign.deliver_webhook", bind=True, max_retries=6)
def deliver_webhook(self: Any, delivery_id: int) -> bool:
    """Post the message as JSON ({"text": ..., "content": ...}: Slack-style and Discord-style chats both read
    one of them). A failure is recorded and retried with a growing delay."""
    delivery = WebhookDelivery.objects.select_related("campaign").filter(pk=delivery_id).first()
    if delivery is None or delivery.delivered_at is not None or not delivery.campaign.webhook_url:
        return False
    refused = webhook_refusal(delivery.campaign.webhook_url)
    if refused:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(attempts=delivery.attempts + 1, last_error=refused)
        return False
    payload = json.dumps({"text": delivery.text, "content": delivery.text}).encode()
    request = urllib.request.Request(
        delivery.campaign.webhook_url, data=payload, headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT) as response:
            ok = 200 <= response.status < 300
            error = "" if ok else f"HTTP {response.status}"
    except (urllib.error.URLError, OSError, ValueError) as failure:
        ok, error = False, str(failure)[:300]
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=delivery.attempts + 1,
        delivered_at=timezone.now() if ok else None,
        last_error=error,
    )
    if not ok and self.request.retries < self.max_retries and not settings.CELERY_TASK_ALWAYS_EAGER:
        raise self.retry(countdown=30 * 2**self.request.retries)
    return bool(ok)


def webhook_refusal(url: str) -> str:
    """Why a webhook URL will not be posted to, or "": an umpire's URL must not reach into the server's own
    network (loopback, private and link-local addresses) unless the settings allow it (development)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return "the webhook URL must be http(s)"
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return ""
    if parts.scheme != "https":
        return "the webhook URL must be https"
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 443)}
    except OSError as error:
        return f"cannot resolve the webhook host: {error}"[:300]
    for address in addresses:
        ip = ipaddress.ip_address(str(address).split("%")[0])
        if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_multicast:
            return "the webhook host is on a private network"
    return ""
