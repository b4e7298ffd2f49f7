"""The user model.

A project-owned user model from the first migration, so that later fields (a display name for the
chronicle, notification preferences) never need Django's painful swap of AUTH_USER_MODEL.
"""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    display_name = models.CharField(
        max_length=80,
        blank=True,
        help_text="Shown to other players in the chronicle; defaults to the user name.",
    )

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
