"""The battle as one side may see it: its own ships in full, the enemy as seen across the sky.

The ruleset's ``board_view`` and ``event_view`` (battles/engine/ruleset.py) come here. The umpire (side None)
sees everything; a side sees its own ships, flying parties and decisions whole and the other sides' as they
show on the table. Hidden values are blanked in place (``null``), so an enemy ship keeps the JSON shape of a
ship record and a page draws it with the same code; stocks not yet shown are left out; a key this module does
not know is left out, so that a field added later stays hidden until someone says it is seen.

**An enemy ship** (:func:`ship_seen`; a ship is the side's own while her record names it, so a crewed prize
changes hands, SG-BRD-21):

* seen: her name, class and its published figures (``class_id``, ``class_name``, ``nation``, ``side``,
  ``propulsion``, ``hull_material``, ``hull_size``, ``engine_size``, ``ram``, ``armor``, ``speed``,
  ``crew_quality``), her hull rows and hits, the fire aboard, her criticals (each rolled at the table), where
  she is (``altitude``, ``facing``, ``position``, ``status``), her boarders fighting on another deck
  (``boarders`` by rank, ``boarding``), her grapples, her marines' arms and when they last fired, shotguns
  spent, a High Martian crew and its quality, a ground target's ``emplacement``, the speed of her latest move
  (Agility);
* ``guns``: each gun with its mount, arcs, crew circles, armor, when it last fired, whether it is destroyed or
  jammed; ``manned`` (the men at the gun) blanked; a portable gun's secret aspect left out (SG-MG-06);
* ``crew``: the maneuvering crew's kind and rows (the design) kept, every count and the reliefs at helm and
  trim blanked (SG-SEQ-02);
* blanked: ``casualty_order`` (her owner's standing order, SG-DMG-18), the boarding party formed at home
  (``party``: each rank and the posts its men left), the posts in ``boarders``, the Endurance track
  (``endurance``, ``endurance_used``, ``coal_lost``) and the Throckmorton ``conveyors`` aboard;
* ``ordnance``: what is aboard and not yet shown is left out: Smutts torpedoes stowed, bomb loads (spare or
  used), tether mines and drogue torpedoes still aboard and safe. Hale batteries, liquid fire racks, spike
  hoppers, bomb racks and devices hung out or spent are seen.

**Another side's flying party** (:func:`party_seen`): seen in the air or aboard, by rank; the posts its men
left blanked.

**The board** (:func:`board_seen`), besides the ships and flying parties: the other sides' AI hints (``ai``)
and entries of ``sealed`` (their secret answers' sealed keys, SG-MG-06, SG-SIG-05) are left out; ``trained``
keeps the side's own portable guns only (SG-MG-06); ``plots`` blanks another side's plot until the ship has
carried it out (SG-ERR-24/25); ``crew_at_start`` blanks the other sides' ships; ``decided`` trims the other
sides' answers as the ``decisions`` event does; a landing party's posts (``marks``, SG-SCN-38) are blanked for
the other sides. The ram declarations (``rammers``) are public once revealed (SG-RAM-01/02), and the board only
holds them from then on.

**The log** (:func:`event_seen`): an event kept to another side is withheld (its crew changes, parties formed
or disbanded at home, flying party orders, plots, trained guns, signals it may not read, decisions answered in
secret); of the public events:

* ``ship`` and ``reinforcement`` carry an enemy record as :func:`ship_seen`; ``flying party`` a party as
  :func:`party_seen`; ``mark`` a landing party without its posts;
* ``effects``: an enemy ship's casualties keep their number but not the posts they fell at (``outcome``
  blanked, SG-DMG-18); the notes of its bomb racks' reloading crews are left out (SG-CG-77);
* ``decision_requested``: another side's request without its default and prompt (which read its ships'
  state), and a secret request without its options;
* ``decisions``: another side's initiative orders keep only what is seen when they are carried out (colours
  struck, the ram count, SG-RAM-01, mines and drogues hung out or cut loose, boarders and flying parties
  recalled, grapples cut, tows rigged, prize orders); its plots are blanked, ``{"plots": null}``, until they
  are carried out (SG-ERR-24/25). Sealed keys never reach this event (the engine).

Every other kind is public as it stands: rolls (all dice are thrown at the table), moves, fire, rams and
grapples (a ram or grapple attempt is public once made: the move naming it is answered in the open), boarding,
and the sequence of play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from battles.engine.events import DECISION_REQUESTED, DECISIONS, JSON, Event, JSONObject
from battles.rules.sky_galleons import flying, ordnance, special_rules
from battles.rules.sky_galleons.board import Board
from battles.rules.sky_galleons.kinds import ORDERS, PLOT

if TYPE_CHECKING:
    from battles.engine.state import BattleState

# An enemy record: the keys seen as they are, those blanked, and those trimmed by their own rules below.
SEEN_KEYS = frozenset(
    {
        "name",
        "class_id",
        "class_name",
        "nation",
        "side",
        "propulsion",
        "hull_material",
        "hull_size",
        "engine_size",
        "ram",
        "armor",
        "speed",
        "crew_quality",
        "hull_rows",
        "fire",
        "criticals",
        "altitude",
        "facing",
        "position",
        "status",
        "boarding",
        "grappled_with",
        "marine_arms",
        "marines_fired",
        "emplacement",
        "agility_speed",
        "shotguns_spent",
        "high_martian",
        "boarding_quality",
    }
)
BLANKED_KEYS = frozenset({"casualty_order", "endurance", "endurance_used", "coal_lost", "conveyors"})
SEEN_CREW_KEYS = frozenset({"maneuver_kind", "maneuver_rows"})
HIDDEN_GUN_KEYS = frozenset({"manned"})
SECRET_GUN_KEYS = frozenset({"trained_turn"})  # a portable gun's training turn (SG-MG-06)
# Ordnance aboard and not yet shown, by weapon: the states in which the enemy cannot know it is there.
UNSHOWN_ORDNANCE: Mapping[str, frozenset[str]] = {
    ordnance.SMUTTS_TORPEDO: frozenset({"stowed"}),
    ordnance.BOMB_LOAD: frozenset({"spare", "used"}),
    **{mine: frozenset({"lowered"}) for mine in ordnance.MINES},  # lowered: aboard and safe
    ordnance.DROGUE: frozenset({"raised"}),  # raised: aboard and safe
}

# Initiative orders seen when they are carried out (SG-SEQ-02: the rest is crew assignments): colours struck,
# the ram declaration (SG-RAM-01), devices hung out or cut loose, boarders and flying parties recalled, grapples
# cut, tows rigged, prizes' orders.
SEEN_ORDERS = frozenset(
    {
        "strike",
        "ram",
        "mines",
        "drogues",
        "cut_mines",
        "recall",
        flying.RECALL_ORDER,
        "cut",
        "tow",
        "prizes",
    }
)

# Effects notes on another side's ship: the outcome blanked (the posts casualties fell at, by the owner's
# standing order), or the whole note left out (the men reloading a bomb rack from a spare load).
BLANKED_OUTCOMES = frozenset({"SG-DMG-18"})
UNSEEN_NOTES = frozenset({"SG-CG-77"})

LANDING_PARTY = special_rules.party_key("")  # the mark key's prefix, the side follows (SG-SCN-38)

# The ruleset's event kinds, as this module reads them (docs/engine.md has the table): trimmed for the other
# sides, logged to their own side (``secret_to``; a recall's party order is public), and public as they stand.
TRIMMED_KINDS = frozenset({"ship", "reinforcement", flying.PARTY_EVENT, "effects", "mark"})
OWN_SIDE_KINDS = frozenset(
    {"crew change", "party order", "plots", "gun trained", "signal", "note", "standing orders", "moves written"}
)
PUBLIC_KINDS = frozenset(
    {
        "stage",
        "asking",
        "move cut",
        "wind",
        "placement order",
        "placed",
        "initiative",
        "ram declarations",
        "movement order",
        "kite die",
        "forced drop",
        "move held",
        "held move",
        "collision ahead",
        "moved",
        "move done",
        "towed",
        "avoiding",
        "ram",
        "collision",
        "collision check",
        "attempt lost",
        "grappled",
        "grapple cut",
        "tow rigged",
        "relative position",
        "crossing",
        "fire",
        "rockets",
        "drop",
        "launch",
        "torpedo",
        "torpedo run",
        "boarding action",
        "captured",
        "prize",
        "out",
        "escaped",
        "landed",
        "result",
        "plotted move",
        flying.MOVED_EVENT,
        "party order",  # a recall: the boarders leave the enemy's deck
    }
)


def own(side: str | None, owner: JSON) -> bool:
    """Does ``side`` see what belongs to ``owner`` whole? The umpire sees everything."""
    return side is None or owner == side


# --- records, parties, answers and requests -----------------------------------------------------------------


def ship_seen(record: Mapping[str, JSON], side: str | None) -> JSONObject:
    """A ship record (``ShipRecord.to_json``) as ``side`` sees it (see the module docstring)."""
    if own(side, record["side"]):
        return dict(record)
    seen: JSONObject = {key: value for key, value in record.items() if key in SEEN_KEYS}
    seen.update({key: None for key in BLANKED_KEYS if key in record})
    seen["guns"] = [_gun_seen(_object(gun)) for gun in _list(record.get("guns"))]
    seen["crew"] = {key: value if key in SEEN_CREW_KEYS else None for key, value in _object(record["crew"]).items()}
    seen["party"] = dict.fromkeys(_object(record["party"]))
    seen["boarders"] = {**_object(record["boarders"]), "posts": None}
    shown = [item for item in _list(record.get("ordnance")) if _shown(_object(item))]
    if shown:
        seen["ordnance"] = shown
    return seen


def _gun_seen(gun: JSONObject) -> JSONObject:
    return {key: None if key in HIDDEN_GUN_KEYS else value for key, value in gun.items() if key not in SECRET_GUN_KEYS}


def _shown(item: JSONObject) -> bool:
    return item.get("state") not in UNSHOWN_ORDNANCE.get(str(item.get("weapon")), frozenset())


def party_seen(party: Mapping[str, JSON], side: str | None) -> JSONObject:
    """A flying party (``FlyingParty.to_json``) as ``side`` sees it: another side's without the posts its men
    left."""
    if own(side, party["side"]):
        return dict(party)
    return {**party, "men": {**_object(party["men"]), "posts": None}}


def choice_seen(kind: str, owner: JSON, choice: JSON, side: str | None) -> JSON:
    """An answer, once its batch is revealed, as ``side`` sees it: another side's initiative orders only as far
    as they are seen carried out, its plots not until they are (SG-SEQ-02, SG-RAM-01, SG-ERR-24/25)."""
    if own(side, owner):
        return choice
    if kind == ORDERS and isinstance(choice, dict):
        return {key: value for key, value in choice.items() if key in SEEN_ORDERS}
    if kind == PLOT:
        return {"plots": None}
    return choice


def request_seen(request: Mapping[str, JSON], side: str | None) -> JSONObject:
    """A decision request (``DecisionRequest.to_json``) as ``side`` sees it: another side's without its default
    and prompt (they read that side's ships: a held course, movement points, ordnance aboard), a secret one
    without its options too."""
    if own(side, request["side"]):
        return dict(request)
    seen: JSONObject = {**request, "default": None, "prompt": ""}
    if request.get("secret"):
        seen["options"] = None
    return seen


def notes_seen(notes: list[JSON], side: str | None) -> list[JSON]:
    """An ``effects`` event's notes as ``side`` sees them (each note names the side of its ship)."""
    seen: list[JSON] = []
    for each in notes:
        note = _object(each)
        if own(side, note.get("side", side)):
            seen.append(note)
            continue
        clauses = {str(c) for c in _list(note.get("clauses"))}
        if clauses & UNSEEN_NOTES:
            continue
        seen.append({**note, "outcome": None} if clauses & BLANKED_OUTCOMES else note)
    return seen


def mark_seen(key: str, value: JSON, side: str | None) -> JSON:
    """A scenario mark as ``side`` sees it: another side's landing party without the posts its men left."""
    if key.startswith(LANDING_PARTY) and not own(side, key.removeprefix(LANDING_PARTY)) and isinstance(value, dict):
        return {**value, "posts": None} if "posts" in value else value
    return value


# --- the board and the log --------------------------------------------------------------------------------


def board_seen(data: JSONObject, state: BattleState[Board], side: str | None) -> JSONObject:
    """The board JSON (``board_to_json``) as ``side`` sees it (see the module docstring)."""
    if side is None:
        return data
    board = state.board
    seen = dict(data)
    seen["ships"] = [ship_seen(_object(ship), side) for ship in _list(data["ships"])]
    if "flyers" in data:
        seen["flyers"] = [party_seen(_object(party), side) for party in _list(data["flyers"])]
    seen["ai"] = {key: value for key, value in _object(data["ai"]).items() if key == side}
    seen["crew_at_start"] = {
        name: men if name in board.by_name and own(side, board.ship(name).side) else None
        for name, men in _object(data["crew_at_start"]).items()
    }
    seen["decided"] = [
        {**answer, "choice": choice_seen(str(answer["kind"]), answer["side"], answer["choice"], side)}
        for answer in (_object(a) for a in _list(data["decided"]))
    ]
    sealed_by = {request.id: request.side for request in state.requests}
    seen["sealed"] = {key: value for key, value in _object(data["sealed"]).items() if sealed_by.get(key) == side}
    seen["trained"] = {
        key: value for key, value in _object(data["trained"]).items() if _owner(board, key.rsplit("|", 1)[0]) == side
    }
    seen["plots"] = {
        name: steps if _owner(board, name) == side or name in board.plotted else None
        for name, steps in _object(data["plots"]).items()
    }
    seen["marks"] = {key: mark_seen(key, value, side) for key, value in _object(data["marks"]).items()}
    # Standing orders and the moves written for later are the side's own (standing.py, movement_phase.go_on).
    if "standing" in data:
        seen["standing"] = {key: value for key, value in _object(data["standing"]).items() if key == side}
    if "written" in data:
        seen["written"] = [pair for pair in _list(data["written"]) if _owner(board, str(_list(pair)[0])) == side]
    return seen


def event_seen(event: Event, side: str | None) -> JSONObject | None:
    """One logged event as ``side`` sees it, or None where it is withheld (see the module docstring)."""
    if not event.visible_to(side):
        return None
    data = event.to_json()
    if side is None:
        return data
    kind = event.kind
    if kind in ("ship", "reinforcement"):
        data["record"] = ship_seen(_object(data["record"]), side)
    elif kind == flying.PARTY_EVENT and data["record"] is not None:
        data["record"] = party_seen(_object(data["record"]), side)
    elif kind == "effects":
        data["notes"] = notes_seen(_list(data["notes"]), side)
    elif kind == "mark":
        data["value"] = mark_seen(str(data["key"]), data["value"], side)
    elif kind == DECISION_REQUESTED:
        data["request"] = request_seen(_object(data["request"]), side)
    elif kind == DECISIONS:
        data["answers"] = {
            key: {**answer, "choice": choice_seen(str(answer["decision"]), answer["side"], answer["choice"], side)}
            for key, answer in ((k, _object(a)) for k, a in _object(data["answers"]).items())
        }
    return data


def _owner(board: Board, name: str) -> str | None:
    return board.by_name[name].side if name in board.by_name else None


def _object(value: JSON) -> JSONObject:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {value!r}")
    return value


def _list(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []
