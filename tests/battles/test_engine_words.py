"""battles.engine.words: the app's grammar, stated once (possessives, lists, capitals, articles)."""

from __future__ import annotations

from battles.engine.words import and_list, capfirst, possessive, without_article


def test_the_possessive_of_a_name_ending_in_s_takes_the_apostrophe_alone():
    assert possessive("Gull") == "Gull's"
    assert possessive("the defenders") == "the defenders'"
    assert possessive("Warm Winds") == "Warm Winds'"
    assert possessive(None) == "None's"  # a missing name still reads, as before


def test_lists_join_without_dangling_commas_and_capitals_are_kept():
    assert and_list([]) == ""
    assert and_list(["Irish", "", None]) == "Irish"
    assert and_list(["Irish", "British", "Pirates"]) == "Irish, British and Pirates"
    assert capfirst("ram the Sky Runner") == "Ram the Sky Runner"
    assert without_article("The Gull") == "Gull"
    assert without_article("Theodora") == "Theodora"
