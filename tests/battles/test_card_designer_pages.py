"""The generic card designer hook (Ruleset.card_designer, battles/engine/card_designer.py) and its page: a ruleset that
offers one is listed on the Rulesets page; its form posts particulars and gets the card drawn with the working; a
field the ruleset refuses is a 422 on that field, never a 500. A tiny ruleset registered within the test stands in."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from django.test import Client
from django.urls import reverse

from battles.engine import ruleset as registry
from battles.engine.answers import Group, Many, One, Option, Text
from battles.engine.card_designer import DesignedCard, DesignRefused
from battles.engine.events import JSON
from battles.engine.presentation import WHOLE, Block, Box, RecordSheet, Row, Section
from battles.engine.ruleset import BaseRuleset
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


class TinyDesigner:
    title = "A raft's card"
    about = "Planks make a raft."

    def fields(self) -> Group:
        return Group(
            key="raft",
            fields=(
                Text(key="name", label="Name", max_length=50),
                Text(key="planks", label="Planks", section="Build", hint="a whole number"),
                One(key="sail", label="A sail", options=(Option(True, "yes"), Option(False, "no")), default=False),
                Many(key="sides", label="Oars on", options=(Option("port", "Port"), Option("starboard", "Starboard"))),
            ),
        )

    def design(self, values: Mapping[str, JSON]) -> DesignedCard | DesignRefused:
        planks = str(values.get("planks") or "")
        if not planks.isdigit():
            return DesignRefused("planks", "Planks are counted in whole numbers.")
        row = Row("Planks", "Planks", tuple(Box(WHOLE, f"{n + 1:02d}") for n in range(int(planks))), "planks")
        sheet = RecordSheet(
            key=str(values["name"]), title=str(values["name"]), sections=(Section("s", "Raft", (Block(rows=(row,)),)),)
        )
        return DesignedCard(sheet, (f"{planks} planks", f"sail: {values['sail']}", f"oars: {values['sides']}"))


class Tiny(BaseRuleset[None]):
    key = "tiny_designer_test"
    version = "1"
    title = "Tiny rafts"
    card_designer = TinyDesigner()


@pytest.fixture
def tiny() -> Iterator[Tiny]:
    rules = Tiny()
    registry.register(rules)
    yield rules
    registry.unregister(rules.key, rules.version)


@pytest.fixture
def client() -> Client:
    found = Client()
    found.force_login(UserFactory())
    return found


def test_the_rulesets_page_lists_a_designer_where_a_ruleset_has_one(client: Client, tiny: Tiny) -> None:
    page = client.get(reverse("ruleset_tools")).content.decode()
    assert "Tiny rafts" in page
    assert reverse("card_designer", kwargs={"key": tiny.key}) in page
    assert "A raft&#x27;s card" in page


def test_the_designer_form_draws_the_card_and_the_working(client: Client, tiny: Tiny) -> None:
    url = reverse("card_designer", kwargs={"key": tiny.key})
    assert client.get(url).status_code == 200
    answer = client.post(url, {"name": "Kon-Tiki", "planks": "3", "sail": "on", "sides": ['"port"']})
    page = answer.content.decode()
    assert answer.status_code == 200
    assert page.count("box box--whole") == 3
    assert "sail: True" in page
    assert "oars: [&#x27;port&#x27;]" in page


def test_a_refused_field_is_a_422_on_that_field(client: Client, tiny: Tiny) -> None:
    url = reverse("card_designer", kwargs={"key": tiny.key})
    answer = client.post(url, {"name": "Raft", "planks": "many"})
    assert answer.status_code == 422
    assert answer.context["form"].errors["planks"] == ["Planks are counted in whole numbers."]
    bad_choice = client.post(url, {"name": "Raft", "planks": "2", "sides": ['"aloft"']})
    assert bad_choice.status_code == 422
    assert "sides" in bad_choice.context["form"].errors


def test_a_ruleset_without_a_designer_or_no_ruleset_is_a_404(client: Client, tiny: Tiny) -> None:
    assert client.get(reverse("card_designer", kwargs={"key": "no_such_rules"})).status_code == 404
    tiny.card_designer = None  # type: ignore[assignment]
    try:
        assert client.get(reverse("card_designer", kwargs={"key": tiny.key})).status_code == 404
    finally:
        del tiny.card_designer


def test_the_pages_need_a_sign_in(tiny: Tiny) -> None:
    assert Client().get(reverse("ruleset_tools")).status_code == 302
