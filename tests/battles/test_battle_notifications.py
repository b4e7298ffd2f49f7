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

from battles import announcements
from battles.models import BattleMode
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
    assert all(n.url == f"/battles/{battle.pk}/" or n.url.endswith(f"/{battle.pk}/") for n in told)
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
    assert "deadline" in reminder.title


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
