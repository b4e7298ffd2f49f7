"""Avoiding a collision as a ship avoids a ram (the errata, SG-ERR-04/05).

The basic rules make a collision check whenever a ship enters, climbs or drops into, or leaves, a hex it
shares with another ship at its altitude (SG-COL-01/09/11). The errata let the other ship maneuver to avoid
the collision exactly as it would avoid a ram (SG-RAM-05/08): it spends half its movement allowance, rounded
up, and those movement points are added to the collision check's die (a collision on a modified 1 or 2), with
its crew's quality as for an avoiding ram target (SG-CQ-03/07). If it has already had its Movement Phase this
turn, the points come off next turn's allowance instead (SG-ERR-05).

As for a ram, the ship decides when the move is announced, before it is carried out; a ship avoids once a
turn, and its avoidance counts against every check and every ram that turn. The ruleset asks; this module
says who may be asked, what it costs and what it does to the check. Readings in data/optional-rules.json
``collision_avoidance``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import close_action, movement
from battles.rules.sky_galleons.record import Moment, ShipRecord


def can_avoid(record: ShipRecord, now: Moment) -> bool:
    """Free to maneuver: not stopped by damage, stunned or grappled (as for a ram, SG-RAM-05/09)."""
    return not (close_action.immobilized(record) or record.stunned(now) or record.grappled_with)


def cost(speed: int) -> int:
    """Movement points spent avoiding: half the allowance, rounded up (SG-RAM-05 via SG-ERR-04)."""
    return close_action.avoidance_mp(speed)


def check_modifiers(other: ShipRecord, avoiding_mp: int) -> dict[str, int]:
    """What the avoiding ship adds to a collision check against it: its movement points spent avoiding, and its
    crew's quality as an avoiding ram target's (Green -1, Crack +1) (SG-ERR-04, SG-RAM-08, SG-CQ-03/07)."""
    if not avoiding_mp:
        return {}
    mods = {f"{other.name} avoiding ({avoiding_mp} MP)": avoiding_mp}
    quality: Mapping[str, int] = close_action.close_tables()["ram"]["crew_quality"]
    if quality[other.crew_quality]:
        mods[f"{other.crew_quality} crew avoiding"] = int(quality[other.crew_quality])
    return mods


def met_on_the_way(
    mover: ShipRecord, path: Sequence[movement.Step], others: Iterable[ShipRecord], began_together: Iterable[str]
) -> list[str]:
    """The ships a move traced as ``path`` will check collisions against, in the order it meets them: those in
    each hex it enters, climbs or drops into at their altitude (SG-COL-01/11), and, as it first moves ahead out
    of its starting hex, those there at its altitude since the phase began (``began_together``, SG-COL-09).
    ``others`` are the ships afloat and in the fight."""
    where: dict[str, tuple[Hex | None, str]] = {o.name: (o.position, o.altitude) for o in others}
    where.pop(mover.name, None)
    together = set(began_together)
    met: list[str] = []
    altitude, left = mover.altitude, False
    for step in path:
        if step.token == movement.AHEAD and not left:
            left = True
            met += [n for n, spot in where.items() if n in together and spot == (mover.position, altitude)]
        if step.enters_hex or step.changes_altitude:
            met += [n for n, spot in where.items() if spot == (step.hex, step.altitude)]
        altitude = step.altitude
        if step.ends:
            break
    return list(dict.fromkeys(met))


def has_moved(order: Sequence[str], phase_no: int, moves_done: Sequence[str], record: ShipRecord) -> bool:
    """Has the ship had its own Movement Phase this turn (its side's phase is over, or it has moved in it)?"""
    if record.side not in order:
        return False
    own = order.index(record.side) + 1
    return own < phase_no or (own == phase_no and record.name in moves_done)
