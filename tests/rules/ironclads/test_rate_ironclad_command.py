"""manage.py rate_ironclad (Appendix A as a tool, IC-CARD-02..47) and how the ruleset's Django face is installed: a
ruleset package with a management folder is found on disk by the settings, and only that folder imports Django."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

import battles.rules
from battles.rules.ironclads import fleet


def run(*args: str) -> str:
    out = StringIO()
    call_command("rate_ironclad", *args, stdout=out)
    return out.getvalue()


def test_a_ruleset_with_management_commands_is_installed_by_the_settings_scan() -> None:
    """config/settings.py names no ruleset: every battles.rules package with management/commands is an app."""
    root = Path(battles.rules.__file__).parent
    expected = {
        f"battles.rules.{p.name}"
        for p in root.iterdir()
        if p.is_dir() and not p.name.startswith("_") and (p / "management" / "commands").is_dir()
    }
    assert "battles.rules.ironclads" in expected
    assert expected <= set(settings.INSTALLED_APPS)
    assert not {"battles.rules.barsoom", "battles.rules._template"} & set(settings.INSTALLED_APPS)
    assert "rules.ironclads" not in Path(settings.BASE_DIR, "config", "settings.py").read_text()


@pytest.mark.rule("IC-CARD-30", "IC-CARD-31", "IC-CARD-32", "IC-CARD-33")
def test_rate_a_ship_of_the_fleet_list_ic_card_30_to_33() -> None:
    """IC-CARD-33: GLOIRE's card as the text prints it, the working, and her source."""
    said = run("--ship", "gloire")
    assert "Port Broadside Arc: 01 02 03 04 05 06 07 08 09 10 11 12 13 ~~14 15" in said
    assert "Propulsion: 01 02 03 04 05 06 07 08 09 10 11 12 13 ~~14 15 16 17 18 19 20~~" in said
    assert "Port broadside: 18 Medium x 0.7 = 12.6" in said
    assert "rounded up = 8, held to the limit of 7" in said
    assert "Sources: Ironclads 1850-1890" in said


@pytest.mark.rule("IC-CARD-15")
def test_rate_a_particulars_file_ic_card_15(tmp_path: Path) -> None:
    """IC-CARD-15: the 2.5 in iron on 24 in wood example, from a file."""
    path = tmp_path / "ship.json"
    path.write_text(json.dumps({"name": "TEST", "displacement_tons": 900, "speed_knots": 9.5, "belt_iron_in": 2.5,
                                "wood_backing_in": 24, "arcs": {"broadside": ["4 x 32 lb"]}}))  # fmt: skip
    said = run(str(path))
    assert "Armour: 01 02 03 04 05 ~~06 07~~" in said
    assert "2.5 + 2.4 = 4.9 in; rounded up = 5" in said
    assert "9.5 knots, rounded up = 10 stats" in said


def test_the_fleet_report_rates_every_ship() -> None:
    said = run("--fleet-report")
    assert f"{len(fleet.fleet())} ships; every entry rated" in said
    assert "CSS VIRGINIA" in said


@pytest.mark.parametrize(
    ("args", "message"),
    [((), "give one of"), (("--ship", "Nautilus"), "no ship"), (("--ship", "GLOIRE", "--fleet-report"), "give one of")],
)
def test_a_bad_request_is_a_command_error(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_bad_particulars_name_their_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"name": "BAD", "displacement_tons": 900, "speed_knots": 9, "arcs": {"port": ["lots"]}}))
    with pytest.raises(CommandError, match="port: cannot read"):
        run(str(path))
    path.write_text("[1, 2]")
    with pytest.raises(CommandError, match="expected a JSON object"):
        run(str(path))
