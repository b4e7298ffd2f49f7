"""The package's clause notes (data/clause_notes.json) name real CM clauses and cover every CM clause the
checklist leaves open (a gap, a lost source, an ambiguity)."""

import json
import re
from pathlib import Path

from battles.checklist import checklist_clauses
from battles.rules.cloudships_2023 import conversion

OPEN = re.compile(r"gap|source missing|ambigu|not stated|presumably")


def notes() -> dict[str, str]:
    data = json.loads((conversion.DATA_DIR / "clause_notes.json").read_text(encoding="utf-8"))
    return data["notes"]


def test_every_note_names_a_cm_clause():
    clauses = checklist_clauses()
    assert all(clause.startswith("CM-") and clause in clauses for clause in notes())


def test_every_open_cm_clause_has_a_note():
    open_clauses = {c.id for c in checklist_clauses().values() if c.prefix == "CM" and OPEN.search(c.text)}
    assert open_clauses, "the checklist tags some CM clauses as open"
    assert open_clauses <= set(notes())


def test_the_decisions_page_names_every_noted_clause():
    page = (Path(__file__).resolve().parents[3] / "docs" / "cloudships.md").read_text(encoding="utf-8")
    missing = [clause for clause in notes() if clause not in page]
    assert not missing
