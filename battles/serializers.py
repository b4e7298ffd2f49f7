"""The battle API's shapes: what a client sends, and what it gets back.

Output serializers are an allowlist: the selectors build each view for one side (battles.selectors), and only
the fields named here leave the server. The board, the events and decision answers are free-form JSON whose
shape the ruleset owns (docs/engine.md).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from battles.models import BattleMode, BattleSide, Controller, Correction, DeadlineDefault, Decision
from battles.services import DEFAULT_RULESET, LEAVING

# ErrorSerializer: the API's one refusal shape, re-exported for the battle API's schema.
from config.api import ErrorSerializer as ErrorSerializer
from config.api import StrictRequestSerializer


class StrictCharField(serializers.CharField):
    """A string, and only a string: a number or a list where a name belongs is a mistake worth a 400."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


# --- lists and envelopes -----------------------------------------------------------------------------------


class MySideSerializer(serializers.ModelSerializer[BattleSide]):
    class Meta:
        model = BattleSide
        fields = ("key", "name", "left")
        read_only_fields = fields


class BattleListItemSerializer(serializers.Serializer[Any]):
    """One of my battles (a selectors.BattleSummary): a battle of one of my campaigns, with my role and the
    sides I decide for."""

    id = serializers.IntegerField(source="battle.pk")
    title = serializers.CharField(source="battle.title")
    campaign = serializers.SlugField(source="battle.campaign.slug")
    scenario = serializers.CharField(source="battle.scenario_slug")
    mode = serializers.ChoiceField(source="battle.mode", choices=BattleMode.choices)
    status = serializers.CharField(source="battle.status")
    turn = serializers.IntegerField(source="battle.turn")
    phase = serializers.CharField(source="battle.phase")
    deadline = serializers.DateTimeField(source="battle.deadline", allow_null=True)
    winner = serializers.CharField(source="battle.winner")
    result = serializers.CharField(source="battle.result_reason")
    created_at = serializers.DateTimeField(source="battle.created_at")
    finished_at = serializers.DateTimeField(source="battle.finished_at", allow_null=True)
    role = serializers.CharField(help_text="My role in the battle's campaign (umpire or player).")
    my_sides = MySideSerializer(many=True, help_text="The sides I decide for.")
    waiting_for_me = serializers.BooleanField(help_text="A decision of one of my sides is waiting for its answer.")


class SideSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    controller = serializers.ChoiceField(choices=Controller.choices)
    player = serializers.CharField(allow_null=True, help_text="The player's public name, if a player decides.")
    left = serializers.CharField(help_text="How the side left the battle (concede, surrender, withdraw), if it did.")


class PendingDecisionSerializer(serializers.Serializer[Any]):
    """An open decision. Another side's shows only its id, side and kind; my own has the engine's request in
    full and the answers I may give. The umpire's own (``umpire``: the go-ahead before a card) is answered by the
    battle's umpire alone, whatever side it is logged under."""

    id = serializers.CharField()
    side = serializers.CharField(help_text="The side it is logged under (the umpire's own decisions have one too).")
    kind = serializers.CharField()
    umpire = serializers.BooleanField(
        help_text="The umpire's own decision: only the battle's umpire answers it (a player's answer is refused, 403)."
    )
    yours = serializers.BooleanField(help_text="I answer it: a decision of a side I decide for, or I am the umpire.")
    submitted = serializers.BooleanField(help_text="An answer is in, waiting for the rest of its batch.")
    phase = serializers.CharField(required=False)
    rule = serializers.CharField(required=False, help_text="The clause that governs the decision.")
    prompt = serializers.CharField(required=False)
    default = serializers.JSONField(required=False, help_text="What holding course (the deadline default) answers.")
    options = serializers.JSONField(required=False, help_text="The legal answers, where they can be listed.")
    secret = serializers.BooleanField(required=False, help_text="The answer stays mine until its batch is in.")
    ships = serializers.ListField(child=serializers.CharField(), required=False)
    sealed = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Keys of the answer nobody else ever sees."
    )
    candidates = serializers.JSONField(
        required=False, help_text="Legal answers to offer (the options, or a sample always holding the default)."
    )
    schema = serializers.JSONField(
        required=False,
        help_text=(
            "How an answer is spelled, as a tree of fields (battles.engine.answers): kinds one, many, number, text, "
            "hex, path, group and repeat, each with key, label, hint, clause, limits, options and default; "
            "the answer posted is still plain JSON, judged by the ruleset."
        ),
    )


class RulesetSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    version = serializers.CharField()
    options = serializers.DictField(child=serializers.JSONField())


class BattleViewSerializer(serializers.Serializer[Any]):
    """The battle as my side may see it (the umpire: all of it). The seed only once the battle is over."""

    id = serializers.IntegerField()
    title = serializers.CharField()
    campaign = serializers.SlugField()
    ruleset = RulesetSerializer()
    mode = serializers.ChoiceField(choices=BattleMode.choices)
    status = serializers.CharField()
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    seq = serializers.IntegerField(help_text="How many events the log holds.")
    deadline = serializers.CharField(allow_null=True)
    turn_minutes = serializers.IntegerField(
        allow_null=True,
        help_text="A battle on the campaign's clock (an encounter's window): the minutes each turn has, every "
        "decision of a turn sharing one deadline. Null: each decision has the battle's decision hours.",
    )
    live_minutes = serializers.IntegerField(
        allow_null=True,
        help_text="A live battle (mode `live`, both players online): the minutes each batch of decisions has before "
        "the deadline default. Null: not live.",
    )
    hand_over_at = serializers.CharField(
        allow_null=True,
        help_text="When the AI captains are expected to fight the rest of the battle for every side (ISO 8601, "
        "the tick that ends the encounter's window). Null: never.",
    )
    hand_over_day = serializers.IntegerField(
        allow_null=True,
        help_text="The campaign day at whose end the AI captains take over (an encounter's window). Null: none.",
    )
    hand_over = serializers.CharField(
        help_text="The same in words for the players, empty when the battle is on no clock or is over."
    )
    over = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    result = serializers.CharField()
    seed_commitment = serializers.CharField(help_text="SHA-256 of the dice seed, published from the start.")
    seed = serializers.CharField(allow_null=True, help_text="The dice seed (hex), once the battle is over.")
    viewing_as = serializers.CharField(allow_null=True, help_text="umpire, a side key, or null for the public view.")
    my_sides = serializers.ListField(child=serializers.CharField())
    sides = SideSerializer(many=True)
    board = serializers.JSONField(help_text="The ruleset's board as this side may see it.")
    pending = PendingDecisionSerializer(many=True)


# --- decisions ---------------------------------------------------------------------------------------------


class DecisionSubmitSerializer(StrictRequestSerializer):
    request = StrictCharField(max_length=20, help_text="The open decision's id (d16).")
    choice = serializers.JSONField(allow_null=True, help_text="The answer, in the shape the decision's kind asks.")
    idempotency_key = StrictCharField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text="The same key again gives back the first answer (also the Idempotency-Key header).",
    )


class DecisionSerializer(serializers.ModelSerializer[Decision]):
    request = serializers.CharField(source="request_id")
    side = serializers.CharField(source="side.key")

    class Meta:
        model = Decision
        fields = (
            "id",
            "request",
            "side",
            "kind",
            "turn",
            "phase",
            "choice",
            "source",
            "idempotency_key",
            "created_at",
            "applied_seq",
        )
        read_only_fields = fields


class PartialAnswerSerializer(StrictRequestSerializer):
    """A partial answer to one of my open decisions, as its answer schema's flat fields (battles.engine.answers)."""

    request = StrictCharField(max_length=20, help_text="The open decision's id (d16).")
    # "fields", "partial" and "errors" are the answer schema's words; DRF's metaclass takes declared fields off
    # the class, so they never hide the serializer's own attributes of those names (mypy cannot know it).
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=StrictCharField(allow_blank=True, max_length=2000), max_length=200),
        help_text="The fields filled in so far, by name (keys from the schema's root joined by dots: shots.0), "
        'each with its values: the canonical JSON of a choice ("" for none), a number or words.',
    )
    partial = serializers.JSONField(  # type: ignore[assignment]
        required=False,
        allow_null=True,
        default=None,
        help_text="The answer being built, for a decision whose offered choices follow from it (a path's steps "
        "so far): the schema is drawn for it.",
    )


class FieldErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(help_text="The posted field's name.")
    message = serializers.CharField()
    clause = serializers.CharField(help_text="The clause the field answers (may be empty).")


class RefusalSerializer(serializers.Serializer[Any]):
    clause = serializers.CharField(help_text="The rule the answer breaks.")
    reason = serializers.CharField()


class JudgementSerializer(serializers.Serializer[Any]):
    """A partial answer judged for live feedback: the answer so far, what is missing, what is wrong, and once the
    fields make a whole answer, the rules' verdict on it. Nothing is stored."""

    answer = serializers.JSONField(allow_null=True, help_text="The answer the fields make so far.")
    missing = serializers.ListField(child=serializers.CharField(), help_text="Fields still to fill in.")
    errors = FieldErrorSerializer(many=True, help_text="Fields filled in wrong.")  # type: ignore[assignment]
    complete = serializers.BooleanField(help_text="Nothing missing and nothing wrong.")
    refused = RefusalSerializer(
        allow_null=True, help_text="A complete answer the rules would refuse, with the clause; null if not refused."
    )
    schema = serializers.JSONField(help_text="The decision's answer schema, drawn for the partial answer.")


class CorrectionSubmitSerializer(StrictRequestSerializer):
    request = StrictCharField(max_length=20, help_text="The decision entered wrongly.")
    choice = serializers.JSONField(allow_null=True, help_text="The answer it should have had.")
    reason = StrictCharField(max_length=2000, help_text="Why (kept with the correction).")


class CorrectionSerializer(serializers.ModelSerializer[Correction]):
    request = serializers.CharField(source="request_id")

    class Meta:
        model = Correction
        fields = ("id", "request", "old_choice", "new_choice", "reason", "rewound_to_seq", "created_at")
        read_only_fields = fields


class LeaveSerializer(StrictRequestSerializer):
    side = StrictCharField(max_length=60)
    how = serializers.ChoiceField(choices=LEAVING)


# --- the log, the end ----------------------------------------------------------------------------------------


class EventPageSerializer(serializers.Serializer[Any]):
    results = serializers.ListField(
        child=serializers.DictField(child=serializers.JSONField()),
        help_text="Events as my side may see them, in order; each has seq, turn, phase, kind and visibility.",
    )
    after = serializers.IntegerField(help_text="The seq this page starts after.")
    last_seq = serializers.IntegerField(help_text="The last seq read: ask for the next page after it.")
    more = serializers.BooleanField(help_text="The log goes on past this page.")


class VerificationSerializer(serializers.Serializer[Any]):
    seed = serializers.CharField(help_text="The dice seed (hex).")
    seed_commitment = serializers.CharField(help_text="Its SHA-256, published when the battle started.")
    verified = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())
    events = serializers.IntegerField(help_text="Events re-run.")
    dice = serializers.IntegerField(help_text="Dice checked against the seed.")


class ResultSerializer(serializers.Serializer[Any]):
    winner = serializers.CharField(source="battle.winner")
    reason = serializers.CharField(source="battle.result_reason")
    finished_at = serializers.DateTimeField(source="battle.finished_at")
    outcome = serializers.JSONField(
        source="data", help_text="What the campaign takes from the battle (the ruleset's result)."
    )


# --- creating ------------------------------------------------------------------------------------------------


class SideControlSerializer(StrictRequestSerializer):
    controller = serializers.ChoiceField(choices=Controller.choices)
    player = StrictCharField(
        max_length=150, required=False, allow_null=True, help_text="The username of the member who plays the side."
    )


class BattleCreateSerializer(StrictRequestSerializer):
    campaign = serializers.SlugField(help_text="The campaign (I must be its umpire).")
    scenario = serializers.SlugField(help_text="A scenario shipped with the ruleset.")
    title = StrictCharField(max_length=160, required=False, allow_blank=True, default="")
    ruleset = StrictCharField(max_length=40, required=False, default=DEFAULT_RULESET)
    mode = serializers.ChoiceField(choices=BattleMode.choices, default=BattleMode.ASYNC)
    options = serializers.DictField(child=serializers.JSONField(), required=False, default=dict)
    sides = serializers.DictField(
        child=SideControlSerializer(),
        required=False,
        default=dict,
        help_text="Who decides for each side, by side key; the rest are the AI's (at the table, the umpire's).",
    )
    decision_hours = serializers.IntegerField(min_value=1, max_value=24 * 14, default=48)
    live_minutes = serializers.IntegerField(
        default=5, help_text="Live play (mode `live`): the minutes each decision has, one of 2, 5, 10, 15."
    )
    deadline_default = serializers.ChoiceField(choices=DeadlineDefault.choices, default=DeadlineDefault.AI)
