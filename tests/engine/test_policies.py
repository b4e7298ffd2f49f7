import pytest

from battles.engine import dice, events, policies, resolver, state
from battles.rules.duel.ruleset import DUEL
from tests.engine import toy

SEED = b"policies"


def start(rs, scenario=None):
    return resolver.new_battle(rs, scenario or {"turns": 3}, seed_commitment=dice.commitment(SEED))


def test_random_policy_is_deterministic_and_picks_legal_candidates():
    rs = DUEL
    first = resolver.resolve(rs, start(rs, rs.example_scenarios()[0]), SEED)
    request = first.state.pending("red")[0]
    policy = policies.RandomPolicy(b"x")
    picks = {events.canonical(policy.choose(rs, first.state, request)) for _ in range(5)}
    assert len(picks) == 1
    choice = policy.choose(rs, first.state, request)
    assert choice in rs.candidates(first.state, request)
    assert resolver.check_decision(rs, first.state, side="red", request_id=request.id, choice=choice) is None
    others = {events.canonical(policies.RandomPolicy(bytes([n])).choose(rs, first.state, request)) for n in range(20)}
    assert len(others) > 3  # it does spread its choices


def test_default_policy_answers_with_the_default():
    first = resolver.resolve(toy.Bidding(), start(toy.Bidding()), SEED)
    request = first.state.pending()[0]
    assert policies.DefaultPolicy().choose(toy.Bidding(), first.state, request) == 0


def test_auto_play_is_reproducible():
    rs = DUEL
    initial = start(rs, rs.example_scenarios()[1])
    chosen = {"red": policies.RandomPolicy(b"r"), "blue": policies.DefaultPolicy()}
    one = policies.auto_play(rs, initial, seed=SEED, policies=chosen)
    two = policies.auto_play(rs, initial, seed=SEED, policies=chosen)
    assert one.state.over
    assert events.events_to_json(one.events) == events.events_to_json(two.events)


def test_auto_play_stops_where_a_human_must_decide():
    rs = toy.Bidding()
    outcome = policies.auto_play(rs, start(rs), seed=SEED, policies={"a": policies.DefaultPolicy()})
    assert not outcome.state.over
    assert [r.side for r in outcome.state.pending()] == ["b"]


class Peeker:
    name = "peeker"

    def __init__(self):
        self.seen = []

    def choose(self, ruleset, battle, request):
        self.seen.append(dict(battle.answers))
        return request.default


def test_policies_see_only_what_their_side_may_see():
    rs = toy.Bidding()
    peeker = Peeker()
    policies.auto_play(rs, start(rs), seed=SEED, policies={"a": policies.DefaultPolicy(), "b": peeker})
    assert peeker.seen
    assert all(seen == {} for seen in peeker.seen)


class Endless(toy.Bidding):
    key = "toy-endless"

    def check_invariants(self, battle):
        return []

    def advance(self, ctx):
        ctx.begin_turn()
        ctx.request("a", "bid", rule="TOY-BID-01", options=[0])


def test_auto_play_refuses_to_loop_forever():
    rs = Endless()
    with pytest.raises(policies.StalledBattle, match="no end after 25 decisions"):
        policies.auto_play(rs, start(rs), seed=SEED, policies={"a": policies.DefaultPolicy()}, max_decisions=25)


class Cheat:
    name = "cheat"

    def choose(self, ruleset, battle, request):
        return 7


def test_an_illegal_policy_choice_is_an_engine_error():
    rs = toy.Bidding()
    with pytest.raises(resolver.EngineError, match="illegal decision"):
        policies.auto_play(rs, start(rs), seed=SEED, policies={"a": Cheat(), "b": Cheat()})


def test_redact_for_the_umpire_keeps_everything():
    rs = toy.Bidding()
    first = resolver.resolve(rs, start(rs), SEED)
    req = first.state.pending("a")[0]
    after = resolver.submit(rs, first.state, side="a", request_id=req.id, choice=2, seed=SEED)
    assert isinstance(after, resolver.Accepted)
    assert state.redact(after.state, None) is after.state
