"""The fleet list (``data/fleet.json``, described in ``data/README.md``): real ships of 1850-1890 with their
particulars and the sources they come from, each rated by Appendix A on demand. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from battles.engine.jsonread import read_json_object, read_list, read_object, read_str
from battles.rules.ironclads.appendix_a import Rating, rate
from battles.rules.ironclads.cards import DataCard
from battles.rules.ironclads.particulars import Particulars, from_json

FLEET = Path(__file__).resolve().parent / "data" / "fleet.json"


@dataclass(frozen=True, slots=True)
class Source:
    title: str
    url: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """A ship of the list: her particulars, the battles she fought in (as the list groups them), her sources and
    what is uncertain about her figures."""

    particulars: Particulars
    battles: tuple[str, ...]
    sources: tuple[Source, ...]
    note: str

    @property
    def name(self) -> str:
        return self.particulars.name

    def rating(self) -> Rating:
        return rate(self.particulars)


def _entry(data: dict[str, object]) -> Entry:
    sources = tuple(
        Source(read_str(s["title"]), read_str(s.get("url", "")))
        for s in (read_object(x) for x in read_list(data["source"]))
    )
    return Entry(
        particulars=from_json(data),
        battles=tuple(read_str(b) for b in read_list(data.get("battles", []))),
        sources=sources,
        note=read_str(data.get("note", "")),
    )


@cache
def fleet() -> tuple[Entry, ...]:
    return tuple(_entry(read_object(ship)) for ship in read_list(read_json_object(FLEET)["ships"]))


def find(name: str) -> Entry:
    """A ship of the list by name, any case; a KeyError naming the near misses otherwise."""
    wanted = name.strip().casefold()
    for entry in fleet():
        if entry.name.casefold() == wanted:
            return entry
    near = [e.name for e in fleet() if wanted in e.name.casefold()]
    if len(near) == 1:
        return find(near[0])
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    raise KeyError(f"no ship {name!r} in the fleet list{hint}")


def card_for(name: str) -> DataCard:
    """The Data Card Appendix A gives a ship of the list (IC-SEQ-03: every card prepared before the game), so a
    scenario may name her (``"fleet": NAME``) instead of giving her card inline. A KeyError as ``find`` gives one."""
    return _card(find(name).name)


@cache
def _card(name: str) -> DataCard:
    return find(name).rating().card
