"""Django forms of the battle pages: the umpire's new battle, leaving a battle, a correction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from battles import engine_io, services
from battles.engine.events import JSON
from battles.models import BattleMode, Controller, DeadlineDefault
from battles.services import SideControl
from campaign.models import Campaign, Membership

SIDE_PREFIX = "side_"
OPTION_PREFIX = "option_"


def scenario_sides(scenario: Mapping[str, JSON]) -> list[tuple[str, str]]:
    """The scenario's sides: (key, name), in the scenario's order."""
    found = []
    for side in scenario.get("sides") or []:  # type: ignore[union-attr]
        if isinstance(side, Mapping) and side.get("id"):
            found.append((str(side["id"]), str(side.get("name") or side["id"])))
    return found


class BattleCreateForm(forms.Form):
    """The umpire's new battle: a shipped scenario, how it is played, who decides for each side, the options.

    The side and option fields depend on the scenario chosen (``scenario`` in ``data`` or ``initial``); the
    page reloads them with HTMX when the scenario changes."""

    scenario = forms.ChoiceField(label="Scenario")
    title = forms.CharField(label="Title (optional)", max_length=160, required=False)
    mode = forms.ChoiceField(label="How it is played", choices=BattleMode.choices, initial=BattleMode.ASYNC)
    decision_hours = forms.IntegerField(
        label="Hours for each decision (web play)", min_value=1, max_value=24 * 14, initial=48
    )
    deadline_default = forms.ChoiceField(
        label="When a deadline passes", choices=DeadlineDefault.choices, initial=DeadlineDefault.AI
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.scenarios = services.shipped_scenarios()
        self.fields["scenario"].choices = [  # type: ignore[attr-defined]
            (slug, str(data.get("title") or slug)) for slug, data in sorted(self.scenarios.items())
        ]
        chosen = self.data.get("scenario") if self.is_bound else self.initial.get("scenario")
        if chosen not in self.scenarios:
            chosen = next(iter(sorted(self.scenarios)), "")
        self.chosen = str(chosen)
        self.fields["scenario"].initial = self.chosen
        scenario = self.scenarios.get(self.chosen, {})
        members = Membership.objects.filter(campaign=campaign).select_related("user").order_by("user__username")
        controllers = [(Controller.AI.value, "The AI"), (Controller.UMPIRE.value, "The umpire")] + [
            (f"player:{m.user.pk}", f"{m.user.public_name} ({m.get_role_display().lower()})") for m in members
        ]
        self.side_keys = []
        for key, name in scenario_sides(scenario):
            self.side_keys.append(key)
            self.fields[SIDE_PREFIX + key] = forms.ChoiceField(
                label=f"{name} ({key})", choices=controllers, initial=Controller.AI.value
            )
        rs = engine_io.ruleset_for(services.DEFAULT_RULESET)
        own = scenario.get("options") if isinstance(scenario.get("options"), Mapping) else {}
        self.option_keys = []
        for spec in rs.options:
            default = own.get(spec.key, spec.default) if isinstance(own, Mapping) else spec.default
            name = OPTION_PREFIX + spec.key
            self.option_keys.append(spec.key)
            label = spec.description[:1].upper() + spec.description[1:]
            if spec.choices is not None and set(spec.choices) == {True, False}:
                self.fields[name] = forms.BooleanField(label=label, required=False, initial=bool(default))
            elif spec.choices is not None:
                self.fields[name] = forms.ChoiceField(
                    label=label, choices=[(str(c), str(c)) for c in spec.choices], initial=str(default)
                )
            else:
                continue
            self.fields[name].help_text = spec.clause

    def side_fields(self) -> list[forms.BoundField]:
        return [self[SIDE_PREFIX + key] for key in self.side_keys]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[OPTION_PREFIX + key] for key in self.option_keys if OPTION_PREFIX + key in self.fields]

    def sides(self) -> dict[str, SideControl]:
        """Who decides for each side, as the service takes it (an auto-resolved battle: the AI for all)."""
        if self.cleaned_data["mode"] == BattleMode.AUTO:
            return {}
        users = {
            str(m.user.pk): m.user for m in Membership.objects.filter(campaign=self.campaign).select_related("user")
        }
        chosen: dict[str, SideControl] = {}
        for key in self.side_keys:
            value = str(self.cleaned_data[SIDE_PREFIX + key])
            if value.startswith("player:"):
                chosen[key] = SideControl(Controller.PLAYER, users.get(value[7:]))
            else:
                chosen[key] = SideControl(value)
        return chosen

    def options(self) -> dict[str, JSON]:
        rs = engine_io.ruleset_for(services.DEFAULT_RULESET)
        found: dict[str, JSON] = {}
        for spec in rs.options:
            name = OPTION_PREFIX + spec.key
            if name not in self.fields:
                continue
            value = self.cleaned_data[name]
            if isinstance(self.fields[name], forms.ChoiceField) and spec.choices is not None:
                value = next((c for c in spec.choices if str(c) == value), spec.default)
            found[spec.key] = value
        return found


class LeaveForm(forms.Form):
    side = forms.ChoiceField(label="Side")
    how = forms.ChoiceField(
        label="How",
        choices=[
            ("concede", "Concede: the battle ends now and the other side wins"),
            ("surrender", "Surrender: strike colours (the AI carries it out under the rules)"),
            ("withdraw", "Withdraw: run for the map edge (the AI carries it out under the rules)"),
        ],
    )
    confirm = forms.BooleanField(label="Yes, I mean it: this cannot be undone", required=True)

    def __init__(self, *args: Any, sides: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = sides  # type: ignore[attr-defined]


class CorrectionForm(forms.Form):
    """The umpire's correction: which decision of this turn was entered wrongly, and why. The right answer
    comes from the decision's own form (built on the battle as it stood then) or, failing that, as JSON."""

    decision = forms.ChoiceField(label="The decision entered wrongly")
    reason = forms.CharField(label="Reason", max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    answer_json = forms.CharField(
        label="Or type the right answer (JSON, as the log spells it)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, decisions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["decision"].choices = decisions  # type: ignore[attr-defined]

    def clean_answer_json(self) -> str:
        import json

        text = str(self.cleaned_data["answer_json"]).strip()
        if text:
            try:
                json.loads(text)
            except ValueError as error:
                raise forms.ValidationError(f"Not JSON: {error}") from error
        return text
