"""The turn's frame: the battle opened (the bombs carried, rolled), each turn begun with initiative and the secret
plots asked for (BR-SEQ-01/02, BR-MOV-01/02), the end of the turn with its standing crew postings, and the end of the
battle: a side with no ship able to fight loses, and the scenario's turn limit ends it (docs/barsoom.md section 9)."""

from __future__ import annotations

from battles.engine.decisions import WHOLE
from battles.engine.resolver import Context
from battles.engine.words import mid_sentence
from battles.rules.barsoom import cards, orders, victory
from battles.rules.barsoom.battle import Battle, crew_to_json
from battles.rules.barsoom.kinds import (
    CREW_POSTED,
    END_OF_TURN,
    FITTED_OUT,
    INITIATIVE,
    INITIATIVE_WON,
    PLOT,
    PLOT_CARDS,
)
from battles.rules.barsoom.tables import MOVEMENT


def open_battle(ctx: Context[Battle]) -> None:
    """Before the first turn: each ship whose bombs are a die rolls it, logged (BR-CLS-04/05/11)."""
    for ship in ctx.board.board.ships:
        bombs = ship.vessel.bombs
        if bombs.sides:
            face = ctx.roll(f"Bombs carried: {ship.name}", sides=bombs.sides, ships=[ship.name]).dice[0]
            ctx.emit(FITTED_OUT, {"ship": ship.name, "die": bombs.spec, "bombs": bombs.count(face)}, ships=[ship.name])
    start_turn(ctx)


def start_turn(ctx: Context[Battle]) -> None:
    """A new turn opens the Ship Phase (BR-SEQ-01): initiative, then every ship under control plots in secret."""
    ctx.begin_turn()
    ctx.begin_phase(INITIATIVE)
    roll_initiative(ctx)
    ctx.begin_phase(PLOT)
    for ship in orders.plotters(ctx.board):
        count = orders.cards_to_plot(ctx.board, ship.name)
        ctx.request(
            ship.side,
            PLOT_CARDS,
            rule="BR-MOV-01",
            default={"cards": list(orders.default_plot(ctx.board, ship.name)), "ram": False},
            secret=True,
            sealed=[WHOLE],  # each card is revealed as it is executed, never the plot at once (BR-SEQ-03)
            prompt=f"Plot {count} Movement Card{'s' if count != 1 else ''} for {ship.name}",
            ships=[ship.name],
        )


def roll_initiative(ctx: Context[Battle]) -> None:
    """Each side rolls a die, highest first; tied sides roll again, only they, until the order stands (BR-SEQ-02)."""
    die = MOVEMENT.whole("initiative_die")
    rounds: list[dict[str, int]] = []
    rolling = ctx.state.sides
    while rolling:
        rounds.append({side: ctx.roll(f"Initiative: {side}", sides=die).dice[0] for side in rolling})
        rolling = cards.tied(rounds)
    order = cards.initiative(rounds)
    assert order is not None  # no tie stands once no side rolls again
    ctx.emit(INITIATIVE_WON, {"order": list(order), "rounds": [dict(r) for r in rounds]})


def decided(ctx: Context[Battle]) -> bool:
    """End the battle once a story goal of the scenario's is met (victory.py: the side it names wins; goals met at
    once for different sides, a draw), or once at most one side has a ship able to fight: that side wins (none: a
    draw). True if over."""
    able = {ship.name: orders.able_to_fight(ctx.board, ship.name) for ship in ctx.board.board.ships}
    goals = victory.reached(ctx.board, able)
    if goals:
        ctx.end_battle(*victory.verdict(ctx.board, goals))
        return True
    fighting = orders.sides_in_the_fight(ctx.board, ctx.state.sides)
    if len(fighting) > 1:
        return False
    if fighting:
        name = mid_sentence(ctx.board.side_names.get(fighting[0], fighting[0]))
        ctx.end_battle(fighting[0], f"{name} alone have ships in the fight")
    else:
        ctx.end_battle(None, "no ship of either side is left in the fight")
    return True


def end_of_turn(ctx: Context[Battle]) -> None:
    """The turn's end: crews set to rights (a helmless ship puts a man at the helm; repairers with nothing left to
    mend go back on deck), then the battle ends at the turn limit, or the next turn begins."""
    ctx.begin_phase(END_OF_TURN)
    for ship in ctx.board.board.ships:
        crew = ctx.board.of(ship.name).crew
        if crew.helmless and crew.men and ship.in_play:
            posted = crew.to_helm(1)
            ctx.emit(
                CREW_POSTED, {"ship": ship.name, "to": "helm", "men": 1, "crews": {ship.name: crew_to_json(posted)}}
            )
        crew = ctx.board.of(ship.name).crew
        if crew.repair.men and not ctx.board.of(ship.name).condition.harms:
            back = crew.leave_repairs(crew.repair.men)
            data = {"ship": ship.name, "to": "deck", "men": crew.repair.men, "crews": {ship.name: crew_to_json(back)}}
            ctx.emit(CREW_POSTED, data)
    if decided(ctx):
        return
    if ctx.state.turn >= ctx.board.turns:
        ctx.end_battle(*_at_the_limit(ctx))
        return
    start_turn(ctx)


def _at_the_limit(ctx: Context[Battle]) -> tuple[str | None, str]:
    """The turn limit: the side with more ships still able to fight holds the sky; equal numbers are a draw."""
    counts = {
        side: sum(1 for s in ctx.board.ships_of(side) if orders.able_to_fight(ctx.board, s.name))
        for side in ctx.state.sides
    }
    best = max(counts.values())
    leaders = [side for side, n in counts.items() if n == best]
    if len(leaders) == 1:
        name = mid_sentence(ctx.board.side_names.get(leaders[0], leaders[0]))
        return leaders[0], f"the turns are played; {name} hold the sky with more ships in the fight"
    return None, "the turns are played with neither side the stronger"
