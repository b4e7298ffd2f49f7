"""manage.py rules_coverage: clause coverage per ruleset, read from the tests' rule markers."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from battles.checklist import checklist_clauses, coverage_report, tagged_clauses, unknown_tags


def test_the_checklist_numbers_1511_clauses_in_seven_rulesets():
    clauses = checklist_clauses()
    assert len(clauses) == 1511
    counts = {entry.prefix: entry.total for entry in coverage_report(tagged={})}
    assert counts == {"SG": 597, "SGD": 104, "SGC": 185, "AG": 78, "CM": 241, "BR": 127, "IC": 179}


def test_markers_are_read_from_test_sources(tmp_path):
    test_file = tmp_path / "test_example.py"
    test_file.write_text(
        "import pytest\n\n@pytest.mark.rule('SG-FIRE-06', 'SGD-SPD-02')\ndef test_x():\n    pass\n"
        "\npytestmark = pytest.mark.rule('SG-NOT-A-CLAUSE')\n"
    )
    tagged = tagged_clauses([test_file], root=tmp_path)
    assert set(tagged) == {"SG-FIRE-06", "SGD-SPD-02", "SG-NOT-A-CLAUSE"}
    assert set(unknown_tags(tagged)) == {"SG-NOT-A-CLAUSE"}
    report = {entry.prefix: entry for entry in coverage_report(tagged)}
    assert "SG-FIRE-06" in report["SG"].covered
    assert "SGD-SPD-02" in report["SGD"].covered
    assert len(report["SGD"].uncovered) == 103


def test_the_command_reports_this_projects_coverage_as_json():
    out = StringIO()
    call_command("rules_coverage", "--json", stdout=out)
    payload = json.loads(out.getvalue())
    by_prefix = {entry["prefix"]: entry for entry in payload["rulesets"]}
    assert by_prefix["SGD"]["clauses"] == 104
    assert "SGD-SPD-02" not in by_prefix["SGD"]["uncovered"]
    assert payload["unknown_tags"] == {}


def test_the_plain_report_has_a_line_per_ruleset_and_a_total():
    out = StringIO()
    call_command("rules_coverage", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["SG", "SGD", "SGC", "AG", "CM", "BR", "IC", "total"]
    assert lines[-1].split()[2] == "1511"
