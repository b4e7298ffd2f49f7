"""Forms for the Parhoon yard's pages: buying a class, the design editor (turned into the rater's JSON design, so
the engine's parser and rater judge it, never the form), a refit, and the repair lines a captain ticks.

The forms only read the request; what is legal and what it costs is campaign.yard_selectors' and the services'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from campaign import yard_selectors as sel
from galleons import design

WEAPON_ROWS = 6
EXOTIC_ROWS = 3
REFIT_ROWS = 2
HULL_CHOICES = [("wood", "Wood"), ("steel", "Steel")]
PROPULSION_CHOICES = [("screw_galley", "Screw galley"), ("kite", "Kite"), ("steam", "Steam")]
REFIT_ACTIONS = [("add", "Add a gun"), ("replace", "Replace a gun"), ("remove", "Remove a gun")]

# A small legal galley to start from: the editor opens on something Parhoon builds.
STARTING_DESIGN: dict[str, Any] = {
    "hull": "wood",
    "hull_size": 2,
    "armor": 0,
    "propulsion": "screw_galley",
    "turncranks": 12,
    "weapon_0": "light_gun",
    "mount_0": "forward",
    "weapon_1": "light_gun",
    "mount_1": "stern tower",
    "marines": 0,
}


def _weapon_label(weapon: Any) -> str:
    return weapon.name if weapon.martian_yard else f"{weapon.name} (British)"


def gun_choices() -> list[tuple[str, str]]:
    return [(w.id, _weapon_label(w)) for w in sel.gun_weapons()]


def exotic_choices() -> list[tuple[str, str]]:
    return [(w.id, _weapon_label(w)) for w in sel.exotic_weapons()]


def mount_choices() -> list[tuple[str, str]]:
    return [(m, m) for m in design.known_mounts()]


def _number(label: str, *, minimum: int = 0, maximum: int = 200, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=minimum, max_value=maximum, required=required)


class BuyForm(forms.Form):
    class_id = forms.CharField(max_length=80, widget=forms.HiddenInput)
    name = forms.CharField(max_length=80, label="Her name")


class DesignForm(forms.Form):
    """The design editor. Rows left blank are no weapon; ``design_json`` is the rater's input format."""

    design_name = forms.CharField(max_length=80, required=False, label="Design name (optional)")
    hull = forms.ChoiceField(choices=HULL_CHOICES)
    hull_size = _number("Hull size", minimum=1, maximum=40, required=True)
    armor = _number("Armor", maximum=10, required=True)
    ram = forms.BooleanField(required=False, label="Ram")
    propulsion = forms.ChoiceField(choices=PROPULSION_CHOICES)
    turncranks = _number("Turncranks (screw galley)", minimum=1, maximum=400)
    engine_size = _number("Engine size (steam)", minimum=1, maximum=40)
    bunker_size = _number("Coal bunker size (steam)", maximum=40)
    forced_draught = forms.BooleanField(required=False, label="Forced draught (steam)")
    marines = _number("Marines", maximum=400, required=True)
    passengers = _number("Passengers", maximum=400)
    signalman = forms.BooleanField(required=False, label="Signalman")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        guns = [("", "—"), *gun_choices()]
        mounts = [("", "—"), *mount_choices()]
        for i in range(WEAPON_ROWS):
            self.fields[f"weapon_{i}"] = forms.ChoiceField(choices=guns, required=False, label=f"Gun {i + 1}")
            self.fields[f"mount_{i}"] = forms.ChoiceField(choices=mounts, required=False, label="Mount")
            self.fields[f"count_{i}"] = _number("How many", minimum=1, maximum=20)
            self.fields[f"turret_{i}"] = _number("Turret armor", maximum=10)
        exotics = [("", "—"), *exotic_choices()]
        for i in range(EXOTIC_ROWS):
            self.fields[f"exotic_{i}"] = forms.ChoiceField(choices=exotics, required=False, label=f"Exotic {i + 1}")
            self.fields[f"exotic_count_{i}"] = _number("How many", minimum=1, maximum=50)

    def weapon_rows(self) -> list[tuple[forms.BoundField, ...]]:
        return [
            (self[f"weapon_{i}"], self[f"mount_{i}"], self[f"count_{i}"], self[f"turret_{i}"])
            for i in range(WEAPON_ROWS)
        ]

    def exotic_rows(self) -> list[tuple[forms.BoundField, ...]]:
        return [(self[f"exotic_{i}"], self[f"exotic_count_{i}"]) for i in range(EXOTIC_ROWS)]

    def design_json(self) -> dict[str, Any]:
        """The design in the rater's JSON format (galleons.design). A weapon row without a
        mount (or a mount without a weapon) is passed on as it is, so the parser names what is missing."""
        data = self.cleaned_data
        propulsion: dict[str, Any] = {"type": data["propulsion"]}
        if data["propulsion"] == "screw_galley" and data.get("turncranks") is not None:
            propulsion["turncranks"] = data["turncranks"]
        if data["propulsion"] == "steam":
            for key in ("engine_size", "bunker_size"):
                if data.get(key) is not None:
                    propulsion[key] = data[key]
            propulsion["forced_draught"] = bool(data.get("forced_draught"))
        weapons = []
        for i in range(WEAPON_ROWS):
            weapon, mount = data.get(f"weapon_{i}"), data.get(f"mount_{i}")
            if not weapon and not mount:
                continue
            entry: dict[str, Any] = {"weapon": weapon or None, "mount": mount or None}
            if data.get(f"count_{i}"):
                entry["count"] = data[f"count_{i}"]
            if data.get(f"turret_{i}"):
                entry["turret_armor"] = data[f"turret_{i}"]
            weapons.append(entry)
        exotics = [
            {"weapon": data[f"exotic_{i}"], "count": data.get(f"exotic_count_{i}") or 1}
            for i in range(EXOTIC_ROWS)
            if data.get(f"exotic_{i}")
        ]
        out: dict[str, Any] = {
            "hull": data["hull"],
            "hull_size": data["hull_size"],
            "ram": bool(data.get("ram")),
            "armor": data["armor"],
            "propulsion": propulsion,
            "weapons": weapons,
            "exotics": exotics,
            "marines": data["marines"],
        }
        if data.get("passengers"):
            out["passengers"] = data["passengers"]
        if data.get("signalman"):
            out["signalman"] = True
        if data.get("design_name", "").strip():
            out["name"] = data["design_name"].strip()
        return out


class CommissionForm(forms.Form):
    # Not required on the page: the editor rates designs before she has a name; the service refuses a blank one.
    ship_name = forms.CharField(max_length=80, required=False, label="Her name")


class RefitForm(forms.Form):
    """Changes to a ship's guns, a row each (two rows: a wing or broadside gun needs its pair on the other side to
    keep her balanced, SG-ERR-02). A row without an action is no change."""

    def __init__(self, *args: Any, guns: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(REFIT_ROWS):
            self.fields[f"action_{i}"] = forms.ChoiceField(
                choices=[("", "—"), *REFIT_ACTIONS], required=False, label=f"Change {i + 1}"
            )
            self.fields[f"gun_{i}"] = forms.ChoiceField(
                choices=[("", "—"), *guns], required=False, label="Her gun (to replace or remove)"
            )
            self.fields[f"weapon_{i}"] = forms.ChoiceField(
                choices=[("", "—"), *gun_choices()], required=False, label="New weapon (to add or replace)"
            )
            self.fields[f"mount_{i}"] = forms.ChoiceField(
                choices=[("", "—"), *mount_choices()], required=False, label="Mount (to add, or to move a replaced gun)"
            )
            self.fields[f"turret_armor_{i}"] = _number("Turret armor", maximum=10)

    def rows(self) -> list[tuple[forms.BoundField, ...]]:
        return [
            tuple(self[f"{name}_{i}"] for name in ("action", "gun", "weapon", "mount", "turret_armor"))
            for i in range(REFIT_ROWS)
        ]

    def changes(self) -> list[dict[str, Any]]:
        """The changes as campaign.yard.ship_refit takes them; missing parts are left for the service to refuse."""
        data = self.cleaned_data
        changes = []
        for i in range(REFIT_ROWS):
            action = data.get(f"action_{i}")
            if not action:
                continue
            change: dict[str, Any] = {"action": action}
            if action in ("remove", "replace"):
                change["gun"] = data.get(f"gun_{i}") or ""
            if action in ("add", "replace"):
                change["weapon"] = data.get(f"weapon_{i}") or None
                if data.get(f"mount_{i}") or action == "add":
                    change["mount"] = data.get(f"mount_{i}") or None
                if data.get(f"turret_armor_{i}"):
                    change["turret_armor"] = data[f"turret_armor_{i}"]
            changes.append(change)
        return changes


def repair_lines(post: Mapping[str, Any], bill: sel.RepairBill) -> list[str]:
    """The lines ticked on the repair form as the service's keys: ``line`` checkboxes, and for a line that may be
    taken in part, ``qty-<key>`` with how many ("hull:3"). Unknown keys are passed on for the service to refuse."""
    getlist = getattr(post, "getlist", None)
    ticked: list[str] = list(getlist("line")) if getlist else list(post.get("line") or [])
    lines = []
    for key in ticked:
        quantity = str(post.get(f"qty-{key}", "")).strip()
        try:
            line = bill.line(key)
        except KeyError:
            lines.append(key)
            continue
        if line.partial and quantity and quantity != str(line.quantity):
            lines.append(f"{key}:{quantity}")
        else:
            lines.append(key)
    return lines
