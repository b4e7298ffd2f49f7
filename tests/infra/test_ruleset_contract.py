"""The import contract "No module outside battles.rules imports a tactical ruleset package" (pyproject.toml, DESIGN.md
3b): it lists the battles modules one by one (battles.rules itself must stay out of its sources), so a new module
of the battle app must be added to it; this test says so when one is not."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = "No module outside battles.rules imports a tactical ruleset package"
# Not sources: the rulesets themselves, and migrations, which name a ruleset only as a default value.
NOT_SOURCES = {"rules", "migrations", "__init__"}


def _contract() -> dict[str, list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == CONTRACT]
    assert len(found) == 1, f"pyproject.toml has no contract {CONTRACT!r}"
    return found[0]


def test_every_module_of_the_battle_app_is_a_source_of_the_ruleset_contract():
    battles = ROOT / "battles"
    modules = {p.stem for p in battles.glob("*.py")} | {
        p.name for p in battles.iterdir() if (p / "__init__.py").exists()
    }
    expected = {f"battles.{name}" for name in modules - NOT_SOURCES}
    sources = set(_contract()["source_modules"])
    assert expected - sources == set(), "add these battles modules to the contract's source_modules"
    assert "battles.rules" not in sources
    assert "battles" not in sources


def test_the_ruleset_contract_forbids_every_ruleset_package_to_the_apps():
    contract = _contract()
    assert contract["type"] == "forbidden"
    assert contract["forbidden_modules"] == ["battles.rules"]
    assert {"campaign", "strategic_map", "accounts", "config", "galleons", "campaign_transfer"} <= set(
        contract["source_modules"]
    )


def test_every_ruleset_package_is_independent_of_the_others():
    """DESIGN.md 3b: ruleset packages do not import each other; the independence contract names each one."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "independence"]
    assert len(found) == 1
    packages = {
        f"battles.rules.{p.name}" for p in (ROOT / "battles" / "rules").iterdir() if (p / "__init__.py").exists()
    }
    assert set(found[0]["modules"]) == packages
    assert len(packages) >= 2
