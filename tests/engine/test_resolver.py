from dataclasses import replace

import pytest

from battles.engine import dice, events, resolver, state
from battles.engine.decisions import Rejection
from battles.engine.events import Event
from battles.engine.ruleset import OptionError
from tests.engine import toy

SEED = b"resolver"
RULES = toy.Bidding()


def start(rs=RULES, **options):
    return resolver.new_battle(rs, {"turns": 2}, seed_commitment=dice.commitment(SEED), options=options)


def opened():
    initial = start()
    return initial, resolver.resolve(RULES, initial, SEED)


def test_new_battle_fills_in_options_and_rolls_nothing():
    initial = start()
    assert initial.options == {"secret": True}
    assert (initial.seq, initial.turn, initial.phase, initial.sides) == (0, 0, "setup", ("a", "b"))
    assert initial.dice == {}
    with pytest.raises(OptionError, match="unknown"):
        start(fog=True)
    with pytest.raises(OptionError, match="not one of"):
        start(secret="sometimes")


def test_resolve_runs_until_both_sides_must_decide_at_once():
    _, first = opened()
    kinds = [e.kind for e in first.events]
    assert kinds == ["turn", "phase", "decision_requested", "decision_requested"]
    assert [e.seq for e in first.events] == [0, 1, 2, 3]
    assert [r.side for r in first.state.pending()] == ["a", "b"]
    assert first.state.pending("a")[0].options == (0, 1, 2)
    assert resolver.resolve(RULES, first.state, SEED).events == []  # waiting: nothing more to do


def test_secret_answer_is_hidden_until_the_batch_closes():
    _, first = opened()
    req_a, req_b = first.state.pending()
    after_a = resolver.submit(RULES, first.state, side="a", request_id=req_a.id, choice=2, seed=SEED)
    assert isinstance(after_a, resolver.Accepted)
    (decision,) = after_a.events
    assert (decision.kind, decision.visibility) == ("decision", "side:a")
    assert not decision.visible_to("b")
    assert decision.visible_to("a")
    assert decision.visible_to(None)
    assert state.redact(after_a.state, "b").answers == {}
    assert state.redact(after_a.state, "a").answers == {req_a.id: 2}
    assert after_a.state.pending() == [req_b]

    after_b = resolver.submit(RULES, after_a.state, side="b", request_id=req_b.id, choice=1, seed=SEED)
    assert isinstance(after_b, resolver.Accepted)
    revealed = next(e for e in after_b.events if e.kind == "decisions")
    assert revealed.visibility == "public"
    assert revealed.data["answers"] == {
        req_a.id: {"side": "a", "decision": "bid", "choice": 2},
        req_b.id: {"side": "b", "decision": "bid", "choice": 1},
    }
    assert [e.kind for e in after_b.events if e.kind in ("roll", "scored")] == ["roll", "scored"]
    assert after_b.state.turn == 2
    assert len(after_b.state.pending()) == 2


def test_open_answers_are_public():
    initial = start(secret=False)
    first = resolver.resolve(RULES, initial, SEED)
    req = first.state.pending()[0]
    outcome = resolver.submit(RULES, first.state, side="a", request_id=req.id, choice=1, seed=SEED)
    assert isinstance(outcome, resolver.Accepted)
    assert outcome.events[0].visibility == "public"


def play_out():
    initial, first = opened()
    current, log = first.state, list(first.events)
    while not current.over:
        req = current.pending()[0]
        outcome = resolver.submit(RULES, current, side=req.side, request_id=req.id, choice=2, seed=SEED)
        assert isinstance(outcome, resolver.Accepted)
        current, log = outcome.state, log + outcome.events
    return initial, current, log


def test_replay_rebuilds_the_state_without_the_seed():
    initial, final, log = play_out()
    assert final.over
    assert final.winner in ("a", "b")
    assert final.result == "most points"
    text = events.events_to_json(log)
    rebuilt = resolver.replay(RULES, initial, events.events_from_json(text))
    assert state.state_to_json(RULES, rebuilt) == state.state_to_json(RULES, final)
    assert rebuilt.dice == {"main": 2}
    assert sum(final.board.scores.values()) > 0


def test_folding_an_event_makes_a_new_state_and_leaves_the_old_one_as_it_was():
    """apply_event puts the folded board into the state it makes for the event (no second copy): each state is
    what the envelope's changes and the fold's board give, and the state folded into is never touched."""
    initial, _, log = play_out()
    current = initial
    for event in log:
        before = state.state_to_json(RULES, current)
        folded = resolver.apply_event(RULES, current, event)
        assert state.state_to_json(RULES, current) == before
        assert folded is not current
        assert folded.seq == current.seq + 1
        assert folded.board == RULES.apply(replace(folded, board=current.board), event)
        current = folded
    assert current.over


def test_replay_refuses_a_log_with_a_gap_or_out_of_order():
    initial, _, log = play_out()
    with pytest.raises(resolver.ReplayError, match="expecting event 1"):
        resolver.replay(RULES, initial, [log[0], log[2]])
    with pytest.raises(resolver.ReplayError):
        resolver.replay(RULES, initial, [log[1], log[0]])


def test_replay_refuses_dice_out_of_step_and_wrong_stamps():
    initial, _, log = play_out()
    roll_at = next(i for i, e in enumerate(log) if e.kind == "roll")
    forged = Event(**{**log[roll_at].__dict__, "data": {**log[roll_at].data, "counter": 5}})
    with pytest.raises(resolver.ReplayError, match="dice stream"):
        resolver.replay(RULES, initial, [*log[:roll_at], forged])
    restamped = Event(**{**log[1].__dict__, "turn": 7})
    with pytest.raises(resolver.ReplayError, match="stamped"):
        resolver.replay(RULES, initial, [log[0], restamped])


def test_engine_rejections_name_engine_clauses_and_change_nothing():
    _, first = opened()
    req = first.state.pending("a")[0]

    def attempt(**kwargs):
        args = {"side": "a", "request_id": req.id, "choice": 1, **kwargs}
        outcome = resolver.submit(RULES, first.state, seed=SEED, **args)
        assert isinstance(outcome, Rejection)
        return outcome.clause

    assert attempt(request_id="d999") == "ENG-DEC-01"
    assert attempt(side="b") == "ENG-DEC-02"
    assert attempt(choice=3) == "TOY-BID-01"  # not a listed option: the request's own clause
    assert attempt(choice={1, 2}) == "ENG-DEC-06"
    answered = resolver.submit(RULES, first.state, side="a", request_id=req.id, choice=1, seed=SEED)
    assert isinstance(answered, resolver.Accepted)
    again = resolver.submit(RULES, answered.state, side="a", request_id=req.id, choice=1, seed=SEED)
    assert isinstance(again, Rejection)
    assert again.clause == "ENG-DEC-03"
    assert first.state.answers == {}


def test_open_ended_decisions_are_judged_by_the_ruleset():
    rules = toy.Open()
    first = resolver.resolve(rules, start(rules), SEED)
    req = first.state.pending()[0]
    assert req.options is None
    assert req.default == 1
    refused = resolver.submit(rules, first.state, side="a", request_id=req.id, choice=12, seed=SEED)
    assert isinstance(refused, Rejection)
    assert str(refused) == "TOY-BID-02: a bid is a whole number from 1 to 9"
    done = resolver.submit(rules, first.state, side="a", request_id=req.id, choice=9, seed=SEED)
    assert isinstance(done, resolver.Accepted)
    assert done.state.over
    assert done.state.winner == "a"
    late = resolver.submit(rules, done.state, side="a", request_id=req.id, choice=9, seed=SEED)
    assert isinstance(late, Rejection)
    assert late.clause == "ENG-DEC-04"


def test_defaults_answer_for_a_side_past_its_deadline():
    _, first = opened()
    after = resolver.submit_defaults(RULES, first.state, side="b", seed=SEED)
    assert after.state.answers == {first.state.pending("b")[0].id: 0}
    assert after.state.pending() == first.state.pending("a")


def test_the_seed_must_match_the_commitment():
    with pytest.raises(resolver.EngineError, match="committed"):
        resolver.resolve(RULES, start(), b"another seed")


def test_a_ruleset_that_does_nothing_is_caught():
    rules = toy.Stalls()
    with pytest.raises(resolver.EngineError, match="emitted nothing"):
        resolver.resolve(rules, start(rules), SEED)


def test_a_ruleset_that_never_stops_is_caught(monkeypatch):
    monkeypatch.setattr(resolver, "MAX_EVENTS_PER_RESOLUTION", 200)
    rules = toy.Runaway()
    with pytest.raises(resolver.EngineError, match="more than 200 events"):
        resolver.resolve(rules, start(rules), SEED)


@pytest.mark.parametrize(
    ("mistake", "message"),
    [
        ("reserved", "engine event"),
        ("envelope", "envelope keys"),
        ("bad default", "default answer is illegal"),
        ("no side", "no side"),
    ],
)
def test_protocol_mistakes_are_engine_errors(mistake, message):
    rules = toy.Misbehaves()
    rules.mistake = mistake
    with pytest.raises(resolver.EngineError, match=message):
        resolver.resolve(rules, start(rules), SEED)


def test_event_data_must_be_json():
    rules = toy.Misbehaves()
    rules.mistake = "not json"
    with pytest.raises(TypeError):
        resolver.resolve(rules, start(rules), SEED)


def test_pick_chooses_with_one_logged_die():
    ctx = resolver.Context(RULES, start(), SEED)
    ships = ["Aphid", "Swiftwood", "Skylord"]
    chosen = ctx.pick("stray shot: which ship", ships, ships=ships)
    (roll,) = ctx.events
    assert roll.kind == "roll"
    assert roll.data["sides"] == 3
    assert chosen == ships[roll.data["dice"][0] - 1] == roll.data["outcome"]
    again = resolver.Context(RULES, start(), SEED)
    assert again.pick("stray shot: which ship", ships) == chosen
    assert ctx.state.dice == {"main": 1}
    with pytest.raises(resolver.EngineError, match="nothing to pick"):
        ctx.pick("empty", [])


def test_a_battle_is_driven_by_the_ruleset_and_version_it_recorded():
    initial = start()
    with pytest.raises(resolver.EngineError, match="toy-bidding 1, not toy-open 1"):
        resolver.resolve(toy.Open(), initial, SEED)
    with pytest.raises(resolver.EngineError, match="not toy-open"):
        resolver.replay(toy.Open(), initial, [])


def test_replay_refuses_answers_to_decisions_that_are_not_open():
    initial, _, log = play_out()
    answer_at = next(i for i, e in enumerate(log) if e.kind == "decision")
    again = Event(**{**log[answer_at].__dict__, "seq": answer_at + 1})
    with pytest.raises(resolver.ReplayError, match="not open"):
        resolver.replay(RULES, initial, [*log[: answer_at + 1], again])
    closing = next(e for e in log if e.kind == "decisions")
    early = Event(**{**closing.__dict__, "seq": answer_at + 1})
    with pytest.raises(resolver.ReplayError, match="unanswered"):
        resolver.replay(RULES, initial, [*log[: answer_at + 1], early])


class SealedNotes(toy.Open):
    """Side a answers {"bid": n, "note": text} in secret, with the note sealed."""

    key = "toy-sealed"

    def advance(self, ctx):
        if ctx.state.phase == "setup":
            ctx.begin_turn()
            ctx.begin_phase("bid")
            ctx.request("a", "bid", rule="TOY-BID-03", default={"bid": 1}, secret=True, sealed=["note"])
        else:
            ctx.end_battle("a", "done")

    def validate(self, state, request, choice):
        return None

    def apply(self, state, event):
        return state.board


def test_sealed_keys_stay_with_their_side_when_the_batch_is_revealed():
    rs = SealedNotes()
    initial = resolver.new_battle(rs, {}, seed_commitment=dice.commitment(SEED))
    opened = resolver.resolve(rs, initial, SEED).state
    (request,) = opened.pending()
    assert request.sealed == ("note",)
    assert request.to_json()["sealed"] == ["note"]
    assert type(request).from_json(request.to_json()) == request
    done = resolver.submit(rs, opened, side="a", request_id=request.id, choice={"bid": 2, "note": "x"}, seed=SEED)
    assert isinstance(done, resolver.Accepted)
    decision = next(e for e in done.events if e.kind == "decision")
    assert decision.visibility == "side:a"
    assert decision.data["choice"] == {"bid": 2, "note": "x"}
    revealed = next(e for e in done.events if e.kind == "decisions")
    assert revealed.visibility == "public"
    assert revealed.data["answers"][request.id]["choice"] == {"bid": 2}
    # Requests without sealed keys keep their old spelling, and sealed keys need a secret request.
    assert "sealed" not in replace(request, sealed=()).to_json()
    with pytest.raises(resolver.EngineError, match="secret"):
        resolver.resolve(OpenNotes(), initial, SEED)


class OpenNotes(SealedNotes):
    """Asks for a sealed key on an open (not secret) decision: a protocol mistake."""

    def advance(self, ctx):
        ctx.request("a", "bid", rule="TOY-BID-03", default={"bid": 1}, sealed=["note"])


class UmpiresGoAhead(SealedNotes):
    """The umpire's go-ahead before the bids: a request the umpire answers in web play (DecisionRequest.umpire)."""

    key = "toy-go-ahead"

    def advance(self, ctx):
        if ctx.state.phase == "setup":
            ctx.begin_turn()
            ctx.begin_phase("bid")
            ctx.request("a", "go ahead", rule="TOY-BID-04", options=["go"], umpire=True)
        else:
            ctx.end_battle("a", "done")


def test_an_umpires_decision_is_any_other_to_the_engine_and_old_requests_keep_their_spelling():
    rs = UmpiresGoAhead()
    initial = resolver.new_battle(rs, {}, seed_commitment=dice.commitment(SEED))
    started = resolver.resolve(rs, initial, SEED)
    (request,) = started.state.pending()
    assert (request.umpire, request.side, request.secret) == (True, "a", False)
    assert request.to_json()["umpire"] is True
    assert type(request).from_json(request.to_json()) == request
    # Answered under its side, as the log and the replay know every decision; public like the table's.
    done = resolver.submit(rs, started.state, side="a", request_id=request.id, choice="go", seed=SEED)
    assert isinstance(done, resolver.Accepted)
    assert next(e for e in done.events if e.kind == "decision").visibility == "public"
    log = [*started.events, *done.events]
    assert resolver.replay(rs, initial, log) == done.state
    assert resolver.rerun(rs, initial, log, SEED) == log
    # A request without the flag is spelled as before it existed, and a stored one without it loads as a side's.
    plain_request = replace(request, umpire=False)
    assert "umpire" not in plain_request.to_json()
    old = {key: value for key, value in request.to_json().items() if key != "umpire"}
    assert type(request).from_json(old) == plain_request


def test_the_umpires_decision_is_never_secret():
    class SecretGoAhead(UmpiresGoAhead):
        def advance(self, ctx):
            ctx.request("a", "go ahead", rule="TOY-BID-04", options=["go"], umpire=True, secret=True)

    initial = resolver.new_battle(SecretGoAhead(), {}, seed_commitment=dice.commitment(SEED))
    with pytest.raises(resolver.EngineError, match="never secret"):
        resolver.resolve(SecretGoAhead(), initial, SEED)
