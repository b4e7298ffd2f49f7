"""The answer schema of each decision: the plot as one card for each of her options, chosen from the cards her deck
still holds (a Turn card also as held: no turn, BR-MOV-05), in the order she reveals them, whether her Aheads and
Reverses are rams (BR-MOV-01, BR-RAM-01) and, where her side reveals several ships, her place among them (BR-SEQ-03);
the fire orders as labelled targets (hull, crew or a bomb dropped); the crew orders as labelled tasks. The schema
says the shape; validate.py judges the plot."""

from __future__ import annotations

from battles.engine import answers
from battles.engine.answers import AnswerSchema, Field, Group, One, Option, Repeat
from battles.engine.decisions import DecisionRequest
from battles.engine.events import JSON
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.barsoom import orders
from battles.rules.barsoom.battle import Battle
from battles.rules.barsoom.kinds import (
    AT_BOMB,
    AT_CREW,
    BOARD,
    CARD_GLYPHS,
    CREW_ORDERS,
    CUT,
    FIRE_ORDERS,
    GRAPPLE,
    GUN_LOST,
    JUMP_ACROSS,
    PLACE,
    PLOT_CARDS,
    STAND_BY,
    THEN,
    TO_REPAIRS,
)

PLACES = ("First", "Second", "Third")


def answer_schema(state: BattleState[Battle], request: DecisionRequest) -> AnswerSchema:
    if request.kind == PLOT_CARDS:
        return _plot(state.board, request)
    if request.kind == GUN_LOST:
        return gun_lost_schema(state, request)
    if request.kind in (FIRE_ORDERS, CREW_ORDERS):
        label = fire_label if request.kind == FIRE_ORDERS else crew_label
        options = tuple(Option(o, label(o)) for o in request.options or ())
        root = One(key="choice", label=request.prompt, options=options, default=request.default, clause=request.rule)
        title = "Fire" if request.kind == FIRE_ORDERS else "Crew"
        return AnswerSchema(
            request.id, root, title=f"{title}: {request.ships[0]}", clause=request.rule, layout="options"
        )
    return answers.default_schema(request)


def _plot(battle: Battle, request: DecisionRequest) -> AnswerSchema:
    name = request.ships[0]
    held: list[Option] = []
    for card, left in orders.deck_of(battle, name).counts:
        if left:
            held.append(card_option(card, left))
        if left and card in orders.HOLDING:  # "up to 45 degrees": the same card, played as no turn (BR-MOV-05)
            glyph = CARD_GLYPHS.get(card, "")
            held.append(Option(orders.HOLDING[card], f"{card}, held", f"no turn, {left} left", glyph=glyph))
    count = orders.cards_to_plot(battle, name)
    # Each slot shows the default plot's card until one is chosen, so the form as it opens sends what the default
    # would, never a plot nobody chose (a select with nothing chosen would show, and send, the deck's first card).
    standing = orders.default_plot(battle, name)
    slots = tuple(
        One(
            key=f"card{n + 1}",
            label=f"{PLACES[n] if n < len(PLACES) else n + 1} card",
            options=tuple(held),
            default=standing[n],
            widget="cards",
        )
        for n in range(count)
    )
    ram = One(
        key="ram",
        label="Her Aheads and Reverses ram a ship they meet",
        options=(Option(False, "No: contact is a collision"), Option(True, "Yes: ram")),
        default=False,
        clause="BR-RAM-01",
    )
    cards = Repeat(key="cards", label="Movement Cards, in the order revealed", items=slots, low=count, high=count)
    fields: tuple[Field, ...] = (cards, ram)
    fleet = orders.revealers(battle, battle.ship(name).side)
    if len(fleet) > 1:  # her side's own order of reveal (BR-SEQ-03), the board's order unless chosen
        standing_place = f"As the scenario lists her ({_place_words(orders.default_place(battle, name), len(fleet))})"
        places = (
            Option(None, standing_place),
            *(Option(n, _place_words(n, len(fleet))) for n in range(1, len(fleet) + 1)),
        )
        place = One(
            key=PLACE,
            label="Her place in her side's order of reveal",
            options=places,
            default=None,
            widget="select",
            clause="BR-SEQ-03",
            hint="A ship placed goes before one left as the scenario lists her; two placed alike, as listed",
            optional=True,
        )
        fields = (*fields, place)
    root = Group(key="plot", label=f"{possessive(name)} plot", fields=fields, clause="BR-MOV-01")
    return AnswerSchema(request.id, root, title=f"Plot: {name}", clause=request.rule, layout="orders")


def _place_words(place: int, of: int) -> str:
    if place == 1:
        return "1: first"
    return f"{place}: last" if place == of else str(place)


def card_option(card: str, count: int) -> Option:
    """A Movement Card as a tile: its name, its glyph and how many of it her deck still holds (BR-CARD-10)."""
    return Option(card, card, f"{count} left", glyph=CARD_GLYPHS.get(card, ""))


def gun_lost_schema(state: BattleState[Battle], request: DecisionRequest) -> AnswerSchema:
    """Row 8's gun, her owner's choice of the guns she has left (BR-DMG-10), each by its weapon and whether it is
    ready to fire; the default her least gun."""
    name = request.ships[0]
    guns = {gun.key: gun for gun in state.board.of(name).guns_left()}
    options = []
    for key in request.options or ():
        gun = guns.get(str(key))
        waiting = gun is not None and gun.ready_on > state.turn
        words = f"{key}: {gun.weapon}" if gun else str(key)
        options.append(Option(key, words, f"not ready until turn {gun.ready_on}" if gun and waiting else ""))
    root = One(key="choice", label=request.prompt, options=tuple(options), default=request.default, clause=request.rule)
    return AnswerSchema(request.id, root, title=f"Gun lost: {name}", clause=request.rule, layout="options")


def fire_label(option: JSON) -> str:
    if not isinstance(option, dict) or not option.get("target"):
        return "Hold fire"
    target, aim, then = option["target"], option.get("at"), option.get(THEN)
    if aim == AT_BOMB:
        return f"Drop a bomb on {target}"
    first = f"Fire on {possessive(target)} crew" if aim == AT_CREW else f"Fire on {target}"
    if not isinstance(then, dict):
        return first
    second = f"{possessive(then['target'])} crew" if then.get("at") == AT_CREW else then["target"]
    return f"{first}; the guns left on {second}"


def crew_label(option: JSON) -> str:
    if not isinstance(option, dict):
        return str(option)
    order, other = option.get("order"), option.get("ship")
    words = {
        STAND_BY: "Stand by",
        TO_REPAIRS: "Men to the repairs",
        GRAPPLE: f"Throw grapples at {other}",
        CUT: f"Cut the grapples to {other}",
        BOARD: f"Board {other}",
        JUMP_ACROSS: f"Jump to {other}",
    }
    return words.get(str(order), str(order))
