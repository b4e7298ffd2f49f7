"""How an answer to each Cloudships decision is spelled, for the generic forms (battles/engine/answers.py): the
fire orders and the return fire as one choice per gun, hold fire or each target it may fire at now (with the
range, and the score it needs); every other decision the engine's default (its listed options)."""

from __future__ import annotations

from battles.engine import answers
from battles.engine.answers import AnswerSchema, Field, Group, One, Option, Repeat
from battles.engine.decisions import DecisionRequest
from battles.engine.state import BattleState
from battles.engine.words import possessive
from battles.rules.cloudships_2023 import firing, gunnery, panels, validate
from battles.rules.cloudships_2023.board import Board, Shot
from battles.rules.cloudships_2023.kinds import FIRE_ORDERS, RETURN_FIRE

TITLES = {FIRE_ORDERS: "Fire orders", RETURN_FIRE: "Return fire"}


def schema(state: BattleState[Board], request: DecisionRequest) -> AnswerSchema:
    if request.kind not in validate.FIRE_DECISIONS:
        return answers.default_schema(request)
    title = f"{TITLES[request.kind]}: {validate.firer_of(request)}"
    return AnswerSchema(request.id, fire_field(state.board, request), title=title, clause=request.rule, layout="fire")


def fire_field(board: Board, request: DecisionRequest) -> Field:
    """One slot per gun that may fire at someone: hold fire, or one of its targets."""
    firer = board.ship_named(validate.firer_of(request))
    legal = firing.legal_shots(board, firer, validate.targets_for(board, request))
    slots: list[Field] = []
    for number in dict.fromkeys(shot.gun for shot in legal):
        gun = firer.gun(number)
        options = [Option(shot.to_json(), shot_words(board, shot)) for shot in legal if shot.gun == number]
        label = f"{possessive(firer.name)} {gun.name} ({gun.number}, {gun.position})"
        slots.append(One(key=str(number), label=label, options=(Option(None, "Hold fire"), *options)))
    return Group(key="", fields=(Repeat(key="shots", items=tuple(slots)),), clause=request.rule)


def shot_words(board: Board, shot: Shot) -> str:
    """The target, the range and what the gun needs: "Locust, short range 3, hits on 3+"."""
    aim = firing.aim(board, shot)
    gun = board.ship_named(shot.ship).gun(shot.gun)
    if aim.band is None:
        return f"{shot.target}, range {aim.range}, hits without a roll ({gun.roll or '1d6'} damage)"
    superior = board.ship_named(shot.ship).panel.superior
    needed = gunnery.score_to_hit(gun.kind, short=aim.band == firing.SHORT, superior=superior)
    what = "crew hits" if gun.kind == panels.ANTI_PERSONNEL else "hits"
    return f"{shot.target}, {aim.band} range {aim.range}, {what} on {needed}+"
