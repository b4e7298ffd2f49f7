"""Each ruleset's tools, and the card designer page for any ruleset that has one (``Ruleset.card_designer``,
battles/engine/card_designer.py): the ship's particulars as a form of the ruleset's fields, and the card it gives
drawn by the generic record-sheet renderer with the working beside it. A field the rules cannot read is a 422 with
the reason on that field; nothing a player types reaches a 500.

Knows no ruleset: the registry says which rulesets there are, each ruleset what it offers."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from battles import engine_io
from battles.drawing.record_sheet import render_record_sheet
from battles.engine import answers
from battles.engine import ruleset as registry
from battles.engine.card_designer import CardDesigner, DesignedCard
from battles.engine.events import JSON
from battles.ship_edit_forms import django_field

LONG_TEXT = 200  # a Text field allowing more than this is drawn as a box of lines


def _latest() -> list[registry.Ruleset[Any]]:
    engine_io.discover_rulesets()
    return list({rs.key: rs for rs in registry.all_rulesets()}.values())


@login_required
@require_GET
def ruleset_tools(request: HttpRequest) -> HttpResponse:
    """Every ruleset the app plays, with the tools it offers beside its battles (a card designer...)."""
    rows = [{"ruleset": rs, "designer": rs.card_designer} for rs in _latest()]
    return render(request, "battles/ruleset_tools.html", {"rows": rows})


class DesignerForm(forms.Form):
    """The designer's fields as Django fields of their kinds (the ship editor's own conversion)."""

    def __init__(self, designer: CardDesigner, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kinds: dict[str, answers.Field] = {}
        self.sections: dict[str, list[str]] = {}
        for item in designer.fields().fields:
            field = django_field(item)
            field.help_text = item.hint
            if isinstance(item, answers.Text) and item.max_length > LONG_TEXT:
                field.widget = forms.Textarea(attrs={"rows": 2})  # a list, a line an entry
            self.fields[item.key] = field
            self.kinds[item.key] = item
            self.sections.setdefault(item.section or "", []).append(item.key)

    def values(self) -> dict[str, JSON]:
        """What was posted, as the designer reads it: words, whole numbers, true or false, the chosen values."""
        found: dict[str, JSON] = {}
        for name, value in self.cleaned_data.items():
            kind = self.kinds[name]
            if isinstance(kind, answers.Many):
                found[name] = [json.loads(v) for v in value]
            elif isinstance(kind, answers.One) and not isinstance(value, bool):
                found[name] = json.loads(value) if value else None
            else:
                found[name] = value
        return found

    def grouped(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in self.sections.items()]


@login_required
@require_http_methods(["GET", "POST"])
def card_designer(request: HttpRequest, key: str) -> HttpResponse:
    try:
        rules = registry.get(key)
    except KeyError:
        raise Http404("no such ruleset") from None
    designer = rules.card_designer
    if designer is None:
        raise Http404("this ruleset has no card designer")
    form = DesignerForm(designer, data=request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"ruleset": rules, "designer": designer, "form": form, "designed": None, "sheet": ""}
    if request.method == "GET":
        return render(request, "battles/card_designer.html", context)
    if form.is_valid():
        result = designer.design(form.values())
        if isinstance(result, DesignedCard):
            context.update(designed=result, sheet=render_record_sheet(result.sheet))
            return render(request, "battles/card_designer.html", context)
        form.add_error(result.field if result.field in form.fields else None, result.message)
    return render(request, "battles/card_designer.html", context, status=422)
