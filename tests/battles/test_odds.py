"""Odds before you commit: many AI battles of a scenario in a task, with progress, resumable, per member."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from battles import odds
from battles.engine import simulate
from battles.models import OddsRun, OddsStatus
from battles.services import BattleRefused
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_odds_of_a_scenario_add_up_and_match_the_engines(club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=6)

    played = odds.odds_play(run_id=run.pk, chunk=4)

    assert played.status == OddsStatus.DONE
    assert played.done == 6
    assert sum(w["battles"] for w in played.summary["winners"].values()) == 6
    rs = odds.engine_io.ruleset_for("sky_galleons")
    scenario = odds.shipped_scenarios()["thieves-fall-out"]
    expected = [
        simulate.simulate(rs, scenario, seed=simulate.seed_for(run.number, n)).outcome["winner"] for n in range(6)
    ]
    assert [o["winner"] for o in played.outcomes] == expected


def test_a_killed_run_resumes_where_it_stopped(club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=5)
    odds.odds_play(run_id=run.pk, chunk=2)
    whole = OddsRun.objects.get(pk=run.pk).outcomes
    # As if a worker had died after its second chunk: three outcomes saved, still running.
    OddsRun.objects.filter(pk=run.pk).update(outcomes=whole[:3], status=OddsStatus.RUNNING, summary=None)

    resumed = odds.odds_play(run_id=run.pk, chunk=2)

    assert resumed.outcomes == whole
    assert resumed.status == OddsStatus.DONE


def test_a_battles_odds_use_its_scenario_not_its_seed(start_battle, club):
    battle = start_battle()
    run = odds.odds_request(user=club["bob"], campaign=club["campaign"], battle=battle, runs=2)

    assert run.scenario_slug == battle.scenario_slug
    assert run.options == battle.options
    assert simulate.seed_for(run.number, 0) != bytes.fromhex(battle.seed)


def test_odds_are_for_members_only_and_bounded(club):
    with pytest.raises(odds.Http404):
        odds.odds_request(user=UserFactory(), campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=5)
    with pytest.raises(BattleRefused):
        odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=5000)
    with pytest.raises(BattleRefused):
        odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="atlantis", runs=5)


def test_the_odds_page_shows_progress_then_the_distribution(club, client):
    client.force_login(club["alice"])
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="thieves-fall-out", runs=3)

    waiting = client.get(f"/odds/{run.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert "<progress" in waiting
    assert "hx-trigger" in waiting
    odds.odds_play(run_id=run.pk)
    done = client.get(f"/odds/{run.pk}/").content.decode()
    assert "Who wins how often" in done
    assert "hx-trigger" not in done
    client.force_login(UserFactory())
    assert client.get(f"/odds/{run.pk}/").status_code == 404


def test_the_odds_form_offers_the_scenarios_and_refuses_bad_input_plainly(club, client):
    client.force_login(club["bob"])
    assert "John Bull" in client.get("/campaigns/syrtis/odds/").content.decode()
    for bad in ({"scenario": "thieves-fall-out", "runs": "0"}, {"scenario": "atlantis"}, {"runs": "x"}):
        response = client.post("/campaigns/syrtis/odds/", bad)
        assert response.status_code == 400
    assert not OddsRun.objects.exists()


def test_every_rulesets_battle_has_its_odds_figured_and_shown(every_ruleset, ruleset_battle, club, client):
    battle = ruleset_battle(every_ruleset)
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], battle=battle, runs=3)

    played = odds.odds_play(run_id=run.pk, chunk=2)

    assert played.status == OddsStatus.DONE
    assert run.ruleset_key == every_ruleset.key
    assert sum(w["battles"] for w in played.summary["winners"].values()) == 3
    assert played.summary["turns"]["max"] >= 1
    expected = [
        simulate.simulate(every_ruleset, battle.scenario, seed=simulate.seed_for(run.number, n), options=battle.options)
        for n in range(3)
    ]
    assert [o["winner"] for o in played.outcomes] == [s.outcome["winner"] for s in expected]
    client.force_login(club["alice"])
    page = client.get(f"/odds/{run.pk}/").content.decode()
    assert "Who wins how often" in page
    names = dict(battle.sides.values_list("key", "name"))
    for key in set(played.summary["winners"]) - {"draw"}:
        assert escape(names[key]) in page


def test_the_odds_form_offers_the_scenarios_of_the_campaigns_ruleset(every_ruleset, club, client):
    campaign = club["campaign"]
    campaign.tactical_ruleset = every_ruleset.key
    campaign.save(update_fields=["tactical_ruleset"])
    first = every_ruleset.example_scenarios()[0]
    client.force_login(club["bob"])

    form = client.get("/campaigns/syrtis/odds/").content.decode()
    run = odds.odds_request(user=club["bob"], campaign=campaign, scenario_slug=str(first["slug"]), runs=2)

    assert f'value="{first["slug"]}"' in form
    assert escape(str(first["title"])) in form
    assert run.ruleset_key == every_ruleset.key
    assert odds.odds_play(run_id=run.pk).status == OddsStatus.DONE
