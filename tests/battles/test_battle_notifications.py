"""Notifications: in the app, by email and to the campaign's chat webhook, when a battle needs a decision,
a deadline draws near, or the battle ends. Once each, and never with a side's secrets."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.core import mail
from django.utils import timezone
from django.utils.html import escape

from battles import announcements, engine_io, services
from battles.models import BattleMode
from battles.services import SideControl
from campaign.models import Notification, NotificationKind, WebhookDelivery
from campaign.tasks import webhook_refusal

pytestmark = pytest.mark.django_db


class ChatServer:
    """A real local HTTP server standing in for a club's chat webhook."""

    def __init__(self) -> None:
        self.received: list[dict[str, str]] = []
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                received.append(json.loads(self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture
def chat():
    server = ChatServer()
    yield server
    server.close()


def test_a_player_is_told_when_a_battle_needs_his_decision_once_until_he_looks(start_battle, club, play_defaults):
    battle = start_battle()

    told = Notification.objects.filter(kind=NotificationKind.DECISION_NEEDED)
    assert told.count() >= 1
    assert {n.user.username for n in told} <= {"alice", "bob"}
    assert all(n.url == f"/battles/{battle.pk}/#decisions" for n in told)
    assert mail.outbox, "an email goes out after commit"
    assert battle.title in mail.outbox[0].subject or battle.title in mail.outbox[0].body
    count = told.count()
    play_defaults(battle, limit=6)
    # Nobody read theirs: still one unread "your decision" per player and battle.
    per_user = {n.user_id for n in told.filter(read_at__isnull=True)}
    assert told.filter(read_at__isnull=True).count() == len(per_user) <= 2
    assert told.count() >= count


def test_the_end_is_told_to_everyone_and_posted_to_the_chat(
    start_battle, club, chat, django_capture_on_commit_callbacks
):
    campaign = club["campaign"]
    campaign.webhook_url = chat.url
    campaign.save()

    with django_capture_on_commit_callbacks(execute=True):
        battle = start_battle("thieves-fall-out", mode=BattleMode.AUTO)

    ended = Notification.objects.filter(kind=NotificationKind.BATTLE_ENDED)
    assert {n.user.username for n in ended} == {"hargreaves"}  # an AI battle: the umpire hears of it
    assert len(chat.received) == 1
    assert battle.title in chat.received[0]["text"]
    assert WebhookDelivery.objects.get().delivered_at is not None
    announcements.announce(battle, None)  # told again: nothing new
    assert ended.count() == 1
    assert WebhookDelivery.objects.count() == 1


def test_a_deadline_drawing_near_is_reminded_once(start_battle, club):
    battle = start_battle()
    battle.deadline = timezone.now() + timedelta(hours=2)
    battle.save(update_fields=["deadline"])
    Notification.objects.update(read_at=timezone.now())

    assert list(announcements.battles_to_remind()) == [battle]
    first = announcements.remind(battle)
    again = announcements.remind(battle)

    assert first >= 1
    assert again == 0
    reminder = Notification.objects.get(kind=NotificationKind.DEADLINE_NEAR)
    assert reminder.title == (
        "Reminder: your place ship decision for the set-up of John Bull's Tyranny is due in 2 hours"
    )


def test_a_webhook_may_not_reach_into_the_servers_network(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False

    assert webhook_refusal("http://chat.example.com/hook") == "the webhook URL must be https"
    assert "private" in webhook_refusal("https://127.0.0.1/hook")
    assert webhook_refusal("ftp://example.com/") == "the webhook URL must be http(s)"


def test_the_notifications_page_lists_mine_and_marks_them_read(start_battle, club, client):
    start_battle()
    alice = club["alice"]
    mine = Notification.objects.filter(user=alice)
    assert mine.exists()
    client.force_login(alice)

    page = client.get("/notifications/")
    assert page.status_code == 200
    assert escape(mine.first().title) in page.content.decode()
    assert 'aria-label="1 unread"' in page.content.decode() or "unread" in page.content.decode()
    one = mine.first()
    followed = client.post("/notifications/read/", {"id": one.pk, "next": one.url})
    assert followed.status_code == 302
    assert followed["Location"] == one.url
    one.refresh_from_db()
    assert one.read_at is not None
    assert client.post("/notifications/read/", {"next": "//evil.example.com/"})["Location"] == "/notifications/"
    other = Notification.objects.exclude(user=alice).first()
    if other is not None:  # someone else's notification cannot be marked by me
        client.post("/notifications/read/", {"id": other.pk})
        other.refresh_from_db()
        assert other.read_at is None


# --- the words: exactly what is wanted, of whom, for which turn of which battle, by when ---------------------------


@pytest.fixture
def ambush(club, start_battle):
    """The Ambush at Gorovaan: a Duel with Alice for Red Squadron (the Aphid) and Bob for Blue (the Swiftwood)."""

    def start(mode: str = BattleMode.LIVE, **kwargs):
        sides = kwargs.pop(
            "sides", {"red": SideControl("player", club["alice"]), "blue": SideControl("player", club["bob"])}
        )
        return start_battle(
            "close-quarters", mode=mode, ruleset_key="duel", title="The Ambush at Gorovaan", sides=sides, **kwargs
        )

    return start


def deadline_words(battle) -> str:
    return f"Deadline {battle.deadline:%a %d %b %H:%M} UTC; after it the AI captain decides for a side still to answer."


def test_a_decision_is_told_in_the_rulesets_words_with_the_time_left_and_a_link_to_it(club, ambush):
    battle = ambush(live_minutes=5)

    told = Notification.objects.get(user=club["alice"], kind=NotificationKind.DECISION_NEEDED)
    assert told.title == "Your place ship decision for the set-up of The Ambush at Gorovaan is due in 5 minutes"
    assert told.body == f"Place Aphid in one of her deployment hexes. {deadline_words(battle)}"
    assert told.url == f"/battles/{battle.pk}/#decisions"
    bobs = Notification.objects.get(user=club["bob"], kind=NotificationKind.DECISION_NEEDED)
    assert bobs.body.startswith("Place Swiftwood in one of her deployment hexes.")  # his own ship, never hers


def test_web_play_gives_the_time_left_in_days(club, ambush):
    ambush(mode=BattleMode.ASYNC, decision_hours=48)
    told = Notification.objects.get(user=club["alice"], kind=NotificationKind.DECISION_NEEDED)
    assert told.title == "Your place ship decision for the set-up of The Ambush at Gorovaan is due in 2 days"


def test_the_umpire_at_the_table_is_told_which_side_is_awaited(club, ambush):
    ambush(mode=BattleMode.TABLE, sides={"red": SideControl("umpire"), "blue": SideControl("umpire")})
    titles = set(
        Notification.objects.filter(user=club["umpire"], kind=NotificationKind.DECISION_NEEDED).values_list(
            "title", flat=True
        )
    )
    assert titles == {
        "Red Squadron's and Blue Squadron's place ship decisions for the set-up of The Ambush at Gorovaan are awaited"
    }


def test_an_unread_notification_says_what_is_wanted_now_not_what_was(club, ambush, django_capture_on_commit_callbacks):
    battle = ambush(live_minutes=10)
    for side, user in (("red", club["alice"]), ("blue", club["bob"])):
        request = next(r for r in engine_io.current_state(battle).pending(side))
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_submit_decision(
                battle_id=battle.pk, user=user, request_id=request.id, choice=request.default
            )
        battle.refresh_from_db()
    assert battle.turn == 1
    kinds = {r.kind for r in engine_io.current_state(battle).pending("red")}

    unread = Notification.objects.get(user=club["alice"], kind=NotificationKind.DECISION_NEEDED, read_at=None)
    (kind,) = kinds
    assert unread.title == f"Your {kind} decision for turn 1 of The Ambush at Gorovaan is due in 10 minutes"
    assert len(mail.outbox) == 2  # one email each, when each was first told


def test_a_reminder_says_what_is_due_and_when(club, ambush):
    battle = ambush(mode=BattleMode.ASYNC)
    battle.deadline = timezone.now() + timedelta(minutes=45, seconds=10)
    battle.save(update_fields=["deadline"])

    assert announcements.remind(battle) == 2
    reminder = Notification.objects.get(user=club["bob"], kind=NotificationKind.DEADLINE_NEAR)
    assert reminder.title == (
        "Reminder: your place ship decision for the set-up of The Ambush at Gorovaan is due in 45 minutes"
    )
    assert reminder.url == f"/battles/{battle.pk}/#decisions"


def test_a_live_battle_is_not_reminded_its_players_are_at_the_page(ambush):
    battle = ambush(live_minutes=5)
    assert battle.deadline is not None
    assert list(announcements.battles_to_remind()) == []
    battle.mode = BattleMode.ASYNC
    battle.save(update_fields=["mode"])
    assert list(announcements.battles_to_remind()) == [battle]


def test_the_end_says_who_won_or_that_it_was_a_draw(club, ambush, play_defaults):
    battle = ambush()
    play_defaults(battle)
    battle.refresh_from_db()
    ended = Notification.objects.get(user=club["alice"], kind=NotificationKind.BATTLE_ENDED)
    winner = battle.sides.get(key=battle.winner).name if battle.winner else ""
    outcome = f"{winner} won" if winner else "a draw"
    assert ended.title == f"The Ambush at Gorovaan is over: {outcome} ({battle.result_reason})"
    assert ended.body == f"It ended on turn {battle.turn}. Replay it turn by turn from the battle page."
    assert ended.url == f"/battles/{battle.pk}/"


@pytest.mark.parametrize(
    ("left", "words"),
    [
        (timedelta(seconds=20), "now"),
        (timedelta(minutes=1), "in 1 minute"),
        (timedelta(minutes=5), "in 5 minutes"),
        (timedelta(minutes=89), "in 89 minutes"),
        (timedelta(hours=6, minutes=10), "in 6 hours"),
        (timedelta(hours=47), "in 47 hours"),
        (timedelta(hours=48), "in 2 days"),
        (timedelta(days=14), "in 14 days"),
        (timedelta(minutes=-3), "now"),
    ],
)
def test_the_time_left_in_round_words(left, words):
    assert announcements.time_left_words(left) == words
