"""battles.engine.words: the app's grammar, stated once (possessives, lists, capitals, articles)."""

from __future__ import annotations

import re

from battles.engine.words import and_list, capfirst, mid_sentence, possessive, without_article


def test_the_possessive_of_a_name_ending_in_s_takes_the_apostrophe_alone():
    assert possessive("Gull") == "Gull's"
    assert possessive("the defenders") == "the defenders'"
    assert possessive("Warm Winds") == "Warm Winds'"
    assert possessive("S") == "S's"  # a ship called by a letter
    assert possessive(None) == "None's"  # a missing name still reads, as before


def test_lists_join_without_dangling_commas_and_capitals_are_kept():
    assert and_list([]) == ""
    assert and_list(["Irish", "", None]) == "Irish"
    assert and_list(["Irish", "British", "Pirates"]) == "Irish, British and Pirates"
    assert capfirst("ram the Sky Runner") == "Ram the Sky Runner"
    assert without_article("The Gull") == "Gull"
    assert without_article("Theodora") == "Theodora"


def test_no_name_is_made_possessive_by_hand():
    """Every "<name>'s" the app writes goes through possessive (a name ending in s takes the apostrophe alone):
    no f-string or template puts 's after a value itself."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    by_hand = re.compile(r"\}\}?'s\b")
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("battles", "galleons", "campaign", "strategic_map", "templates", "accounts")
        for path in sorted((root / folder).rglob("*"))
        if path.suffix in (".py", ".html", ".txt") and "migrations" not in path.parts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if by_hand.search(line) and path.name != "words.py"
    ]
    assert found == []


def test_a_name_with_its_article_reads_lower_case_inside_a_sentence() -> None:
    assert mid_sentence("The black pirates") == "the black pirates"
    assert mid_sentence("Theodora") == "Theodora"
    assert mid_sentence("Royal Navy") == "Royal Navy"
