"""The strategic map's reference tables: territories, hexes and cities.

A read-only mirror of ``strategic_map/data`` (loaded by ``manage.py load_reference_data``), for the admin,
the map pages and queries. Campaign-specific copies are a separate concern; these rows are the reference.
Each row says whether the rules state it or it is a designed stand-in, so the UI can label it.
"""

from __future__ import annotations

from django.db import models


class Provenance(models.TextChoices):
    STATED = "stated", "Stated by the rules"
    DESIGNED_STAND_IN = "designed_stand_in", "Designed stand-in"


class Allegiance(models.TextChoices):
    FRIENDLY = "friendly", "Friendly"
    NEUTRAL = "neutral", "Neutral"
    HOSTILE = "hostile", "Hostile"


class CanalType(models.TextChoices):
    GRAND = "grand", "Grand canal"
    PETTY = "petty", "Petty canal"


class ReferenceRow(models.Model):
    provenance = models.CharField(max_length=20, choices=Provenance.choices)
    provenance_note = models.TextField(blank=True)

    class Meta:
        abstract = True

    @property
    def is_stand_in(self) -> bool:
        return self.provenance == Provenance.DESIGNED_STAND_IN


class Territory(ReferenceRow):
    """An encounter territory. No numbers (British) means no encounter roll there."""

    name = models.CharField(max_length=60, unique=True)
    move_through = models.PositiveSmallIntegerField(null=True, blank=True)
    patrol = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ("name",)
        verbose_name_plural = "territories"

    def __str__(self) -> str:
        return self.name

    @property
    def has_encounters(self) -> bool:
        return self.move_through is not None


class MapHex(ReferenceRow):
    """One hex of the 20 x 25 map: odd-q offset (col, row), axial (q, r) and the wargame label CCRR."""

    col = models.PositiveSmallIntegerField()
    row = models.PositiveSmallIntegerField()
    q = models.SmallIntegerField()
    r = models.SmallIntegerField()
    label = models.CharField(max_length=4, unique=True)
    terrain = models.CharField(max_length=20)
    base_terrain = models.CharField(max_length=20)
    region = models.CharField(max_length=60, blank=True)
    territory = models.ForeignKey(Territory, on_delete=models.PROTECT, related_name="hexes")
    allegiance = models.CharField(max_length=10, choices=Allegiance.choices)
    allegiance_reason = models.CharField(max_length=120)
    british = models.BooleanField(default=False)
    city_name = models.CharField(max_length=60, blank=True)
    site_name = models.CharField(max_length=60, blank=True)
    canal_type = models.CharField(max_length=10, choices=CanalType.choices, blank=True)
    canal_ids = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("col", "row")
        verbose_name = "map hex"
        verbose_name_plural = "map hexes"
        constraints = (
            models.UniqueConstraint(fields=("col", "row"), name="maphex_unique_offset"),
            models.UniqueConstraint(fields=("q", "r"), name="maphex_unique_axial"),
        )

    def __str__(self) -> str:
        return self.label


class City(ReferenceRow):
    name = models.CharField(max_length=60, unique=True)
    hex = models.ForeignKey(MapHex, on_delete=models.PROTECT, related_name="cities")
    owner = models.CharField(max_length=30)
    role = models.TextField(blank=True)
    # Not in the Sky Galleons rules' own list of cities; a club may leave it off.
    optional = models.BooleanField(default=False)
    is_start_city = models.BooleanField(default=False)
    # Martian-built ships are bought, repaired and refitted here (Parhoon).
    has_martian_yard = models.BooleanField(default=False)

    class Meta:
        ordering = ("name",)
        verbose_name_plural = "cities"

    def __str__(self) -> str:
        return self.name
