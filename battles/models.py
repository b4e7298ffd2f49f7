"""Battles' stored data. For now, the reference tables of ship classes and weapon types.

The ship and weapon tables are a read-only mirror of ``battles/rules/sky_galleons/data`` (loaded by
``manage.py load_reference_data``) for the admin and the yard; the engine reads the pure catalog
(``battles.rules.sky_galleons.catalog``) directly.
"""

from __future__ import annotations

from django.db import models


class DataStatus(models.TextChoices):
    STATED = "stated", "Stated"
    PARTIALLY_STATED = "partially_stated", "Partially stated"
    RECONSTRUCTED = "reconstructed", "Reconstructed"
    NAME_ONLY = "name_only", "Name only"


class Confidence(models.TextChoices):
    HIGH = "high", "High"
    MEDIUM = "medium", "Medium"
    LOW = "low", "Low"
    VERY_LOW = "very_low", "Very low"
    NONE = "none", "None (no figures)"


class ShipClass(models.Model):
    """A ship class from the catalog. `spec` is the full catalog record; `provenance` says, field by field,
    what is stated and what is reconstructed."""

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    category = models.CharField(max_length=40)
    data_status = models.CharField(max_length=20, choices=DataStatus.choices)
    # The weakest confidence of any reconstructed figure in the class.
    confidence = models.CharField(max_length=10, choices=Confidence.choices)
    yard_type = models.CharField(max_length=20, blank=True)
    tonnage = models.PositiveIntegerField(null=True, blank=True)
    price = models.PositiveIntegerField(null=True, blank=True)
    hull_size = models.PositiveSmallIntegerField(null=True, blank=True)
    # A number, or "K" for a kite.
    speed = models.CharField(max_length=8, blank=True)
    max_altitude = models.CharField(max_length=20, blank=True)
    spec = models.JSONField(default=dict)
    provenance = models.JSONField(default=dict)

    class Meta:
        ordering = ("name",)
        verbose_name_plural = "ship classes"

    def __str__(self) -> str:
        return self.name

    @property
    def is_stated(self) -> bool:
        return self.data_status == DataStatus.STATED


class WeaponType(models.Model):
    """A weapon from the weapon tables. `spec` is the full record, with every source's figures."""

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=80)
    category = models.CharField(max_length=40)
    cost = models.PositiveIntegerField()
    spec = models.JSONField(default=dict)
    provenance = models.JSONField(default=dict)
    # Which table wins where the books disagree (the Cloudships & Gunboats consolidated list).
    authoritative_source = models.CharField(max_length=60)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name
