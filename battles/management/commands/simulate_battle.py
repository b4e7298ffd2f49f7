"""manage.py simulate_battle: auto-resolve a scenario with the AI, once or many times (the odds calculator).

    python manage.py simulate_battle --list
    python manage.py simulate_battle --scenario thieves-fall-out --seed 7
    python manage.py simulate_battle --scenario thieves-fall-out --seed 7 --runs 1000 --json
    python manage.py simulate_battle --scenario pitched-battle --runs 500 --processes 2
    python manage.py simulate_battle --scenario-file my.json --seed 7 --log battle.jsonl
    python manage.py simulate_battle --balance [--scenario SLUG] [--json]

--balance plays nothing: it weighs the sides against the ruleset's advice on balancing scenarios
(Ruleset.weigh_sides; for Sky Galleons each side's cost, tonnage, hull and guns, SG-SCN-48..50); without a
scenario, every shipped one.

The same --seed gives the same battles, byte for byte. --log writes every event as a JSON line (with
--runs, each line carries its ``run``). The dice seed of run R is sha256("red-captain simulate N run R").

--runs plays the battles in chunks (battles.engine.simulate.chunk_plan) on --processes processes (default: one per
core), the same chunks the web's odds calculator plays; run R has its seed whatever the split, so the distribution
is the same on any number of processes. --log plays in this one process (the events stream to the file).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any, TextIO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles import odds
from battles.engine import ruleset as registry
from battles.engine import simulate
from battles.engine.events import JSON, canonical, plain
from battles.engine.resolver import EngineError
from battles.engine.ruleset import OptionError


class Command(BaseCommand):
    help = (
        "Auto-resolve a battle scenario with the AI and print the outcome; with --runs, the distribution of "
        "outcomes over that many battles."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--ruleset", default=settings.DEFAULT_RULESET, help=f"ruleset key (default {settings.DEFAULT_RULESET})"
        )
        parser.add_argument("--scenario", help="a scenario slug shipped with the ruleset (see --list)")
        parser.add_argument("--scenario-file", help="a scenario JSON file (docs/scenarios.md)")
        parser.add_argument("--seed", type=int, default=1, help="the simulation number the dice derive from")
        parser.add_argument("--runs", type=int, default=0, help="play this many battles and print the odds")
        parser.add_argument(
            "--processes",
            type=int,
            default=os.cpu_count() or 1,
            help="with --runs, play the battles on this many processes (default: one per core)",
        )
        parser.add_argument("--option", action="append", default=[], help="ruleset option KEY=JSON, repeatable")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument("--log", help="write the event log as JSON lines to this file")
        parser.add_argument("--list", action="store_true", help="list the scenario slugs and titles")
        parser.add_argument(
            "--balance",
            action="store_true",
            help="play nothing: weigh the sides' cost, tonnage, hull, guns and crews against the advice on "
            "balance (SG-SCN-48..50); every shipped scenario unless one is given",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        registry.discover()
        try:
            rules = registry.get(options["ruleset"])
        except KeyError as error:
            raise CommandError(str(error)) from error
        shipped = {str(s["slug"]): s for s in rules.example_scenarios() if "slug" in s}
        if options["list"]:
            self._list(shipped, as_json=options["json"])
            return
        if options["balance"]:
            self._balance(rules, options, shipped)
            return
        scenario = self._scenario(options, shipped)
        chosen = read_options(options["option"])
        if options["runs"] < 0:
            raise CommandError("--runs must be 0 or more")
        if options["processes"] < 1:
            raise CommandError("--processes must be 1 or more")
        try:
            if options["runs"]:
                self._odds(rules, scenario, chosen, options)
            else:
                self._once(rules, scenario, chosen, options)
        except (ValueError, OptionError, EngineError) as error:
            raise CommandError(f"cannot play this scenario: {error}") from error

    def _list(self, shipped: dict[str, Any], *, as_json: bool) -> None:
        if as_json:
            listing = [{"slug": slug, "title": s.get("title", "")} for slug, s in shipped.items()]
            self.stdout.write(json.dumps(listing, indent=2))
            return
        for slug, s in shipped.items():
            self.stdout.write(f"{slug}\t{s.get('title', '')}")

    def _balance(self, rules: Any, options: dict[str, Any], shipped: dict[str, Any]) -> None:
        one = options["scenario"] or options["scenario_file"]
        scenarios = [self._scenario(options, shipped)] if one else list(shipped.values())
        try:
            found = [rules.weigh_sides(data) for data in scenarios]
        except ValueError as error:  # a ScenarioError too: the scenario cannot be played
            raise CommandError(f"cannot weigh this scenario: {error}") from error
        weighed = [entry for entry in found if entry is not None]
        if len(weighed) < len(found):
            raise CommandError(f"--balance: {rules.title} gives no advice on balancing scenarios")
        if options["json"]:
            self.stdout.write(json.dumps([entry.figures for entry in weighed], indent=2))
            return
        self.stdout.write("\n".join(entry.words for entry in weighed))

    def _scenario(self, options: dict[str, Any], shipped: dict[str, Any]) -> dict[str, Any]:
        if bool(options["scenario"]) == bool(options["scenario_file"]):
            raise CommandError("give one of --scenario SLUG or --scenario-file PATH (or --list)")
        if options["scenario"]:
            if options["scenario"] not in shipped:
                raise CommandError(f"no scenario {options['scenario']!r}; the scenarios are {', '.join(shipped)}")
            return dict(shipped[options["scenario"]])
        path = Path(options["scenario_file"])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{path} is not valid JSON: {error}") from error
        if not isinstance(data, dict):
            raise CommandError(f"{path}: a scenario is a JSON object")
        return data

    def _once(self, rules: Any, scenario: dict[str, Any], chosen: dict[str, JSON], options: dict[str, Any]) -> None:
        played = simulate.simulate(rules, scenario, seed=simulate.seed_for(options["seed"]), options=chosen)
        if options["log"]:
            with self._log_file(options["log"]) as out:
                _write_events(out, played, run=None)
        result = {"seed": options["seed"], "events": len(played.events), **played.outcome}
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
            return
        self.stdout.write(_describe(result))

    def _odds(self, rules: Any, scenario: dict[str, Any], chosen: dict[str, JSON], options: dict[str, Any]) -> None:
        if options["log"]:
            outcomes = self._odds_logged(rules, scenario, chosen, options)
        else:
            number, runs, processes = options["seed"], options["runs"], options["processes"]
            outcomes = play_runs(rules.key, scenario, chosen, number=number, runs=runs, processes=processes)
        summary = {"seed": options["seed"], **simulate.distribution(outcomes)}
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
            return
        self.stdout.write(_describe_odds(summary))

    def _odds_logged(
        self, rules: Any, scenario: dict[str, Any], chosen: dict[str, JSON], options: dict[str, Any]
    ) -> list[dict[str, Any]]:
        outcomes = []
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(self._log_file(options["log"]))
            battles = simulate.runs(rules, scenario, number=options["seed"], count=options["runs"], options=chosen)
            for run, played in enumerate(battles):
                outcomes.append(simulate.summary_of(played.outcome))
                _write_events(out, played, run=run)  # streamed: a thousand logs need not sit in memory
        return outcomes

    def _log_file(self, name: str) -> TextIO:
        try:
            return Path(name).open("w", encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {name}: {error.strerror or error}") from error


def play_runs(
    ruleset_key: str, scenario: dict[str, Any], options: dict[str, JSON], *, number: int, runs: int, processes: int
) -> list[dict[str, Any]]:
    """The summaries of runs 0..runs-1 of simulation ``number``, in run order, played chunk by chunk on
    ``processes`` processes (in this one when 1): the path the odds benchmark measures."""
    plain_scenario = plain(scenario)  # a scenario crosses to the pool's processes as plain data
    assert isinstance(plain_scenario, dict)
    jobs = [
        simulate.ChunkJob(ruleset_key, plain_scenario, options, number, start, stop)
        for start, stop in simulate.chunk_plan(runs)
    ]
    if processes == 1 or len(jobs) == 1:
        return [outcome for job in jobs for outcome in simulate.play_chunk(job)]
    with odds.process_pool(min(processes, len(jobs))) as pool:
        return [outcome for chunk in pool.map(simulate.play_chunk, jobs) for outcome in chunk]


def _write_events(out: TextIO, played: simulate.Simulation, *, run: int | None) -> None:
    for event in played.events:
        line = event.to_json() if run is None else {"run": run, **event.to_json()}
        out.write(canonical(line) + "\n")


def _describe(result: dict[str, Any]) -> str:
    lines = [
        f"{result.get('scenario', 'battle')} (seed {result['seed']}): "
        f"{'winner ' + str(result['winner']) if result['winner'] else 'no winner'} - {result['reason']}, "
        f"{result['turns']} turns, {result['events']} events",
    ]
    for ship in result.get("ships", []):
        lines.append(
            f"  {ship['name']} ({ship['side']}, {ship['class']}): {ship['fate']}, "
            f"hull hits {ship['hull_hits']}/{ship['hull_boxes']}, crew lost {ship['crew_lost']}/{ship['crew_at_start']}"
        )
    return "\n".join(lines)


def _describe_odds(summary: dict[str, Any]) -> str:
    lines = [f"{summary['runs']} battles (seed {summary['seed']}):"]
    for name, figures in summary["winners"].items():
        lines.append(
            f"  {name}: {figures['battles']} ({figures['share']:.1%}; "
            f"{figures['low']:.0%}-{figures['high']:.0%} with 95% confidence)"
        )
    turns = summary["turns"]
    lines.append(f"  turns: mean {turns['mean']}, median {turns['median']}, {turns['min']}-{turns['max']}")
    for side, figures in summary.get("sides_mean", {}).items():
        shown = ", ".join(f"{key} {value}" for key, value in figures.items())
        lines.append(f"  {side} per battle: {shown}")
    return "\n".join(lines)


def read_options(pairs: list[str]) -> dict[str, JSON]:
    """The ruleset options of repeated ``--option KEY=VALUE`` (VALUE as JSON where it parses, else the words)."""
    chosen: dict[str, JSON] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise CommandError(f"--option {pair!r}: write KEY=VALUE")
        try:
            chosen[key] = json.loads(value)
        except json.JSONDecodeError:
            chosen[key] = value
    return chosen
