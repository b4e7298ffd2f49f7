"""Scenario special rules as named, parameterised data (docs/scenarios.md), and what each does in a battle.

A scenario's ``special_rules`` list names each rule, as a plain name or an object with its parameters:
``{"rule": "neutral_zone", "zone": "island"}``. ``parse_rule`` checks one against the scenario (its sides,
ships and map) and the loader refuses a rule it does not know. The rules:

* ``multiplayer_initiative`` (SG-SCN-05): every side rolls for the initiative; the ruleset always plays it.
* ``neutral_zone`` {zone} (SG-SCN-13/18): no ship flies over the zone's hexes, at any altitude, and no shot
  is fired across them. A move whose path enters the zone is refused, and so is a shot whose line from
  firer to target passes through a zone hex; a line running exactly along the hexside between a zone hex
  and another grazes the zone and is refused too. A ship with nobody at the helm drifts on its held
  course (SG-CREW-08 is stronger than a player's wish to keep clear).
* ``noncombatant`` {ship} (SG-SCN-17): the ship never resists: it rams, grapples and boards nobody, casts
  off no grapple, and boarders who reach it take it without a fight. It runs while it can (its AI is a
  merchant's). Once it has taken any damage (a hull hit, a man lost, a fire or a critical effect) it heaves
  to and surrenders to whoever comes for it: it stays where it is, in the fight, and never moves again (no move, no
  altitude change, no tow, no avoiding a grapple), so that it can still be boarded and taken.
* ``exit_after_crippling`` {side, pursuer} (SG-SCN-12): the side's ships may leave the map only once the
  pursuer is crippled: out of the fight, slower than the ship leaving, or with no gun left.
* ``exit_edge`` {side, edge} (SG-SCN-16): the side's ships may leave the map only by ``edge``:
  ``"opposite_entry"`` is the edge opposite the one the side entered by (setup_rules).
* ``crack_crew_choice`` {side, quality, marine_arms, default} (SG-SCN-44/45): at set-up the side picks
  one of its ships to have a crew of ``quality`` (default crack) and marines armed with ``marine_arms``.
* ``reinforcements`` {side, watch, zone, every, classes, arrive} (SG-SCN-24): count the turns at whose end
  no ship of ``watch`` has been over ``zone`` (checked at the end of each movement phase); each time the
  count reaches a multiple of ``every``, ``side`` gets one more ship of one of ``classes``, its choice. A
  reading: the new ship comes from the city's own moorings, landed in a free hex of ``arrive`` that the
  side picks, at the start of the next turn, and takes off like any landed ship.
* ``landing_party`` {side, zone, ships, men, altitude, away_turns, returns_on} (SG-SCN-37..40): see the
  landing party functions below.

The rules keep what they track as ``marks`` on the board (key -> JSON), changed only by ``mark`` events, so
a replay rebuilds them. Pure functions read the board; the hooks at the end take the resolver's Context
and emit the events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from battles.engine import dice as dice_
from battles.engine import hexgrid
from battles.engine.decisions import Rejection
from battles.engine.events import JSON
from battles.engine.frozen import evolve
from battles.engine.hexgrid import Hex
from battles.engine.jsonread import read_int, read_list
from battles.engine.words import possessive
from battles.rules.sky_galleons import maps, movement, setup_rules
from battles.rules.sky_galleons.movement import Allowance, Terrain
from galleons import catalog
from galleons.record import (
    Criticals,
    Gun,
    ShipRecord,
    altitude_levels,
    marine_arms_known,
    ship_record_from_class,
    tstrs,
)

if TYPE_CHECKING:
    from battles.engine.resolver import Context
    from battles.rules.sky_galleons.board import Board


@dataclass(frozen=True)
class RuleSpec:
    """A special rule's parameters: key -> kind (side, ship, zone, edge, count, classes, quality, arms,
    ships, altitude), required and optional with their defaults."""

    clauses: tuple[str, ...]
    required: Mapping[str, str]
    optional: Mapping[str, tuple[str, JSON]]


RULES: Mapping[str, RuleSpec] = {
    "multiplayer_initiative": RuleSpec(("SG-SCN-05",), {}, {}),
    "neutral_zone": RuleSpec(("SG-SCN-13", "SG-SCN-18"), {"zone": "zone"}, {}),
    "noncombatant": RuleSpec(("SG-SCN-17",), {"ship": "ship"}, {}),
    "exit_after_crippling": RuleSpec(("SG-SCN-12",), {"side": "side", "pursuer": "ship"}, {}),
    "exit_edge": RuleSpec(("SG-SCN-16",), {"side": "side", "edge": "edge"}, {}),
    "crack_crew_choice": RuleSpec(
        ("SG-SCN-44", "SG-SCN-45"),
        {"side": "side"},
        {"quality": ("quality", "crack"), "marine_arms": ("arms", None), "default": ("ship", None)},
    ),
    "reinforcements": RuleSpec(
        ("SG-SCN-24",),
        {"side": "side", "watch": "side", "zone": "zone", "every": "count", "classes": "classes", "arrive": "zone"},
        {},
    ),
    "landing_party": RuleSpec(
        ("SG-SCN-37", "SG-SCN-38", "SG-SCN-39", "SG-SCN-40"),
        {"side": "side", "zone": "zone"},
        {
            "ships": ("ships", None),
            "men": ("count", 10),
            "altitude": ("altitude", "M"),
            "away_turns": ("count", 10),
            "returns_on": ("count", 6),
        },
    ),
}
NAMES = tuple(RULES)


def parse_rule(data: Any, where: str, sides: Mapping[str, Sequence[str]], terrain: Terrain) -> dict[str, JSON]:
    """Check one special rule (a name, or an object with ``rule`` and its parameters) against the
    scenario's sides (id -> ship names) and map; return it as an object with every parameter."""
    if isinstance(data, str):
        data = {"rule": data}
    if not isinstance(data, dict) or not isinstance(data.get("rule"), str):
        raise ValueError(f"{where}: a special rule is a name or {{'rule': name, ...parameters}}")
    name = data["rule"]
    if name not in RULES:
        raise ValueError(f"{where}: special rule {name!r} is not played yet; known: {list(NAMES)}")
    spec = RULES[name]
    extra = sorted(set(data) - {"rule", "note", *spec.required, *spec.optional})
    if extra:
        raise ValueError(f"{where}: {name} takes {sorted({*spec.required, *spec.optional})}, not {extra}")
    rule: dict[str, JSON] = {"rule": name}
    for key, kind in spec.required.items():
        if key not in data:
            raise ValueError(f"{where}: {name} needs {key!r} ({kind})")
        rule[key] = _param(data[key], kind, f"{where}.{key}", sides, terrain)
    for key, (kind, default) in spec.optional.items():
        rule[key] = default if data.get(key) is None else _param(data[key], kind, f"{where}.{key}", sides, terrain)
    return rule


def _param(value: Any, kind: str, where: str, sides: Mapping[str, Sequence[str]], terrain: Terrain) -> JSON:
    ships = {name for names in sides.values() for name in names}
    if kind == "side" and value in sides:
        return str(value)
    if kind == "ship" and value in ships:
        return str(value)
    if kind == "ships" and isinstance(value, list) and value and all(v in ships for v in value):
        return [str(v) for v in value]
    if kind == "zone" and isinstance(value, str):
        maps.zone(terrain, value)  # a MapError names the zones there are
        return value
    if kind == "edge" and value in (*maps.EDGES, "opposite_entry"):
        return str(value)
    if kind == "count" and type(value) is int and value >= 1:
        return value
    if kind == "quality" and value in tstrs("ship_record", "crew_qualities"):
        return str(value)
    if kind == "arms" and value in marine_arms_known():
        return str(value)
    if kind == "altitude" and value in altitude_levels():
        return str(value)
    if kind == "classes" and isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        for name in value:
            catalog.ship_class(name)  # a LookupError names the classes there are
        return [str(v) for v in value]
    raise ValueError(f"{where}: {value!r} is not a {kind} of this scenario")


def kites_may_join(found: Sequence[Mapping[str, JSON]]) -> bool:
    """A reinforcement may be a kite: the battle needs a wind even if no kite starts it (SG-WIND-01)."""
    classes = [c for rule in found if rule.get("rule") == "reinforcements" for c in _names(rule.get("classes"))]
    return any(catalog.ship_class(name).speed == "K" for name in classes)


def _names(value: JSON) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def rules(board: Board, name: str) -> list[Mapping[str, JSON]]:
    """The scenario's special rules of one name, with their parameters."""
    found = board.scenario_rules.get("rules", [])
    return [r for r in found if isinstance(r, dict) and r.get("rule") == name] if isinstance(found, list) else []


def rule_clause(name: str) -> str:
    return RULES[name].clauses[0]


# --- the neutral city (SG-SCN-13/18) -------------------------------------------------------------------


def neutral_hexes(board: Board) -> frozenset[Hex]:
    found: set[Hex] = set()
    for rule in rules(board, "neutral_zone"):
        found |= maps.zone(board.terrain, str(rule["zone"]))
    return frozenset(found)


def line_hexes(a: Hex, b: Hex) -> frozenset[Hex]:
    """Every hex a straight line from ``a`` to ``b`` touches: the line is drawn twice, nudged to either
    side, so that a line running along a hexside counts both hexes it grazes."""
    n = hexgrid.distance(a, b)
    found = {a, b}
    for nudge in (1e-6, -1e-6):
        aq, ar = a.q + nudge, a.r + 2 * nudge
        bq, br = b.q + nudge, b.r + 2 * nudge
        found.update(hexgrid.cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(1, n))
    return frozenset(found)


def shot_problem(board: Board, firer: ShipRecord, target: ShipRecord) -> Rejection | None:
    """A shot across the neutral zone is refused (SG-SCN-13)."""
    neutral = neutral_hexes(board)
    if not neutral or firer.position is None or target.position is None:
        return None
    if line_hexes(firer.position, target.position) & neutral:
        return Rejection("SG-SCN-13", f"{firer.name} would fire at {target.name} across the neutral city")
    return None


# --- moves: the neutral city, the exits, a ship hove to ------------------------------------------------


def move_problem(board: Board, record: ShipRecord, steps: Sequence[movement.Step], *, held: bool) -> Rejection | None:
    """A traced move the scenario forbids: over the neutral zone, or off the map by an edge or at a time the
    exit rules do not allow. ``held``: nobody is at the helm, the ship drifts on its course (SG-CREW-08)."""
    if held:
        return None
    neutral = neutral_hexes(board)
    for step in steps:
        if step.hex in neutral:
            col, row = hexgrid.to_odd_q(step.hex)
            return Rejection("SG-SCN-13", f"{record.name} may not fly over the neutral city ([{col}, {row}])")
    if steps and steps[-1].ends == movement.LEFT_MAP:
        return exit_problem(board, record, steps[-1].hex)
    return None


def exit_problem(board: Board, record: ShipRecord, off_map: Hex) -> Rejection | None:
    """Leaving the map by ``off_map`` against the exit rules (SG-SCN-12, SG-SCN-16)."""
    for rule in rules(board, "exit_after_crippling"):
        if rule["side"] == record.side and not crippled(board, str(rule["pursuer"]), record):
            return Rejection(
                "SG-SCN-12",
                f"{record.name} may leave the map only once {rule['pursuer']} cannot pursue "
                "(slower than her, or no gun left)",
            )
    for rule in rules(board, "exit_edge"):
        if rule["side"] != record.side:
            continue
        edge = exit_edge(board, rule)
        left = maps.edge_left_by(board.terrain, off_map)
        if edge is not None and left != edge:
            return Rejection(
                "SG-SCN-16", f"{possessive(record.name)} side leaves the map by the {edge} edge, not the {left}"
            )
    return None


def exit_edge(board: Board, rule: Mapping[str, JSON]) -> str | None:
    edge = str(rule["edge"])
    if edge != "opposite_entry":
        return edge
    entered = setup_rules.entry_edge(board, str(rule["side"]))
    return None if entered is None else maps.OPPOSITE[entered]


def exit_edges(board: Board, side: str) -> tuple[str, ...] | None:
    """The edges the side may leave by now, or None when any will do (for the AI's running)."""
    allowed: tuple[str, ...] | None = None
    for rule in rules(board, "exit_edge"):
        edge = exit_edge(board, rule)
        if rule["side"] == side and edge is not None:
            allowed = (edge,)
    return allowed


def may_exit(board: Board, record: ShipRecord) -> bool:
    """Whether the exit rules let the ship leave the map now, by some edge (for the AI)."""
    return all(
        rule["side"] != record.side or crippled(board, str(rule["pursuer"]), record)
        for rule in rules(board, "exit_after_crippling")
    )


def crippled(board: Board, pursuer: str, runner: ShipRecord) -> bool:
    """The pursuer cannot follow (SG-SCN-12): out of the fight, slower than the runner, or no gun left."""
    chaser = board.by_name.get(pursuer)
    if chaser is None or not board.in_fight(chaser):
        return True
    if all(gun.destroyed for gun in chaser.guns):
        return True
    return speed(chaser) < speed(runner)


def speed(record: ShipRecord) -> int:
    """A ship's speed for comparisons: a kite's on an even die."""
    return record.effective_speed(4) if record.is_kite else record.effective_speed()


def before_move_problem(board: Board, record: ShipRecord, choice: JSON) -> Rejection | None:
    """A noncombatant never rams or grapples; once hove to it makes no move at all (SG-SCN-17)."""
    if record.name not in noncombatants(board):
        return None
    if isinstance(choice, dict):
        return Rejection("SG-SCN-17", f"{record.name} offers no resistance: she rams and grapples nobody")
    if hove_to(board, record.name) and choice:
        return Rejection("SG-SCN-17", f"{record.name} has surrendered: she does not move again")
    return None


def held_still(board: Board, record: ShipRecord, allowed: Allowance) -> Allowance:
    """A ship hove to has no movement at all (SG-SCN-17): no hexes, turns, altitude, nor held course."""
    if not hove_to(board, record.name):
        return allowed
    sail = None if allowed.sail is None else evolve(allowed.sail, run=0, beat=0)
    return evolve(allowed, speed=0, course=False, altitude=False, held_speed=None, sail=sail)


# --- the noncombatant (SG-SCN-17) ----------------------------------------------------------------------


def noncombatants(board: Board) -> set[str]:
    return {str(rule["ship"]) for rule in rules(board, "noncombatant")}


def noncombatant(board: Board, record: ShipRecord) -> bool:
    return record.name in noncombatants(board)


def hove_to_key(name: str) -> str:
    return f"hove to {name}"


def damaged(board: Board, record: ShipRecord) -> bool:
    """Any damage at all: a hull hit, a man lost, a fire, or a critical effect still on the record."""
    lasting = evolve(record.criticals, officer_check_phase=None)
    return (
        record.hull_hits > 0
        or record.men_alive < board.crew_at_start.get(record.name, record.men_alive)
        or record.fire > 0
        or lasting != Criticals()
    )


def hove_to(board: Board, name: str) -> bool:
    if name not in noncombatants(board):
        return False
    return hove_to_key(name) in board.marks or damaged(board, board.ship(name))


def offers_no_resistance(board: Board, name: str) -> bool:
    return name in noncombatants(board)


def orders_problem(board: Board, side: str, choice: Mapping[str, JSON]) -> Rejection | None:
    """A noncombatant forms no boarding party, does not strike (she surrenders by heaving to) and casts off
    no grapple (she lets herself be taken), and a ship hove to is not towed (SG-SCN-17)."""
    quiet = noncombatants(board)
    parties, tows, struck = choice.get("parties"), choice.get("tow"), choice.get("strike")
    cuts = choice.get("cut")
    for pair in cuts if isinstance(cuts, list) else []:
        if isinstance(pair, list) and pair[:1] and pair[0] in quiet:
            return Rejection("SG-SCN-17", f"{pair[0]} offers no resistance: she casts off no grapple")
    for name in struck if isinstance(struck, list) else []:
        if name in quiet:
            return Rejection("SG-SCN-17", f"{name} surrenders by heaving to and waits to be taken; she does not strike")
    for party in parties if isinstance(parties, list) else []:
        if isinstance(party, dict) and party.get("ship") in quiet:
            return Rejection("SG-SCN-17", f"{party['ship']} offers no resistance: she forms no boarding party")
    for pair in tows if isinstance(tows, list) else []:
        if isinstance(pair, list) and any(isinstance(n, str) and hove_to(board, n) for n in pair):
            return Rejection("SG-SCN-17", "a ship that has surrendered does not move again, not even in tow")
    return None


# --- set-up: the crack crew (SG-SCN-44/45) -------------------------------------------------------------


def crew_choice_key(side: str) -> str:
    return f"crack crew {side}"


def pending_crew_choice(board: Board) -> Mapping[str, JSON] | None:
    """The first crack-crew choice not made yet."""
    for rule in rules(board, "crack_crew_choice"):
        if crew_choice_key(str(rule["side"])) not in board.marks:
            return rule
    return None


def crew_choice_options(board: Board, rule: Mapping[str, JSON]) -> list[str]:
    names = [s.name for s in board.ships if s.side == rule["side"]]
    default = rule.get("default")
    return [str(default), *(n for n in names if n != default)] if default in names else names


def with_crack_crew(record: ShipRecord, rule: Mapping[str, JSON]) -> ShipRecord:
    arms = rule.get("marine_arms")
    return evolve(
        record,
        crew_quality=str(rule.get("quality") or "crack"),
        marine_arms=str(arms) if arms is not None else record.marine_arms,
    )


# --- reinforcements (SG-SCN-24) ------------------------------------------------------------------------


def over_key(rule: Mapping[str, JSON]) -> str:
    return f"{rule['watch']} over {rule['zone']}"


def count_key(rule: Mapping[str, JSON]) -> str:
    return f"turns without {rule['watch']} over {rule['zone']}"


def due_key(rule: Mapping[str, JSON]) -> str:
    return f"reinforcements due {rule['side']}"


def came_key(rule: Mapping[str, JSON]) -> str:
    return f"reinforcements came {rule['side']}"


def pending_reinforcement(board: Board) -> Mapping[str, JSON] | None:
    """The first reinforcements rule with a ship due and not yet come, if there is a free hex to land in."""
    for rule in rules(board, "reinforcements"):
        due = read_int(board.marks.get(due_key(rule), 0))
        if due > read_int(board.marks.get(came_key(rule), 0)) and arrival_hexes(board, rule):
            return rule
    return None


def watched_over(board: Board, rule: Mapping[str, JSON]) -> bool:
    """A ship of the watched side in the fight is over the zone now, at any altitude."""
    zone = maps.zone(board.terrain, str(rule["zone"]))
    return any(s.position in zone for s in board.fighting(str(rule["watch"])))


def arrival_hexes(board: Board, rule: Mapping[str, JSON]) -> list[Hex]:
    """Free hexes of the arrival zone (no ship in them), in map order."""
    taken = {s.position for s in board.fighting()}
    zone = maps.zone(board.terrain, str(rule["arrive"]))
    return sorted((h for h in zone if h not in taken), key=hexgrid.to_odd_q)


def reinforcement_default(board: Board, rule: Mapping[str, JSON]) -> JSON:
    classes = rule["classes"]
    assert isinstance(classes, list)
    free = arrival_hexes(board, rule)
    col, row = hexgrid.to_odd_q(free[0] if free else sorted(maps.zone(board.terrain, str(rule["arrive"])))[0])
    return {"class": classes[0], "hex": [col, row], "facing": 0}


def reinforcement_problem(board: Board, rule: Mapping[str, JSON], choice: JSON) -> Rejection | None:
    shape = '{"class": one of the classes, "hex": [col, row], "facing": 0-5}'
    if not isinstance(choice, dict) or set(choice) != {"class", "hex", "facing"}:
        return Rejection("SG-SCN-24", f"a reinforcement is {shape}")
    classes = rule["classes"]
    if not isinstance(classes, list) or choice["class"] not in classes:
        return Rejection("SG-SCN-24", f"the reinforcement is one of {classes}")
    spot = choice["hex"]
    if not (isinstance(spot, list) and len(spot) == 2 and all(type(v) is int for v in spot)):
        return Rejection("SG-SCN-24", f"a reinforcement is {shape}")
    if hexgrid.from_odd_q(read_int(spot[0]), read_int(spot[1])) not in arrival_hexes(board, rule):
        return Rejection("SG-SCN-24", f"the reinforcement lands in a free hex of the {rule['arrive']}")
    if type(choice["facing"]) is not int or choice["facing"] not in range(6):
        return Rejection("SG-FACE-01", "facing is a hexside, 0-5 clockwise from north")
    return None


def reinforce(ctx: Context[Board], rule: Mapping[str, JSON], choice: Mapping[str, JSON]) -> None:
    """The new ship joins its side: a ``reinforcement`` event (the whole record), and the count of those come."""
    came = read_int(ctx.board.marks.get(came_key(rule), 0)) + 1
    record = reinforcement(ctx.board, rule, choice, came)
    ctx.emit("reinforcement", {"record": record.to_json(), "clauses": ["SG-SCN-24"]}, ships=[record.name])
    mark(ctx, came_key(rule), came, f"{record.name} joins {rule['side']}", ["SG-SCN-24"])


def reinforcement(board: Board, rule: Mapping[str, JSON], choice: Mapping[str, JSON], number: int) -> ShipRecord:
    """The new ship, landed where the side chose."""
    col, row = read_list(choice["hex"])
    hex_ = hexgrid.from_odd_q(read_int(col), read_int(row))
    name = f"{choice['class']} {number}"
    while name in board.by_name:
        number += 1
        name = f"{choice['class']} {number}"
    record = ship_record_from_class(
        str(choice["class"]),
        name=name,
        side=str(rule["side"]),
        position=hex_,
        facing=read_int(choice["facing"]),
        altitude=board.terrain.ground(hex_),
    )
    return evolve(record, status="landed", altitude=board.terrain.ground(hex_))


# --- the landing party (SG-SCN-37..41) -----------------------------------------------------------------
#
# The party's story is one mark, "landing party <side>": {"state", "ship", "hex", "turn", "men", "posts"}.
# state "aboard" (not landed yet; no mark), "away" (dropped: ``turn`` is the turn it went, ``posts`` the men
# taken from each post), "back" (returned to ``hex`` with ``men`` survivors), "rescued" (picked up by
# ``ship``), "lost". A ship drops or picks up the party by spending a complete turn landed at ``altitude``
# on a hex next to ``zone`` (the fortress top): at the start of the next turn (its Initiative Phase) the
# party goes or comes aboard (SG-SCN-38). A party may be dropped once.


def party_key(side: str) -> str:
    return f"landing party {side}"


def stay_key(name: str) -> str:
    return f"landed beside the fortress {name}"


def landing_party_composition(record: ShipRecord, men: int) -> dict[str, int]:
    """The landing party a ship sends (SG-SCN-37): ``men`` men in all, one officer (a marine officer, else
    an officer of the ship, else the captain), every surviving marine, and seamen to make up the number:
    deckhands first (SG-CREW-16), then gun crews (seamen too: the text's seamen are any men but officers
    and marines), the lightest guns' first so that her heaviest stay manned; a gunner's post is ``gun:<id>``.
    Raises ValueError if the ship cannot make it up."""
    crew = record.crew
    leader = crew.party_leader
    if leader is None:
        raise ValueError(f"{record.name} has no officer left to lead a landing party")
    party: dict[str, int] = {leader: 1}
    if crew.marines:
        party["marines"] = crew.marines
    seamen = men - sum(party.values())
    if seamen < 0:
        raise ValueError(f"{possessive(record.name)} {crew.marines} marines and an officer are more than {men} men")
    gunners = [(f"{GUN_POST}{gun.id}", gun.manned) for gun in _lightest_first(record) if gun.manned]
    if seamen > crew.deckhands + sum(manned for _, manned in gunners):
        raise ValueError(f"{record.name} has too few seamen: the party needs {seamen} more men")
    for post, manned in [("deckhands", crew.deckhands), *gunners]:
        taken = min(manned, seamen)
        if taken:
            party[post] = taken
            seamen -= taken
    return party


GUN_POST = "gun:"


def _lightest_first(record: ShipRecord) -> list[Gun]:
    """The guns whose crews go first: the lightest by damage value; machineguns (no damage value) last, as
    only small arms may fire at flying parties (SG-HM-06)."""
    return sorted(record.guns, key=lambda gun: (gun.damage_value is None, gun.damage_value or 0, gun.crew, gun.id))


def _with_men(record: ShipRecord, post: str, men: int) -> ShipRecord:
    """``men`` more (or fewer) men at ``post``: a crew box or a gun's crew (``gun:<id>``)."""
    if post.startswith(GUN_POST):
        gun = record.gun(post[len(GUN_POST) :])
        return record.with_gun(evolve(gun, manned=gun.manned + men))
    return evolve(record, crew=record.crew.with_count(post, record.crew.count(post) + men))


def drop_party(record: ShipRecord, party: Mapping[str, int]) -> ShipRecord:
    """The men go ashore: their posts are empty until they come back."""
    for post, men in party.items():
        record = _with_men(record, post, -men)
    return record


def survivors_by_post(party: Mapping[str, int], survivors: int) -> dict[str, int]:
    """Who comes back (a reading: the officer if anyone does, then the marines, then the seamen)."""
    back: dict[str, int] = {}
    left = survivors
    gunners = sorted(post for post in party if post.startswith(GUN_POST))
    for post in ("marine_officers", "officers", "captain", "marines", "deckhands", *gunners):
        men = min(party.get(post, 0), left)
        if men:
            back[post] = men
            left -= men
    return back


def pick_up_party(record: ShipRecord, back: Mapping[str, int]) -> ShipRecord:
    """The survivors come aboard the ship that picks them up, to the posts they left (SG-SCN-40); a gunner
    whose gun is gone, or has no empty circle, is a deckhand."""
    for post, men in back.items():
        if post.startswith(GUN_POST):
            gun = record.gun(post[len(GUN_POST) :])
            to_gun = 0 if gun.destroyed else min(men, gun.crew - gun.manned)
            record = _with_men(_with_men(record, post, to_gun), "deckhands", men - to_gun)
        else:
            record = _with_men(record, post, men)
    return record


def ashore(board: Board, ship: str) -> dict[str, int]:
    """Men of ``ship``'s landing party still ashore, alive, by the post each left: the whole party while it is
    away, the survivors once it is back and waiting to be picked up (SG-SCN-38..40); none otherwise."""
    for rule in rules(board, "landing_party"):
        state = party_state(board, str(rule["side"]))
        posts = state.get("posts")
        if state.get("ship") != ship or not isinstance(posts, dict):
            continue
        party = {str(post): read_int(men) for post, men in posts.items()}
        if state["state"] == "away":
            return party
        if state["state"] == "back":
            return survivors_by_post(party, read_int(state["men"]))
    return {}


def beside_fortress(board: Board, rule: Mapping[str, JSON], record: ShipRecord) -> bool:
    """Landed at the rule's altitude on a hex next to the fortress top (SG-SCN-38)."""
    if record.position is None or record.status != "landed" or record.altitude != rule["altitude"]:
        return False
    top = maps.zone(board.terrain, str(rule["zone"]))
    return record.position not in top and any(n in top for n in hexgrid.neighbours(record.position))


def party_ships(board: Board, rule: Mapping[str, JSON]) -> list[ShipRecord]:
    named = rule.get("ships")
    fighting = board.fighting(str(rule["side"]))
    return [s for s in fighting if named is None or (isinstance(named, list) and s.name in named)]


def party_state(board: Board, side: str) -> dict[str, JSON]:
    found = board.marks.get(party_key(side))
    return dict(found) if isinstance(found, dict) else {"state": "aboard"}


def stayed_a_turn(board: Board, record: ShipRecord, turn: int) -> bool:
    """Landed on this hex since the last Initiative Phase and not moved since (a complete turn)."""
    assert record.position is not None
    stay = board.marks.get(stay_key(record.name))
    return (
        isinstance(stay, dict)
        and stay.get("turn") == turn - 1
        and stay.get("hex") == record.position.to_json()
        and board.last_moved.get(record.name, 0) == 0
    )


# --- marks kept up as the battle goes ------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    key: str
    value: JSON
    what: str
    clauses: tuple[str, ...]


def marks_now(board: Board, turn: int) -> list[Mark]:
    """The marks the special rules set from the board as it stands (checked whenever victory is)."""
    found: list[Mark] = []
    for name in sorted(noncombatants(board)):
        record = board.ship(name)
        if hove_to_key(name) not in board.marks and board.in_fight(record) and damaged(board, record):
            found.append(Mark(hove_to_key(name), turn, f"{name} is hit: she heaves to and surrenders", ("SG-SCN-17",)))
    for rule in rules(board, "reinforcements"):
        if board.marks.get(over_key(rule)) != turn and watched_over(board, rule):
            found.append(Mark(over_key(rule), turn, f"{rule['watch']} over the {rule['zone']}", ("SG-SCN-24",)))
    return found


def emit_marks(ctx: Context[Board], marks: Sequence[Mark]) -> None:
    for mark in marks:
        ctx.emit("mark", {"key": mark.key, "value": mark.value, "what": mark.what, "clauses": list(mark.clauses)})


def mark(ctx: Context[Board], key: str, value: JSON, what: str, clauses: Sequence[str]) -> None:
    emit_marks(ctx, [Mark(key, value, what, tuple(clauses))])


def commit(ctx: Context[Board], record: ShipRecord) -> None:
    if record != ctx.board.ship(record.name):
        data = {"record": record.plain_json(), "ship": record.name}  # as basics.commit emits it
        ctx.emit("ship", data, ships=[record.name], source=record, copied=True)


# --- hooks: what the ruleset calls, with the resolver's Context ----------------------------------------


def upkeep(ctx: Context[Board]) -> None:
    """The Initiative Phase's scenario bookkeeping: the reinforcement count (SG-SCN-24) and the landing
    party (SG-SCN-38..40)."""
    turn = ctx.state.turn
    for rule in rules(ctx.board, "reinforcements"):
        if turn <= 1 or ctx.board.marks.get(over_key(rule)) == turn - 1:
            continue
        count = int(str(ctx.board.marks.get(count_key(rule), 0))) + 1
        what = f"turn {turn - 1} ended with no {rule['watch']} ship over the {rule['zone']} ({count})"
        mark(ctx, count_key(rule), count, what, ["SG-SCN-24"])
        if count % int(str(rule["every"])) == 0:
            due = int(str(ctx.board.marks.get(due_key(rule), 0))) + 1
            mark(ctx, due_key(rule), due, f"{rule['side']} gets another ship", ["SG-SCN-24"])
    for rule in rules(ctx.board, "landing_party"):
        _landing_party_turn(ctx, rule, turn)


def _landing_party_turn(ctx: Context[Board], rule: Mapping[str, JSON], turn: int) -> None:
    side = str(rule["side"])
    state = party_state(ctx.board, side)
    for record in party_ships(ctx.board, rule):
        if not beside_fortress(ctx.board, rule, record) or not stayed_a_turn(ctx.board, record, turn):
            continue
        assert record.position is not None
        if state["state"] == "aboard":
            try:
                party = landing_party_composition(record, int(str(rule["men"])))
            except ValueError as error:
                # What her crew cannot spare is her side's own business (SG-SEQ-02).
                data = {"ship": record.name, "what": str(error), "clauses": ["SG-SCN-37"]}
                ctx.emit("note", data, ships=[record.name], secret_to=record.side)
                continue
            commit(ctx, drop_party(record, party))
            state = {
                "state": "away",
                "ship": record.name,
                "hex": list[JSON](record.position.to_json()),
                "turn": turn,
                "men": sum(party.values()),
                "posts": dict(party),
            }
            mark(ctx, party_key(side), state, f"{record.name} lands the party by the fortress", ["SG-SCN-38"])
        elif state["state"] == "back" and state["hex"] == record.position.to_json():
            posts = state["posts"] if isinstance(state["posts"], dict) else {}
            back = survivors_by_post({str(k): int(str(v)) for k, v in posts.items()}, int(str(state["men"])))
            commit(ctx, pick_up_party(record, back))
            state = {**state, "state": "rescued", "ship": record.name}
            mark(ctx, party_key(side), state, f"{record.name} picks up the party", ["SG-SCN-38", "SG-SCN-40"])
    if state["state"] == "away" and turn - int(str(state["turn"])) >= int(str(rule["away_turns"])):
        on = int(str(rule["returns_on"]))
        rolled = ctx.roll(
            "landing party: does it come back",
            needed=dice_.at_least(on, "back", "not yet"),
            ships=[str(state["ship"])],
        )
        if rolled.outcome == "back":
            survivors = ctx.roll("landing party: the men left", needed=_faces("survivors"), ships=[]).total
            men = min(survivors, int(str(state["men"])))
            state = {**state, "state": "back", "men": men}
            mark(ctx, party_key(side), state, f"the landing party is back, {men} men", ["SG-SCN-39"])
    for record in party_ships(ctx.board, rule):
        if beside_fortress(ctx.board, rule, record):
            assert record.position is not None
            stay: JSON = {"turn": turn, "hex": list[JSON](record.position.to_json())}
            if ctx.board.marks.get(stay_key(record.name)) != stay:
                mark(ctx, stay_key(record.name), stay, f"{record.name} is landed beside the fortress", ["SG-SCN-38"])


def overwhelm(ctx: Context[Board], side: str, hex_: Hex, altitude: str) -> None:
    """A flying party of ``side`` has ended its move at ``hex_`` and ``altitude`` (SG-SCN-40): an enemy landing
    party back and waiting there is overwhelmed once the flyers come down on it (the hex at the land's
    height: it waits on the ground) and outnumber it, the side's parties landed there counted together. The
    text says no more; the reading: overwhelming is outnumbering, and no fight is rolled."""
    ground = ctx.board.terrain.ground(hex_)
    if altitude != ground:
        return
    flyers = [p for p in ctx.board.flyers if p.side == side and p.aboard is None]
    men = sum(p.men.men for p in flyers if p.position == hex_ and p.altitude == ground)
    for rule in rules(ctx.board, "landing_party"):
        owner = str(rule["side"])
        state = party_state(ctx.board, owner)
        if owner == side or state["state"] != "back" or state.get("hex") != hex_.to_json():
            continue
        if men > read_int(state["men"]):
            mark(ctx, party_key(owner), {**state, "state": "lost"}, "the landing party is overwhelmed", ["SG-SCN-40"])


def _faces(what: str) -> dice_.Judge:
    return dice_.Judge("any", lambda faces, _total: f"{what} {faces[0]}")
