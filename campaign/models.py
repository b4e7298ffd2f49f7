"""Campaigns and who takes part in them.

A user's role is per campaign: the same club member can umpire one campaign and captain in another.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone


class Role(models.TextChoices):
    PLAYER = "player", "Player"
    UMPIRE = "umpire", "Umpire"


def new_seed() -> str:
    return secrets.token_hex(32)


class AuctionStyle(models.TextChoices):
    OPEN = "open", "Open bids: the highest bid is shown"
    SEALED = "sealed", "Sealed bids: nobody sees another's bid"


class WinnerBy(models.TextChoices):
    MONEY = "money", "Most money at the time limit"
    GOAL = "goal", "First to the money goal"
    UMPIRE = "umpire", "The umpire declares"


class CrewQuality(models.TextChoices):
    GREEN = "green", "Green"
    TRAINED = "trained", "Trained"
    CRACK = "crack", "Crack"


class Yard(models.TextChoices):
    MARTIAN = "martian", "Martian yard (Parhoon)"
    BRITISH = "british", "British yard"


class EncounterControl(models.TextChoices):
    AI = "ai", "The AI commands the ships met"
    UMPIRE = "umpire", "The umpire commands the ships met"


class TrekLosses(models.TextChoices):
    # SGC-TREK-25: the rule's words and its worked example disagree; DESIGN.md section 8 takes the rule.
    PER_SIX = "per_six", "n men in every full six, then a die for each man left (the rule)"
    WORKED_EXAMPLE = "worked_example", "one man per full six, then a die for each man left (the worked example)"


class NewCaptain(models.TextChoices):
    """Whether a player whose captain is dead or retired may take a new commission (SGC-START-14 gives each player
    one Red Captain; the rules are silent on a second: DESIGN.md section 8 and docs/campaign.md)."""

    FRESH_ADVANCE = "fresh_advance", "Yes, with a fresh advance, like any new Red Captain (SGC-START-09)"
    NO_ADVANCE = "no_advance", "Yes, but with no new advance: he starts with an empty bank"
    NEVER = "never", "No: a player's campaign ends with his captain's"


# SGC-TREK: an epic trek rolls once a week, the number of rolls being the weeks it took (strategic_map.trek_rules
# reckons the days between rolls from the campaign's trek_days_per_roll).
DAYS_PER_ROLL_AS_WRITTEN = 7


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_created")
    created_at = models.DateTimeField(default=timezone.now)
    # A club chat's incoming webhook (Slack, Discord, Mattermost...): battle news is posted there too.
    webhook_url = models.URLField(blank=True, max_length=500)

    # --- the umpire's settings (DESIGN.md section 4; defaults are the rules') ---
    # The calendar: real hours per campaign day, and how long before a day's tick orders must be in.
    hours_per_day = models.PositiveIntegerField(default=24)
    order_deadline_hours = models.PositiveIntegerField(default=20)
    day = models.PositiveIntegerField(default=0, help_text="The campaign day the last tick finished.")
    # The tactical rules its encounter battles are fought under (a ruleset with a campaign bridge), and their
    # options as the ruleset spells them (battles.engine.ruleset.resolve_options checks them).
    tactical_ruleset = models.CharField(max_length=40, default=settings.DEFAULT_RULESET)
    tactical_options = models.JSONField(default=dict, blank=True)
    auction_style = models.CharField(max_length=10, choices=AuctionStyle.choices, default=AuctionStyle.OPEN)
    # The campaign clock (issue 18): an auction closes, and the crown buys, at the end of a campaign day.
    auction_days = models.PositiveSmallIntegerField(
        default=2, help_text="Campaign days an auction stays open; it closes at the tick that ends the last."
    )
    # The bigger classes are kept out of the encounter pools for the first voyages of each captain.
    holdback_voyages = models.PositiveIntegerField(default=0)
    merchant_cargo_fraction = models.DecimalField(max_digits=4, decimal_places=3, default=Decimal("0.200"))
    time_limit_weeks = models.PositiveIntegerField(null=True, blank=True)
    money_goal = models.PositiveBigIntegerField(null=True, blank=True)
    winner_by = models.CharField(max_length=12, choices=WinnerBy.choices, default=WinnerBy.MONEY)
    rank_dead_below_living = models.BooleanField(
        default=True,
        help_text="On the leaderboard, captains alive (on an epic trek too) rank above the dead and the captive, "
        "whatever their money; a winner by the campaign's criterion stays first.",
    )
    starting_advance = models.PositiveIntegerField(default=30_000)
    advance_is_loan = models.BooleanField(default=False, help_text="Repaid from prize shares (not the rules').")
    starting_quality = models.CharField(max_length=10, choices=CrewQuality.choices, default=CrewQuality.GREEN)
    starting_yard = models.CharField(max_length=10, choices=Yard.choices, default=Yard.MARTIAN)
    recruit_cost_per_man = models.PositiveIntegerField(default=0)
    new_captain_after_death = models.CharField(
        max_length=16,
        choices=NewCaptain.choices,
        default=NewCaptain.FRESH_ADVANCE,
        help_text="When a player's captain is lost or retired: may he take a new commission?",
    )
    # --- the calendar and the map (strategic_map) ---
    paused = models.BooleanField(default=False, help_text="While paused, no day ticks.")
    next_tick_at = models.DateTimeField(null=True, blank=True, help_text="When the next campaign day ticks.")
    encounter_control = models.CharField(max_length=10, choices=EncounterControl.choices, default=EncounterControl.AI)
    trek_losses = models.CharField(max_length=16, choices=TrekLosses.choices, default=TrekLosses.PER_SIX)
    # SGC-TREK: a roll of the trek table is a week of walking. Fewer days a roll is a house rule (audited).
    trek_days_per_roll = models.PositiveSmallIntegerField(
        default=DAYS_PER_ROLL_AS_WRITTEN, help_text="Campaign days between an epic trek's rolls (the rules: 7, a week)."
    )
    # An encounter's battle is fought within a window of campaign days; the clock never waits for it.
    encounter_battle_days = models.PositiveSmallIntegerField(
        default=1, help_text="Campaign days an encounter's battle may last before the AI captains finish it."
    )
    encounter_battle_turns = models.PositiveSmallIntegerField(
        default=8,
        help_text="Turns an encounter's battle is expected to take: each turn's deadline is the window "
        "divided by this.",
    )
    # The campaign's dice derive from this secret (campaign.dice); it never leaves the server for a player.
    seed = models.CharField(max_length=64, default=new_seed, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(hours_per_day__gte=1), name="campaign_day_has_hours"),
            models.CheckConstraint(
                condition=models.Q(merchant_cargo_fraction__gte=0, merchant_cargo_fraction__lte=1),
                name="campaign_cargo_fraction_0_to_1",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def trek_house_rule(self) -> str:
        """The umpire's house rule for epic treks in words, or "" when they roll weekly as written (SGC-TREK)."""
        days = self.trek_days_per_roll
        if days == DAYS_PER_ROLL_AS_WRITTEN:
            return ""
        every = "every day" if days == 1 else f"every {days} days"
        return f"House rule: an epic trek rolls {every} instead of weekly."


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
    SHIP_NEWS = "ship_news", "News of your ship"
    TREK_NEWS = "trek_news", "News of your epic trek"


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


# --- captains, their ships and their money ------------------------------------------------------------------


class CaptainStatus(models.TextChoices):
    ASHORE = "ashore", "Ashore"
    AT_SEA = "at_sea", "At sea"
    IN_BATTLE = "in_battle", "In battle"
    TREKKING = "trekking", "On an epic trek"
    CAPTURED = "captured", "Captured"
    LOST = "lost", "Lost"
    RETIRED = "retired", "Retired"


# A captain with one of these is out of the campaign for good: he no longer holds his player's one commission
# (SGC-START-14). A captured captain is not: the rules leave him a later exchange (SGC-TREK-20).
CAPTAIN_GONE = (CaptainStatus.LOST, CaptainStatus.RETIRED)
# Who may not bid, nor sail, nor deal with a yard: the gone, and those away from any bank until they are back.
CAPTAIN_AWAY = (*CAPTAIN_GONE, CaptainStatus.CAPTURED, CaptainStatus.TREKKING)


class Captain(models.Model):
    """A Red Captain: a player's character in a campaign. ``balance`` is the bank balance, kept equal to the sum
    of the captain's ledger entries (campaign.ledger checks it) and never below nothing (a constraint)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="captains")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="captains")
    name = models.CharField(max_length=80)
    status = models.CharField(max_length=12, choices=CaptainStatus.choices, default=CaptainStatus.ASHORE)
    city = models.CharField(max_length=60, blank=True, default="parhoon")
    balance = models.BigIntegerField(default=0)
    advance_owed = models.PositiveBigIntegerField(default=0)
    fame_weeks = models.PositiveIntegerField(default=0, help_text="Weeks of epic trek survived.")
    voyages = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="captain_name_unique_in_campaign"),
            # SGC-START-14: one Red Captain per player; a new one only once the last is lost or retired.
            models.UniqueConstraint(
                fields=["campaign", "player"],
                condition=~models.Q(status__in=["lost", "retired"]),
                name="captain_one_living_per_player",
            ),
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="captain_balance_never_negative"),
        ]

    def __str__(self) -> str:
        return f"Captain {self.name}"


class ShipStatus(models.TextChoices):
    IN_PORT = "in_port", "In port"
    AT_SEA = "at_sea", "At sea"
    IN_BATTLE = "in_battle", "In battle"
    PRIZE = "prize", "A prize awaiting sale"
    CROWN = "crown", "Sold to the crown"
    SOLD = "sold", "Sold"
    LOST = "lost", "Lost"


class CampaignShip(models.Model):
    """A ship in the campaign: a captain's, or a prize awaiting sale. ``record`` is the engine's ship record as
    JSON (the battle app's), so damage, lost guns, crew casualties, spent one-shot weapons and coal carry from
    battle to battle; ``design`` the commissioned design when she is not a catalog class."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ships")
    captain = models.ForeignKey(Captain, on_delete=models.PROTECT, null=True, blank=True, related_name="ships")
    name = models.CharField(max_length=80)
    class_id = models.CharField(max_length=80, blank=True)
    design = models.JSONField(null=True, blank=True)
    record = models.JSONField()
    yard = models.CharField(max_length=10, choices=Yard.choices, default=Yard.MARTIAN)
    original_price = models.PositiveIntegerField()
    hull_price = models.PositiveIntegerField(default=0)
    crew_quality = models.CharField(max_length=10, choices=CrewQuality.choices, default=CrewQuality.GREEN)
    original_crew = models.PositiveIntegerField(default=0)
    coal_days = models.PositiveIntegerField(null=True, blank=True)
    cargo_tons = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=ShipStatus.choices, default=ShipStatus.IN_PORT)
    city = models.CharField(max_length=60, blank=True, default="parhoon")
    captured_by = models.ForeignKey(
        Captain, on_delete=models.PROTECT, null=True, blank=True, related_name="prizes_taken"
    )
    # A prize being taken home: the ship towing her (SGC-MOVE-13 slows the tower).
    towed_by = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="tows")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def class_name(self) -> str:
        """Her class as the catalog spells it ("Sky Runner", never the id "sky_runner"), or "Own design"."""
        from galleons import catalog

        record_name = self.record.get("class_name") if isinstance(self.record, dict) else None
        if record_name:
            return str(record_name)
        if not self.class_id:
            return "Own design"
        try:
            return catalog.ship_class(self.class_id).name
        except catalog.UnknownShipClass:
            return self.class_id.replace("_", " ")


class EntryKind(models.TextChoices):
    ADVANCE = "advance", "Advance from the colonial administration"
    PRIZE_SHARE = "prize_share", "Share of a prize's sale"
    CARGO_SHARE = "cargo_share", "Share of a cargo's sale"
    CARGO_SALE = "cargo_sale", "Cargo bought at auction, sold on"
    AUCTION_PURCHASE = "auction_purchase", "Bought at auction"
    ESCROW_HOLD = "escrow_hold", "Bid held in escrow"
    ESCROW_RELEASE = "escrow_release", "Bid released from escrow"
    REPAIR = "repair", "Repairs at Parhoon"
    REFIT = "refit", "Refit at Parhoon"
    PURCHASE = "purchase", "Ship bought at Parhoon"
    SALE = "sale", "Ship sold"
    RECRUITS = "recruits", "New men recruited"
    LOAN_REPAYMENT = "loan_repayment", "Advance repaid"
    ADJUSTMENT = "adjustment", "Umpire's adjustment"


class LedgerEntry(models.Model):
    """One movement of a captain's money. Written only by campaign.ledger inside the transaction that locks the
    captain; ``balance_after`` is the balance it leaves, so the ledger reads as a bank statement."""

    captain = models.ForeignKey(Captain, on_delete=models.PROTECT, related_name="ledger")
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    kind = models.CharField(max_length=20, choices=EntryKind.choices)
    memo = models.CharField(max_length=200, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    day = models.PositiveIntegerField(default=0)
    ship = models.ForeignKey(CampaignShip, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    auction = models.ForeignKey("Auction", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    idempotency_key = models.CharField(max_length=120, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["captain", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledger_entry_moves_money"),
            models.CheckConstraint(condition=models.Q(balance_after__gte=0), name="ledger_balance_never_negative"),
            models.UniqueConstraint(
                fields=["captain", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="ledger_entry_once_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+} {self.kind} for {self.captain}"


# --- auctions ----------------------------------------------------------------------------------------------------


class LotKind(models.TextChoices):
    SHIP = "ship", "A prize ship"
    CARGO = "cargo", "A prize's cargo"


class AuctionStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class Auction(models.Model):
    """A prize ship, or her cargo, offered above the crown's reserve until the tick of ``closes_on_day`` (SGC-AUCT,
    SGC-CARGO; campaign.auctions).
    The capturing captain takes a tenth of the sale whoever buys; with no bid the crown buys at the reserve."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="auctions")
    ship = models.ForeignKey(CampaignShip, on_delete=models.PROTECT, related_name="auctions")
    lot = models.CharField(max_length=6, choices=LotKind.choices, default=LotKind.SHIP)
    captor = models.ForeignKey(Captain, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reserve = models.PositiveBigIntegerField()
    style = models.CharField(max_length=10, choices=AuctionStyle.choices, default=AuctionStyle.OPEN)
    city = models.CharField(max_length=60, default="parhoon")
    cargo_tons = models.PositiveIntegerField(default=0)
    cargo_die = models.PositiveSmallIntegerField(null=True, blank=True)
    opened_at = models.DateTimeField(default=timezone.now)
    closes_at = models.DateTimeField()
    # The campaign day at whose end (its tick) the auction closes; closes_at is when that tick is expected.
    closes_on_day = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=AuctionStatus.choices, default=AuctionStatus.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(Captain, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    price = models.PositiveBigIntegerField(null=True, blank=True)
    bought_outright = models.BooleanField(default=False)

    class Meta:
        ordering = ["campaign", "closes_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["ship", "lot"], name="auction_one_per_lot"),
            models.CheckConstraint(
                condition=models.Q(status="open") | models.Q(price__isnull=False), name="auction_closed_has_price"
            ),
        ]

    def __str__(self) -> str:
        return f"Auction of {self.ship}{' cargo' if self.lot == LotKind.CARGO else ''}"


class BidStatus(models.TextChoices):
    HELD = "held", "Highest, held in escrow"
    OUTBID = "outbid", "Outbid, released"
    WON = "won", "Won"
    # A sealed auction's bid that is not (or no longer) the highest: its money stays in escrow until the close,
    # because releasing it early would tell the bidder he has been outbid.
    SEALED = "sealed", "Sealed, held in escrow until the close"


class Bid(models.Model):
    auction = models.ForeignKey(Auction, on_delete=models.CASCADE, related_name="bids")
    captain = models.ForeignKey(Captain, on_delete=models.PROTECT, related_name="bids")
    amount = models.PositiveBigIntegerField()
    status = models.CharField(max_length=8, choices=BidStatus.choices, default=BidStatus.HELD)
    idempotency_key = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["auction", "-amount", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["auction"], condition=models.Q(status="held"), name="bid_one_held_per_auction_open"
            ),
            models.UniqueConstraint(
                fields=["captain", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="bid_once_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.captain} bids {self.amount} on {self.auction}"


# --- the umpire's audit and the public chronicle --------------------------------------------------------------


class AuditEntry(models.Model):
    """Something the umpire changed by hand, with the reason he gave (DESIGN.md section 6)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=40)
    captain = models.ForeignKey(Captain, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="audit_has_a_reason")]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor}: {self.reason}"


class ChronicleKind(models.TextChoices):
    CAPTAIN_FOUNDED = "captain_founded", "A captain takes his commission"
    SHIP_COMMISSIONED = "ship_commissioned", "A ship is commissioned"
    PRIZE_LANDED = "prize_landed", "A prize is brought in"
    AUCTION_WON = "auction_won", "An auction is won"
    SHIP_LOST = "ship_lost", "A ship is lost"
    ACTION = "action", "An action is fought"
    VOYAGE_ENDED = "voyage_ended", "A captain comes home"
    TREK_STARTED = "trek_started", "An epic trek begins"
    TREK_SURVIVED = "trek_survived", "An epic trek is survived"
    CAPTAIN_LOST = "captain_lost", "A captain is lost"
    # The umpire's ruling: a captain captive or lost is free, found or home again.
    CAPTAIN_RETURNS = "captain_returns", "A captain returns"
    CREW_EXPERIENCE = "crew_experience", "A crew's quality changes"
    WINNER = "winner", "The campaign is won"
    # The daily tick: a captain at sea without orders for the day (his ship holds her position).
    ORDERS_MISSED = "orders_missed", "A captain misses his orders"


class ChronicleEntry(models.Model):
    """The campaign's public record: written from what every member may know (no positions, no orders, no
    balances but the leaderboard's)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="chronicle")
    day = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=20, choices=ChronicleKind.choices)
    text = models.CharField(max_length=300)
    captain = models.ForeignKey(Captain, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.text


class CampaignRoll(models.Model):
    """One die the campaign rolled (outside battles), with its purpose: a cargo's price, an experience check, an
    encounter. ``seq`` numbers them in the campaign; the result derives from the campaign's seed and ``seq``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    seq = models.PositiveIntegerField()
    day = models.PositiveIntegerField(default=0)
    purpose = models.CharField(max_length=200)
    sides = models.PositiveSmallIntegerField(default=6)
    result = models.PositiveSmallIntegerField()
    captain = models.ForeignKey(Captain, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = [models.UniqueConstraint(fields=["campaign", "seq"], name="campaign_roll_seq_unique")]

    def __str__(self) -> str:
        return f"{self.purpose}: {self.result}"


class VoyageExperience(models.Model):
    """The crew experience check made for one ship at the end of one voyage (SGC-EXP-01..13): once per voyage,
    whatever calls it twice, with the die it needed (None when the rule needs none)."""

    ship = models.ForeignKey(CampaignShip, on_delete=models.CASCADE, related_name="experience_checks")
    voyage_key = models.CharField(max_length=120)
    prize = models.BooleanField()
    losses = models.PositiveIntegerField()
    threshold = models.PositiveIntegerField()
    quality_before = models.CharField(max_length=10, choices=CrewQuality.choices)
    quality_after = models.CharField(max_length=10, choices=CrewQuality.choices)
    roll = models.ForeignKey(CampaignRoll, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    day = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["ship", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["ship", "voyage_key"], name="experience_once_per_ship_and_voyage"),
            models.CheckConstraint(condition=~models.Q(voyage_key=""), name="experience_has_a_voyage_key"),
        ]

    def __str__(self) -> str:
        return f"{self.ship} after voyage {self.voyage_key}: {self.quality_before} -> {self.quality_after}"
