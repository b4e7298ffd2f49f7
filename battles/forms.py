"""Django forms of the battle pages: the umpire's new battle, leaving a battle, a correction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings

from battles import engine_io, services, ship_edit_forms
from battles.engine.events import JSON
from battles.engine.ruleset import OptionError, OptionSpec, Ruleset, resolve_options
from battles.models import LIVE_WINDOWS, BattleMode, Controller, DeadlineDefault
from battles.services import SideControl
from campaign.models import Campaign, Membership

SIDE_PREFIX = "side_"
OPTION_PREFIX = "option_"
LIVE_WINDOW_CHOICES = [(minutes, f"{minutes} minutes") for minutes in LIVE_WINDOWS]


def option_field(spec: OptionSpec, default: JSON) -> forms.Field | None:
    """The form field of one option switch, labelled with its meaning and its clause: a checkbox for a yes/no
    option, a list for one with named choices, a number or a word for an open one of that type (None: an open
    option of another type, left at its default)."""
    label = spec.description[:1].upper() + spec.description[1:]
    field: forms.Field
    if spec.choices is not None and set(spec.choices) == {True, False} and len(spec.choices) == 2:
        field = forms.BooleanField(label=label, required=False, initial=bool(default))
    elif spec.choices is not None:
        field = forms.ChoiceField(label=label, choices=[(str(c), str(c)) for c in spec.choices], initial=str(default))
    elif type(spec.default) is int:
        field = forms.IntegerField(label=label, initial=default)
    elif type(spec.default) is str:
        field = forms.CharField(label=label, initial=default, max_length=200, required=False)
    else:
        return None
    field.help_text = spec.clause
    return field


# An option the ruleset proposes for web play (``play_defaults``) left to the mode: on the web, off at the table.
BY_MODE = ""


def by_mode_field(spec: OptionSpec, default: JSON, proposed: JSON) -> forms.Field:
    """A choice for an option the ruleset proposes for web play: left to the mode (the battle app gives the
    proposal on the web and the rules' default at the table), or set either way."""
    label = spec.description[:1].upper() + spec.description[1:]
    choices = [(BY_MODE, f"By the mode: {_word(proposed)} for web play, {_word(spec.default)} at the table")]
    choices += [(str(c), _word(c).capitalize()) for c in spec.choices or (proposed, spec.default)]
    initial = BY_MODE if default is None else str(default)
    return forms.ChoiceField(label=label, choices=choices, initial=initial, required=False, help_text=spec.clause)


def _word(value: JSON) -> str:
    return "on" if value is True else "off" if value is False else str(value)


def add_option_fields(
    form: forms.BaseForm, rs: Ruleset[Any], defaults: Mapping[str, JSON], prefix: str = OPTION_PREFIX
) -> list[str]:
    """Add a field for each of the ruleset's options to ``form`` (``defaults``: the scenario's or the campaign's
    own, over the ruleset's); the keys of the options given a field. An option the ruleset proposes for web play
    is left to the battle's mode unless ``defaults`` set it."""
    keys = []
    for spec in rs.options:
        if spec.key in rs.play_defaults:
            form.fields[prefix + spec.key] = by_mode_field(spec, defaults.get(spec.key), rs.play_defaults[spec.key])
            keys.append(spec.key)
            continue
        field = option_field(spec, defaults.get(spec.key, spec.default))
        if field is not None:
            form.fields[prefix + spec.key] = field
            keys.append(spec.key)
    return keys


def chosen_options(
    form: forms.BaseForm, rs: Ruleset[Any], keys: list[str], prefix: str = OPTION_PREFIX
) -> dict[str, JSON]:
    """The options as the ruleset spells them, from a valid form's fields (a listed choice back to its value)."""
    found: dict[str, JSON] = {}
    for spec in rs.options:
        if spec.key not in keys:
            continue
        value = form.cleaned_data[prefix + spec.key]
        if spec.key in rs.play_defaults and value == BY_MODE:
            continue  # left to the mode (services.battle_create)
        if spec.choices is not None and not isinstance(value, bool):
            value = next((c for c in spec.choices if str(c) == value), spec.default)
        found[spec.key] = value
    return found


def check_options(form: forms.BaseForm, rs: Ruleset[Any], options: dict[str, JSON]) -> None:
    """The ruleset's own check of the options chosen (resolve_options), as errors on the form."""
    try:
        resolve_options(rs, options)
    except OptionError as error:
        form.add_error(None, f"These options cannot be played: {error}")


class BattleCreateForm(forms.Form):
    """The umpire's new battle: a ruleset, one of its scenarios, how it is played, who decides for each side, the
    ruleset's options.

    The scenario, side and option fields depend on the ruleset and scenario chosen (in ``data`` or ``initial``);
    the page reloads them with HTMX when either changes. An unknown ruleset, a scenario of another ruleset or a
    bad option is an error on the form."""

    # Left out (an older page, a script): the campaign's ruleset, as the page offers first.
    ruleset = forms.ChoiceField(label="Battle rules", required=False)
    scenario = forms.ChoiceField(label="Scenario")
    title = forms.CharField(label="Title (optional)", max_length=160, required=False)
    mode = forms.ChoiceField(label="How it is played", choices=BattleMode.choices, initial=BattleMode.ASYNC)
    decision_hours = forms.IntegerField(
        label="Hours for each decision (web play)", min_value=1, max_value=24 * 14, initial=48
    )
    # Left out (an older page, a script): five minutes, as the model's default.
    live_minutes = forms.TypedChoiceField(
        label="Minutes for each decision (live play)",
        choices=LIVE_WINDOW_CHOICES,
        coerce=int,
        initial=5,
        required=False,
    )
    deadline_default = forms.ChoiceField(
        label="When a deadline passes", choices=DeadlineDefault.choices, initial=DeadlineDefault.AI
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        rulesets = {rs.key: rs for rs in engine_io.rulesets()}
        self.fields["ruleset"].choices = [(key, rs.title or key) for key, rs in rulesets.items()]  # type: ignore[attr-defined]
        preferred = (self._given("ruleset"), campaign.tactical_ruleset, settings.DEFAULT_RULESET, *rulesets)
        self.rs = rulesets[next(key for key in preferred if key in rulesets)]
        self.fields["ruleset"].initial = self.rs.key
        self.scenarios = services.shipped_scenarios(self.rs.key)
        self.fields["scenario"].choices = [  # type: ignore[attr-defined]
            (slug, services.scenario_title(slug, data)) for slug, data in self.scenarios.items()
        ]
        chosen = self._given("scenario")
        self.chosen = chosen if chosen in self.scenarios else next(iter(self.scenarios), "")
        self.fields["scenario"].initial = self.chosen
        scenario = self.scenarios.get(self.chosen, {})
        self._add_side_fields(scenario)
        own = scenario.get("options")
        self.option_keys = add_option_fields(self, self.rs, own if isinstance(own, Mapping) else {})
        # Each ship the umpire may change before the battle, where the ruleset lets him (its ship_editor).
        self.ship_forms = ship_edit_forms.add_ship_fields(self, self.rs, scenario)
        self.edited: tuple[dict[str, JSON], tuple[str, ...]] | None = None

    def _given(self, name: str) -> str:
        value = self.data.get(name) if self.is_bound else self.initial.get(name)
        return str(value or "")

    def _add_side_fields(self, scenario: Mapping[str, JSON]) -> None:
        members = Membership.objects.filter(campaign=self.campaign).select_related("user").order_by("user__username")
        controllers = [(Controller.AI.value, "The AI"), (Controller.UMPIRE.value, "The umpire")] + [
            (f"player:{m.user.pk}", f"{m.user.public_name} ({m.get_role_display().lower()})") for m in members
        ]
        self.side_keys = []
        for key, name in services.scenario_sides(self.rs.key, scenario):
            self.side_keys.append(key)
            self.fields[SIDE_PREFIX + key] = forms.ChoiceField(
                label=f"{name} ({key})", choices=controllers, initial=Controller.AI.value
            )

    def clean_live_minutes(self) -> int:
        value = self.cleaned_data.get("live_minutes")
        return value if isinstance(value, int) else 5

    def clean_ruleset(self) -> str:
        return str(self.cleaned_data.get("ruleset") or self.rs.key)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors:
            check_options(self, self.rs, self.options())
        scenario = self.scenarios.get(self.chosen, {})
        self.edited = ship_edit_forms.edited_scenario(self, self.rs, scenario, self.ship_forms)
        for ship in self.ship_forms:
            ship.invalid = ship.has_errors(self)
        return cleaned

    def ship_errors(self) -> bool:
        return any(ship.invalid for ship in self.ship_forms)

    def scenario_source(self) -> dict[str, Any]:
        """What the battle starts from: the shipped scenario by its slug, or the scenario with the ships the umpire
        changed written into it (stored with the battle, which replay and the seed's verification read)."""
        if self.edited is None:
            return {"scenario_slug": self.cleaned_data["scenario"]}
        return {"scenario": self.edited[0]}

    def battle_title(self) -> str:
        """The title given, else the scenario's own with the ships changed named (it is no longer the shipped one)."""
        given = str(self.cleaned_data["title"]).strip()
        if given or self.edited is None:
            return given
        scenario = self.scenarios.get(self.chosen, {})
        ships = ", ".join(self.edited[1])
        return f"{services.scenario_title(self.chosen, scenario)} (edited: {ships})"[:160]

    def side_fields(self) -> list[forms.BoundField]:
        return [self[SIDE_PREFIX + key] for key in self.side_keys]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[OPTION_PREFIX + key] for key in self.option_keys]

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
        return chosen_options(self, self.rs, self.option_keys)


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


class PaceForm(forms.Form):
    """The umpire's switch on the battle page: live play (minutes per decision) or web play (hours)."""

    live = forms.BooleanField(label="Live: both players online", required=False)
    live_minutes = forms.TypedChoiceField(
        label="Minutes for each decision", choices=LIVE_WINDOW_CHOICES, coerce=int, initial=5
    )
