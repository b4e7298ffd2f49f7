"""A ship's company in men: what her boarding parties stand for, so that a battle fought in parties can tell the
campaign, which counts men, what it cost her (docs/cloudships.md section 14).

Cloudships counts no men: a ship fights with boarding parties, one a ten fighting men (conversion.boarding_parties).
The campaign bridge writes each ship's company into her scenario entry from the record she came in with (setup.py
keeps it on the board); a ship that entered without one (a scenario's ship) is her class's complement. The men her
lost parties stand for are their share of her fighting men, taken post by post in the order of
data/campaign.json's ``crew.lost_from``: the same figures kill them on her record (campaign.crew_after) and count
them in the outcome (outcome.py), so the two agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battles.engine.events import JSONObject
from battles.engine.jsonread import DataFile, read_int, read_list, read_str
from battles.rules.cloudships_2023 import conversion
from galleons import catalog
from galleons.record import ShipRecord, ship_record_from_class

TABLES = DataFile(Path(__file__).resolve().parent / "data" / "campaign.json")


@dataclass(frozen=True)
class Post:
    """A post her fallen are taken from: its name on the record, what one man there is worth in seamen (a marine
    two, conversion.fighting_men) and the men at it when she came in."""

    name: str
    worth: int
    men: int


@dataclass(frozen=True)
class Company:
    """Her men when she came in: ``men`` every man of hers alive (the record's ``men_alive``), ``fighting`` her
    fighting men in seamen (what her panel's parties were counted from), ``posts`` where the men her lost parties
    stand for fall from, in order, and ``captain`` whether she has one."""

    men: int
    fighting: int
    posts: tuple[Post, ...]
    captain: bool

    def killed(self, parties: int, left: int) -> dict[str, int]:
        """The men killed at each post when ``left`` of her ``parties`` boarding parties are left: the share of her
        fighting men the lost parties stand for (``men_lost``), taken post by post, a man's worth at a time."""
        units = men_lost(self.fighting, parties, parties - left)
        found: dict[str, int] = {}
        for post in self.posts:
            if units <= 0:
                break
            men = min(post.men, -(-units // post.worth))
            if men:
                found[post.name] = men
            units -= men * post.worth
        return found

    def lost(self, parties: int, left: int) -> int:
        return sum(self.killed(parties, left).values())

    def to_json(self) -> JSONObject:
        return {
            "men": self.men,
            "fighting": self.fighting,
            "posts": [[post.name, post.worth, post.men] for post in self.posts],
            "captain": self.captain,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Company:
        posts = []
        for item in read_list(data["posts"]):
            name, worth, men = read_list(item)
            posts.append(Post(read_str(name), read_int(worth), read_int(men)))
        return cls(read_int(data["men"]), read_int(data["fighting"]), tuple(posts), bool(data["captain"]))


def men_lost(fighting: int, parties: int, lost: int) -> int:
    """The fighting men (in seamen) ``lost`` of her ``parties`` boarding parties stand for: their share, a half
    rounded up; every one of them with the last party."""
    if lost <= 0:
        return 0
    if lost >= parties:
        return fighting
    return (2 * fighting * lost + parties) // (2 * parties)


def of_record(record: ShipRecord) -> Company:
    """Her company as her record has it."""
    crew = record.crew
    posts = tuple(Post(str(post), int(worth), crew.count(str(post))) for post, worth in TABLES.get("crew", "lost_from"))
    return Company(record.men_alive, conversion.fighting_men(record), posts, crew.captain > 0)


def of_class(class_id: str | None) -> Company | None:
    """Her class's complement, for a ship that came in without a company of her own; None for a panel of no class
    the catalog builds (a scenario's own panel: its men are not known)."""
    found = next((each for each in catalog.ship_classes() if each.id == class_id), None)
    if found is None:
        return None
    try:
        return of_record(ship_record_from_class(found, name=found.name))
    except ValueError:  # a class with no figures: no crew to count
        return None
