"""What players read in battles is plain English: no "Waiting for the Irish, .", no "the the AI", no prompt asked
twice, no "defenders's", and class and ship names keep their capitals (battles.engine.words and its users)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from battles import announcements, decision_forms, engine_io, narration
from battles.engine.decisions import DecisionRequest
from battles.models import DeadlineDefault
from battles.rules.sky_galleons import answers as sg_answers


def test_narration_never_writes_s_apostrophe_s():
    names = narration.Names({}, {})
    text = narration.narrate({"kind": "ship", "ship": "Warm Winds"}, names, engine_io.ruleset_for("sky_galleons"))
    assert "Warm Winds' record sheet" in text
    assert "s's" not in text


def test_a_listed_option_keeps_the_capitals_of_the_names_in_it():
    request = DecisionRequest(
        id="r1", side="pirates", kind="avoid", phase="move", rule="", default=True, options=("ram the Sky Runner",)
    )
    asked = sg_answers.Asked(rs=None, state=None, request=request, sides={})  # a listed option needs neither
    words = sg_answers.option_words(asked, "ram the Sky Runner")
    assert words == "Ram the Sky Runner"


def test_an_options_form_asks_its_question_once():
    request = DecisionRequest(
        id="r1",
        side="pirates",
        kind="first player",
        phase="initiative",
        rule="",
        default="pirates",
        options=("pirates", "british"),
        prompt="who moves first this turn?",
    )
    schema = sg_answers.schema(None, None, request, sides={"pirates": "Pirates"})  # listed: no state needed
    field = decision_forms.groups(schema)[0].fields[0]
    form = SimpleNamespace(
        id="r1",
        form="options",
        title="Who moves first?",
        side_name="Pirates",
        request=request,
        error="",
        groups=[SimpleNamespace(legend="", fields=[field])],
        idempotency_key="k",
        default_words="Pirates",
    )
    html = render_to_string("battles/_decision.html", {"form": form, "battle": SimpleNamespace(pk=1)})
    assert len(re.findall(r"(?i)who moves first this turn", html)) == 1
    assert "Who moves first this turn?" in html


@pytest.mark.parametrize("default", [DeadlineDefault.AI, DeadlineDefault.HOLD])
def test_the_deadline_sentence_reads(default):
    battle = SimpleNamespace(
        deadline=timezone.now(),
        deadline_default=default,
        get_deadline_default_display=lambda: default.label,
        is_finished=False,
        hand_over_at=None,  # a battle on no campaign clock
    )
    text = announcements._deadline_text(battle)
    assert "the the" not in text.lower()
    assert " ai " not in text
    if default == DeadlineDefault.AI:
        assert "the AI captain decides" in text
    else:
        assert "holds its course and fires at will" in text  # not "the hold course and fire at will"


@pytest.mark.django_db
def test_the_battle_page_says_who_it_waits_for_without_a_dangling_comma(client, club, start_battle):
    battle = start_battle()  # the Irish (Alice) set up first; the British (Bob) wait for them
    client.force_login(club["bob"])

    html = client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()

    waiting = re.search(r"Waiting for ([^<]*?)\. This page", html)
    assert waiting is not None
    assert not waiting.group(1).endswith(",")
    assert ", ." not in html
