"""The package's clause notes (data/clause_notes.json) name real BR clauses, cover every BR clause the checklist
leaves to a design decision, mark the crew and host-game stand-ins, and each is on the decisions page."""

import json
import re
from pathlib import Path

from battles.checklist import checklist_clauses

PACKAGE = Path(__file__).resolve().parents[3] / "battles" / "rules" / "barsoom"
DECISION = re.compile(r"design decision|not stated|gap|ambigu")


def notes() -> dict[str, str]:
    data = json.loads((PACKAGE / "data" / "clause_notes.json").read_text(encoding="utf-8"))
    return dict(data["notes"])


def test_every_note_names_a_br_clause():
    clauses = checklist_clauses()
    assert all(clause.startswith("BR-") and clause in clauses for clause in notes())


def test_every_br_clause_left_to_a_decision_has_a_note():
    open_clauses = {c.id for c in checklist_clauses().values() if c.prefix == "BR" and DECISION.search(c.text)}
    assert open_clauses, "the checklist leaves some BR clauses to a decision"
    assert open_clauses <= set(notes())


def test_the_host_game_stand_ins_say_so():
    found = notes()
    for clause in ("BR-SEQ-05", "BR-WPN-03", "BR-HIT-07", "BR-GRAP-03", "BR-GRAP-04", "BR-GRAP-05", "BR-REP-02"):
        assert found[clause].startswith("Stand-in"), clause


def test_each_note_points_to_a_section_of_the_decisions_page():
    page = (PACKAGE.parents[2] / "docs" / "barsoom.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\.", page, flags=re.M)}
    for clause, note in notes().items():
        cited = {int(n) for n in re.findall(r"sections? (\d+)(?: and (\d+))?", note)[0] if n}
        assert cited, clause
        assert cited <= sections, clause
