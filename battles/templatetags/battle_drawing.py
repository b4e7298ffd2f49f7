"""Template tags for drawing a battle: ``{% load battle_drawing %}``, then ``{% hexmap board selected=name
gun=gun_id arcs=True rings=True path=hexes ship_arcs=True %}``, ``{% record_sheet ship start=ship_at_start board=board
turn=turn %}`` and ``{% draw_sheet sheet %}`` for a RecordSheet already made (battles/drawing/hexmap.py and
record_sheet.py say what each option does).

The ruleset that says what is on the map and the sheets is the battle's (``battle`` in the template's
context), or the one given as ``rules=``; the map's focus (``selected``, ``gun``, ``arcs``, ``rings``...) goes
to its ``map_view``, the drawing options (``path``, ``coordinates``, ``size``, ``uid``) to the renderer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString

from battles import engine_io
from battles.drawing.hexmap import render_hexmap
from battles.drawing.record_sheet import render_record_sheet
from battles.engine.presentation import RecordSheet

register = template.Library()

DRAWING = ("path", "coordinates", "size", "uid")


@register.simple_tag(takes_context=True)
def hexmap(
    context: template.Context, board: Mapping[str, Any], rules: Any = None, ship_arcs: bool = False, **options: Any
) -> SafeString:
    """``ship_arcs=True`` draws each ship's arcs, rings and targets, hidden until the page selects her: the
    ruleset's ``ship_overlays`` of the same board view, with the battle's options and its ``turn`` (the
    context's, or the battle's)."""
    battle = context.get("battle")
    rules = rules if rules is not None else engine_io.rules_of(context["battle"])
    focus = {k: v for k, v in options.items() if k not in DRAWING}
    drawing = {k: v for k, v in options.items() if k in DRAWING}
    if ship_arcs and battle is not None:
        turn = context.get("turn")
        drawing["ship_overlays"] = rules.ship_overlays(
            board,
            options=battle.options,  # the options resolved when it began (services.battle_create), as stored
            turn=turn if isinstance(turn, int) else battle.turn,
        )
    return render_hexmap(rules.map_view(board, focus), **drawing)


@register.simple_tag(takes_context=True)
def record_sheet(
    context: template.Context,
    ship: Mapping[str, Any],
    rules: Any = None,
    start: Any = None,
    board: Any = None,
    turn: int | None = None,
) -> SafeString:
    rules = rules if rules is not None else engine_io.rules_of(context["battle"])
    view = board if board is not None else {"ships": [ship]}
    sheet = rules.record_sheet(view, str(ship.get("name")), start=start, turn=turn)
    return render_record_sheet(sheet) if sheet is not None else SafeString("")


@register.simple_tag
def draw_sheet(sheet: RecordSheet) -> SafeString:
    return render_record_sheet(sheet)
