"""The strategic map's reference tables: territories, hexes and cities.

A read-only mirror of ``strategic_map/data`` (loaded by ``manage.py load_reference_data``), for the admin,
the map pages and queries. Campaign-specific copies are a separate concern; these rows are the reference.
Each row says whether the rules state it or it is a designed stand-in, so the UI can label it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


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


# --- the campaign on the map: voyages, the daily tick, encounters, epic treks ------------------------------------
# Campaign-scoped rows. Who may read them is decided by strategic_map.selectors (fog of war): a player reads his
# own captains' voyages, days, encounters and treks; the umpire reads everything.


class CampaignMapRules(models.Model):
    """A campaign's own copy of the map's editable numbers (SGC-MAP-03, SGC-TREK-11: designed stand-ins).

    ``territory_numbers``: territory name -> {"move_through": n | null, "patrol": n | null}; a territory not named
    keeps the reference numbers. ``trek_table``: the whole epic trek table in the map file's shape, or {} for the
    reference table. Changed only through strategic_map.services with an audit entry."""

    campaign = models.OneToOneField("campaign.Campaign", on_delete=models.CASCADE, related_name="map_rules")
    territory_numbers = models.JSONField(default=dict, blank=True)
    trek_table = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = "campaign map rules"
        verbose_name_plural = "campaign map rules"

    def __str__(self) -> str:
        return f"Map rules of {self.campaign}"


class VoyageStatus(models.TextChoices):
    UNDER_WAY = "under_way", "Under way"
    ARRIVED = "arrived", "Arrived"
    LOST = "lost", "Lost"


class Voyage(models.Model):
    """One ship's voyage from a city until she reaches a friendly city again (or is lost).

    ``plan`` is the standing plan of the days still to sail, each {"kind": "move", "path": [[q, r], ...]} (the
    hexes entered, in order) or {"kind": "patrol"}; the tick takes the first day off it. ``q``/``r`` is where the
    ship is now: hidden from every other player."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="voyages")
    captain = models.ForeignKey("campaign.Captain", on_delete=models.PROTECT, related_name="voyage_set")
    ship = models.ForeignKey("campaign.CampaignShip", on_delete=models.PROTECT, related_name="voyages")
    status = models.CharField(max_length=10, choices=VoyageStatus.choices, default=VoyageStatus.UNDER_WAY)
    start_city = models.CharField(max_length=60)
    end_city = models.CharField(max_length=60, blank=True)
    started_day = models.PositiveIntegerField()
    ended_day = models.PositiveIntegerField(null=True, blank=True)
    q = models.SmallIntegerField()
    r = models.SmallIntegerField()
    plan = models.JSONField(default=list, blank=True)
    plan_updated_at = models.DateTimeField(default=timezone.now)
    # For the crew experience check on arrival (SGC-EXP): did she take a prize, how many men she lost.
    took_prize = models.BooleanField(default=False)
    losses = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["ship"],
                condition=models.Q(status="under_way"),
                name="voyage_one_under_way_per_ship",
            ),
        ]
        indexes = [models.Index(fields=["campaign", "status"], name="voyage_campaign_status")]

    def __str__(self) -> str:
        return f"Voyage {self.pk} of {self.ship_id}"

    @property
    def key(self) -> str:
        """The voyage's name for once-per-voyage records (the experience check)."""
        return f"voyage-{self.pk}"


class CampaignDay(models.Model):
    """One campaign day's tick: created when the tick starts, finished when every ship has sailed the day.
    Unique per (campaign, day): a second run of the same day finds it and does only what is left."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="days")
    day = models.PositiveIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    ships_moved = models.PositiveIntegerField(default=0)
    encounters = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "day"]
        constraints = [models.UniqueConstraint(fields=["campaign", "day"], name="campaign_day_once")]

    def __str__(self) -> str:
        return f"{self.campaign} day {self.day}"


class DayKind(models.TextChoices):
    MOVE = "move", "Moved"
    PATROL = "patrol", "Patrolled"
    HOLD = "hold", "Held position (no orders)"
    BECALMED = "becalmed", "Could not sail"


class VoyageDay(models.Model):
    """What one ship did on one campaign day: the hexes sailed, the territory she ended in, her encounter die.
    Unique per (voyage, day): the tick's unit of work, so no ship sails a day twice."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="voyage_days")
    voyage = models.ForeignKey(Voyage, on_delete=models.CASCADE, related_name="days")
    day = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=DayKind.choices)
    path = models.JSONField(default=list, blank=True)
    from_q = models.SmallIntegerField()
    from_r = models.SmallIntegerField()
    to_q = models.SmallIntegerField()
    to_r = models.SmallIntegerField()
    territory = models.CharField(max_length=60, blank=True)
    # The number the die had to make (None: no encounter roll there) and the die, logged as a CampaignRoll.
    encounter_number = models.PositiveSmallIntegerField(null=True, blank=True)
    encounter_roll = models.ForeignKey(
        "campaign.CampaignRoll", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    encounter = models.ForeignKey(
        "Encounter", on_delete=models.SET_NULL, null=True, blank=True, related_name="voyage_days"
    )
    coal_burned = models.PositiveSmallIntegerField(default=0)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["voyage", "day"]
        constraints = [models.UniqueConstraint(fields=["voyage", "day"], name="voyage_day_once")]
        indexes = [models.Index(fields=["campaign", "day"], name="voyage_day_campaign_day")]

    def __str__(self) -> str:
        return f"{self.voyage} day {self.day}: {self.kind}"


class EncounterStatus(models.TextChoices):
    BATTLE = "battle", "Battle under way"
    RESOLVED = "resolved", "Resolved"


class Encounter(models.Model):
    """Ships met on campaign (SGC-ENC-15..20): the territory table's roll, the ships drawn, and the battle."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="encounters")
    day = models.PositiveIntegerField()
    q = models.SmallIntegerField()
    r = models.SmallIntegerField()
    territory = models.CharField(max_length=60)
    table_roll = models.ForeignKey(
        "campaign.CampaignRoll", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    result = models.CharField(max_length=120, help_text="The table's line, e.g. 'Warship escorting Enemy Merchantman'.")
    status = models.CharField(max_length=10, choices=EncounterStatus.choices, default=EncounterStatus.BATTLE)
    voyages = models.ManyToManyField(Voyage, related_name="encounters")
    battle = models.OneToOneField(
        "battles.Battle", on_delete=models.SET_NULL, null=True, blank=True, related_name="encounter"
    )
    # The last campaign day of the battle's window: at that day's tick the AI captains finish it for every side.
    window_ends_day = models.PositiveIntegerField(null=True, blank=True)
    # Set once the battle's result has been carried back into the campaign (ships, crews, prizes, treks).
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "day", "pk"]

    def __str__(self) -> str:
        return f"{self.result} on day {self.day}"


class EncounterShip(models.Model):
    """One ship drawn for an encounter (SGC-ENC-17) from its category's class pool, with her crew."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="ships")
    category = models.CharField(max_length=40)
    class_id = models.CharField(max_length=80)
    name = models.CharField(max_length=80)
    crew_quality = models.CharField(max_length=10)
    boarding_quality = models.CharField(max_length=10, blank=True)
    high_martian = models.BooleanField(default=False)
    # The name of the encountered ship towing this one (a prize in tow, SGC-ETYPE-13), if any.
    towed_by = models.CharField(max_length=80, blank=True)
    draw_roll = models.ForeignKey(
        "campaign.CampaignRoll", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The campaign ship she became when a player's captain took her.
    campaign_ship = models.ForeignKey(
        "campaign.CampaignShip", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["encounter", "pk"]
        constraints = [models.UniqueConstraint(fields=["encounter", "name"], name="encounter_ship_name_unique")]

    def __str__(self) -> str:
        return self.name


class TrekStatus(models.TextChoices):
    UNDER_WAY = "under_way", "Under way"
    SAFE = "safe", "Safe home"
    CAPTURED = "captured", "Captured"
    PERISHED = "perished", "Perished"


class EpicTrek(models.Model):
    """A captain walking home across Mars after losing his ship (SGC-TREK-01..28). ``route`` is the hexes the
    player has chosen to walk next, [[q, r], ...]; ``rolls`` counts the trek table's dice, which is its weeks."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="treks")
    captain = models.ForeignKey("campaign.Captain", on_delete=models.PROTECT, related_name="treks")
    cause = models.CharField(max_length=20, help_text="crash_landing or over_the_side")
    status = models.CharField(max_length=10, choices=TrekStatus.choices, default=TrekStatus.UNDER_WAY)
    started_day = models.PositiveIntegerField()
    ended_day = models.PositiveIntegerField(null=True, blank=True)
    q = models.SmallIntegerField()
    r = models.SmallIntegerField()
    party_start = models.PositiveIntegerField()
    party = models.PositiveIntegerField()
    rolls = models.PositiveIntegerField(default=0)
    route = models.JSONField(default=list, blank=True)
    end_city = models.CharField(max_length=60, blank=True)
    encounter = models.ForeignKey(Encounter, on_delete=models.SET_NULL, null=True, blank=True, related_name="treks")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["captain"], condition=models.Q(status="under_way"), name="trek_one_under_way_per_captain"
            ),
        ]

    def __str__(self) -> str:
        return f"Trek of {self.captain_id} ({self.status})"

    @property
    def weeks(self) -> int:
        """SGC-TREK-21: a trek lasts a week for every die rolled on the trek table."""
        return self.rolls


class TrekRoll(models.Model):
    """One die on the trek table for one hex (SGC-TREK-03, -12), with the losses it cost."""

    trek = models.ForeignKey(EpicTrek, on_delete=models.CASCADE, related_name="trek_rolls")
    seq = models.PositiveIntegerField()
    day = models.PositiveIntegerField()
    q = models.SmallIntegerField()
    r = models.SmallIntegerField()
    row = models.CharField(max_length=20, help_text="The table's row: the terrain, a canal or a city.")
    allegiance = models.CharField(max_length=10, choices=Allegiance.choices)
    roll = models.ForeignKey("campaign.CampaignRoll", on_delete=models.PROTECT, related_name="+")
    result = models.CharField(max_length=4, help_text="The table's code: L, F, P, A or C with any loss number.")
    losses = models.PositiveIntegerField(default=0)
    party_after = models.PositiveIntegerField()
    # The roll in words, with what the table cannot say: the way the party came in, where Found took it.
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["trek", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["trek", "seq"], name="trek_roll_seq_unique"),
            # The trek advances with the campaign's days: one roll a day, however often the day is run.
            models.UniqueConstraint(fields=["trek", "day"], name="trek_roll_once_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.trek} roll {self.seq}: {self.result}"


class OrderExtension(models.Model):
    """The umpire's extension of a day's order deadline, for one captain or (captain empty) for everyone.
    The day's tick waits until the last extension for that day has run out."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="order_extensions")
    day = models.PositiveIntegerField(help_text="The campaign day whose orders are extended.")
    captain = models.ForeignKey(
        "campaign.Captain", on_delete=models.CASCADE, null=True, blank=True, related_name="order_extensions"
    )
    until = models.DateTimeField()
    reason = models.TextField()
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "day", "pk"]

    def __str__(self) -> str:
        return f"Extension of day {self.day} until {self.until:%Y-%m-%d %H:%M}"
