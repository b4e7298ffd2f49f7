"""The demo campaign (`manage.py seed_demo`, run by `make run`): a campaign in motion, not a yard full of idle ships.

It is the Syrtis Major station on day 0 with three players whose stories are already under way, so that the first
fortnight of ticks (the desk's "run the day now", or `manage.py campaign_tick --days 14`) shows every part of the
campaign loop on the campaign clock:

- Alice Fairweather's Dart is two days out of Parhoon with a prize in tow, the pirate Bloodrunner *Red Jenny*,
  taken before the demo begins; she comes home on day 2 and the prize goes under the hammer (SGC-MONEY-01). Her
  earlier prize, the merchant *Warm Winds*, is already in the auction room (closing on day 2).
- Robert Drummond's Gull, a Sky Runner, sails on day 1 over the border into the Neutral West, patrols there for ten
  days and comes home: the territory's patrol number (3 on 1D6, SGC-ENC-04) makes encounters and their battles
  likely, each settled within its window of campaign days; the High Martians there may cost him his ship and send
  him walking too.
- Catherine Vane lost her kite the Kestrel over the Neutral West before the demo begins and is walking home: her
  epic trek rolls once a week (SGC-TREK-03), on days 1 and 8.

What happens after that is the dice's: the campaign's seed is new for every demo (Campaign.seed), so no fortnight
is hand-picked. tests/strategic_map/test_demo_fortnight.py runs the fortnight for five seeds and checks that each
of these stories happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from campaign import auctions, captains, yard
from campaign.models import (
    Campaign,
    CampaignShip,
    Captain,
    CaptainStatus,
    ChronicleEntry,
    ChronicleKind,
    Invitation,
    Membership,
    Role,
    ShipStatus,
)
from campaign.services import campaign_create
from galleons import catalog
from galleons.record import ship_record_from_class
from strategic_map import treks, voyages
from strategic_map.models import Voyage

DEMO_CAMPAIGN_NAME = "The Syrtis Major Station"
DEMO_CAMPAIGN_SLUG = "syrtis-major-station"
DEMO_CAMPAIGN_DESCRIPTION = (
    "Her Majesty's aerial station on the Syrtis Major, 1889. Privateer captains fitted out at Parhoon hunt "
    "the sky-pirates of the Astusapes and the Oenotrian merchantmen for prize money and fame."
)
DEMO_PASSWORD = "parhoon-1889"  # a documented demo login, printed by seed_demo and in the README


@dataclass(frozen=True)
class DemoUser:
    username: str
    display_name: str
    role: str


DEMO_USERS = (
    DemoUser("umpire", "Commodore Hargreaves", Role.UMPIRE),
    DemoUser("alice", "Captain Alice Fairweather", Role.PLAYER),
    DemoUser("bob", "Captain Robert Drummond", Role.PLAYER),
    DemoUser("carol", "Captain Catherine Vane", Role.PLAYER),
)

# The map's axial hexes (strategic_map.mapdata): Parhoon is (7, 8); north of it the British border, the Neutral
# West at two and three hexes, the Astusapes highlands at four.
PARHOON = (7, 8)
# Alice: two days out, one hex a day home (the prize in tow slows her, SGC-MOVE-13).
ALICE_AT = (7, 6)
ALICE_HOME = ([[7, 7]], [[7, 8]])
# Bob: two hexes a day (a screw galley, SGC-MOVE-03) north over the border into the Neutral West, ten days' patrol
# there (the patrol number is 3 on 1D6, SGC-ENC-04), and home.
BOB_OUT = ([[7, 7], [7, 6]],)
BOB_PATROL_DAYS = 10
BOB_HOME = ([[7, 7], [7, 8]],)
# Carol: crash-landed in the Neutral West, two hexes west of Parhoon, with four of her men.
CAROL_LANDED = (5, 10)
CAROL_PARTY = 5


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str
    password_set: bool  # False when the account existed and its (possibly changed) password was kept


@dataclass(frozen=True)
class DemoSeed:
    campaign: Campaign
    logins: list[DemoLogin]
    invitation: Invitation
    created: int  # how many rows this run created; 0 on a re-run


def _demo_users(reset_passwords: bool) -> tuple[dict[str, User], list[DemoLogin], int]:
    created = 0
    logins: list[DemoLogin] = []
    users: dict[str, User] = {}
    for demo in DEMO_USERS:
        user = User.objects.filter(username=demo.username).first()
        password_set = False
        if user is None:
            user = User(username=demo.username, display_name=demo.display_name, email=f"{demo.username}@example.com")
            created += 1
        if user.pk is None or reset_passwords:
            user.set_password(DEMO_PASSWORD)
            password_set = True
        if password_set:
            user.save()
        users[demo.username] = user
        logins.append(DemoLogin(demo.username, DEMO_PASSWORD, demo.role, password_set))
    return users, logins, created


def _open_invitation(campaign: Campaign, umpire: User) -> tuple[Invitation, int]:
    now = timezone.now()
    invitation = (
        Invitation.objects.filter(campaign=campaign, role=Role.PLAYER, revoked=False, expires_at__gt=now)
        .exclude(uses__gte=F("max_uses"))
        .order_by("-expires_at", "-pk")
        .first()
    )
    if invitation is not None:
        return invitation, 0
    invitation = Invitation.objects.create(
        campaign=campaign, created_by=umpire, role=Role.PLAYER, max_uses=20, expires_at=now + timedelta(days=30)
    )
    return invitation, 1


@transaction.atomic
def demo_seed(*, reset_passwords: bool = False, seed: str | None = None) -> DemoSeed:
    """The demo campaign, its umpire and three players, their stories under way, and an open invitation link.
    Idempotent: a re-run creates nothing and leaves existing passwords alone (someone may have changed theirs),
    unless reset_passwords asks to put the demo password back. ``seed``: the campaign's dice seed, for tests (a new
    campaign otherwise draws its own)."""
    if getattr(settings, "PRODUCTION", False):
        # Known passwords on a public server are an open door.
        raise PermissionDenied("The demo data is for development servers only (DJANGO_ENV=production).")
    users, logins, created = _demo_users(reset_passwords)
    umpire = users["umpire"]
    now = timezone.now()
    campaign = Campaign.objects.filter(slug=DEMO_CAMPAIGN_SLUG).first()
    if campaign is None:
        # Made as the app's "New campaign" page makes one (the umpire's membership, the calendar, the audit).
        campaign = campaign_create(
            name=DEMO_CAMPAIGN_NAME,
            slug=DEMO_CAMPAIGN_SLUG,
            description=DEMO_CAMPAIGN_DESCRIPTION,
            created_by=umpire,
            now=now,
        )
        if seed is not None:
            Campaign.objects.filter(pk=campaign.pk).update(seed=seed)
            campaign.refresh_from_db()
        created += 3  # the campaign, its umpire's membership and the audit entry
    for demo in DEMO_USERS:
        _, made = Membership.objects.get_or_create(
            campaign=campaign, user=users[demo.username], defaults={"role": demo.role}
        )
        created += int(made)
    invitation, invited = _open_invitation(campaign, umpire)
    created += invited
    created += _demo_stories(campaign, users)
    if campaign.next_tick_at is None:
        # The calendar runs from the start: the first day ticks a campaign day from now (or at the umpire's button).
        campaign.next_tick_at = now + timedelta(hours=campaign.hours_per_day)
        campaign.save(update_fields=["next_tick_at"])
    return DemoSeed(campaign=campaign, logins=logins, invitation=invitation, created=created)


def _demo_stories(campaign: Campaign, users: dict[str, User]) -> int:
    """The three players' stories (the module's docstring). Only in a campaign with no captain yet."""
    if Captain.objects.filter(campaign=campaign).exists():
        return 0
    # Every captain first: a prize landed with no rival captain to bid is bought by the crown at once.
    alice = captains.captain_found(campaign=campaign, user=users["alice"], name="Alice Fairweather")
    bob = captains.captain_found(campaign=campaign, user=users["bob"], name="Robert Drummond")
    carol = captains.captain_found(campaign=campaign, user=users["carol"], name="Catherine Vane")
    return (
        3
        + _alice_comes_home(alice, users["alice"])
        + _bob_sails(bob, users["bob"])
        + _carol_walks(carol, users["carol"])
    )


def _prize(campaign: Campaign, captor: Captain, class_id: str, name: str, *, cargo_tons: int = 0) -> CampaignShip:
    """A ship the captor took before the demo began: a prize, as the battle's result leaves one (arrival)."""
    record = ship_record_from_class(class_id, name=name, crew_quality="green", side="martians")
    return CampaignShip.objects.create(
        campaign=campaign,
        name=name,
        class_id=class_id,
        record=record.to_json(),
        original_price=catalog.ship_class(class_id).price or 0,
        status=ShipStatus.PRIZE,
        captured_by=captor,
        cargo_tons=cargo_tons,
    )


def _alice_comes_home(alice: Captain, user: User) -> int:
    """Alice's Dart, two days out with the Red Jenny in tow; the Warm Winds, landed earlier, at auction."""
    campaign = alice.campaign
    dart = yard.ship_buy_class(captain_id=alice.pk, user=user, class_id="fleetfoot", name="Dart")
    warm_winds = _prize(campaign, alice, "warm_winds", "Warm Winds", cargo_tons=40)
    auctions.prize_land(ship_id=warm_winds.pk, city="Parhoon")
    red_jenny = _prize(campaign, alice, "bloodrunner", "Red Jenny")
    red_jenny.towed_by = dart
    red_jenny.save(update_fields=["towed_by"])
    # Her voyage began before day 0 (the demo's back-story): she is at sea where her plan home starts.
    Voyage.objects.create(
        campaign=campaign,
        captain=alice,
        ship=dart,
        start_city="Parhoon",
        started_day=0,
        q=ALICE_AT[0],
        r=ALICE_AT[1],
        plan=[{"kind": "move", "path": path} for path in ALICE_HOME],
        took_prize=True,
    )
    CampaignShip.objects.filter(pk=dart.pk).update(status=ShipStatus.AT_SEA, city="")
    Captain.objects.filter(pk=alice.pk).update(status=CaptainStatus.AT_SEA, city="")
    ChronicleEntry.objects.create(
        campaign=campaign,
        day=0,
        kind=ChronicleKind.ACTION,
        # The chronicle never places a ship (fog of war): what she did, not where.
        text="Captain Alice Fairweather takes the pirate Red Jenny and turns for home with her in tow.",
        captain=alice,
    )
    return 6


def _bob_sails(bob: Captain, user: User) -> int:
    """Bob's Gull, her orders given: out to the Neutral West, a patrol, and home (sailing from the first tick)."""
    gull = yard.ship_buy_class(captain_id=bob.pk, user=user, class_id="sky_runner", name="Gull")
    plan = (
        [{"kind": "move", "path": path} for path in BOB_OUT]
        + [{"kind": "patrol"}] * BOB_PATROL_DAYS
        + [{"kind": "move", "path": path} for path in BOB_HOME]
    )
    voyages.voyage_start(captain_id=bob.pk, ship_id=gull.pk, user=user, plan=plan)
    return 2


def _carol_walks(carol: Captain, user: User) -> int:
    """Carol's Kestrel, lost before day 0; she and four of her men walk home from the Neutral West."""
    campaign = carol.campaign
    kestrel = yard.ship_buy_class(captain_id=carol.pk, user=user, class_id="swiftwood", name="Kestrel")
    CampaignShip.objects.filter(pk=kestrel.pk).update(status=ShipStatus.LOST, city="")
    ChronicleEntry.objects.create(
        campaign=campaign,
        day=0,
        kind=ChronicleKind.SHIP_LOST,
        text="The Kestrel, Captain Catherine Vane's kite, is lost to the High Martians.",
        captain=carol,
    )
    treks.trek_start(
        captain_id=carol.pk, cause="crash_landing", q=CAROL_LANDED[0], r=CAROL_LANDED[1], party=CAROL_PARTY, day=0
    )
    return 5
