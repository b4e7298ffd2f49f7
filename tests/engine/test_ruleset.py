import sys
import textwrap

import pytest

from battles.engine import dice, policies, resolver, ruleset
from battles.engine.ruleset import OptionError, OptionSpec
from tests.engine import toy


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(ruleset, "_registry", {})


class Bidding2(toy.Bidding):
    version = "2"


def test_register_get_and_list(clean_registry):
    one, two = toy.Bidding(), Bidding2()
    assert ruleset.register(one) is one
    ruleset.register(two)
    ruleset.register(one)  # the same object again is harmless
    assert ruleset.get("toy-bidding", "1") is one
    assert ruleset.get("toy-bidding") is two  # latest registered version
    assert ruleset.all_rulesets() == [one, two]
    with pytest.raises(ValueError, match="already registered"):
        ruleset.register(toy.Bidding())
    with pytest.raises(KeyError, match="no version"):
        ruleset.get("toy-bidding", "3")
    ruleset.unregister("toy-bidding", "2")
    assert ruleset.get("toy-bidding") is one
    ruleset.unregister("toy-bidding", "1")
    with pytest.raises(KeyError, match="no ruleset"):
        ruleset.get("toy-bidding")


def test_a_ruleset_needs_a_key_and_version(clean_registry):
    class Nameless(toy.Bidding):
        key = ""

    with pytest.raises(ValueError, match="key"):
        ruleset.register(Nameless())


def test_rulesets_satisfy_the_protocol():
    assert isinstance(toy.Bidding(), ruleset.Ruleset)
    assert not isinstance(object(), ruleset.Ruleset)


class Optioned(toy.Bidding):
    options = (
        OptionSpec("errata", True, "use the errata", choices=(True, False), clause="SG-ERR-01"),
        OptionSpec("map_cols", 30, "map width in hexes"),
        OptionSpec("wind", None, "fixed wind hexside, or None to roll"),
    )


def test_options_default_override_and_check():
    rs = Optioned()
    assert ruleset.resolve_options(rs) == {"errata": True, "map_cols": 30, "wind": None}
    assert ruleset.resolve_options(rs, {"map_cols": 12, "wind": 3})["map_cols"] == 12
    with pytest.raises(OptionError, match="unknown options"):
        ruleset.resolve_options(rs, {"agility": True})
    with pytest.raises(OptionError, match="not one of"):
        ruleset.resolve_options(rs, {"errata": "yes"})
    with pytest.raises(OptionError, match="must be int"):
        ruleset.resolve_options(rs, {"map_cols": "wide"})


def test_base_defaults():
    rs = toy.Bidding()
    assert rs.check_invariants is not None
    assert rs.example_scenarios() == []
    assert rs.tables == {}


def test_the_default_battle_result_is_the_engines_own():
    rs = toy.Bidding()
    seed = b"toy result"
    initial = resolver.new_battle(rs, {"turns": 2}, seed_commitment=dice.commitment(seed))
    chosen = {side: policies.RandomPolicy(seed + side.encode(), side) for side in initial.sides}
    final = policies.auto_play(rs, initial, seed=seed, policies=chosen).state
    assert final.over
    battle = {"winner": final.winner, "reason": final.result, "turns": 2, "over": True}
    assert rs.battle_result(initial, final) == {"format": 1, "ruleset": "toy-bidding", "version": "1", "battle": battle}
    assert ruleset.engine_result(final) == battle


def test_discover_imports_every_ruleset_package(tmp_path, monkeypatch, clean_registry):
    package = tmp_path / "fakerules"
    (package / "alpha").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "notes.py").write_text("raise RuntimeError('modules are not imported, only packages')\n")
    (package / "_skeleton").mkdir()  # a package named with "_" (battles/rules/_template) is no ruleset
    (package / "_skeleton" / "__init__.py").write_text("raise RuntimeError('a skeleton is not imported')\n")
    (package / "alpha" / "__init__.py").write_text(
        textwrap.dedent("""
        from battles.engine.ruleset import register
        from tests.engine.toy import Bidding

        class Alpha(Bidding):
            key = "alpha"

        register(Alpha())
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert ruleset.discover("fakerules") == ["fakerules", "fakerules.alpha"]
        assert ruleset.get("alpha").key == "alpha"
    finally:
        for name in ("fakerules", "fakerules.alpha"):
            sys.modules.pop(name, None)


def test_discover_finds_the_project_rules_package():
    found = ruleset.discover()
    assert found[0] == "battles.rules"
    assert {"battles.rules.sky_galleons", "battles.rules.duel"} <= set(found)
    assert "battles.rules._template" not in found  # the skeleton a new ruleset is copied from
    assert all(not name.rpartition(".")[2].startswith("_") for name in found[1:])


# --- the battle app's hooks: generic defaults -------------------------------------------------------------


def _played(rs, seed=b"toy hooks"):
    initial = resolver.new_battle(rs, {"turns": 2}, seed_commitment=dice.commitment(seed))
    chosen = {side: policies.RandomPolicy(seed + side.encode(), side) for side in initial.sides}
    return initial, policies.auto_play(rs, initial, seed=seed, policies=chosen).state


def test_the_default_ai_is_random_play_and_leaving_takes_the_defaults():
    rs = toy.Bidding()
    initial = resolver.resolve(rs, resolver.new_battle(rs, {"turns": 2}, seed_commitment=dice.commitment(b"s")), b"s")
    (request, *_) = initial.state.pending()
    initial = initial.state
    ai = rs.ai_policy(b"s|a", "a")
    assert isinstance(ai, policies.RandomPolicy)
    assert ai.name == "random a"
    assert ai.choose(rs, initial, request) in rs.candidates(initial, request)
    assert rs.leaving_policy(b"s|a", "a", "surrender").choose(rs, initial, request) == request.default
    assert rs.deadline_default(initial, request, b"s") == request.default


def test_the_default_summary_tally_and_outcome():
    rs = toy.Bidding()
    initial, final = _played(rs)
    assert rs.summary(initial) == "Before the first turn"
    assert rs.summary(final) == f"Over after turn 2: {final.result}"
    assert rs.tally(final) == ruleset.engine_result(final)
    made = rs.outcome(initial, final)
    assert (made.ruleset, made.version, made.winner, made.turns, made.over) == (
        "toy-bidding",
        "1",
        final.winner,
        2,
        True,
    )
    assert made.ships == ()  # the toy's roster names no ships


class Fleets(toy.Bidding):
    def roster(self, state):
        return [
            {
                "side": "a",
                "name": "Alpha",
                "ships": [{"name": "A1", "class": "sloop"}, {"name": "A2", "class": "brig"}],
            },
            {"side": "b", "name": "Beta", "ships": [{"name": "B1", "class": "sloop"}]},
        ]


def test_the_default_outcome_and_summary_read_the_roster():
    rs = Fleets()
    initial, final = _played(rs)
    assert rs.summary(initial) == "Before the first turn, Alpha 2, Beta 1"
    ships = rs.outcome(initial, final).ships
    assert [(s.name, s.side_at_start, s.side_at_end, s.fate, s.class_id) for s in ships] == [
        ("A1", "a", "a", "fighting", "sloop"),
        ("A2", "a", "a", "fighting", "brig"),
        ("B1", "b", "b", "fighting", "sloop"),
    ]
