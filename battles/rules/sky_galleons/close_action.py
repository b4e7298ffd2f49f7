"""Close action, Sky Galleons Part II: boarding parties, ramming, grappling and boarding combat.

Pure functions over ship records. The ruleset decides when each happens in the sequence of play (rams and
grapples as the first player's ships move, boarders crossing before fire, boarding combat after fire and
before repairs: SG-SEQ-07/11, SG-RAM-04, SG-BRD-15); this module says what each does. The numbers are in
``data/close-action.json``, with the readings chosen where the text is silent or the chart differs.

* Boarding parties are formed and disbanded in the Initiative Phase; their men leave their posts as if
  they were casualties and come back to them when the party is disbanded (SG-BRD-01..04). A party needs an
  officer (SG-CREW-01).
* A ram needs 4 or less on 1d6, less the movement points the target spent avoiding, moved by crew quality;
  against a ship immobilized by damage it cannot fail (SG-RAM-05..10, SG-CQ-03/07).
* A grapple is half the deckhands rolling for a 5 or 6 (SG-GRAP-01/02).
* Across a grapple, at most five men per hull size of the smaller ship cross in a phase, half that over a
  bow or stern (SG-BRD-07..09); boarding combat is a die per man, 6 kills, officers and marines kill on
  5-6, a Crack crew adds 1 (SG-BRD-14, SG-CQ-09).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine.frozen import evolve
from battles.engine.jsonread import DataFile
from battles.engine.words import possessive
from battles.rules.sky_galleons.combat import Happening, Roller, _Log, marine_arms
from battles.rules.sky_galleons.datafiles import DATA_DIR
from galleons import sailing
from galleons.record import (
    CREW_COUNTS,
    NO_PARTY,
    PARTY_RANKS,
    Party,
    ShipRecord,
    party_rank,
)

CLOSE_ACTION_FILE = DATA_DIR / "close-action.json"


CLOSE_TABLES = DataFile(CLOSE_ACTION_FILE)


def close_tables() -> Mapping[str, Any]:
    """close-action.json, parsed once. Read-only by convention."""
    return CLOSE_TABLES.data


cint = CLOSE_TABLES.whole


def _ceil_div(value: int, divisor: int) -> int:
    return -(-value // divisor)


class PartyError(ValueError):
    """A boarding party order the rules forbid; ``clause`` names the rule."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


# --- boarding parties (Initiative Phase) ---------------------------------------------------------------


def _men_at(record: ShipRecord, post: str) -> int:
    if post.startswith("gun:"):
        return record.gun(post[4:]).manned
    return record.crew.count(post)


def _set_men(record: ShipRecord, post: str, men: int) -> ShipRecord:
    if post.startswith("gun:"):
        return record.with_gun(evolve(record.gun(post[4:]), manned=men))
    return evolve(record, crew=record.crew.with_count(post, men))


def form_party(record: ShipRecord, men: Mapping[str, int]) -> ShipRecord:
    """Form a boarding party, or add to the one at home, from the posts named: ``{"officers": 1,
    "deckhands": 5}`` marks off one officer box and five deckhand boxes (SG-BRD-01/02). The party must then
    hold an officer (SG-CREW-01); a ship boarded by the enemy with no officer left cannot add men to its
    defenders (SG-BRD-19). Raises :class:`PartyError`."""
    if not men or any(type(n) is not int or n < 0 for n in men.values()):
        raise PartyError("SG-BRD-01", 'a party is {"post": men, ...}, whole numbers, at least one man')
    party = record.party
    posts = dict(party.posts)
    for post, count in men.items():
        if count == 0:
            continue
        try:
            rank = party_rank(post)
            here = _men_at(record, post)
        except (KeyError, ValueError) as error:
            raise PartyError("SG-BRD-01", str(error)) from None
        if here < count:
            raise PartyError("SG-BRD-01", f"{record.name} has {here} at {post}, not {count}")
        record = _set_men(record, post, here - count)
        party = party.with_count(rank, party.count(rank) + count)
        posts[post] = posts.get(post, 0) + count
    if party.officers == 0:
        raise PartyError("SG-CREW-01", "a boarding party must include an officer")
    return evolve(record, party=evolve(party, posts=tuple(posts.items())))


def disband_party(record: ShipRecord) -> ShipRecord:
    """Send the party at home back to its posts: each survivor erases a casualty mark where the party's men
    came from, rank by rank, in the order they were taken (SG-BRD-04). Boarders across must come home
    first."""
    if record.boarders.men:
        raise PartyError("SG-BRD-04", f"{possessive(record.name)} boarders are still across on {record.boarding}")
    party = record.party
    left = {rank: party.count(rank) for rank in PARTY_RANKS}
    for post, formed in party.posts:
        rank = party_rank(post)
        back = min(formed, left[rank])
        if back:
            record = _set_men(record, post, _men_at(record, post) + back)
            left[rank] -= back
    return evolve(record, party=NO_PARTY)


def all_home(record: ShipRecord) -> ShipRecord:
    """The record with her party at home and her boarders across back at the posts they left, as a disbanding
    puts them (SG-BRD-04): her living company post by post. Party men whose posts the party does not keep (a
    party made up outside the Initiative Phase's orders) stay off the record."""
    together = evolve(record, party=record.party.plus(record.boarders), boarders=NO_PARTY, boarding=None)
    return disband_party(together)


# --- ramming -------------------------------------------------------------------------------------------


def avoidance_mp(speed: int) -> int:
    """Movement points spent avoiding a ram or grapple: half the allowance, rounded up (SG-RAM-05)."""
    return _ceil_div(max(speed, 0), cint("ram", "avoiding_costs_speed_divided_by"))


def immobilized(record: ShipRecord) -> bool:
    """Stopped by battle damage: no speed left even at its best (a kite's best die) (SG-RAM-09)."""
    return record.effective_speed(6 if record.is_kite else None) == 0


def _quality(record: ShipRecord) -> int:
    table: Mapping[str, int] = close_tables()["ram"]["crew_quality"]
    return int(table[record.crew_quality])


def ram_modifiers(rammer: ShipRecord, target: ShipRecord, avoiding_mp: int) -> dict[str, int]:
    """What moves the ram roll (it must come to the success number or less, SG-RAM-07): the target's
    avoidance adds its movement points (SG-RAM-08/10); a Green rammer adds 1 and a Crack one takes 1 off;
    an avoiding Green target takes 1 off and a Crack one adds 1 (SG-CQ-03/07)."""
    mods: dict[str, int] = {}
    if avoiding_mp:
        mods[f"{target.name} avoiding ({avoiding_mp} MP)"] = avoiding_mp
    if _quality(rammer):
        mods[f"{rammer.crew_quality} rammer"] = -_quality(rammer)
    if avoiding_mp and _quality(target):
        mods[f"{target.crew_quality} crew avoiding"] = _quality(target)
    return mods


def ram_hits(rammer: ShipRecord) -> tuple[int, bool]:
    """A fitted ram's hull hits: half the rammer's hull size, and whether an odd half hit is rolled for
    (SG-RAM-11)."""
    per = cint("ram", "hull_hits_per_rammer_hull_size")
    return rammer.hull_size // per, rammer.hull_size % per != 0


# --- grappling -----------------------------------------------------------------------------------------


def grapple_attempts(record: ShipRecord, avoiding_mp: int) -> int:
    """Half the deckhands, rounded up, each try once (SG-GRAP-02); the target's avoidance takes one attempt
    per movement point (the reading of SG-GRAP-03 in close-action.json)."""
    attempts = _ceil_div(record.crew.deckhands, cint("grapple", "deckhands_per_attempt"))
    return max(attempts - avoiding_mp * cint("grapple", "attempts_lost_per_avoiding_mp"), 0)


# --- towing ------------------------------------------------------------------------------------------

# The towing allowance is the ship model's (galleons/sailing.py): the campaign's voyage rules read it too.
tow_speed = sailing.tow_speed


def tow_kite_die(die: int, *, upwind: bool) -> int:
    """A towing kite's movement die: halved, and halved again towing upwind, rounded up (SG-TOW-05)."""
    once = sailing.halved(die)
    return sailing.halved(once) if upwind else once


def tow_trim_manned(towed: ShipRecord, prize_crew: ShipRecord | None = None) -> bool:
    """A ship in tow needs an officer or petty officer at its trim station (SG-TOW-09): its own, or, for a
    prize, one of the captor's boarders aboard, whatever the nation (SG-TOW-10)."""
    if towed.trim_manned and towed.crew.officers_aboard + towed.crew.petty_officers_aboard > 0:
        return True
    return prize_crew is not None and prize_crew.boarding == towed.name and prize_crew.boarders.leaders > 0


# --- crossing ------------------------------------------------------------------------------------------


def crossing_limit(a: ShipRecord, b: ShipRecord, *, over_bow_or_stern: bool) -> int:
    """Men who may cross between two grappled ships in a phase: five per hull size of the smaller ship
    (SG-BRD-07/08), half that, rounded up, over a bow or stern (SG-BRD-09)."""
    limit = cint("boarding", "men_per_smaller_hull_size") * min(a.hull_size, b.hull_size)
    return _ceil_div(limit, cint("boarding", "bow_or_stern_divisor")) if over_bow_or_stern else limit


# Who crosses first: the leaders, so that a party cut short still has one (SG-BRD-17).
CROSSING_ORDER = ("officers", "petty_officers", "marines", "seamen")


def send_across(record: ShipRecord, target: str, men: int) -> tuple[ShipRecord, int]:
    """Send up to ``men`` of the party at home across to ``target`` (SG-BRD-05), leaders first. Returns the
    record and how many crossed."""
    party, boarders = record.party, record.boarders
    sent = 0
    for rank in CROSSING_ORDER:
        going = min(party.count(rank), men - sent)
        if going:
            party = party.with_count(rank, party.count(rank) - going)
            boarders = boarders.with_count(rank, boarders.count(rank) + going)
            sent += going
    if not sent:
        return record, 0
    return evolve(record, party=party, boarders=boarders, boarding=target), sent


def bring_home(record: ShipRecord) -> ShipRecord:
    """The boarders come back to the party at home (a retreat, SG-BRD-17, SG-CREW-02, or a recall); their
    boarding action is over, so shotguns are reloaded (SG-CG-18)."""
    if not record.boarders.men:
        return evolve(record, boarders=NO_PARTY, boarding=None, shotguns_spent=None)
    return evolve(
        record, party=record.party.plus(record.boarders), boarders=NO_PARTY, boarding=None, shotguns_spent=None
    )


def crossing_casualties(before: ShipRecord, after: ShipRecord, crossing: int) -> tuple[ShipRecord, int]:
    """The crew casualties a shot of small arms, shrapnel or grape gave a ship whose boarders are crossing
    this phase fall on the men crossing instead (SG-BRD-10/11): up to ``crossing`` of them, the posts the
    shot emptied get their men back and the party at home loses as many, its seamen first. Returns the
    record and how many of the crossing men fell."""
    crossing = min(crossing, after.party.men)
    if not after.afloat or crossing <= 0:
        return after, 0
    record, taken = after, 0
    for post in ("deckhands", *(p for p in CREW_COUNTS if p != "deckhands")):
        back = min(before.crew.count(post) - record.crew.count(post), crossing - taken)
        if back > 0:
            record = evolve(record, crew=record.crew.with_count(post, record.crew.count(post) + back))
            taken += back
    for gun in before.guns:
        back = min(gun.manned - record.gun(gun.id).manned, crossing - taken)
        if back > 0:
            record = record.with_gun(evolve(record.gun(gun.id), manned=record.gun(gun.id).manned + back))
            taken += back
    back = min(record.crew.maneuver_lost - before.crew.maneuver_lost, crossing - taken)
    if back > 0:
        record = evolve(record, crew=evolve(record.crew, maneuver_lost=record.crew.maneuver_lost - back))
        taken += back
    party = record.party
    for rank in reversed(CROSSING_ORDER):  # the seamen fall first, the leaders last
        dying = min(party.count(rank), taken - (record.party.men - party.men))
        party = party.with_count(rank, party.count(rank) - dying)
    return evolve(record, party=party), record.party.men - party.men


# --- boarding combat -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """Men of one rank on one side of a boarding fight: ``where`` is "boarders", "party" (the defenders' own
    party at home) or "crew" (a post of the record)."""

    ship: str
    where: str
    key: str
    rank: str


# The defenders, in the order their owner loses them (SG-BRD-12; the standing order of close-action.json).
DEFENDERS = (
    ("party", "seamen", "seamen"),
    ("crew", "deckhands", "seamen"),
    ("party", "marines", "marines"),
    ("crew", "marines", "marines"),
    ("party", "petty_officers", "petty_officers"),
    ("crew", "petty_officers", "petty_officers"),
    ("party", "officers", "officers"),
    ("crew", "marine_officers", "officers"),
)
ATTACKERS = (
    ("boarders", "seamen", "seamen"),
    ("boarders", "marines", "marines"),
    ("boarders", "petty_officers", "petty_officers"),
    ("boarders", "officers", "officers"),
)


def _men(record: ShipRecord, pool: Pool) -> int:
    if pool.where == "crew":
        return record.crew.count(pool.key)
    return (record.party if pool.where == "party" else record.boarders).count(pool.key)


def _kill(record: ShipRecord, pool: Pool, men: int) -> ShipRecord:
    left = _men(record, pool) - men
    if pool.where == "crew":
        return evolve(record, crew=record.crew.with_count(pool.key, left))
    if pool.where == "party":
        return evolve(record, party=record.party.with_count(pool.key, left))
    return evolve(record, boarders=record.boarders.with_count(pool.key, left))


def defender_pools(defender: ShipRecord) -> list[Pool]:
    return [Pool(defender.name, where, key, rank) for where, key, rank in DEFENDERS]


def attacker_pools(attackers: Sequence[ShipRecord]) -> list[Pool]:
    """By rank in the standing order, the first party's men before the next's."""
    return [Pool(a.name, where, key, rank) for where, key, rank in ATTACKERS for a in attackers]


def fighting(records: Mapping[str, ShipRecord], pools: Sequence[Pool]) -> int:
    return sum(_men(records[p.ship], p) for p in pools)


def _kills(log: _Log, side: str, ship: ShipRecord, men: int, *, leaders: bool, shotgun: str = "") -> int:
    """One die per man: a 6 kills, 5-6 for officers and marines; a Crack crew adds 1 to each (SG-BRD-14,
    SG-CQ-09). ``shotgun`` names the clause of shotgun marines' second attacks (SG-CG-17/19)."""
    if men <= 0:
        return 0
    base = cint("boarding", "leaders_kill_on_at_least" if leaders else "kills_on_at_least")
    quality = ship.boarders_quality  # a High Martian crew boards as Trained or Crack (SG-HM-07)
    bonus = int(close_tables()["boarding"]["crew_quality_bonus_per_die"][quality])
    on = base - bonus
    who = "shotgun marines' second attacks" if shotgun else "officers and marines" if leaders else "men"
    faces = log.roll(
        f"boarding combat: {side} {possessive(ship.name)} {men} {who}",
        ship=ship.name,
        clauses=[
            "SG-BRD-14",
            *(["SG-CQ-09"] if bonus else []),
            *([shotgun] if shotgun else []),
            *(["SG-HM-07"] if ship.boarding_quality else []),
        ],
        count=men,
        needed=f"each die {on}+" + (f" ({base}+, {quality} +{bonus})" if bonus else "") + " kills",
        judge=lambda faces, _total: f"{sum(1 for f in faces if f >= on)} killed",
    )
    return sum(1 for face in faces if face >= on)


def _take_losses(
    log: _Log, side: str, records: dict[str, ShipRecord], pools: Sequence[Pool], losses: int
) -> dict[str, ShipRecord]:
    """A side's boarding casualties: the rank die first (at most the casualties: one is an officer or a
    petty officer; on a 1, an officer; if there is none of that rank, a seaman or marine), then the standing
    order (SG-BRD-16)."""
    losses = min(losses, fighting(records, pools))
    if losses <= 0:
        return records
    officer_on = cint("boarding", "officer_casualty_on")
    by_rank = {rank: sum(_men(records[p.ship], p) for p in pools if p.rank == rank) for rank in PARTY_RANKS}
    prefer = "petty_officers" if by_rank["petty_officers"] >= by_rank["officers"] else "officers"
    (face,) = log.roll(
        f"boarding casualties: is one of {possessive(side)} {losses} an officer or petty officer",
        ship=pools[0].ship,
        clauses=["SG-BRD-16"],
        needed=f"{losses} or less: an officer or petty officer; {officer_on}: an officer",
        judge=lambda faces, _total: (
            "an officer"
            if faces[0] <= losses and faces[0] == officer_on
            else "an officer or petty officer"
            if faces[0] <= losses
            else "men of the owner's choosing"
        ),
    )
    left = losses
    if face <= losses:
        rank = "officers" if face == officer_on else prefer
        ranked = [p for p in pools if p.rank == rank and _men(records[p.ship], p)]
        if ranked:
            records[ranked[0].ship] = _kill(records[ranked[0].ship], ranked[0], 1)
            left -= 1
    for pool in pools:
        if not left:
            break
        take = min(left, _men(records[pool.ship], pool))
        if take:
            records[pool.ship] = _kill(records[pool.ship], pool, take)
            left -= take
    return records


@dataclass(frozen=True)
class BoardingRound:
    """What one round of boarding combat did: the changed records, its rolls, the attackers' and defenders'
    losses, whether the ship was taken (deck secured, SG-BRD-13, or no officer or petty officer left,
    SG-BRD-18) and which attacking ships' parties went home (SG-BRD-17, SG-CREW-02)."""

    records: Mapping[str, ShipRecord]
    happened: list[Happening]
    attackers_lost: int
    defenders_lost: int
    taken: bool
    retreated: tuple[str, ...]


def has_leader(party: Party, *, officers_only: bool) -> bool:
    return party.officers > 0 if officers_only else party.leaders > 0


# --- shotgun marines (SG-CG-16..19) ----------------------------------------------------------------------


def _shotgun_clause(record: ShipRecord, action: str) -> str:
    """The clause under which the ship's marines attack twice in this round of the boarding action fought on
    ``action``: a lever-action shotgun always (SG-CG-19), a shotgun in the action's first round (SG-CG-17);
    "" when they attack once."""
    arms = marine_arms(record)
    if arms in close_tables()["shotguns"]["always_double"]:
        return "SG-CG-19"
    if arms in close_tables()["shotguns"]["first_round_double"] and record.shotguns_spent != action:
        return "SG-CG-17"
    return ""


def _spent(record: ShipRecord, action: str) -> ShipRecord:
    """After a round: a ship's shotgun marines have fired their double in this action."""
    return evolve(record, shotguns_spent=action) if _shotgun_clause(record, action) == "SG-CG-17" else record


def reload_shotguns(record: ShipRecord, *, boarded: bool) -> ShipRecord:
    """Shotgun marines reload once their boarding action is over (SG-CG-18): the ship they defended has no
    enemy boarders aboard, or its own boarders are no longer on the ship they fought on."""
    spent = record.shotguns_spent
    if spent is None:
        return record
    if (spent == record.name and not boarded) or (spent != record.name and record.boarding != spent):
        return evolve(record, shotguns_spent=None)
    return record


def _attackers_kill(log: _Log, attackers: Sequence[ShipRecord], action: str) -> int:
    """The boarders' dice: leaders (officers and marines) and the rest, ship by ship, then the shotgun marines'
    second attack (SG-BRD-12, SG-CG-17/19)."""
    killed = 0
    for ship in attackers:
        b = ship.boarders
        killed += _kills(log, "attacker", ship, b.officers + b.marines, leaders=True)
        killed += _kills(log, "attacker", ship, b.petty_officers + b.seamen, leaders=False)
        shotgun = _shotgun_clause(ship, action)  # shotgun marines attack twice (SG-CG-17/19)
        killed += _kills(log, "attacker", ship, b.marines if shotgun else 0, leaders=True, shotgun=shotgun)
    return killed


def _defenders_kill(
    log: _Log, defender: ShipRecord, records: Mapping[str, ShipRecord], d_pools: Sequence[Pool], action: str
) -> int:
    """The defenders' dice: officers and marines lead, everyone else fighting follows, then the shotgun
    marines' second attack (SG-BRD-12, SG-CG-17/19)."""
    lead = sum(_men(defender, p) for p in d_pools if p.rank in ("officers", "marines"))
    rest = fighting(records, d_pools) - lead
    killed = _kills(log, "defender", defender, lead, leaders=True)
    killed += _kills(log, "defender", defender, rest, leaders=False)
    shotgun = _shotgun_clause(defender, action)
    marines = sum(_men(defender, p) for p in d_pools if p.rank == "marines")
    killed += _kills(log, "defender", defender, marines if shotgun else 0, leaders=True, shotgun=shotgun)
    return killed


def _boarders_fall_back(
    log: _Log, attackers: Sequence[ShipRecord], records: Mapping[str, ShipRecord], *, officers_only: bool
) -> tuple[dict[str, ShipRecord], list[str]]:
    """After the losses: a party with no men left is gone (SG-BRD-14); one with no leader left retreats to its
    own ship (SG-BRD-17, or SG-CREW-02 when only officers lead). Returns the records and who retreated."""
    records = dict(records)
    retreated: list[str] = []
    for ship in attackers:
        record = records[ship.name]
        if not record.boarders.men:
            records[ship.name] = evolve(record, boarders=NO_PARTY, boarding=None)
            log.note(
                f"{possessive(ship.name)} boarders are all down", ship=ship.name, clauses=["SG-BRD-14"], outcome="gone"
            )
        elif not has_leader(record.boarders, officers_only=officers_only):
            records[ship.name] = bring_home(record)
            retreated.append(ship.name)
            clause = "SG-CREW-02" if officers_only else "SG-BRD-17"
            log.note(
                f"{possessive(ship.name)} boarders have no "
                f"{'officer' if officers_only else 'officer or petty officer'} left",
                ship=ship.name,
                clauses=[clause],
                outcome="they retreat to their own ship",
            )
    return records, retreated


def boarding_round(
    attackers: Sequence[ShipRecord], defender: ShipRecord, *, roller: Roller, officers_only: bool = False
) -> BoardingRound:
    """One round of boarding combat on ``defender`` by the ``attackers``' boarders aboard it: every man rolls,
    then the casualties of both sides are taken together (SG-BRD-12..18)."""
    log = _Log(roller)
    records = {a.name: a for a in attackers} | {defender.name: defender}
    a_pools, d_pools = attacker_pools(attackers), defender_pools(defender)
    action = defender.name
    killed_by_attackers = _attackers_kill(log, attackers, action)
    killed_by_defenders = _defenders_kill(log, defender, records, d_pools, action)
    records = {name: _spent(record, action) for name, record in records.items()}
    before_a, before_d = fighting(records, a_pools), fighting(records, d_pools)
    records = _take_losses(log, "the boarders", records, a_pools, killed_by_defenders)
    records = _take_losses(log, f"{possessive(defender.name)} defenders", records, d_pools, killed_by_attackers)
    records, retreated = _boarders_fall_back(log, attackers, records, officers_only=officers_only)
    held = any(records[a.name].boarders.men for a in attackers)
    target = records[defender.name]
    secured = fighting(records, d_pools) == 0
    petty_officers = target.crew.petty_officers_aboard + target.party.petty_officers + target.boarders.petty_officers
    leaderless = target.officers_alive + petty_officers == 0
    taken = held and (secured or leaderless)
    if taken or not held:  # the action is over, one side beaten or gone: shotguns are reloaded (SG-CG-18)
        for name in records:
            records[name] = evolve(records[name], shotguns_spent=None)
    if taken:
        log.note(
            f"{defender.name} is taken",
            ship=defender.name,
            clauses=["SG-BRD-13"] if secured else ["SG-BRD-18"],
            outcome="deck secured: the crew surrenders" if secured else "no officer or petty officer left: surrenders",
        )
    return BoardingRound(
        records=records,
        happened=log.happened,
        attackers_lost=before_a - fighting(records, a_pools),
        defenders_lost=before_d - fighting(records, d_pools),
        taken=taken,
        retreated=tuple(retreated),
    )
