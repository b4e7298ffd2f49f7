"""The fog of war (issue 7; DESIGN.md section 5): a player sees his own ships, the cities and terrain, and what his
ships have seen; never another captain's position or plans, in the API, the pages, notifications or exports.

The club: an umpire; Alice, whose Captain Jack takes the Dart to sea from a hex of the Neutral Northeast, and the
daily tick (strategic_map.tick, the real one) sails her on and makes her meet an encounter, whose battle opens
through the battle app (SGC-ENC-19); Bob, whose captain is on an epic trek; Carol, a third player with a captain
ashore. Carol's client walks every page and API URL of the site, each URL pattern taken from the resolver and
filled with the club's objects (a URL added later is walked too, or the test names the argument it cannot fill),
before Alice sails and after; nothing she is answered may tell where Alice's ship or Bob's party is, nor name
Alice's voyage, encounter or battle. Alice and the umpire still see theirs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from battles import engine_io
from battles import services as battle_services
from battles.models import Battle, BattleStatus
from campaign import captains
from campaign.models import Campaign, Captain, Invitation, Notification, NotificationKind, WebhookDelivery
from strategic_map import tick
from strategic_map.mapdata import mars_map
from strategic_map.models import EpicTrek, Voyage
from tests.factories import InvitationFactory
from tests.strategic_map.map_club import Club, map_club, to_sea, trek
from tests.strategic_map.tick_fleet import HOME, back_and_forth, hexes_east, quiet_seas
from tests.url_walk import Route, routes

pytestmark = pytest.mark.django_db

SLUG = "fog"
# Bob's captain walks home from here (a hex none of Alice's days comes near).
TREK_HEX = (9, 7)
# An id no row has: a URL of something the club has none of (an auction, an odds run) is walked with it.
NO_SUCH_ID = 987_654
# Django's password reset confirmation: a signed token for one user, nothing of the campaign's.
NOT_WALKED = {"password_reset_confirm": "a signed reset link of one user, nothing of the campaign"}


@dataclass
class Fog:
    club: Club
    anne: Captain  # Carol's captain, ashore
    invitation: Invitation
    voyage: Voyage | None = None
    trek: EpicTrek | None = None

    @property
    def campaign(self) -> Campaign:
        return self.club.campaign

    @property
    def encounter(self) -> Any:
        assert self.voyage is not None
        return self.voyage.days.get(day=1).encounter

    @property
    def battle(self) -> Battle:
        return self.encounter.battle


@pytest.fixture
def fog(settings: Any) -> Fog:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    club = map_club(SLUG)
    Campaign.objects.filter(pk=club.campaign.pk).update(webhook_url="https://chat.invalid/hook")
    club.campaign.refresh_from_db()
    for user in (club.umpire, club.alice, club.bob, club.carol):
        User.objects.filter(pk=user.pk).update(email=f"{user.username}@club.invalid")
        user.refresh_from_db()
    anne = captains.captain_found(campaign=club.campaign, user=club.carol, name="Anne")
    invitation = InvitationFactory(campaign=club.campaign, created_by=club.umpire)
    quiet_seas(club.campaign, 6)  # every die hits: the ship at sea meets an encounter on day 1
    Campaign.objects.filter(pk=club.campaign.pk).update(seed="f0" * 32)  # the same encounter every run
    return Fog(club, anne, invitation)


def sail(fog: Fog, capture: Callable[..., Any]) -> None:
    """Alice's Dart puts to sea (two hexes east a day) and Bob's Captain Mary is on an epic trek; the tick sails
    day 1, the Dart meets the encounter and its battle opens after the commit (Celery eager)."""
    fog.voyage = to_sea(fog.club.dart, HOME.q, HOME.r, back_and_forth(HOME, 3))
    fog.trek = trek(fog.club.mary, *TREK_HEX)
    with capture(execute=True):
        assert tick.campaign_tick(campaign_id=fog.campaign.pk) == [1]
    fog.voyage.refresh_from_db()
    assert fog.encounter is not None
    assert fog.encounter.battle is not None


# --- what Carol must never learn ----------------------------------------------------------------------------------


def hidden_hexes(fog: Fog) -> list[tuple[int, int]]:
    """Every hex that would place Alice's Dart (where she set out, her plan, where she met the encounter) or Bob's
    party."""
    hexes = {(h.q, h.r) for h in hexes_east(HOME, 2)}
    if fog.voyage is not None:
        hexes.add((fog.voyage.q, fog.voyage.r))
        hexes.add((fog.encounter.q, fog.encounter.r))
    hexes.add(TREK_HEX)
    return sorted(hexes)


def exact_secrets(fog: Fog) -> list[str]:
    """Strings that name Alice's voyage, encounter or battle (or Bob's trek): never in anything Carol reads."""
    encounter, battle = fog.encounter, fog.battle
    assert fog.trek is not None
    assert fog.voyage is not None
    return [
        battle.title,
        f"/battles/{battle.pk}/",
        f"/api/battles/{battle.pk}/",
        f"/api/encounters/{encounter.pk}/",
        f"/api/voyages/{fog.voyage.pk}/",
        f"/treks/{fog.trek.pk}/",
        f"/api/treks/{fog.trek.pk}/",
        f"{encounter.territory}, day {encounter.day}",
    ]


def position_count(body: str, content_type: str, hexes: list[tuple[int, int]]) -> int:
    """How often the response mentions one of the hexes: its CCRR label, or its coordinates as the pages and the
    API write them. The map itself names every hex, so the walk compares before and after, never zero."""
    atlas = mars_map()
    labels = [atlas.hex_at(q, r).label for q, r in hexes]
    if content_type.startswith("application/json"):
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if data is not None:
            return sum(_json_mentions(data, set(hexes), set(labels)))
    count = sum(body.count(label) for label in labels)
    for q, r in hexes:
        for form in (f'data-q="{q}" data-r="{r}"', f'"q": {q}, "r": {r}', f'"q":{q},"r":{r}', f"[{q}, {r}]"):
            count += body.count(form)
    return count


def _json_mentions(data: Any, hexes: set[tuple[int, int]], labels: set[str]) -> Iterator[int]:
    if isinstance(data, dict):
        if (data.get("q"), data.get("r")) in hexes:
            yield 1
        for value in data.values():
            yield from _json_mentions(value, hexes, labels)
    elif isinstance(data, list):
        if len(data) == 2 and tuple(data) in hexes:
            yield 1
        for value in data:
            yield from _json_mentions(value, hexes, labels)
    elif isinstance(data, str):
        yield sum(data.count(label) for label in labels)


# --- every URL of the site ----------------------------------------------------------------------------------------


# What a `pk` is, by the URL name's first word.
PK_OF = {
    "battle": "battle",
    "captain": "captain",
    "ship": "ship",
    "trek": "trek",
    "invitation": "invitation",
    "auction": "auction",
}
# The arguments that point at Alice's (or Bob's) things: Carol must get 404 for them.
PRIVATE = {"battle", "captain", "ship", "voyage", "encounter", "trek"}


def argument(fog: Fog, route: Route, kwarg: str) -> tuple[str, str | None]:
    """The value for one argument of a URL, and what it is (None for a value anyone may use)."""
    battle = fog.battle if fog.voyage is not None else None
    kind = kwarg.removesuffix("_id")
    if kwarg == "pk":
        first = route.name.split("_")[0]
        if first not in PK_OF:
            pytest.fail(f"URL {route.name} ({route.route}): say in PK_OF what its pk is")
        kind = PK_OF[first]
    values: dict[str, Callable[[], Any]] = {
        "slug": lambda: fog.campaign.slug,
        "battle": lambda: battle.pk if battle else NO_SUCH_ID,
        "captain": lambda: fog.club.jack.pk,
        "ship": lambda: fog.club.dart.pk,
        "voyage": lambda: fog.voyage.pk if fog.voyage else NO_SUCH_ID,
        "encounter": lambda: fog.encounter.pk if fog.voyage else NO_SUCH_ID,
        "trek": lambda: fog.trek.pk if fog.trek else NO_SUCH_ID,
        "invitation": lambda: fog.invitation.pk,
        "auction": lambda: NO_SUCH_ID,
        "run": lambda: NO_SUCH_ID,
        "token": lambda: fog.invitation.token,
        "name": lambda: fog.club.dart.name,  # a battle's ship, by name (the battle is Alice's)
        "request": lambda: _open_request(battle) if battle else "r1",  # a battle's decision
        "key": lambda: "sky_galleons",  # a ruleset's key (its tools page): public, nobody's
    }
    if kind not in values:
        pytest.fail(f"URL {route.name} ({route.route}): add a value for its argument {kwarg!r} to the fog walk")
    private = "battle" if kind in {"name", "request"} else kind
    return str(values[kind]()), private if private in PRIVATE else None


def _open_request(battle: Battle) -> str:
    pending = engine_io.current_state(battle).pending()
    return pending[0].id if pending else "r1"


def url_for(fog: Fog, route: Route) -> tuple[str, bool]:
    """The URL filled with the club's objects, and whether it points at something of Alice's or Bob's."""
    path, private = route.route, False
    for kwarg in route.kwargs:
        value, kind = argument(fog, route, kwarg)
        private = private or kind is not None
        start = path.index("<")
        path = path[:start] + value + path[path.index(">", start) + 1 :]
    return "/" + path.lstrip("^").rstrip("$"), private


@dataclass(frozen=True)
class Answer:
    name: str
    method: str
    url: str
    status: int
    body: str
    content_type: str
    private: bool


# Every method a page or the API answers: a form or an API call with an empty (so invalid) body must still answer
# 404 for another's thing, never a 400 that says it is there. GET carries a malformed query for the same reason.
METHODS = ("get", "post", "put", "patch", "delete")
QUERY = {"after": "x", "limit": "x", "side": "captain", "as": "captain"}


def walk(fog: Fog, user: User) -> list[Answer]:
    """Every URL as ``user``, by every method: what he can read, and what a form or an API call answers him."""
    client = Client(raise_request_exception=True)
    client.force_login(user)
    answers = []
    for route in routes():
        if route.name in NOT_WALKED:
            continue
        url, private = url_for(fog, route)
        for method in METHODS:
            response = getattr(client, method)(url, **({"query_params": QUERY} if method == "get" else {}))
            if route.name == "logout" and method == "post":
                client.force_login(user)  # signed out by the walk itself: sign in again
            body = b"".join(response.streaming_content) if response.streaming else response.content
            answers.append(
                Answer(
                    route.name,
                    method.upper(),
                    url,
                    response.status_code,
                    body.decode("utf-8", errors="replace"),
                    response.get("Content-Type", ""),
                    private,
                )
            )
    admin = client.get("/admin/")
    assert admin.status_code == 302
    assert "/admin/login/" in admin["Location"]
    return answers


# --- the tests ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("SGC-ENC-19")
def test_carol_walks_every_url_and_learns_nothing_of_alices_ship_or_bobs_party(fog, django_capture_on_commit_callbacks):
    before = {(a.name, a.method): a for a in walk(fog, fog.club.carol)}
    sail(fog, django_capture_on_commit_callbacks)
    after = walk(fog, fog.club.carol)

    hexes, secrets = hidden_hexes(fog), exact_secrets(fog)
    assert len(after) == len(before) > 100
    problems = []
    for answer in after:
        where = f"{answer.method} {answer.url} ({answer.name}) -> {answer.status}"
        if answer.status >= 500:
            problems.append(f"{where}: a server error")
        for secret in secrets:
            if secret in answer.body:
                problems.append(f"{where}: names {secret!r}")
        then = before[(answer.name, answer.method)]
        now_count = position_count(answer.body, answer.content_type, hexes)
        then_count = position_count(then.body, then.content_type, hexes)
        if now_count > then_count:
            problems.append(f"{where}: mentions the hidden hexes {now_count} times, {then_count} before")
        if answer.private and answer.status not in (404, 405):
            problems.append(f"{where}: Alice's or Bob's, yet not 404")
    for name in {a.name for a in after if a.private}:
        statuses = {a.status for a in after if a.name == name}
        if 404 not in statuses:
            problems.append(f"{name}: Alice's or Bob's, answered {sorted(statuses)}, never 404")
    assert problems == [], "\n".join(problems)


@pytest.mark.rule("SGC-ENC-19")
def test_the_encounters_battle_is_404_to_carol_on_every_battle_url_and_open_to_alice_and_the_umpire(
    fog, django_capture_on_commit_callbacks
):
    sail(fog, django_capture_on_commit_callbacks)
    battle, club = fog.battle, fog.club
    assert battle.private
    battle_urls = [
        url
        for route in routes()
        if "battle" in route.kwargs or "battle_id" in route.kwargs or route.name.startswith("battle_")
        if (url := url_for(fog, route)[0]) and str(battle.pk) in url
    ]
    assert len(battle_urls) >= 15
    carol, alice, umpire = Client(), Client(), Client()
    carol.force_login(club.carol)
    alice.force_login(club.alice)
    umpire.force_login(club.umpire)
    for url in battle_urls:
        got = carol.get(url)
        answer = got if got.status_code != 405 else carol.post(url)
        assert answer.status_code == 404, url
    for client in (alice, umpire):
        page = client.get(f"/battles/{battle.pk}/")
        assert page.status_code == 200
        assert battle.title in page.content.decode()
        assert client.get(f"/api/battles/{battle.pk}/").json()["title"] == battle.title
        assert battle.pk in [row["id"] for row in client.get("/api/battles/").json()["results"]]
        assert battle.title in client.get(f"/campaigns/{SLUG}/battles/").content.decode()
    assert battle.pk not in [row["id"] for row in carol.get("/api/battles/").json()["results"]]
    # Alice reads where her ship is and what she met; Carol reads none of it.
    mine = alice.get(f"/api/campaigns/{SLUG}/map/positions/").json()
    assert [v["id"] for v in mine["voyages"]] == [fog.voyage.pk]
    assert [e["battle"] for e in mine["encounters"]] == [battle.pk]
    theirs = carol.get(f"/api/campaigns/{SLUG}/map/positions/").json()
    assert (theirs["voyages"], theirs["encounters"], theirs["treks"]) == ([], [], [])
    # The umpire sees all: the ship, the encounter, Bob's party.
    everything = umpire.get(f"/api/campaigns/{SLUG}/map/positions/").json()
    assert [v["id"] for v in everything["voyages"]] == [fog.voyage.pk]
    assert [t["id"] for t in everything["treks"]] == [fog.trek.pk]
    assert battle.title in umpire.get(f"/campaigns/{SLUG}/desk/").content.decode()


@pytest.mark.rule("SGC-ENC-19")
def test_a_private_battle_is_told_to_its_sides_player_and_the_umpire_only_never_to_the_clubs_chat(
    fog, django_capture_on_commit_callbacks
):
    sail(fog, django_capture_on_commit_callbacks)
    battle, club = fog.battle, fog.club
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.battle_hand_to_ai(battle_id=battle.pk, user=club.alice, side_key="captain")
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED

    told = Notification.objects.filter(url=f"/battles/{battle.pk}/")
    assert set(told.values_list("user__username", flat=True)) == {club.alice.username, club.umpire.username}
    assert told.filter(kind=NotificationKind.BATTLE_ENDED).count() == 2
    assert not WebhookDelivery.objects.filter(campaign=fog.campaign, text__contains=battle.title).exists()
    for message in mail.outbox:
        if set(message.to) & {club.bob.email, club.carol.email}:
            assert battle.title not in message.body
            assert battle.title not in message.subject
    # What the club hears of the action (the chronicle, the chat) places nobody.
    secrets = exact_secrets(fog)
    labels = [mars_map().hex_at(q, r).label for q, r in hidden_hexes(fog)]
    public = [e.text for e in fog.campaign.chronicle.all()] + [d.text for d in fog.campaign.webhook_deliveries.all()]
    assert any("fought an action" in text for text in public)
    for text in public:
        assert not [s for s in (*secrets, *labels) if s in text], text
    # Carol's pages after the end: the chronicle says Jack fought; nothing says where.
    carol = Client()
    carol.force_login(club.carol)
    for url in (f"/campaigns/{SLUG}/standings/", f"/api/campaigns/{SLUG}/standings/", "/notifications/"):
        body = carol.get(url).content.decode()
        assert not [s for s in secrets if s in body], url
    assert carol.get(f"/battles/{battle.pk}/replay/").status_code == 404
    assert carol.get(f"/api/battles/{battle.pk}/result/").status_code == 404
    assert carol.get(f"/api/battles/{battle.pk}/verification/").status_code == 404
