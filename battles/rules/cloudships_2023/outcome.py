"""Who is in the battle, for the app's lists: each side's name and ships; and the typed outcome a campaign reads
(battles/engine/outcome.py): each ship's fate in the campaign's words, her captor, her men and her captain's fate,
and her record at the end (her board entry: the panel and what the battle did to it), from which a campaign bridge
brings a prize home (docs/cloudships.md sections 8 and 14). CM counts no men: her men are her company (company.py),
the campaign's record read into her scenario entry, or her class's complement."""

from __future__ import annotations

from dataclasses import dataclass

from battles.engine import outcome as engine_outcome
from battles.engine.events import JSON, JSONObject
from battles.engine.outcome import BattleOutcome, ShipOutcome
from battles.engine.ruleset import engine_result
from battles.engine.state import BattleState
from battles.rules.cloudships_2023 import company, kinds, victory
from battles.rules.cloudships_2023.board import Board, Ship


def roster(state: BattleState[Board]) -> list[JSONObject]:
    board = state.board
    entries: list[JSONObject] = []
    for side in state.sides:
        ships: list[JSON] = [
            {"name": ship.name, "class": ship.panel.class_id or ship.panel.name}
            for ship in board.ships
            if ship.side == side
        ]
        entries.append({"side": side, "name": board.side_names.get(side, side), "ships": ships})
    return entries


def tally(state: BattleState[Board]) -> JSONObject:
    """The battle in figures for the odds calculator: the engine's, and for each side the boxes her ships have
    crossed and how many of them are out of the fight (crashed, sunk, struck or off the map)."""
    sides: JSONObject = {}
    for side in state.sides:
        ships = [ship for ship in state.board.ships if ship.side == side]
        sides[side] = {
            "boxes_crossed": sum(ship.crossed for ship in ships),
            "ships_out": sum(0 if ship.flying else 1 for ship in ships),
        }
    return {**engine_result(state), "sides": sides}


# Her fate in the campaign's words: a ship that struck to boarders still aboard her is captured (CM-BRD-21); one
# that struck with no one left to take her has struck. A ship whose track ran out to Ground came down band by band
# to it (CM-ALT-02/03) and her men live (the record keeps them): the campaign's crash landing (SG-ALT-12); a ship
# destroyed outright (a scenario's or a later rule's) crashed and her men aboard went down with her.
FATES = {
    kinds.FLYING: engine_outcome.FIGHTING,
    kinds.CRASHED: engine_outcome.CRASH_LANDED,
    kinds.SUNK: engine_outcome.CRASHED,
    kinds.STRUCK: engine_outcome.STRUCK,
    kinds.LEFT: engine_outcome.ESCAPED,
}
# Her captain's fate by hers: Cloudships has no captain figure, so he is aboard all the battle and shares her
# fate, as SG's captain aboard does (results.json captains): never killed but with her ship, never away.
CAPTAINS = {
    engine_outcome.FIGHTING: engine_outcome.ABOARD,
    engine_outcome.ESCAPED: engine_outcome.ABOARD,
    engine_outcome.CRASH_LANDED: engine_outcome.CRASH_LANDED,
    engine_outcome.CRASHED: engine_outcome.KILLED,
    engine_outcome.STRUCK: engine_outcome.CAPTURED,
    engine_outcome.CAPTURED: engine_outcome.CAPTURED,
}
TAKEN = (engine_outcome.STRUCK, engine_outcome.CAPTURED)


def battle_outcome(initial: BattleState[Board], final: BattleState[Board]) -> BattleOutcome:
    return BattleOutcome.of(final, tuple(ship_outcome(final.board, ship, final.winner) for ship in final.board.ships))


def ship_outcome(board: Board, ship: Ship, winner: str | None = None) -> ShipOutcome:
    """One ship: a prize goes over to her captor's side, ``captured_by`` that side and ``detail["taken_by"]`` the
    ship whose boarders took her. A noncombatant (a campaign's prize in tow, victory.noncombatants) still flying
    when another side has won has struck: she heaves to and waits to be taken, as SG-SCN-17 has it."""
    captor = board.ship_named(ship.taken_by) if ship.taken_by else None
    hove_to = ship.flying and winner not in (None, ship.side) and ship.name in victory.noncombatants(board)
    fate = engine_outcome.CAPTURED if captor else engine_outcome.STRUCK if hove_to else FATES[ship.status]
    men = Men.of(ship, fate)
    return ShipOutcome(
        name=ship.name,
        side_at_start=ship.side,
        side_at_end=captor.side if captor else ship.side,
        fate=fate,
        captured_by=captor.side if captor else None,
        class_id=ship.panel.class_id,
        crew_at_start=men.at_start,
        crew_lost=men.lost,
        prisoners=men.prisoners,
        captain=men.captain,
        record=ship.to_json(),
        detail={"taken_by": captor.name} if captor else {},
    )


@dataclass(frozen=True)
class Men:
    """Her men in the outcome (docs/cloudships.md section 14): at the start, her company's; lost, the men her
    boarding parties lost stand for (company.py: the men her record loses, campaign.crew_after), and with a ship
    destroyed outright every man left aboard; prisoners, her men alive when she struck or was taken. None is ever
    away: Cloudships' boarders fight from their own deck and no prize crew crosses. Her captain: ``CAPTAINS``,
    None for a ship with none (or whose men are not known: a scenario's own panel)."""

    at_start: int = 0
    lost: int = 0
    prisoners: int = 0
    captain: str | None = None

    @classmethod
    def of(cls, ship: Ship, fate: str) -> Men:
        found = ship.company or company.of_class(ship.panel.class_id)
        if found is None:
            return cls()
        killed = found.lost(ship.panel.boarding_parties, ship.parties)
        alive = found.men - killed
        went_down = alive if fate == engine_outcome.CRASHED else 0
        return cls(
            at_start=found.men,
            lost=killed + went_down,
            prisoners=alive if fate in TAKEN else 0,
            captain=CAPTAINS[fate] if found.captain else None,
        )
