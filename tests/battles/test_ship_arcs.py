"""The battle page's map carries each ship's arcs, range rings and targets (the ruleset's ship_overlays), hidden
until the page selects her; only for what the viewer may see."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils.html import escape

from battles import engine_io, selectors, services
from battles.drawing.hexmap import render_hexmap
from battles.engine import ruleset as ruleset_
from battles.engine.hexgrid import Hex
from battles.engine.presentation import Counter, MapView, Overlay, ShipOverlays, TargetMark
from battles.models import Battle, BattleMode
from battles.services import SideControl
from tests.battles.conftest import decider, first_unanswered


def _groups(html: str) -> dict[str, str]:
    """Each ship's arcs group in the page's battle map, by ship."""
    map_svg = re.search(r'<svg[^>]*id="battle-hexmap".*?</svg>', html, re.S)
    assert map_svg
    found = re.findall(r'<g class="hexmap__arcs" data-for-ship="([^"]*)"[^>]*>(.*?)\n  </g>', map_svg.group(0), re.S)
    return dict(found)


def test_every_rulesets_page_draws_each_ships_arcs_hidden(every_ruleset, client, club, ruleset_battle):
    rs = every_ruleset
    battle = ruleset_battle(rs)
    user = decider(battle, club, first_unanswered(battle).side)
    client.force_login(user)
    viewer = selectors.viewer_for(battle=battle, user=user)
    state = engine_io.current_state(battle)
    board = rs.board_view(state, viewer.side)
    expected = rs.ship_overlays(board, options=state.options, turn=state.turn)
    drawn = {c.key for c in rs.map_view(board).counters}

    html = client.get(reverse("battle_detail", kwargs={"pk": battle.pk})).content.decode()

    groups = _groups(html)
    assert set(groups) == {escape(o.ship) for o in expected if o.ship in drawn}
    assert re.findall(r'<g class="hexmap__arcs"[^>]*>', html)
    assert all(tag.endswith(" hidden>") for tag in re.findall(r'<g class="hexmap__arcs"[^>]*>', html))
    for overlays in expected:
        if overlays.ship in drawn:
            inside = groups[escape(overlays.ship)]
            for target in overlays.targets:
                assert f'data-target="{escape(target.target)}"' in inside
                assert f">{escape(target.label)}</text>" in inside
    assert "js/board.js" in html  # the board script shows the selected ship's group


SCENARIO: dict[str, Any] = {
    "slug": "arcs-test",
    "title": "Arcs test",
    "map": {"cols": 16, "rows": 12},
    "turn_limit": 3,
    "sides": [
        {"id": "a", "ships": [{"name": "Aphid", "class": "aphid", "position": [8, 7], "facing": 0, "altitude": "M"}]},
        {
            "id": "b",
            "ships": [{"name": "Swiftwood", "class": "swiftwood", "position": [8, 4], "facing": 3, "altitude": "M"}],
        },
    ],
}


@pytest.fixture
def close_battle(club: dict[str, Any], django_capture_on_commit_callbacks: Any) -> Battle:
    """A Sky Galleons battle with the two ships three hexes apart, Alice side a and Bob side b."""
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(
            campaign=club["campaign"],
            created_by=club["umpire"],
            scenario=SCENARIO,
            ruleset_key="sky_galleons",
            mode=BattleMode.ASYNC,
            sides={"a": SideControl("player", club["alice"]), "b": SideControl("player", club["bob"])},
        )
    battle.refresh_from_db()
    return battle


def test_a_ships_group_marks_the_enemy_in_reach_with_the_number_to_hit(client, club, close_battle):
    rs = ruleset_.get("sky_galleons")
    state = engine_io.current_state(close_battle)
    client.force_login(club["alice"])
    html = client.get(reverse("battle_detail", kwargs={"pk": close_battle.pk})).content.decode()
    groups = _groups(html)
    assert set(groups) == {"Aphid", "Swiftwood"}
    seen = {o.ship: o for o in rs.ship_overlays(rs.board_view(state, "a"), options=state.options, turn=state.turn)}
    mark = seen["Aphid"].targets[0]
    assert mark.target == "Swiftwood"
    assert re.fullmatch(r"[2-6]\+", mark.label)
    assert 'data-target="Swiftwood"' in groups["Aphid"]
    assert f">{mark.label}</text>" in groups["Aphid"]
    assert 'class="hexmap__arc hexmap__arc--close"' in groups["Aphid"]
    assert 'class="hexmap__ring hexmap__ring--long"' in groups["Aphid"]


def test_the_map_draws_overlays_only_for_the_pieces_on_it_before_the_ships_layer() -> None:
    here, there = Hex(2, 2), Hex(4, 1)
    view = MapView(
        title="Test",
        cols=8,
        rows=6,
        counters=(Counter("Aphid", here, "Ap", "a", "A", "Aphid"), Counter("Swiftwood", there, "Sw", "b", "B", "Sw")),
        sides=("a", "b"),
    )
    per_ship = (
        ShipOverlays(
            "Aphid",
            (Overlay("arc--close", (Hex(3, 2),), "close"), Overlay("ring--long", (Hex(5, 2),), "ring", outline=True)),
            (TargetMark("Swiftwood", there, "4+", "Swiftwood: 4+ to hit", "target"),),
            "Aphid's arcs",
        ),
        ShipOverlays("Hidden", (Overlay("arc--close", (Hex(1, 1),), "close"),), (), "not on the map"),
    )
    svg = str(render_hexmap(view, ship_overlays=per_ship))
    groups = re.findall(r'<g class="hexmap__arcs" data-for-ship="([^"]*)"[^>]*hidden>', svg)
    assert groups == ["Aphid"]  # a piece the viewer's map does not hold gets nothing
    assert svg.index('data-for-ship="Aphid"') < svg.index('<g class="hexmap__ships">')
    assert 'class="hexmap__arc hexmap__arc--close"' in svg
    assert 'class="hexmap__ring hexmap__ring--long" d="' in svg
    assert re.search(r'<g class="hexmap__target hexmap__target--target" data-target="Swiftwood"[^>]*>', svg)
    assert ">4+</text>" in svg
    assert "not on the map" not in svg
