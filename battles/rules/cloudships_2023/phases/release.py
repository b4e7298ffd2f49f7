"""A ship let go by the ships grappled to her (CM-ALT-05): while grappled she held her band above her ceiling
(CM-ALT-04, phases/damage.py); the moment no ship holds her she drops to the ceiling her track has left. Called
by whatever lets go: the boarders repelled or casting off (phases/boarding.py), the ship holding her struck or
crashed (phases/damage.py)."""

from __future__ import annotations

from collections.abc import Iterable

from battles.engine.resolver import Context
from battles.rules.cloudships_2023.board import Board, band_height
from battles.rules.cloudships_2023.kinds import DROPPED


def drop_if_free(ctx: Context[Board], names: Iterable[str], *, letting_go: frozenset[str] = frozenset()) -> None:
    """Each of ``names`` still flying, grappled by none but the ships in ``letting_go`` and above her ceiling
    drops to it at once. Called with ``letting_go`` just before the grapples are cut, so that no state between
    the two events has a ship free and above her ceiling (the invariants are checked after every event)."""
    for name in names:
        ship = ctx.board.ship_named(name)
        held = set(ship.grappled) - letting_go
        if ship.flying and not held and band_height(ship.band) > band_height(ship.ceiling):
            why = "no longer grappled, she drops to her ceiling (CM-ALT-05)"
            ctx.emit(DROPPED, {"ship": name, "band": ship.ceiling, "from": ship.band, "why": why}, ships=[name])
