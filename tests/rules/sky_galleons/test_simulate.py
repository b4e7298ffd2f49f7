"""Auto-resolve and the odds calculator: battles.engine.simulate and `manage.py simulate_battle`."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from battles.engine import dice, simulate
from battles.engine.events import events_from_json
from battles.rules.sky_galleons import scenario
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

SLUG = "thieves-fall-out"
THIEVES = scenario.load_data(SLUG)


def run(*args: str) -> str:
    out = StringIO()
    call_command("simulate_battle", *args, stdout=out)
    return out.getvalue()


def test_list_names_scenario_one():
    assert f"{SLUG}\tThieves Fall Out" in run("--list").splitlines()
    assert {"slug": SLUG, "title": "Thieves Fall Out"} in json.loads(run("--list", "--json"))


def test_one_battle_prints_winner_turns_and_each_ships_fate():
    result = json.loads(run("--scenario", SLUG, "--seed", "5", "--json"))
    assert result["seed"] == 5
    assert result["over"] is True
    assert result["turns"] >= 1
    assert {s["name"] for s in result["ships"]} == {"Belle Etoile", "Red Kestrel", "Shistomik Wolf"}
    assert {s["fate"] for s in result["ships"]} <= {"fighting", "crashed", "crash-landed", "struck", "escaped"}
    fighting_sides = {s["side"] for s in result["ships"] if s["fate"] == "fighting"}
    if result["winner"] is not None:
        assert fighting_sides == {result["winner"]}
    text = run("--scenario", SLUG, "--seed", "5")
    assert text.startswith(f"{SLUG} (seed 5): ")
    assert "Belle Etoile (roquette, Sky Runner)" in text


def test_the_same_seed_writes_the_same_log_byte_for_byte(tmp_path: Path):
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    run("--scenario", SLUG, "--seed", "11", "--log", str(first))
    run("--scenario", SLUG, "--seed", "11", "--log", str(second))
    run("--scenario", SLUG, "--seed", "12", "--log", str(other))
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    lines = first.read_text().splitlines()
    events = events_from_json("[" + ",".join(lines) + "]")
    assert [e.seq for e in events] == list(range(len(events)))
    rolls = [json.loads(line) for line in lines if json.loads(line)["kind"] == "roll"]
    assert rolls
    assert dice.verify_log(simulate.seed_for(11), rolls) == []  # every die checks against the seed


def test_a_scenario_file_plays_like_the_shipped_one(tmp_path: Path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(scenario.load_data(SLUG)))
    shipped = json.loads(run("--scenario", SLUG, "--seed", "3", "--json"))
    from_file = json.loads(run("--scenario-file", str(path), "--seed", "3", "--json"))
    assert from_file == shipped


def test_runs_give_the_distribution_of_outcomes():
    summary = json.loads(run("--scenario", SLUG, "--seed", "2", "--runs", "12", "--json"))
    assert summary["runs"] == 12
    assert sum(w["battles"] for w in summary["winners"].values()) == 12
    assert set(summary["winners"]) <= {"roquette", "tharn", "blackwood", "draw"}
    assert summary["turns"]["min"] <= summary["turns"]["median"] <= summary["turns"]["max"]
    assert set(summary["sides_mean"]) == {"roquette", "tharn", "blackwood"}
    # Run 0 of a simulation is the single battle of the same seed.
    single = json.loads(run("--scenario", SLUG, "--seed", "2", "--json"))
    first = simulate.simulate(SKY_GALLEONS, scenario.load_data(SLUG), seed=simulate.seed_for(2, 0))
    assert first.outcome["winner"] == single["winner"]
    assert first.outcome["turns"] == single["turns"]


def test_runs_log_every_battle_with_its_run(tmp_path: Path):
    path = tmp_path / "runs.jsonl"
    run("--scenario", SLUG, "--seed", "4", "--runs", "3", "--log", str(path))
    runs = {json.loads(line)["run"] for line in path.read_text().splitlines()}
    assert runs == {0, 1, 2}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give one of --scenario"),
        (("--scenario", "nowhere"), "no scenario 'nowhere'"),
        (("--scenario", SLUG, "--runs", "-1"), "--runs must be 0 or more"),
        (("--scenario", SLUG, "--option", "no_such=1"), "unknown options"),
        (("--scenario", SLUG, "--option", "errata"), "KEY=VALUE"),
        (("--ruleset", "chess", "--list"), "no ruleset 'chess'"),
        (("--scenario-file", "/no/such/file.json"), "cannot read"),
    ],
)
def test_bad_arguments_are_clear_errors(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_a_broken_scenario_file_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="not valid JSON"):
        run("--scenario-file", str(path))
    data = scenario.load_data(SLUG)
    data["sides"][0]["ships"][0]["class"] = "No Such Ship"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="cannot play this scenario"):
        run("--scenario-file", str(path))


def test_options_reach_the_battle():
    played = simulate.simulate(
        SKY_GALLEONS, scenario.load_data(SLUG), seed=simulate.seed_for(1), options={"errata": False}
    )
    assert played.initial.options["errata"] is False
    with pytest.raises(ValueError, match="errata"):
        simulate.simulate(SKY_GALLEONS, scenario.load_data(SLUG), seed=b"x", options={"errata": "sometimes"})


def test_distribution_of_nothing_is_empty():
    assert simulate.distribution([]) == {"runs": 0}


def test_runs_on_several_processes_give_what_one_process_gives():
    """Run n is played on seed_for(number, n) whatever the split: the chunks on a pool of two processes add up to
    the same distribution, field for field, as one process playing them in order."""
    one = json.loads(run("--scenario", SLUG, "--seed", "9", "--runs", "8", "--processes", "1", "--json"))
    two = json.loads(run("--scenario", SLUG, "--seed", "9", "--runs", "8", "--processes", "2", "--json"))
    assert one == two
    assert one["runs"] == 8
    logged = simulate.distribution(
        [simulate.summary_of(played.outcome) for played in simulate.runs(SKY_GALLEONS, THIEVES, number=9, count=8)]
    )
    assert one == {"seed": 9, **logged}


def test_the_chunks_cover_every_run_once_small_first():
    assert simulate.chunk_plan(0) == []
    assert simulate.chunk_plan(1) == [(0, 1)]
    plan = simulate.chunk_plan(500)
    # Two chunks of each small size: both cores of a two-core machine play one at once from the start.
    assert plan[:7] == [(0, 2), (2, 4), (4, 8), (8, 12), (12, 20), (20, 28), (28, 40)]
    assert all(stop - start <= 12 for start, stop in plan)
    assert [n for start, stop in plan for n in range(start, stop)] == list(range(500))
    # Plan 1 (every run stored before plans were numbered) keeps its meaning.
    assert simulate.chunk_plan(500, 1)[:5] == [(0, 6), (6, 16), (16, 31), (31, 51), (51, 76)]
    for chunking in simulate.CHUNK_PLANS:
        covered = [n for start, stop in simulate.chunk_plan(37, chunking) for n in range(start, stop)]
        assert covered == list(range(37))


def test_the_wilson_interval_has_its_known_values():
    low, high = simulate.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert simulate.wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))  # no win in 10 is not "never"
    low, high = simulate.wilson(10, 10)
    assert (round(low, 4), high) == (0.7225, 1.0)
    assert simulate.wilson(0, 0) == (0.0, 1.0)
    shares = simulate.distribution(
        [{"winner": "a", "reason": "r", "turns": 1}] * 3 + [{"winner": None, "reason": "r", "turns": 2}]
    )
    assert shares["winners"]["draw"] == {"battles": 1, "share": 0.25, "low": 0.0456, "high": 0.6994}
