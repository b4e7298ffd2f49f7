"""Template tags for drawing a battle: ``{% load battle_drawing %}``, then ``{% hexmap board selected=name
gun=gun_id arcs=True rings=True path=hexes %}`` and ``{% record_sheet ship start=ship_at_start board=board
turn=turn %}`` (battles/drawing/hexmap.py and record_sheet.py say what each option does)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString

from battles.drawing.hexmap import render_hexmap
from battles.drawing.record_sheet import render_record_sheet

register = template.Library()


@register.simple_tag
def hexmap(board: Mapping[str, Any], **options: Any) -> SafeString:
    return render_hexmap(board, **options)


@register.simple_tag
def record_sheet(ship: Mapping[str, Any], **options: Any) -> SafeString:
    return render_record_sheet(ship, **options)
