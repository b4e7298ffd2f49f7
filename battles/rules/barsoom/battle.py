"""The whole board of a Barsoom battle: the ships on the map as movement knows them (board.py), and beside each what
damage, the crew stand-in and her guns keep (her ``Aboard``), this turn's initiative and plots, the turn limit.

Frozen; the fold (fold.py) makes a new one for every event. The plots are secret until each card is revealed: the
board holds them whole (folded from each side's own decision event), and ``view`` trims another side's cards not
yet revealed, so a side's board view never shows what the rules have not shown it (BR-MOV-02).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from battles.engine.events import JSON, JSONObject
from battles.engine.frozen import evolve
from battles.engine.jsonread import read_int, read_list, read_object, read_opt_int, read_str
from battles.rules.barsoom.board import Board, Ship
from battles.rules.barsoom.crew import Boarders, Crew, RepairCrew
from battles.rules.barsoom.damage import Condition, Harm, new_turn
from battles.rules.barsoom.goals import Goal


@dataclass(frozen=True)
class Gun:
    """One gun aboard: ``key`` names it on her sheet ("heavy 1"), ``weapon`` is the weapons list's name for it;
    she may fire it from turn ``ready_on`` (a heavy gun reloading, an automatic jammed: BR-WPN-11/15)."""

    key: str
    weapon: str
    ready_on: int = 0

    def to_json(self) -> JSONObject:
        return {"key": self.key, "weapon": self.weapon, "ready_on": self.ready_on}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Gun:
        return cls(read_str(data["key"]), read_str(data["weapon"]), read_int(data["ready_on"]))


@dataclass(frozen=True)
class Aboard:
    """What a ship carries beside her place on the map: her damage (damage.Condition), her crew (crew.Crew), her
    guns and bombs, the side she began on and the men she began with (for the outcome)."""

    condition: Condition
    crew: Crew
    guns: tuple[Gun, ...]
    bombs: int
    first_side: str
    crew_at_start: int

    def guns_left(self) -> tuple[Gun, ...]:
        """Her guns less those row 8 took (BR-DMG-10)."""
        return tuple(gun for gun in self.guns if gun.key not in self.condition.weapons_lost)

    def to_json(self) -> JSONObject:
        return {
            "condition": condition_to_json(self.condition),
            "crew": crew_to_json(self.crew),
            "guns": [gun.to_json() for gun in self.guns],
            "bombs": self.bombs,
            "first_side": self.first_side,
            "crew_at_start": self.crew_at_start,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Aboard:
        return cls(
            condition=condition_from_json(read_object(data["condition"])),
            crew=crew_from_json(read_object(data["crew"])),
            guns=tuple(Gun.from_json(read_object(g)) for g in read_list(data["guns"])),
            bombs=read_int(data["bombs"]),
            first_side=read_str(data["first_side"]),
            crew_at_start=read_int(data["crew_at_start"]),
        )


@dataclass(frozen=True)
class Plot:
    """A ship's cards this turn, in the order she reveals them. ``ram``: her Aheads and Reverses are played as rams
    (declared with the plot, BR-RAM-01); ``ignored``: the card that breaks a restriction under the optional rule
    (BR-OPT-02), or None; ``forced``: an out-of-control ship's random options, the last card her forced Descend
    (BR-OOC-02), which nobody chose and the other sides may see at once; ``place``: her place in her side's order
    of reveal as her side chose it (BR-SEQ-03), None for the board's order. A card may be a Turn card held
    (cards.played)."""

    cards: tuple[str, ...]
    ram: bool = False
    ignored: int | None = None
    forced: bool = False
    place: int | None = None

    def to_json(self) -> JSONObject:
        data: JSONObject = {"cards": list(self.cards), "ram": self.ram, "ignored": self.ignored, "forced": self.forced}
        if self.place is not None:  # written only when chosen, so a battle stored before keeps its spelling
            data["place"] = self.place
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plot:
        cards = tuple(read_str(card) for card in read_list(data["cards"]))
        place = read_opt_int(data.get("place"))
        return cls(cards, bool(data["ram"]), read_opt_int(data["ignored"]), bool(data["forced"]), place)


@dataclass(frozen=True)
class Battle:
    """The board of a battle. ``aboard`` and ``plots`` are by ship name; ``revealed``: how many of her plotted cards
    each ship has shown; ``initiative``: this turn's order of the sides (BR-SEQ-02), empty before it is rolled;
    ``goals``: the scenario's story victory conditions (victory.py)."""

    board: Board
    aboard: Mapping[str, Aboard]
    turns: int
    title: str = ""
    side_names: Mapping[str, str] = field(default_factory=dict)
    initiative: tuple[str, ...] = ()
    plots: Mapping[str, Plot] = field(default_factory=dict)
    revealed: Mapping[str, int] = field(default_factory=dict)
    fire_orders: Mapping[str, JSONObject] = field(default_factory=dict)
    crew_orders: Mapping[str, JSONObject] = field(default_factory=dict)
    volleys: int = 0  # ships that have had their turn to fire, when the fire step waits for an owner (row 8)
    goals: tuple[Goal, ...] = ()

    def ship(self, name: str) -> Ship:
        return self.board.ship_named(name)

    def of(self, name: str) -> Aboard:
        return self.aboard[name]

    def ships_of(self, side: str) -> tuple[Ship, ...]:
        return tuple(ship for ship in self.board.ships if ship.side == side)

    def with_board(self, board: Board) -> Battle:
        return replace(self, board=board)

    def with_aboard(self, name: str, **changes: Any) -> Battle:
        return replace(self, aboard={**self.aboard, name: evolve(self.aboard[name], **changes)})

    def next_turn(self) -> Battle:
        """A new turn: ways counted afresh, the turn's 10s forgotten (BR-DMG-12), grapplers back on deck
        (BR-GRAP-07), control judged afresh (BR-OOC-01), last turn's initiative, plots and orders gone."""
        aboard = {
            name: evolve(entry, condition=new_turn(entry.condition), crew=entry.crew.stand_down())
            for name, entry in self.aboard.items()
        }
        board = self.board.new_turn()
        board = board.with_ships(replace(ship, out_of_control=False) for ship in board.ships)
        return Battle(board, aboard, self.turns, self.title, self.side_names, goals=self.goals)

    def to_json(self) -> JSONObject:
        return {
            "title": self.title,
            "turns": self.turns,
            "side_names": dict(self.side_names),
            "board": self.board.to_json(),
            "aboard": {name: entry.to_json() for name, entry in self.aboard.items()},
            "initiative": list(self.initiative),
            "plots": {name: plot.to_json() for name, plot in self.plots.items()},
            "revealed": dict(self.revealed),
            "fire_orders": dict(self.fire_orders),
            "crew_orders": dict(self.crew_orders),
            **({"volleys": self.volleys} if self.volleys else {}),
            **({"goals": [goal.to_json() for goal in self.goals]} if self.goals else {}),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Battle:
        battle = read_object(data)
        return cls(
            board=Board.from_json(battle["board"]),
            aboard={name: Aboard.from_json(read_object(v)) for name, v in read_object(battle["aboard"]).items()},
            turns=read_int(battle["turns"]),
            title=read_str(battle["title"]),
            side_names={k: read_str(v) for k, v in read_object(battle["side_names"]).items()},
            initiative=tuple(read_str(s) for s in read_list(battle["initiative"])),
            plots={name: Plot.from_json(read_object(v)) for name, v in read_object(battle["plots"]).items()},
            revealed={name: read_int(v) for name, v in read_object(battle["revealed"]).items()},
            fire_orders={name: read_object(v) for name, v in read_object(battle["fire_orders"]).items()},
            crew_orders={name: read_object(v) for name, v in read_object(battle["crew_orders"]).items()},
            volleys=read_int(battle.get("volleys", 0)),
            goals=tuple(Goal.from_json(read_object(g)) for g in read_list(battle.get("goals", []))),
        )

    def view(self, side: str | None) -> JSONObject:
        """The board as ``side`` sees it (None: the umpire): another side's plotted cards only as far as they are
        revealed, her ram declaration once a card of hers is out. Everything else on the table is open."""
        data = self.to_json()
        plots: JSONObject = {}
        for name, plot in self.plots.items():
            if side is None or plot.forced or self.ship(name).side == side:
                plots[name] = plot.to_json()
                continue
            shown = self.revealed.get(name, 0)
            plots[name] = {"cards": list(plot.cards[:shown]), "hidden": len(plot.cards) - shown}
        data["plots"] = plots
        data["ships"] = [self._piece(ship) for ship in self.board.ships]
        data["cols"], data["rows"] = self.board.cols, self.board.rows
        return data

    def _piece(self, ship: Ship) -> JSONObject:
        """A ship as the map and the sheets read her: the generic keys (name, side, hex, facing, altitude) and
        what her sheet shows."""
        entry = self.aboard[ship.name]
        return {
            "name": ship.name,
            "side": ship.side,
            "hex": list[JSON](ship.hex.to_json()),
            "facing": ship.facing,
            "altitude": ship.level,
            "class": ship.ship_class.key,
            "vessel": ship.vessel.name,
            "speed": ship.speed,
            "landed": ship.landed,
            "crashed": ship.crashed,
            "wrecked": entry.condition.wrecked,
            "left_map": ship.left_map,
            "out_of_control": ship.out_of_control,
            "grappled": list(ship.grappled),
            "fires": entry.condition.fires,
            "bombs": entry.bombs,
        }


# --- JSON for the slices' records (damage.Condition, crew.Crew), which keep no spelling of their own --------------


def condition_to_json(condition: Condition) -> JSONObject:
    data: JSONObject = {
        "small_craft": condition.small_craft,
        "harms": [{"row": h.row, "cards": list(h.cards), "stranded": h.stranded} for h in condition.harms],
        "weapons_lost": list(condition.weapons_lost),
        "tens_this_turn": condition.tens_this_turn,
        "wrecked": condition.wrecked,
    }
    if condition.weapons_owed:  # written only when owed, so a stored battle's events keep their spelling
        data["weapons_owed"] = condition.weapons_owed
    return data


def condition_from_json(data: Mapping[str, Any]) -> Condition:
    harms = tuple(
        Harm(read_int(h["row"]), tuple(read_str(c) for c in read_list(h["cards"])), bool(h["stranded"]))
        for h in (read_object(item) for item in read_list(data["harms"]))
    )
    return Condition(
        small_craft=bool(data["small_craft"]),
        harms=harms,
        weapons_lost=tuple(read_str(w) for w in read_list(data["weapons_lost"])),
        tens_this_turn=read_int(data["tens_this_turn"]),
        wrecked=bool(data["wrecked"]),
        weapons_owed=read_int(data.get("weapons_owed", 0)),
    )


def crew_to_json(crew: Crew) -> JSONObject:
    return {
        "men": crew.men,
        "helm": crew.helm,
        "grapplers": crew.grapplers,
        "repair": {"men": crew.repair.men, "sixes": crew.repair.sixes},
        "away": [{"aboard": party.aboard, "men": party.men} for party in crew.away],
    }


def crew_from_json(data: Mapping[str, Any]) -> Crew:
    repair = read_object(data["repair"])
    return Crew(
        men=read_int(data["men"]),
        helm=read_int(data["helm"]),
        grapplers=read_int(data["grapplers"]),
        repair=RepairCrew(read_int(repair["men"]), read_int(repair["sixes"])),
        away=tuple(
            Boarders(read_str(p["aboard"]), read_int(p["men"]))
            for p in (read_object(i) for i in read_list(data["away"]))
        ),
    )
