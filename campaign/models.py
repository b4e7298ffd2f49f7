"""Campaigns and who takes part in them.

A user's role is per campaign: the same club member can umpire one campaign and captain in another.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone


class Role(models.TextChoices):
    PLAYER = "player", "Player"
    UMPIRE = "umpire", "Umpire"


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_created")
    created_at = models.DateTimeField(default=timezone.now)
    # A club chat's incoming webhook (Slack, Discord, Mattermost...): battle news is posted there too.
    webhook_url = models.URLField(blank=True, max_length=500)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_one_per_user_and_campaign"),
            models.CheckConstraint(
                condition=models.Q(role__in=[Role.PLAYER, Role.UMPIRE]), name="membership_role_known"
            ),
        ]
        ordering = ["campaign__name", "role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.campaign}"

    @property
    def is_umpire(self) -> bool:
        return self.role == Role.UMPIRE


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


def default_invitation_expiry() -> object:
    return timezone.now() + timedelta(days=14)


class Invitation(models.Model):
    """A link that lets someone register (or, if signed in, join) a campaign with a given role."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token, editable=False)
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.PLAYER)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="invitations_sent")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=default_invitation_expiry)
    max_uses = models.PositiveIntegerField(default=1, help_text="How many people may join with this link.")
    uses = models.PositiveIntegerField(default=0)
    revoked = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(uses__lte=models.F("max_uses")), name="invitation_uses_le_max"),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign} as {self.role}"

    def is_open(self) -> bool:
        return not self.revoked and self.uses < self.max_uses and self.expires_at > timezone.now()


class NotificationKind(models.TextChoices):
    DECISION_NEEDED = "decision_needed", "A battle needs your decision"
    DEADLINE_NEAR = "deadline_near", "A battle deadline is near"
    BATTLE_ENDED = "battle_ended", "A battle has ended"


class Notification(models.Model):
    """A message to one member: shown in the app, and sent by email. The text never carries what the member
    may not see (it is written from the public state of the battle and the member's own side)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=300, blank=True)
    # One notification per event worth telling: e.g. "battle 12 decisions at seq 340" for this user.
    dedupe_key = models.CharField(max_length=120)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "dedupe_key"], name="notification_once_per_user_and_key")
        ]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.title} for {self.user}"


class WebhookDelivery(models.Model):
    """A message for the campaign's chat webhook, posted by a task (retried until it is delivered)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhook_deliveries")
    dedupe_key = models.CharField(max_length=120)
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "dedupe_key"], name="webhook_once_per_campaign_and_key")
        ]

    def __str__(self) -> str:
        return f"Webhook message for {self.campaign}"
