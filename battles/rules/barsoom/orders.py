"""What each ship may be ordered to do this turn, read off the board: how many cards she plots and from which deck,
whether she is out of control, which plots are legal, the targets her guns and bombs reach and the crew orders open
to her; and who is still able to fight. Pure: the phases, the validator, the answer schemas and the AI all ask here,
so they never disagree (docs/barsoom.md section 9)."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from battles.engine import hexgrid
from battles.engine.events import JSONObject
from battles.rules.barsoom import boarding, bombs, cards, grappled, weapons
from battles.rules.barsoom.battle import Battle, Gun
from battles.rules.barsoom.board import Ship
from battles.rules.barsoom.cards import Allowance, Breach, Deck, Plotted
from battles.rules.barsoom.kinds import (
    AT_BOMB,
    AT_CREW,
    AT_HULL,
    BOARD,
    CUT,
    GRAPPLE,
    JUMP_ACROSS,
    STAND_BY,
    STOP,
    THEN,
    TO_REPAIRS,
    TURN_LEFT,
    TURN_LEFT_HELD,
    TURN_RIGHT,
    TURN_RIGHT_HELD,
)
from battles.rules.barsoom.setup import ARMAMENT

# --- who is in the fight ---------------------------------------------------------------------------------------


def able_to_fight(battle: Battle, name: str) -> bool:
    """Still in the fight: on the map, not a wreck (BR-DMG-12), not crashed (BR-LAND-04) nor stranded on the ground
    (BR-DMG-06), with men aboard. A ship taken is her captors' now (ship.side), so she fights for them."""
    ship, entry = battle.ship(name), battle.of(name)
    stuck = ship.crashed or entry.condition.stranded
    return ship.in_play and not entry.condition.wrecked and not stuck and entry.crew.aboard > 0


def sides_in_the_fight(battle: Battle, sides: tuple[str, ...]) -> tuple[str, ...]:
    """The sides with a ship still able to fight: a side with none has lost (docs/barsoom.md section 9)."""
    return tuple(side for side in sides if any(able_to_fight(battle, s.name) for s in battle.ships_of(side)))


# --- the plot ----------------------------------------------------------------------------------------------------


def deck_of(battle: Battle, name: str) -> Deck:
    """Her deck as it stands: the full deck of her class less what damage discarded (BR-CARD-10)."""
    return Deck.full(battle.ship(name).ship_class).without(battle.of(name).condition.discarded)


def cards_to_plot(battle: Battle, name: str) -> int:
    """Cards she plays this turn: her options less Control damage (BR-DMG-08, BR-MOV-14), none for a grappled ship
    that follows and one shared between grappled ships of a size (BR-GRAP-08/10), none for a ship that cannot move
    at all (off the map, a wreck, crashed) or has no one aboard."""
    ship, entry = battle.ship(name), battle.of(name)
    if not ship.in_play or ship.crashed or entry.condition.wrecked or entry.crew.aboard == 0:
        return 0
    return grappled.options_a_turn(battle.board, name, entry.condition.options)


def out_of_control(battle: Battle, name: str) -> bool:
    """Steering gone (every Turn card discarded) or no one at the helm (BR-OOC-01)."""
    return cards.out_of_control(deck_of(battle, name), helm_manned=not battle.of(name).crew.helmless)


def plotters(battle: Battle) -> tuple[Ship, ...]:
    """The ships asked for a plot this turn, in the board's order: those with cards to play and under control."""
    return tuple(s for s in battle.board.ships if cards_to_plot(battle, s.name) and not out_of_control(battle, s.name))


def adrift(battle: Battle) -> tuple[Ship, ...]:
    """The ships out of control with cards to play: their options are drawn at random (BR-OOC-02)."""
    return tuple(s for s in battle.board.ships if cards_to_plot(battle, s.name) and out_of_control(battle, s.name))


def allowance(battle: Battle, name: str) -> Allowance:
    ship = battle.ship(name)
    return replace(Allowance.of(ship.ship_class), options=cards_to_plot(battle, name))


def judge(battle: Battle, name: str, plot: tuple[str, ...], *, ignore_one: bool) -> Plotted | Breach:
    """Her plot taken or refused with its clause (cards.judge); a grappled ship's shared option is counted under
    BR-GRAP-08. A Turn card held (played as no turn, BR-MOV-05) is judged as the Turn card it is."""
    wanted = cards_to_plot(battle, name)
    if len(plot) != wanted and len(grappled.group(battle.board, name)) > 1:
        return Breach(None, "BR-GRAP-08", f"grappled, she plays {wanted} card{'s' if wanted != 1 else ''} a turn")
    return cards.judge(cards.cards_of(plot), deck_of(battle, name), allowance(battle, name), ignore_one=ignore_one)


HOLDING = {TURN_RIGHT: TURN_RIGHT_HELD, TURN_LEFT: TURN_LEFT_HELD}


def held(plot: tuple[str, ...], slot: int) -> tuple[str, ...]:
    """The plot with the Turn card at ``slot`` played as no turn (BR-MOV-05); any other card is left as it is."""
    return tuple(HOLDING.get(card, card) if n == slot else card for n, card in enumerate(plot))


def default_plot(battle: Battle, name: str) -> tuple[str, ...]:
    """Hold her where she is: a Stop for every card (the deck's three Stops are never discarded)."""
    return (STOP,) * cards_to_plot(battle, name)


def legal_plots(battle: Battle, name: str) -> tuple[tuple[str, ...], ...]:
    """Every plot she may make that breaks no restriction, in the deck's order: what an AI chooses from."""
    deck, allowed = deck_of(battle, name), allowance(battle, name)
    held = [card for card, count in deck.counts if count]
    # every product has the number of cards she plays, so judge's grappled-count check never applies: the deck and
    # the allowance are read once, not once a plot (the AI asks this for every ship every turn)
    plots = product(held, repeat=allowed.options)
    return tuple(plot for plot in plots if isinstance(cards.judge(plot, deck, allowed, ignore_one=False), Plotted))


# --- the order of reveal (BR-SEQ-03) ---------------------------------------------------------------------------


def revealers(battle: Battle, side: str) -> tuple[str, ...]:
    """Her side's ships with cards to reveal this turn (plotted or drawn at random), in the board's order: the
    places a side's order of reveal is made of."""
    return tuple(ship.name for ship in battle.ships_of(side) if cards_to_plot(battle, ship.name))


def default_place(battle: Battle, name: str) -> int:
    """Her place in her side's order of reveal when her side names none: the board's (the scenario's) order."""
    fleet = revealers(battle, battle.ship(name).side)
    return fleet.index(name) + 1 if name in fleet else len(fleet) + 1


# --- fire --------------------------------------------------------------------------------------------------------


def apart(firer: Ship, target: Ship) -> tuple[int, int]:
    """Hexes between them and the target's levels above the firer (below when negative)."""
    return hexgrid.distance(firer.hex, target.hex), target.level - firer.level


def guns_bearing(battle: Battle, firer: str, target: str, aim: str, turn: int) -> tuple[Gun, ...]:
    """Her guns ready this turn (reloaded, not jammed, not lost) that reach ``target``'s hull or crew within their
    elevation (BR-WPN-02) and can harm what they aim at (BR-WPN-17)."""
    shooter, mark = battle.ship(firer), battle.ship(target)
    hexes, levels = apart(shooter, mark)
    small = mark.ship_class.extra_ascend
    return tuple(
        gun
        for gun in battle.of(firer).guns_left()
        if gun.ready_on <= turn
        and weapons.refusal(
            weapons.weapon(gun.weapon), hexes=hexes, levels=levels, at_ship=aim == AT_HULL, small_craft=small
        )
        is None
    )


def can_bomb(battle: Battle, firer: str, target: str) -> bool:
    """A bomb aboard and the target straight below her (BR-BOMB-03)."""
    hexes, levels = apart(battle.ship(firer), battle.ship(target))
    return battle.of(firer).bombs > 0 and bombs.drop_refusal(hexes=hexes, levels=levels) is None


def can_fire(battle: Battle, name: str) -> bool:
    """She is on the map, not a wreck, with men aboard to work her guns."""
    ship, entry = battle.ship(name), battle.of(name)
    return ship.in_play and not entry.condition.wrecked and entry.crew.aboard > 0


def targets(battle: Battle, name: str, turn: int) -> list[JSONObject]:
    """Her fire orders: hold fire; one enemy ship to fire on, at her hull, her crew or with a bomb dropped; or, where
    some of her guns would stand idle, the rest of them on a second target (``then``: the light guns that cannot
    harm a big ship's hull on her crew, say). The single orders come first, each split after them."""
    found: list[JSONObject] = [{"target": None}]
    if not can_fire(battle, name):
        return found
    side = battle.ship(name).side
    aims: list[JSONObject] = []
    for enemy in battle.board.ships:
        if enemy.side == side or not enemy.in_play:
            continue
        if guns_bearing(battle, name, enemy.name, AT_HULL, turn):
            aims.append({"target": enemy.name, "at": AT_HULL})
        if battle.of(enemy.name).crew.aboard and guns_bearing(battle, name, enemy.name, AT_CREW, turn):
            aims.append({"target": enemy.name, "at": AT_CREW})
        if can_bomb(battle, name, enemy.name):
            aims.append({"target": enemy.name, "at": AT_BOMB})
    found.extend(aims)
    guns = [a for a in aims if a["at"] != AT_BOMB]
    for first, then in product(guns, guns):
        split = {**first, THEN: then}
        if first != then and len(guns_for(battle, name, split, turn)) > len(guns_for(battle, name, first, turn)):
            found.append(split)
    return found


def guns_for(battle: Battle, firer: str, order: JSONObject, turn: int) -> tuple[tuple[Gun, str, str], ...]:
    """Each gun her fire order fires, with its target and aim, in the order they fire: every gun that bears on the
    first target, then those left that bear on the second (``then``). A bomb is no gun's."""
    fired: list[tuple[Gun, str, str]] = []
    parts = (order, order.get(THEN))
    for part in (p for p in parts if isinstance(p, dict) and isinstance(p.get("target"), str)):
        target, aim = str(part["target"]), str(part.get("at"))
        if aim == AT_BOMB or not battle.ship(target).in_play:
            continue
        taken = {gun.key for gun, _, _ in fired}
        bearing = guns_bearing(battle, firer, target, aim, turn)
        fired.extend((gun, target, aim) for gun in bearing if gun.key not in taken)
    return tuple(fired)


# --- the crew ----------------------------------------------------------------------------------------------------


def grapplers(battle: Battle, name: str) -> int:
    """Men a grapple or cut order sends to the grapnels: a stand-in number, or all on deck if fewer."""
    return min(battle.of(name).crew.men, ARMAMENT.whole("grapplers"))


def repairers(battle: Battle, name: str) -> int:
    """Men a repair order sends: a share of her men on deck, at least one."""
    men = battle.of(name).crew.men
    return min(men, max(1, men // ARMAMENT.whole("repair_share")))


def crossing(battle: Battle, name: str, other: str) -> str:
    """How her men would get aboard ``other`` (boarding.way_across)."""
    hexes, rise = apart(battle.ship(name), battle.ship(other))
    return boarding.way_across(hexes, rise, grappled=other in battle.ship(name).grappled)


def crew_orders(battle: Battle, name: str) -> list[JSONObject]:
    """Her crew orders: stand by; men to the repairs while a repairable result stands (BR-REP-02); grapple an enemy
    within throw or cut a grapple (BR-GRAP-05/06); board an enemy her men can cross to freely or by abseil
    (BR-GRAP-01/02/11); jump to an enemy no way across reaches but a die of inches could (BR-GRAP-03/04)."""
    found: list[JSONObject] = [{"order": STAND_BY}]
    ship, entry = battle.ship(name), battle.of(name)
    if not ship.in_play or entry.crew.men == 0:
        return found
    if entry.condition.harms and not entry.condition.wrecked:
        found.append({"order": TO_REPAIRS})
    for other in battle.board.ships:
        if other.name == ship.name or not other.in_play:
            continue
        held = other.name in ship.grappled or ship.name in other.grappled
        if held:
            found.append({"order": CUT, "ship": other.name})
        if other.side == ship.side:
            continue
        hexes, rise = apart(ship, other)
        if not held and boarding.within_throw(hexes, rise):
            found.append({"order": GRAPPLE, "ship": other.name})
        if not battle.of(other.name).crew.aboard:
            continue
        if crossing(battle, name, other.name) != boarding.JUMP:
            found.append({"order": BOARD, "ship": other.name})
        elif boarding.can_jump(hexes, rise):
            found.append({"order": JUMP_ACROSS, "ship": other.name})
    return found
