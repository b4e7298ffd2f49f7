"""Battles' stored data: the reference tables of ship classes and weapon types, and battles in play.

The ship and weapon tables are a read-only mirror of ``galleons/data`` (loaded by
``manage.py load_reference_data``) for the admin and the yard; the engine reads the pure catalog
(``galleons.catalog``) directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from django.conf import settings
from django.db import models
from django.utils import timezone


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


# --- battles in play ----------------------------------------------------------------------------------


class BattleMode(models.TextChoices):
    ASYNC = "async", "Web play with deadlines"
    # Both players online at once (a club night): the same web play, with a window of minutes per decision and the
    # battle page polling every few seconds.
    LIVE = "live", "Live: both players online, minutes per decision"
    TABLE = "table", "Table mode (the umpire enters decisions)"
    AUTO = "auto", "Auto-resolve (the AI decides)"


# The submission windows a live battle may have, in minutes (the New battle page and the umpire's switch offer these).
LIVE_WINDOWS: tuple[int, ...] = (2, 5, 10, 15)


class BattleStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for decisions"
    RESOLVING = "resolving", "Resolving"
    FINISHED = "finished", "Finished"


class DeadlineDefault(models.TextChoices):
    """What a side that lets its deadline pass does (the umpire's setting per battle)."""

    AI = "ai", "The AI captain decides"
    HOLD = "hold", "Hold course and fire at will"


class Controller(models.TextChoices):
    PLAYER = "player", "A player"
    UMPIRE = "umpire", "The umpire"
    AI = "ai", "The AI"


class Battle(models.Model):
    """One tactical battle: a scenario fought under a ruleset, the fold of its event log.

    ``seed`` is the dice seed, a server secret until the battle ends; ``seed_commitment`` (its hash) is
    published from the start. ``state`` is a snapshot of the fold after ``state_seq`` events, kept so that a
    request need not replay the whole log; the log stays the truth (``verify_battle`` rebuilds it).
    """

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="battles")
    title = models.CharField(max_length=160)
    scenario_slug = models.SlugField(max_length=80, blank=True)
    scenario = models.JSONField()
    ruleset_key = models.CharField(max_length=40)
    ruleset_version = models.CharField(max_length=20)
    options = models.JSONField(default=dict)
    mode = models.CharField(max_length=8, choices=BattleMode.choices, default=BattleMode.ASYNC)
    status = models.CharField(max_length=12, choices=BattleStatus.choices, default=BattleStatus.WAITING)
    seed = models.CharField(max_length=64, editable=False)  # hex; never serialised before the end
    seed_commitment = models.CharField(max_length=64, editable=False)
    initial_state = models.TextField(editable=False)
    state = models.TextField(editable=False)
    state_seq = models.PositiveIntegerField(default=0)
    turn = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=40, default="setup")
    decision_hours = models.PositiveIntegerField(
        default=48, help_text="Hours a side has for each decision in web play before the default applies."
    )
    deadline = models.DateTimeField(null=True, blank=True)
    # Live mode: the minutes each submission window lasts (one of LIVE_WINDOWS), instead of decision_hours.
    live_minutes = models.PositiveSmallIntegerField(
        default=5, help_text="Minutes a side has for each decision in live play before the default applies."
    )
    # A battle on a clock (a campaign encounter's window): every decision of a turn shares one deadline, this many
    # minutes after the turn began, instead of decision_hours per decision. Null: per decision.
    turn_minutes = models.PositiveIntegerField(null=True, blank=True)
    # When the AI captains will play the rest of the battle for every side (the window's end), told to the players.
    hand_over_at = models.DateTimeField(null=True, blank=True)
    deadline_default = models.CharField(max_length=8, choices=DeadlineDefault.choices, default=DeadlineDefault.AI)
    winner = models.CharField(max_length=60, blank=True)
    result_reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="battles_created")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A campaign encounter at sea: the battle would tell the rest of the club where a captain's ship is (fog of
    # war, DESIGN.md section 5), so only the players of its sides and the campaign's umpire may know of it.
    private = models.BooleanField(
        default=False, help_text="Seen only by the players of its sides and the campaign's umpire."
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "deadline"], name="battle_status_deadline")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(status="finished") | models.Q(finished_at__isnull=False),
                name="battle_finished_has_time",
            )
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_finished(self) -> bool:
        return self.status == BattleStatus.FINISHED

    def umpire_decides(self) -> bool:
        """Does the umpire give his own decisions in this battle (DecisionRequest.umpire: the go-ahead before a card),
        so that it waits for them? Else the AI gives them: see ``persons_play``."""
        return persons_play(self.sides.all())


class BattleSide(models.Model):
    """A side of a battle (the engine's side key) and who decides for it."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="sides")
    key = models.CharField(max_length=60)
    name = models.CharField(max_length=120)
    order = models.PositiveSmallIntegerField(default=0)
    controller = models.CharField(max_length=8, choices=Controller.choices, default=Controller.AI)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="battle_sides"
    )
    # Conceded, surrendered or withdrew: how the side left the battle before its end, if it did.
    left = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["battle", "order"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "key"], name="battle_side_key_unique"),
            models.CheckConstraint(
                condition=~models.Q(controller="player") | models.Q(user__isnull=False),
                name="battle_side_player_has_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.battle}"

    def decided_by(self, user_id: int | None, *, umpire: bool, mode: str) -> bool:
        """Does this user decide for the side? A player for his own side (and the umpire for him at the club
        table), the umpire for the umpire's sides; nobody for the AI's."""
        if self.controller == Controller.PLAYER:
            return self.user_id == user_id or (mode == BattleMode.TABLE and umpire)
        return self.controller == Controller.UMPIRE and umpire


def persons_play(sides: Iterable[BattleSide]) -> bool:
    """Is a side still in the battle decided by a person (a player, or the umpire)? Then the umpire's own decisions
    wait for him; where none is (auto-resolve, every side handed to the AI or gone) the AI captain of the side they
    are logged under gives them, so a battle nobody is watching never stalls on a go-ahead."""
    return any(side.controller != Controller.AI and not side.left for side in sides)


class BattleShip(models.Model):
    """A ship in a battle, as the engine names it (campaign ships link here once the campaign has them)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="ships")
    side = models.ForeignKey(BattleSide, on_delete=models.CASCADE, related_name="ships")
    name = models.CharField(max_length=80)
    class_name = models.CharField(max_length=80, blank=True)
    # The campaign's ship she is (a captain's ship, or a prize in tow); empty for ships drawn for an encounter.
    campaign_ship = models.ForeignKey(
        "campaign.CampaignShip", on_delete=models.SET_NULL, null=True, blank=True, related_name="battle_ships"
    )

    class Meta:
        ordering = ["battle", "side__order", "name"]
        constraints = [models.UniqueConstraint(fields=["battle", "name"], name="battle_ship_name_unique")]

    def __str__(self) -> str:
        return self.name


class DecisionSource(models.TextChoices):
    PLAYER = "player", "The side's player"
    UMPIRE = "umpire", "The umpire"
    AI = "ai", "The AI"
    DEADLINE = "deadline", "The deadline default"


class Correction(models.Model):
    """An umpire's correction of a wrong entry: the battle is rewound to just before the decision and goes
    on with the corrected answer. Nothing is deleted: the events and decisions it set aside point here."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="corrections")
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    request_id = models.CharField(max_length=20)
    old_choice = models.JSONField(null=True)
    new_choice = models.JSONField(null=True)
    rewound_to_seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["battle", "created_at", "pk"]

    def __str__(self) -> str:
        return f"Correction of {self.request_id} in {self.battle}"


class DecisionQuerySet(models.QuerySet["Decision"]):
    def live(self) -> DecisionQuerySet:
        """The answers that count: neither set aside by an umpire's correction nor refused at resolution."""
        return self.filter(superseded_by__isnull=True, refused="")


class Decision(models.Model):
    """An answer submitted to one of the engine's open decision requests. Stored on submission (validated
    by the engine), folded into the log when the battle resolves (``applied_seq``). One the engine refuses
    when it comes to be applied is kept with the engine's reason (``refused``) and the side is asked again."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="decisions")
    side = models.ForeignKey(BattleSide, on_delete=models.CASCADE, related_name="decisions")
    request_id = models.CharField(max_length=20)
    kind = models.CharField(max_length=40)
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=40)
    choice = models.JSONField(null=True)
    source = models.CharField(max_length=10, choices=DecisionSource.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    idempotency_key = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    applied_seq = models.PositiveIntegerField(null=True, blank=True)
    superseded_by = models.ForeignKey(
        Correction, on_delete=models.PROTECT, null=True, blank=True, related_name="decisions_set_aside"
    )
    refused = models.CharField(max_length=500, blank=True)

    objects = DecisionQuerySet.as_manager()

    class Meta:
        ordering = ["battle", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "request_id"],
                condition=models.Q(superseded_by__isnull=True, refused=""),
                name="decision_one_live_answer_per_request",
            ),
            models.UniqueConstraint(
                fields=["battle", "side", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="decision_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.request_id} in {self.battle}"


class BattleEvent(models.Model):
    """One engine event, in order. ``data`` is the event's whole JSON (envelope included)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=40)
    kind = models.CharField(max_length=40)
    visibility = models.CharField(max_length=80)
    data = models.JSONField()
    superseded_by = models.ForeignKey(
        Correction, on_delete=models.PROTECT, null=True, blank=True, related_name="events_set_aside"
    )

    class Meta:
        ordering = ["battle", "seq", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "seq"],
                condition=models.Q(superseded_by__isnull=True),
                name="battle_event_one_live_seq",
            )
        ]

    def __str__(self) -> str:
        return f"{self.battle_id} #{self.seq} {self.kind}"


class BattleResult(models.Model):
    """A finished battle's result: the ruleset's own report (Ruleset.battle_result), and under ``OUTCOME_KEY`` the
    typed outcome the campaign reads (battles.engine.outcome; battles.selectors.battle_outcome)."""

    OUTCOME_KEY = "outcome"

    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, related_name="result")
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Result of {self.battle}"


class OddsStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    STOPPED = "stopped", "Stopped"  # by its requester, once the estimate was good enough: no more chunks


class OddsRun(models.Model):
    """ "Simulate it 500 times": the AI plays a scenario (or a battle's scenario from its start) over and over
    on fresh dice, and the outcomes are summed up. The outcomes are stored per chunk (``OddsChunk``), each chunk
    played by whichever process takes it, so a worker killed half way costs one chunk. The dice never come from
    a real battle's seed."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="odds_runs")
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, null=True, blank=True, related_name="odds_runs")
    scenario_slug = models.SlugField(max_length=80)
    ruleset_key = models.CharField(max_length=40)
    options = models.JSONField(default=dict)
    runs = models.PositiveIntegerField()
    number = models.PositiveBigIntegerField(help_text="The simulation number the runs' dice derive from.")
    # No default: odds_request names the newest plan (simulate.CHUNKING); the runs of before plans were numbered
    # were split by plan 1 (migration 0010).
    chunking = models.PositiveSmallIntegerField(
        help_text="The chunk plan the runs are split by (battles.engine.simulate.CHUNK_PLANS)."
    )
    summary = models.JSONField(null=True, blank=True, help_text="The distribution, once done or stopped.")
    status = models.CharField(max_length=10, choices=OddsStatus.choices, default=OddsStatus.QUEUED)
    error = models.CharField(max_length=300, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Odds of {self.scenario_slug} ({self.runs} runs)"

    @cached_property
    def done(self) -> int:
        """Battles played and stored so far (the chunks' runs)."""
        played = self.chunks.aggregate(runs=models.Sum(models.F("stop") - models.F("start")))["runs"]
        return int(played or 0)

    @property
    def finished(self) -> bool:
        return self.status in (OddsStatus.DONE, OddsStatus.FAILED, OddsStatus.STOPPED)

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.runs) if self.runs else 100


class OddsChunk(models.Model):
    """Runs ``start``..``stop - 1`` of an odds run, written once by whichever process played them and never
    re-saved: the unique (run, index) makes a chunk saved twice (a redelivered task, a retried worker) count once."""

    run = models.ForeignKey(OddsRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    outcomes = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="odds_chunk_once")]

    def __str__(self) -> str:
        return f"Chunk {self.index} of odds run {self.run_id}"
