"""The battle result: what a Sky Galleons battle hands the campaign when it ends, as plain versioned JSON.

``result(initial, final)`` reads the battle's first state and its last (pure: no dice, no log) and gives:

* ``battle``: the winner (a side key; null for a draw), the reason, the turns played and whether it is over;
* ``ships``: every vessel once, ground batteries, mines and target hexes apart (``ground``): its class, its side
  at the start and at the end (a prize's captor), its fate and who captured it, its hull boxes and hits row by
  row (repairs are priced by the box, SGC-REPAIR-04/05), the guns it lost, the criticals still standing, its crew
  post by post (at the start, killed, away, prisoners, gone down with her, joined), the one-shot ordnance it
  expended, its Endurance track (AG-END), the tow, and for a prize her captor, prize crew and prisoners;
* ``captains``: each ship's captain: aboard, away, killed, captured or crash-landed (SGC-TREK-01);
* ``ground`` and ``flying_parties``: the ground targets and the flying parties as the outcome gives them.

The readings (men away and men moved between posts, who goes down with a crashed ship, a captain's fate,
which ordnance is spent) are in ``data/results.json``; docs/engine.md "The battle result" shows the format.
``SkyGalleons.tally`` is the odds calculator's summary: a ship's casualties here are its ``crew_lost``
there (men who joined her are counted apart, never as casualties given back).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from battles.engine.events import JSONObject
from battles.engine.jsonread import DataFile
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules.sky_galleons import flying, ordnance_play, prizes, special_rules
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.close_action import all_home, disband_party
from battles.rules.sky_galleons.combat import casualty_posts
from battles.rules.sky_galleons.datafiles import DATA_DIR
from battles.rules.sky_galleons.kinds import CAPTURED, CRASH_LANDED, CRASHED, ESCAPED, STRUCK
from galleons.record import (
    CREW_COUNTS,
    MANEUVER_POST,
    NO_PARTY,
    ShipRecord,
    men_at_posts,
    ship_record_from_class,
)

RESULTS = DataFile(DATA_DIR / "results.json")

# The version of this format: a change a reader must know about bumps it.
FORMAT = 1

FIGHTING, LANDED, SCUTTLED = "fighting", "landed", "scuttled"
ABOARD, AWAY, KILLED = "aboard", "away", "killed"
GUN = "gun:"
GUN_CREWS = "gun_crews"
# Where a ship's men alive off her may be.
AWAY_KEYS = ("boarders", "flying_parties", "landing_party", "prize_crews", "guards")


def result(initial: BattleState[Board], final: BattleState[Board]) -> dict[str, Any]:
    """The result of the battle from ``initial`` (its first state) to ``final`` (its last, over or not)."""
    board = final.board
    first = initial.board.by_name
    ships: list[dict[str, Any]] = []
    captains: list[dict[str, Any]] = []
    for record in board.ships:
        if record.emplacement is not None:
            continue
        start = first.get(record.name) or _fresh(record)
        men = company(board, start, record)
        entry = _ship(board, start, record, men)
        ships.append(entry)
        captain = _captain(entry, men)
        if captain is not None:
            captains.append(captain)
    return {
        "format": FORMAT,
        "ruleset": final.ruleset,
        "version": final.version,
        "scenario": board.scenario,
        "battle": engine_result(final),
        "sides": {side: board.side_names.get(side, side) for side in board.side_order},
        "ships": ships,
        "captains": captains,
        "ground": ordnance_play.outcome_extra(board).get("ground", []),
        "flying_parties": [flying.outcome(party) for party in board.flyers],
    }


def _fresh(record: ShipRecord) -> ShipRecord:
    """The start of a ship that joined during the battle (SG-SCN-24): a fresh record of her class."""
    if record.class_id is None:
        return record
    return ship_record_from_class(record.class_id, name=record.name, side=record.side)


# --- fate -----------------------------------------------------------------------------------------------


def fate(board: Board, record: ShipRecord) -> str:
    """The vessel's fate in one word (results.json fates)."""
    prize = board.prizes.get(record.name)
    out = board.out.get(record.name)
    if prize is not None and prize.status == SCUTTLED:
        return SCUTTLED
    if out in (CRASHED, CRASH_LANDED):
        return out
    if not record.afloat:
        return CRASHED
    if prize is not None:
        return CAPTURED
    if out is not None:
        return out
    return LANDED if record.status == "landed" else FIGHTING


# --- the crew --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Company:
    """A ship's own men post by post: at the start, and alive at the end wherever they are (results.json crew);
    ``joined``: men beyond her starting numbers; ``away``: her men alive off the ship, by where they are;
    ``aboard``: her own men alive aboard her (a crewed prize's prisoners); ``captain_aboard``: at his post or
    in her party at home."""

    start: dict[str, int]
    alive: dict[str, int]
    joined: int
    away: dict[str, int]
    aboard: int
    captain_aboard: bool

    @property
    def casualties(self) -> dict[str, int]:
        return {post: men - self.alive[post] for post, men in self.start.items()}


def company(board: Board, start: ShipRecord, record: ShipRecord) -> Company:
    """Her men at the start (``start``, her first record) and at the end (``record``)."""
    at_start = men_at_posts(all_home(start))
    prize = board.prizes.get(record.name)
    away = dict.fromkeys(AWAY_KEYS, 0)
    if prize is not None and prize.order == prizes.CREW:  # her record holds her prize crew now
        found = dict(prize.prisoner_posts)
        alive = aboard = prize.prisoners
        captain_aboard = found.get("captain", 0) > 0
    else:
        home = all_home(record)
        for party in board.flyers:
            if party.home == record.name:
                home = flying.rejoin(home, party)
        found = men_at_posts(home)
        ashore = special_rules.ashore(board, record.name)
        for post, men in ashore.items():
            found[post] = found.get(post, 0) + men
        away |= {
            "boarders": record.boarders.men,
            "flying_parties": flying.men_out(board.flyers, record.name),
            "landing_party": sum(ashore.values()),
            "prize_crews": sum(men for p in board.prizes.values() for ship, men in p.crew_from if ship == record.name),
            "guards": sum(1 for p in board.prizes.values() if p.guard is not None and p.guard_ship == record.name),
        }
        # The outcome's men alive: aboard, in the party and across, and away in prizes, flying and ashore.
        alive = record.men_alive + sum(away.values()) - record.boarders.men
        aboard = record.crew_aboard + record.party.men
        at_home = disband_party(replace(record, boarders=NO_PARTY, boarding=None))
        captain_aboard = at_home.crew.captain > 0
    posts, joined = _attribute(at_start, found, max(alive - sum(found.values()), 0), casualty_posts(record))
    return Company(at_start, posts, joined, away, aboard, captain_aboard)


def _attribute(
    start: Mapping[str, int], found: Mapping[str, int], unplaced: int, order: list[str]
) -> tuple[dict[str, int], int]:
    """Men alive by post, and the men who joined: ``found`` at their posts up to each post's starting number;
    the ``unplaced`` (alive, posts unknown) and the men beyond a post's start fill the posts still short in
    ``order`` (the casualty order: deckhands first, the captain last); what is left joined her."""
    alive = {post: min(found.get(post, 0), men) for post, men in start.items()}
    pool = unplaced + sum(max(men - start.get(post, 0), 0) for post, men in found.items())
    for post in order:
        if post in alive:
            fill = min(pool, start[post] - alive[post])
            alive[post] += fill
            pool -= fill
    return alive, pool


def _categories(by_post: Mapping[str, int]) -> dict[str, int]:
    """Post counts as the categories of SG-CREW-05: the crew boxes, the maneuvering crew, the gun crews."""
    found = {post: by_post.get(post, 0) for post in (*CREW_COUNTS, MANEUVER_POST)}
    found[GUN_CREWS] = sum(men for post, men in by_post.items() if post.startswith(GUN))
    return found


def went_down(board: Board, record: ShipRecord, men: Company) -> int:
    """Her men aboard a ship that crashed (results.json went_down): aboard her, or in prize crews and guards."""
    own = men.aboard if fate(board, record) == CRASHED else 0
    crashed = [prize for name, prize in board.prizes.items() if fate(board, board.ship(name)) == CRASHED]
    return own + sum(prize.men_from(record.name) for prize in crashed)


# --- one ship --------------------------------------------------------------------------------------------


def _ship(board: Board, first: ShipRecord, record: ShipRecord, men: Company) -> dict[str, Any]:
    prize = board.prizes.get(record.name)
    ending = fate(board, record)
    casualties = men.casualties
    killed = sum(casualties.values())
    down = went_down(board, record, men)
    prisoners = men.aboard if ending in (CAPTURED, SCUTTLED, STRUCK) else 0
    return {
        "name": record.name,
        "class": record.class_name,
        "class_id": record.class_id,
        "nation": record.nation,
        "role": board.roles.get(record.name),
        "side_at_start": prize.owner if prize else first.side,
        "side_at_end": prize.captor if prize else record.side,
        "fate": ending,
        "captured_by": prize.captor if prize else None,
        "hull": _hull(first, record),
        "guns_lost": _guns_lost(first, record),
        "criticals": _criticals(record),
        "crew": {
            "at_start": board.crew_at_start.get(record.name, sum(men.start.values())),
            "start": _categories(men.start),
            "casualties": _categories(casualties),
            "gun_crew_casualties": {
                post[len(GUN) :]: n for post, n in casualties.items() if post.startswith(GUN) and n
            },
            "killed": killed,
            "joined": men.joined,
            "away": men.away,
            "prisoners": prisoners,
            "went_down": down,
            "lost": killed + down,
            "maneuver_kind": first.crew.maneuver_kind,
        },
        "ordnance": _ordnance(first, record),
        "endurance": _endurance(first, record),
        "towing": board.towing(record.name),
        "towed_by": board.tower_of(record.name),
        "prize": None
        if prize is None
        else {
            "captor": prize.captor,
            "owner": prize.owner,
            "status": prize.status,
            "guard": None if prize.guard is None else {"ship": prize.guard_ship, "rank": prize.guard},
            "prize_crew": dict(prize.crew_from),
            "prisoners": prisoners,
        },
    }


def _hull(first: ShipRecord, record: ShipRecord) -> dict[str, Any]:
    """Boxes and hits in all and row by row, highest first, and the hits taken in this battle (SG-DMG-13)."""
    before = {row.altitude: row.hits for row in first.hull_rows}
    return {
        "boxes": record.hull_boxes,
        "hits": record.hull_hits,
        "hits_in_battle": record.hull_hits - first.hull_hits,
        "ceiling": record.max_altitude,
        "rows": [
            {
                "altitude": row.altitude,
                "boxes": row.boxes,
                "hits": row.hits,
                "hits_in_battle": row.hits - before.get(row.altitude, 0),
            }
            for row in record.hull_rows
        ],
    }


def _guns_lost(first: ShipRecord, record: ShipRecord) -> list[dict[str, Any]]:
    """Guns destroyed in this battle (SG-CRIT-10, SG-DMG-08): each to be replaced (SGC-REPAIR-02/03)."""
    was = {gun.id for gun in first.guns if gun.destroyed}
    return [
        {"id": gun.id, "weapon": gun.weapon_id, "name": gun.name}
        for gun in record.guns
        if gun.destroyed and gun.id not in was
    ]


def _criticals(record: ShipRecord) -> dict[str, Any]:
    """The damage still standing at the end (SG-CRIT-*): fire, jammed rudder and lifters (the value to beat to
    free them), screw or mast hits, the boiler, a jury-rig, jammed guns, and who is at the helm and trim."""
    c = record.criticals
    return {
        "fire": record.fire,
        "rudder_jammed": c.rudder_jam,
        "lifters_jammed": c.lifters_jam,
        "screw_mast_hits": c.screw_mast_hits,
        "boiler_blown": c.boiler_blown,
        "boiler_loss": c.boiler_loss,
        "jury_rigged": c.jury_rigged,
        "guns_jammed": [gun.id for gun in record.guns if gun.jammed and not gun.destroyed],
        "helm_manned": record.helm_manned,
        "trim_manned": record.trim_manned,
    }


def _bomb_loads(record: ShipRecord) -> int:
    kinds: Mapping[str, list[str]] = RESULTS.get("ordnance", "bomb_loads")
    return sum(len(record.items_of(weapon, states=states)) for weapon, states in kinds.items())


def _ordnance(first: ShipRecord, record: ShipRecord) -> dict[str, Any]:
    """One-shot ordnance expended, by weapon, and each item that changed (results.json ordnance)."""
    spent: Mapping[str, list[str]] = RESULTS.get("ordnance", "spent")
    before = {item.id: item.state for item in first.ordnance}
    expended: dict[str, int] = {}
    changed: list[dict[str, Any]] = []
    for item in record.ordnance:
        was = before.get(item.id)
        if was != item.state:
            changed.append({"id": item.id, "weapon": item.weapon_id, "start": was, "end": item.state})
        states = spent.get(item.weapon_id, [])
        if item.state in states and was not in states:
            expended[item.weapon_id] = expended.get(item.weapon_id, 0) + 1
    loads = _bomb_loads(first) - _bomb_loads(record)
    if loads:
        expended["bomb_load"] = loads
    return {"expended": expended, "items": changed}


def _endurance(first: ShipRecord, record: ShipRecord) -> dict[str, int] | None:
    """The Endurance track, where the Agility rules keep one (AG-END-01..05)."""
    if record.endurance is None:
        return None
    used, lost = record.endurance_used or 0, record.coal_lost or 0
    return {
        "boxes": record.endurance,
        "used": used,
        "coal_lost": lost,
        "coal_lost_in_battle": lost - (first.coal_lost or 0),
        "left": record.endurance - used - lost,
    }


# --- the captains ----------------------------------------------------------------------------------------


def _captain(ship: Mapping[str, Any], men: Company) -> dict[str, Any] | None:
    """The ship's captain's fate (results.json captains); None for a ship that started without one."""
    if men.start["captain"] == 0:
        return None
    ending = ship["fate"]
    alive = men.alive["captain"] > 0
    aboard = men.captain_aboard
    if not alive:
        word = KILLED
    elif not aboard:
        word = AWAY
    elif ending == CRASHED:
        word = KILLED
    elif ending == CRASH_LANDED:
        word = CRASH_LANDED
    elif ending in (CAPTURED, SCUTTLED, STRUCK):
        word = CAPTURED
    else:
        word = ABOARD
    return {
        "ship": ship["name"],
        "side": ship["side_at_start"],
        "fate": word,
        "went_down": alive and aboard and ending == CRASHED,
        "captured_by": ship["captured_by"] if word == CAPTURED else None,
    }


def tally(state: BattleState[Board]) -> JSONObject:
    """The odds calculator's figures: winner, turns, each side's losses, each ship's fate and damage."""
    board = state.board
    ships: list[dict[str, Any]] = []
    for ship in board.ships:
        if ship.emplacement is not None:
            continue  # the ground is reported on its own (ordnance_play.outcome_extra)
        fate = board.out.get(ship.name, "fighting" if ship.afloat else CRASHED)
        # A prize is her first owner's ship, captured, even when her prize crew fights on (SG-BRD-21).
        prize = board.prizes.get(ship.name)
        crewed = prize is not None and prize.order == prizes.CREW
        away = prizes.men_away(board.prizes, ship.name) + flying.men_out(board.flyers, ship.name)
        away += sum(special_rules.ashore(board, ship.name).values())  # a landing party, alive (SG-SCN-38)
        alive = prize.prisoners if crewed and prize else ship.men_alive + away
        ships.append(
            {
                "name": ship.name,
                "side": prize.owner if prize else ship.side,
                "class": ship.class_name,
                "fate": CAPTURED if prize else fate,
                "hull_hits": ship.hull_hits,
                "hull_boxes": ship.hull_boxes,
                # Men lost, never below none: men who joined her from elsewhere (a warband landing on
                # her, SG-HM-05) are no casualties given back (results.py keeps them as joined).
                "crew_lost": max(board.crew_at_start[ship.name] - alive, 0),
                "captured_by": board.captured.get(ship.name),
                "crew_at_start": board.crew_at_start[ship.name],
                "fire": ship.fire,
                "prize": prize.status if prize else None,
                "prize_fate": fate if crewed else None,
            }
        )
    sides = {}
    for side in board.side_order:
        mine = [s for s in ships if s["side"] == side]
        sides[side] = {
            "ships": len(mine),
            "lost": sum(1 for s in mine if s["fate"] in (CRASHED, CRASH_LANDED)),
            "captured": sum(1 for s in mine if s["fate"] in (STRUCK, CAPTURED)),
            "prizes": sum(1 for s in ships if s["captured_by"] == side),
            "prizes_crewed": sum(1 for p in board.prizes.values() if p.captor == side and p.status == "crewed"),
            "prizes_scuttled": sum(1 for p in board.prizes.values() if p.captor == side and p.status == "scuttled"),
            "escaped": sum(1 for s in mine if s["fate"] == ESCAPED),
            "hull_hits": sum(int(s["hull_hits"]) for s in mine),
            "crew_lost": sum(int(s["crew_lost"]) for s in mine),
        }
    return {
        "scenario": board.scenario,
        "winner": state.winner,
        "reason": state.result,
        "turns": state.turn,
        "over": state.over,
        "sides": sides,
        "ships": ships,
        **ordnance_play.outcome_extra(board),
        "flying_parties": [flying.outcome(party) for party in board.flyers],
    }
