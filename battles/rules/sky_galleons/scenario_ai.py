"""What the AI captain (tactics.Captain) needs to play toward a scenario's own goals, read from the side's
``ai`` hints and the scenario's rules.

Hints a side's ``ai`` object may give, besides tactics' tuning numbers:

* ``"run_when_free": true``: the side's ships run for the map edge as soon as the exit rules let them
  leave (SG-SCN-12: the Irish cripple the Aphid, then run).
* ``"never_leave": true``: the side's ships never leave the map of their own will, even when beaten (the
  Aphid of SG-SCN-12: once she is gone the Irish are free).
* ``"board": true``: the side's ships close to board, with a party formed, even when they carry a ram.
* ``"no_surrender": true``: the side's captains never strike their colours of their own will.
* ``"seize": ship``: the side is out to take that enemy ship by boarding and carry off what she holds
  (SG-SCN-19): its ships go for her first, fire at her until she heaves to (SG-SCN-17) and then spare her,
  grapple and board her, hold her, call the boarders home once the hold is complete, cast off and run.
  Their deckhands stay off the guns until she is taken (the grapnels need them), their party is formed
  only for the turn they close with her, and if she offers no resistance it is only a prize party; while
  they hold her they cast off any enemy grappled alongside. The prize is never taken in tow (she must not
  leave the map) nor scuttled.

* ``"guard": ship``: the side's own ship the enemy is out to seize (SG-SCN-19): an enemy grappled with
  her, taking her or holding her with his boarders, may be grappled and boarded though he is grappled
  already, when a ship's boarders outweigh his defenders (his men across leave him weak; a ship alongside
  him is in her hex at her height, so the hold is disputed too).

* ``"garrison": zone``: the side's flying parties hold that zone (the Great Raid's warbands, the kraag top):
  they fly to no ship of their own and chase nobody, board only an enemy that comes within
  ``GARRISON_REACH`` hexes of the zone, come down on an enemy landing party waiting to be picked up there
  (SG-SCN-40), and otherwise sit landed on the zone.
* ``"careful": true``: the side's captains avoid blunders the shared AI makes (kept behind this hint so the
  other scenarios play as they always have): they weigh the ground batteries' high-angle fire (SG-GB-02)
  wherever they move, not only when bombarding; fire at no battery whose guns are all unmanned (a battery
  without gunners cannot fire back, and a hull hit on it does nothing, SG-GB-03); grapple no ship where the
  grapple would hold them both too low over the land (a grappled pair drops together, SG-GRAP-09/10); and
  their steam ships may climb and power turn in one move (SG-MOV-04).

A side whose ships may leave only by one edge (special_rules ``exit_edge``) runs for that edge. If that is
the edge opposite the one it enters by and it has a kite to get away, it enters where the run across the
map is downwind (the wind is known before the set-up), its kite facing as near downwind as she may. A side
whose turns away from a zone bring the enemy reinforcements (special_rules ``reinforcements``, SG-SCN-24)
likes to end its moves over that zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from battles.engine import hexgrid
from battles.engine.events import JSON
from battles.engine.hexgrid import Hex
from battles.rules.sky_galleons import maps, movement, setup_rules, special_rules, victory
from battles.rules.sky_galleons.movement import Terrain
from galleons.record import ShipRecord, altitude_level

if TYPE_CHECKING:
    from battles.rules.sky_galleons.board import Board

PRIZE_FIRE = 4.0  # a hit on the running prize stops her: worth four of any other
# The party formed to take a prize that offers no resistance (SG-SCN-17): an officer and five, the rules'
# own example of a party (SG-BRD-02): one guards her people (SG-BRD-22), the rest hold her, with a man or
# two to spare for the shots at them as they cross (SG-BRD-10).
PRIZE_PARTY = 6
OTHERS_WHILE_CHASING = 0.2  # the other enemies, while the prize runs
# Ending a move beside the guarded ship while the enemy could hold her (SG-SCN-19): as much as the shared
# hex's collision checks and an edge cost the escort (ai_reading.SHARED_HEX + PASSING + NEAR_EDGE), so she comes
# alongside when her guns bear from there about as well as from anywhere: she does not give up the gun duel
# with the seizing ship to sit there.
GUARD_ALONGSIDE = 6.0
OVER_WATCHED_ZONE = 1.5  # ending a move over the zone the enemy's reinforcements watch: a turn that brings none


GARRISON_REACH = 1  # hexes from the zone held: a ship beside the kraag top, where a party lands, and no further
# Until this turn a careful side lands no party while an enemy galley can still fly: beside the top the ship
# is the galleys' to rake and board, and a wait for them is spent on them. By turn 10 the party still has its
# ten turns away and the rolls to come back before the turn limit (SG-SCN-39). Measured: 40 runs, turns 6 and
# 8 no better than none, 10 to 40 about alike (measured under the old 40-turn limit; the stand-in is now 60).
GALLEYS_FIRST_UNTIL = 10
STAND_OFF = 8  # hexes from the landing party's hex: out of the batteries' reach, two moves from the pick-up


def hints(board: Board, side: str) -> Mapping[str, JSON]:
    return board.ai.get(side, {})


def careful(board: Board, side: str) -> bool:
    """``"careful": true``: the side's captains avoid the shared AI's known blunders (see the module's hints)."""
    return bool(hints(board, side).get("careful"))


def garrison(board: Board, side: str) -> frozenset[Hex]:
    """The zone the side's flying parties hold (``"garrison"``), or none."""
    name = hints(board, side).get("garrison")
    return maps.zone(board.terrain, name) if isinstance(name, str) else frozenset()


def party_ashore(board: Board, side: str) -> bool:
    """The side's landing party is in the dungeon or back and waiting to be picked up (SG-SCN-38..40)."""
    return any(
        rule["side"] == side and special_rules.party_state(board, side)["state"] in ("away", "back")
        for rule in special_rules.rules(board, "landing_party")
    )


def party_to_overwhelm(board: Board, side: str) -> Hex | None:
    """The hex where an enemy landing party is back and waiting to be picked up (SG-SCN-40), if any."""
    for rule in special_rules.rules(board, "landing_party"):
        state = special_rules.party_state(board, str(rule["side"]))
        there = state.get("hex")
        if rule["side"] != side and state["state"] == "back" and isinstance(there, list):
            return Hex.from_json(there)
    return None


def prize(board: Board, side: str) -> str | None:
    """The enemy ship the side is out to seize, while she is still to be taken."""
    name = hints(board, side).get("seize")
    if not isinstance(name, str) or name not in board.by_name or not board.in_fight(board.ship(name)):
        return None
    return name


def at_our_ship(board: Board, side: str, enemy: ShipRecord) -> bool:
    """``enemy`` is grappled with the ship the side guards (``"guard"``): he is taking her, or holding her."""
    guarded = hints(board, side).get("guard")
    return isinstance(guarded, str) and guarded in enemy.grappled_with


def alongside_guarded(board: Board, record: ShipRecord, hex_: Hex, altitude: str) -> float:
    """What ending a move at ``hex_`` and ``altitude`` is worth to a ship of a guarding side (``"guard"``):
    beside the guarded ship once she can no longer run (hove to, SG-SCN-17, or taken), while the enemy has
    not yet held her for the turn he needs (SG-SCN-19). A ship of ours in her hex at her height disputes his
    hold, and from there our boarders can get at his ship when he grapples her."""
    guarded = hints(board, record.side).get("guard")
    if not isinstance(guarded, str) or guarded not in board.by_name:
        return 0.0
    her = board.ship(guarded)
    if not her.afloat or her.position != hex_ or her.altitude != altitude:
        return 0.0
    if not (special_rules.hove_to(board, guarded) or guarded in board.captured):
        return 0.0
    rule = victory.victory(board)
    if rule["kind"] != "seize_and_carry_off" or rule.get("prize") != guarded:
        return 0.0
    if victory.prize_state(board, guarded).get("held") is not None:
        return 0.0  # her passenger is already taken: disputing her now gains nothing
    return GUARD_ALONGSIDE if record.name == _escort(board, record.side, her) else 0.0


def _escort(board: Board, side: str, her: ShipRecord) -> str | None:
    """The one ship of the side that keeps station beside the guarded ship: the nearest to her (one ship
    disputes the hold as well as two; the others fight)."""
    where = her.position
    if where is None:
        return None
    ships = [
        (hexgrid.distance(s.position, where), s.name) for s in board.fighting(side) if s.guns and s.position is not None
    ]
    return min(ships)[1] if ships else None


def stopped(board: Board, name: str) -> bool:
    """The prize has heaved to: time to come alongside (a running prize would only avoid the grapple)."""
    return special_rules.hove_to(board, name)


def watched_zones(board: Board, side: str) -> tuple[frozenset[Hex], ...]:
    """The zones whose every so many turns without a ship of the side over them bring the enemy another
    ship (special_rules ``reinforcements`` watching the side, SG-SCN-24)."""
    return tuple(
        maps.zone(board.terrain, str(rule["zone"]))
        for rule in special_rules.rules(board, "reinforcements")
        if rule["watch"] == side
    )


def over_watched_zone(board: Board, side: str, hex_: Hex) -> float:
    """What ending a move over ``hex_`` is worth to the side for the reinforcements it keeps away."""
    return over_zones(watched_zones(board, side), hex_)


def over_zones(zones: tuple[frozenset[Hex], ...], hex_: Hex) -> float:
    """over_watched_zone with the side's watched zones already found (the captain finds them once a move)."""
    return OVER_WATCHED_ZONE * sum(1 for zone in zones if hex_ in zone)


def fire_weight(board: Board, side: str, target: str) -> float:
    """How much a shot at ``target`` is worth to the side against its usual worth: the prize that still
    runs is worth the most (one hit stops her, SG-SCN-17), and once she has heaved to she is spared (wanted
    whole)."""
    if target != prize(board, side):
        return 1.0
    return 0.0 if special_rules.hove_to(board, target) else PRIZE_FIRE


def other_targets_weight(board: Board, side: str, usual: float) -> float:
    """A side after a prize that still runs weighs the other enemies little when it places its guns."""
    wanted = prize(board, side)
    return OTHERS_WHILE_CHASING if wanted is not None and not special_rules.hove_to(board, wanted) else usual


def carrying_off(board: Board, record: ShipRecord) -> bool:
    """This ship has what the side came for aboard: it runs for the edge."""
    rule = victory.victory(board)
    if rule["kind"] != "seize_and_carry_off" or board.ship(str(rule["ship"])).side != record.side:
        return False
    return victory.prize_state(board, str(rule["prize"])).get("aboard") == record.name


def at_the_prize(board: Board, record: ShipRecord) -> bool:
    """This ship's boarders are aboard the prize, or hold her with the passenger taken and are on their way
    home: the seizure is under way and the ship sees it through rather than strike (SG-SCN-19)."""
    rule = victory.victory(board)
    if rule["kind"] != "seize_and_carry_off" or board.ship(str(rule["ship"])).side != record.side:
        return False
    name = str(rule["prize"])
    boarded = record.boarding == name and record.boarders.men > 0
    return boarded or victory.prize_state(board, name).get("held") == record.name


def runs_now(board: Board, record: ShipRecord) -> bool:
    """The scenario wants this ship gone: free to escape (``run_when_free``), or carrying its prize off."""
    free = bool(special_rules.rules(board, "exit_after_crippling")) and special_rules.may_exit(board, record)
    return (
        (bool(hints(board, record.side).get("run_when_free")) and free)
        or carrying_off(board, record)
        or carries_the_party_home(board, record)
        or raid_called_off(board, record.side)
    )


def seize_orders(board: Board, side: str) -> dict[str, list[JSON]]:
    """Call the boarders home once the prize is held (SG-SCN-19), and cast off once they are home; while at
    her, cast off the enemies grappled alongside."""
    rule = victory.victory(board)
    if rule["kind"] != "seize_and_carry_off" or board.ship(str(rule["ship"])).side != side:
        return {}
    name = str(rule["prize"])
    state = victory.prize_state(board, name)
    recall: list[JSON] = []
    cut: list[JSON] = []
    for record in board.fighting(side):
        if state.get("held") == record.name and record.boarding == name and record.boarders.men:
            recall.append(record.name)
            cut.append([record.name, name])
        elif state.get("aboard") == record.name and name in record.grappled_with:
            cut.append([record.name, name])
        if at_the_prize(board, record) and not _boarded(board, record):
            # An enemy grappled alongside disputes the hold: cast him off once his boarders are gone (SG-GRAP-05).
            cut += [[record.name, other] for other in record.grappled_with if other != name]
    orders: dict[str, list[JSON]] = {}
    if recall:
        orders["recall"] = recall
    if cut:
        orders["cut"] = cut
    return orders


def _boarded(board: Board, record: ShipRecord) -> bool:
    return any(s.boarding == record.name and s.boarders.men and s.side != record.side for s in board.ships)


def party_men(board: Board, record: ShipRecord, usual: dict[str, JSON]) -> dict[str, JSON]:
    """A ship out to seize a prize, or to board (``"board"``), sends its officer and marines and keeps its
    deckhands: they throw the grapnels (SG-GRAP-02, one line for two hands) and man the guns. For a prize
    that offers no resistance (SG-SCN-17) only a prize party is formed: the other marines stay at their
    posts, where they fire, defend the ship and share her losses (a party does nothing else, SG-BRD-03)."""
    wanted = prize(board, record.side)
    if (wanted is None and not boards_first(board, record.side)) or not usual.get("marines"):
        return usual
    men = {post: n for post, n in usual.items() if post != "deckhands"}
    if wanted is not None and special_rules.noncombatant(board, board.ship(wanted)):
        men["marines"] = min(int(str(men["marines"])), PRIZE_PARTY - 1)  # and the officer
    return men


def has_work_unarmed(board: Board, record: ShipRecord) -> bool:
    """Guns or none, a ship still going for its prize, holding it or carrying it off, is not beaten; nor is a
    ship that must cripple its pursuer before it may leave (it can still board her)."""
    if prize(board, record.side) is not None or carrying_off(board, record) or at_the_prize(board, record):
        return True
    return bool(hints(board, record.side).get("run_when_free")) and not runs_now(board, record)


def boards_first(board: Board, side: str) -> bool:
    """``"board": true``: the side's ships close to board even when they carry a ram (High Martians)."""
    return bool(hints(board, side).get("board"))


def never_strikes(board: Board, record: ShipRecord) -> bool:
    """``"no_surrender": true``: the side's captains fight on rather than strike (a struck ship counts as lost
    as much as a sunk one, SG-SCN-47)."""
    return bool(hints(board, record.side).get("no_surrender"))


def stays(board: Board, side: str) -> bool:
    """``"never_leave": true``: the side's ships do not leave the map of their own will, even beaten (a
    pursuer that leaves lets its quarry go, SG-SCN-12)."""
    return bool(hints(board, side).get("never_leave"))


def may_tow(board: Board, side: str, name: str) -> bool:
    """A seizing side never tows its prize: she must not leave the map."""
    return not _the_prize(board, name)


def may_scuttle(board: Board, side: str, name: str) -> bool:
    """A seizing side never scuttles its prize: the passenger it came for is aboard her until the hold is
    complete, and its boarders must stay to hold her (SG-BRD-24 withdraws all but one)."""
    return not _the_prize(board, name)


def _the_prize(board: Board, name: str) -> bool:
    rule = victory.victory(board)
    return rule["kind"] == "seize_and_carry_off" and rule.get("prize") == name


def grapnel_hands(board: Board, record: ShipRecord) -> int:
    """Deckhands a ship out to seize keeps from the guns while its prize is still to be taken: they throw
    the grapnels, one line for two hands (SG-GRAP-02); without them she cannot come alongside at all."""
    return record.crew.deckhands if prize(board, record.side) is not None else 0


def stands_down(board: Board, record: ShipRecord, going_for: str | None) -> bool:
    """A seizing side's party goes back to its posts when it will not grapple this turn and has nobody
    across: while formed its men fight nobody, and the fire falls on the crew that works the ship
    (SG-BRD-01/03)."""
    return "seize" in hints(board, record.side) and going_for is None and not record.boarders.men


# The edge a ship sailing on each facing (0 = north, clockwise) is heading for.
HEADING_FOR = {0: "north", 1: "east", 2: "east", 3: "south", 4: "west", 5: "west"}


def entry_spot(board: Board, record: ShipRecord) -> JSON:
    """Where the side's first ship sets up when it enters by an edge of its choice and must leave by the
    opposite one with a kite among its ships: on the edge from which that run is downwind. None: the
    scenario's own position (any other side or scenario, or the edge already chosen)."""
    downwind = None if board.wind is None else (board.wind + 3) % 6
    runs_across = any(
        r["side"] == record.side and r["edge"] == "opposite_entry" for r in special_rules.rules(board, "exit_edge")
    )
    kites = any(s.is_kite for s in board.ships if s.side == record.side)
    if downwind is None or not runs_across or not kites or setup_rules.entry_edge(board, record.side) is not None:
        return None
    return setup_rules.spot_on_edge(board, record, maps.OPPOSITE[HEADING_FOR[downwind]], downwind)


def exit_edges(board: Board, side: str) -> tuple[str, ...]:
    return special_rules.exit_edges(board, side) or maps.EDGES


def edge_distance(terrain: Terrain, hex_: Hex, edges: tuple[str, ...] = maps.EDGES) -> int:
    """Hexes to move to leave the map by the nearest of ``edges`` (1 on the edge row or column)."""
    col, row = hexgrid.to_odd_q(hex_)
    reach = {"west": col + 1, "east": terrain.cols - col, "north": row + 1, "south": terrain.rows - row}
    return min(reach[edge] for edge in edges)


def leaves_by(terrain: Terrain, hex_: Hex, facing: int, edges: tuple[str, ...]) -> bool:
    """Holding this course, the ship would leave by one of ``edges``."""
    while terrain.on_map(hex_):
        hex_ = hexgrid.neighbour(hex_, facing)
    return maps.edge_left_by(terrain, hex_) in edges


# --- the landing party (SG-SCN-37..41) ---------------------------------------------------------------------


def _landing_rule(board: Board, side: str) -> Mapping[str, JSON] | None:
    for rule in special_rules.rules(board, "landing_party"):
        if rule["side"] == side:
            return rule
    return None


def carries_the_party_home(board: Board, record: ShipRecord) -> bool:
    """This ship picked up the landing party's survivors: it runs for the edge (SG-SCN-41)."""
    rule = _landing_rule(board, record.side)
    if rule is None:
        return False
    state = special_rules.party_state(board, record.side)
    return state["state"] == "rescued" and state.get("ship") == record.name


def raid_called_off(board: Board, side: str) -> bool:
    """A careful side whose party is still aboard and has no ship left that could land it and climb off the
    land again (SG-SCN-37/38; the hull hits that bring a ship's ceiling down to the landing height are never
    made good, SG-DMG-14) goes home: it can no longer win (SG-SCN-41), and circling the kraag until the
    stand-in turn limit would only turn a lost raid into a stalemate."""
    rule = _landing_rule(board, side)
    if rule is None or not careful(board, side) or special_rules.party_state(board, side)["state"] != "aboard":
        return False
    return not any(
        _can_land_party(s, int(str(rule["men"]))) and can_climb_off(s, str(rule["altitude"]))
        for s in special_rules.party_ships(board, rule)
    )


def landing_goal(board: Board, record: ShipRecord, turn: int = 0) -> Hex | None:
    """Where this ship should be landed for the landing party, or None when it has no part in it: the
    party's hex once it is back (or for the ship that left it, while it is away), else the nearest hex
    beside the fortress top at the rule's altitude for the first ship able to land a party of the rule's
    size and climb off again (SG-SCN-37/38); a careful side lands it only once the enemy galleys are down
    or on turn ``GALLEYS_FIRST_UNTIL`` (``turn`` is the battle's)."""
    rule = _landing_rule(board, record.side)
    if rule is None or record.position is None:
        return None
    if record not in special_rules.party_ships(board, rule):
        return None
    state = special_rules.party_state(board, record.side)
    if state["state"] in ("away", "back"):
        there = state.get("hex")
        if not isinstance(there, list):
            return None
        party_at = Hex.from_json(there)
        if careful(board, record.side):
            # Nobody waits under the batteries while the party is in the dungeon (stand_off); once it is back,
            # the nearest ship fetches it and the other keeps clear of her hex.
            if state["state"] == "away":
                return None
            # Only a ship that can climb off the land again fetches it: one whose hull hits have brought her
            # ceiling down to the landing height would sit there with the survivors (SG-DMG-14, SG-SCN-41).
            landing_height = str(rule["altitude"])
            ships = [
                s
                for s in special_rules.party_ships(board, rule)
                if s.position is not None and can_climb_off(s, landing_height)
            ]
            if not ships:
                return None
            nearest = min(ships, key=lambda s: (hexgrid.distance(s.position, party_at), s.name))  # type: ignore[arg-type]
            return party_at if nearest.name == record.name else None
        waits = state["state"] == "back" or state.get("ship") == record.name
        return party_at if waits else None
    if state["state"] != "aboard":
        return None
    able = [
        s
        for s in special_rules.party_ships(board, rule)
        if _can_land_party(s, int(str(rule["men"]))) and can_climb_off(s, str(rule["altitude"]))
    ]
    if not able or able[0].name != record.name:
        return None
    if careful(board, record.side) and turn < GALLEYS_FIRST_UNTIL and _enemy_galleys(board, record.side):
        return None  # the galleys first (GALLEYS_FIRST_UNTIL)
    top = maps.zone(board.terrain, str(rule["zone"]))
    height = rule["altitude"]
    beside = {n for h in top for n in hexgrid.neighbours(h) if n not in top and board.terrain.ground(n) == height}
    if not beside:
        return None
    return min(beside, key=lambda h: (hexgrid.distance(record.position, h), h.to_json()))  # type: ignore[arg-type]


def stand_off(board: Board, record: ShipRecord) -> Hex | None:
    """While the landing party is in the dungeon, the hex a careful side's ship keeps within ``STAND_OFF``
    hexes of, out of the batteries' reach, to be back soon after the party reappears (SG-SCN-39); None
    otherwise."""
    rule = _landing_rule(board, record.side)
    if rule is None or not careful(board, record.side) or record not in special_rules.party_ships(board, rule):
        return None
    state = special_rules.party_state(board, record.side)
    there = state.get("hex")
    return Hex.from_json(there) if state["state"] == "away" and isinstance(there, list) else None


def can_climb_off(record: ShipRecord, height: str) -> bool:
    """Landed at ``height``, the ship could climb off again: her ceiling after her hull hits is above it
    (SG-DMG-14, SG-ALT-03: a landed ship climbs before it moves, SG-ALT-11)."""
    ceiling = record.max_altitude
    return ceiling is not None and altitude_level(ceiling) > altitude_level(height)


def _enemy_galleys(board: Board, side: str) -> list[ShipRecord]:
    """The enemy ships still in the fight and able to fly."""
    return [s for s in board.fighting() if s.side != side and s.max_altitude is not None]


def _can_land_party(record: ShipRecord, men: int) -> bool:
    try:
        special_rules.landing_party_composition(record, men)
    except ValueError:
        return False
    return True


def landing_move(
    board: Board, record: ShipRecord, moves: list[tuple[list[str], list[movement.Step]]], turn: int = 0
) -> JSON:
    """The move that takes the ship to its landing goal and lands it there, or holds it landed there; None
    when it has no landing goal (it fights as usual)."""
    goal = landing_goal(board, record, turn)
    if goal is None:
        return None
    if record.status == "landed" and record.position == goal:
        return []  # a complete turn stationary: the party goes ashore or comes aboard (SG-SCN-38)

    def too_low(altitude: str) -> int:
        return 1 if altitude_level(altitude) <= altitude_level(board.terrain.ground(goal)) else 0

    def key(plan: tuple[list[str], list[movement.Step]]) -> tuple[int, int, int, int]:
        steps = plan[1]
        if not steps:  # staying put is judged as a move would be: a ship below the land there climbs on
            return (1, too_low(record.altitude), hexgrid.distance(record.position, goal), 0)  # type: ignore[arg-type]
        last = steps[-1]
        if last.ends == movement.LANDED and last.hex == goal:
            return (0, 0, 0, len(steps))
        if last.ends:
            return (2, 99, 0, 0)
        # on the way: as near as it gets, high enough to clear the land round the goal
        return (1, too_low(last.altitude), hexgrid.distance(last.hex, goal), -len(steps))

    best = min(moves, key=key)
    return list[JSON](best[0])
