"""Odds before you commit: many AI battles of a scenario, stored per chunk, played on any number of processes with
the same results, a first estimate with its interval early, a stop by the requester, per member."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from battles import engine_io, odds
from battles.engine import simulate
from battles.models import OddsChunk, OddsRun, OddsStatus
from battles.services import BattleRefused
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SLUG = "thieves-fall-out"  # the small scenario: a handful of its battles keeps these tests short


def serial(run: OddsRun, count: int) -> list[object]:
    """The winners of the first ``count`` runs played one by one here, straight from the engine."""
    rs = engine_io.ruleset_for(run.ruleset_key)
    scenario = odds.shipped_scenarios(run.ruleset_key)[run.scenario_slug]
    return [
        simulate.simulate(rs, scenario, seed=simulate.seed_for(run.number, n), options=run.options).outcome["winner"]
        for n in range(count)
    ]


def test_the_odds_of_a_scenario_add_up_and_match_the_engines(club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=8)

    played = odds.odds_play(run_id=run.pk)

    assert played.status == OddsStatus.DONE
    assert played.done == 8
    assert [(c.start, c.stop) for c in played.chunks.all()] == [(0, 2), (2, 4), (4, 8)]  # small chunks first
    assert sum(w["battles"] for w in played.summary["winners"].values()) == 8
    assert [o["winner"] for o in odds.outcomes_of(run.pk)] == serial(run, 8)


def test_a_chunk_saved_twice_counts_once(club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=8)
    first = simulate.play_chunk(odds.chunk_job(run, 0))

    assert odds.save_chunk(run_id=run.pk, index=0, outcomes=first) is True
    assert odds.save_chunk(run_id=run.pk, index=0, outcomes=first) is False  # a redelivered task, a retried worker
    assert odds.odds_chunk(run_id=run.pk, index=0) == 0  # found stored before it is played again

    assert OddsChunk.objects.filter(run=run).count() == 1
    assert OddsRun.objects.get(pk=run.pk).done == 2
    with pytest.raises(ValueError, match="holds 2 runs, not 4"):
        odds.save_chunk(run_id=run.pk, index=2, outcomes=first)


def test_a_killed_run_resumes_where_it_stopped(club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=8)
    whole = odds.outcomes_of(odds.odds_play(run_id=run.pk).pk)
    # As if the worker playing the middle chunk had died: the others stored, still running.
    OddsChunk.objects.filter(run=run, index=1).delete()
    OddsRun.objects.filter(pk=run.pk).update(status=OddsStatus.RUNNING, summary=None, finished_at=None)

    resumed = odds.odds_play(run_id=run.pk)

    assert odds.outcomes_of(run.pk) == whole
    assert resumed.status == OddsStatus.DONE


def test_a_run_begun_on_an_older_chunk_plan_is_finished_on_its_own_chunks(club):
    """A run stored before the plan changed (migration 0010 names it plan 1) keeps its chunks' meaning: resumed,
    it plays the rest of plan 1's chunks, every run once, the same outcomes as on today's plan."""
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=8)
    today = odds.outcomes_of(odds.odds_play(run_id=run.pk).pk)
    OddsChunk.objects.filter(run=run).delete()
    OddsRun.objects.filter(pk=run.pk).update(chunking=1, status=OddsStatus.RUNNING, summary=None, finished_at=None)
    old = OddsRun.objects.get(pk=run.pk)
    odds.save_chunk(run_id=run.pk, index=0, outcomes=simulate.play_chunk(odds.chunk_job(old, 0)))

    resumed = odds.odds_play(run_id=run.pk)

    assert [(c.start, c.stop) for c in resumed.chunks.all()] == [(0, 6), (6, 8)]
    assert resumed.status == OddsStatus.DONE
    assert odds.outcomes_of(run.pk) == today


def test_the_same_outcomes_on_a_pool_of_processes_as_one_by_one(club):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=8)
    with odds.process_pool(2) as pool:
        played = odds.odds_in_pool(run_id=run.pk, pool=pool)

    assert played.status == OddsStatus.DONE
    jobs = [odds.chunk_job(run, index) for index in range(len(odds.plan_of(run)))]
    expected = [o for job in jobs for o in simulate.play_chunk(job)]
    assert odds.outcomes_of(run.pk) == expected
    assert played.summary == simulate.distribution(expected)


def test_a_stopped_run_plays_no_more_and_says_so(club, client):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=40)
    assert odds.odds_chunk(run_id=run.pk, index=0) + odds.odds_chunk(run_id=run.pk, index=1) == 4
    late = simulate.play_chunk(odds.chunk_job(run, 2))  # a chunk already playing when the stop comes
    client.force_login(club["alice"])

    page = client.post(f"/odds/{run.pk}/stop/", follow=True).content.decode()

    stopped = OddsRun.objects.get(pk=run.pk)
    assert stopped.status == OddsStatus.STOPPED
    assert stopped.summary["runs"] == 4
    assert odds.save_chunk(run_id=run.pk, index=2, outcomes=late) is False  # not counted after the stop
    assert odds.odds_play(run_id=run.pk).done == 4  # and no chunk is played any more
    assert "stopped at 4 battles" in page
    most = max(figures["battles"] for figures in stopped.summary["winners"].values())
    assert f"{round(100 * most / 4)}%</strong>" in page  # the words name the most likely outcome
    assert "95% confidence) after 4 battles" in page
    assert "Stop here" not in page
    assert "hx-trigger" not in page


def test_only_the_requester_may_stop_a_run(club, client):
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=40)
    client.force_login(club["bob"])  # a member, not the requester: sees the run, no Stop button, cannot stop it
    assert "Stop here" not in client.get(f"/odds/{run.pk}/").content.decode()
    assert client.post(f"/odds/{run.pk}/stop/").status_code == 404
    client.force_login(UserFactory())
    assert client.post(f"/odds/{run.pk}/stop/").status_code == 404
    client.force_login(club["alice"])
    assert "Stop here" in client.get(f"/odds/{run.pk}/").content.decode()
    assert client.get(f"/odds/{run.pk}/stop/").status_code == 405
    assert OddsRun.objects.get(pk=run.pk).status == OddsStatus.QUEUED


def test_a_battles_odds_use_its_scenario_not_its_seed(start_battle, club):
    battle = start_battle()
    run = odds.odds_request(user=club["bob"], campaign=club["campaign"], battle=battle, runs=2)

    assert run.scenario_slug == battle.scenario_slug
    assert run.options == battle.options
    assert simulate.seed_for(run.number, 0) != bytes.fromhex(battle.seed)


def test_odds_are_for_members_only_and_bounded(club):
    with pytest.raises(odds.Http404):
        odds.odds_request(user=UserFactory(), campaign=club["campaign"], scenario_slug=SLUG, runs=5)
    with pytest.raises(BattleRefused):
        odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=5000)
    with pytest.raises(BattleRefused):
        odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug="atlantis", runs=5)


def test_the_odds_page_shows_progress_a_first_estimate_then_the_distribution(club, client):
    client.force_login(club["alice"])
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], scenario_slug=SLUG, runs=8)

    waiting = client.get(f"/odds/{run.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert "<progress" in waiting
    assert "hx-trigger" in waiting
    assert "The first estimate shows" in waiting
    odds.odds_chunk(run_id=run.pk, index=0)
    first = client.get(f"/odds/{run.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert "Fighting 2 of 8" in first
    assert "95% confidence) after 2 battles" in first
    assert "hx-trigger" in first
    odds.odds_play(run_id=run.pk)
    done = client.get(f"/odds/{run.pk}/").content.decode()
    assert "Who wins how often" in done
    assert "after 8 battles" in done
    assert "hx-trigger" not in done
    client.force_login(UserFactory())
    assert client.get(f"/odds/{run.pk}/").status_code == 404


def test_the_odds_form_offers_the_scenarios_and_refuses_bad_input_plainly(club, client):
    client.force_login(club["bob"])
    assert "John Bull" in client.get("/campaigns/syrtis/odds/").content.decode()
    for bad in ({"scenario": SLUG, "runs": "0"}, {"scenario": "atlantis"}, {"runs": "x"}):
        response = client.post("/campaigns/syrtis/odds/", bad)
        assert response.status_code == 400
    assert not OddsRun.objects.exists()


def test_every_rulesets_battle_has_its_odds_figured_and_shown(every_ruleset, ruleset_battle, club, client):
    battle = ruleset_battle(every_ruleset)
    run = odds.odds_request(user=club["alice"], campaign=club["campaign"], battle=battle, runs=3)

    played = odds.odds_play(run_id=run.pk)

    assert played.status == OddsStatus.DONE
    assert run.ruleset_key == every_ruleset.key
    assert sum(w["battles"] for w in played.summary["winners"].values()) == 3
    assert played.summary["turns"]["max"] >= 1
    expected = [
        simulate.simulate(every_ruleset, battle.scenario, seed=simulate.seed_for(run.number, n), options=battle.options)
        for n in range(3)
    ]
    assert [o["winner"] for o in odds.outcomes_of(run.pk)] == [s.outcome["winner"] for s in expected]
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
