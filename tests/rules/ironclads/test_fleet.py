"""The fleet list (data/fleet.json): every entry names a source and rates without error; the text's six example
ships rate as the text's worked examples do (IC-CARD-30..47, with the IC-CARD-44 decision)."""

from __future__ import annotations

import pytest

from battles.rules.ironclads import fleet
from battles.rules.ironclads.cards import TRACKS

ENTRIES = fleet.fleet()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_every_entry_rates_and_names_its_source(entry: fleet.Entry) -> None:
    rating = entry.rating()
    assert rating.card.name == entry.name
    assert entry.sources
    assert all(s.title for s in entry.sources)
    assert entry.note
    assert rating.working


def test_the_list_holds_the_three_battles_and_the_texts_examples() -> None:
    battles = {b for e in ENTRIES for b in e.battles}
    assert {"Hampton Roads 1862", "Lissa 1866", "Iquique 1879", "Angamos 1879", "Appendix A"} <= battles
    for name in ("CSS VIRGINIA", "USS MONITOR", "USS CUMBERLAND", "USS CONGRESS", "USS MINNESOTA", "CSS PATRICK HENRY",
                 "ERZHERZOG FERDINAND MAX", "KAISER", "AFFONDATORE", "RE D'ITALIA", "HUASCAR", "ESMERALDA",
                 "COVADONGA", "INDEPENDENCIA", "ALMIRANTE COCHRANE", "BLANCO ENCALADA"):  # fmt: skip
        assert fleet.find(name).name == name
    assert len({e.name for e in ENTRIES}) == len(ENTRIES)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("GLOIRE", (0, 13, 13, 0, 0, 0, 0, 7, 13, 6)),  # IC-CARD-33
        ("WARRIOR", (0, 17, 17, 0, 0, 0, 0, 7, 14, 10)),  # IC-CARD-36
        ("ARMINIUS", (0, 0, 0, 0, 2, 0, 2, 5, 12, 2)),  # IC-CARD-38
        ("COLBERT", (0, 5, 5, 1, 0, 0, 0, 7, 14, 9)),  # IC-CARD-40
        ("MONARCH", (3, 0, 0, 2, 7, 0, 7, 7, 15, 9)),  # IC-CARD-42
        ("ROANOKE", (0, 0, 0, 0, 4, 4, 3, 5, 6, 12)),  # IC-CARD-47, the centre turret 4 by the IC-CARD-44 decision
    ],
)
@pytest.mark.rule(
    "IC-CARD-33",
    "IC-CARD-34",
    "IC-CARD-35",
    "IC-CARD-36",
    "IC-CARD-37",
    "IC-CARD-38",
    "IC-CARD-39",
    "IC-CARD-40",
    "IC-CARD-41",
    "IC-CARD-42",
    "IC-CARD-43",
    "IC-CARD-44",
    "IC-CARD-45",
    "IC-CARD-46",
    "IC-CARD-47",
)
def test_the_texts_example_ships_in_the_list_match_the_worked_examples_ic_card_33_to_47(
    name: str, expected: tuple[int, ...]
) -> None:
    card = fleet.find(name).rating().card
    assert tuple(card.track(t).stats for t in TRACKS) == expected


def test_a_ship_is_found_by_any_case_or_a_unique_part_of_her_name() -> None:
    assert fleet.find("gloire").name == "GLOIRE"
    assert fleet.find("Huascar").name == "HUASCAR"
    with pytest.raises(KeyError, match="did you mean"):
        fleet.find("USS")
