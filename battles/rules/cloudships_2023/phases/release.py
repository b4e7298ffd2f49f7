"""A ship let go by the ships grappled to her (CM-ALT-05): while grappled she held her band above her ceiling
(CM-ALT-04, phases/damage.py); the moment no ship holds her she drops to the ceiling her track has left. Called
by whatever lets go: the boarders repelled or casting off (phases/boarding.py), the ship holding her struck or
crashed (phases/damage.py)."""

from __future__ import annotations

from collections.abc import Iterable

from battles.engine.resolver import Context
from battles.rules.cloudships_2023.board import Board, band_height
from battles.rules.cloudships_2023.kinds import DROPPED


def drop_if_free(ctx: Context[Board], names: Iterable[str]) -> None:
    """Each of ``names`` still flying, no longer grappled and above her ceiling drops to it at once."""
    for name in names:
        ship = ctx.board.ship_named(name)
        if ship.flying and not ship.grappled and band_height(ship.band) > band_height(ship.ceiling):
            why = "no longer grappled, she drops to her ceiling (CM-ALT-05)"
            ctx.emit(DROPPED, {"ship": name, "band": ship.ceiling, "from": ship.band, "why": why}, ships=[name])
