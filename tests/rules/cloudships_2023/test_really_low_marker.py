"""The optional Really Low band on the map (CM-ALT-07): a ship there is shown as at the table, with two markers in
the Low band, beside one at Low with one."""

from __future__ import annotations

import pytest

from battles.rules.cloudships_2023 import panels
from battles.rules.cloudships_2023.ruleset import CLOUDSHIPS
from tests.rules.cloudships_2023.battle_kit import changed, new


@pytest.mark.rule("CM-ALT-07", "CM-ALT-06")
def test_a_ship_at_really_low_carries_two_low_markers_on_her_counter() -> None:
    board = changed(changed(new().board, "Aphid", band=panels.REALLY_LOW), "Locust", band=panels.LOW)
    counters = {c.key: c for c in CLOUDSHIPS.map_view(board.to_json(), {}).counters}
    really_low, low = counters["Aphid"].badges[0], counters["Locust"].badges[0]
    assert (low.text, really_low.text) == ("L", "LL")
    assert "two markers in the Low band" in really_low.title
    assert counters["Aphid"].data["altitude"] == "LL"
