"""Appendix A on a page (the ruleset's card_designer, IC-CARD-02..29): the particulars form gives GLOIRE's card and
working; a gun the rules cannot read is refused on its own field (a 422 on the page). Ironclads is not registered yet,
so the page test registers a stand-in ruleset carrying its designer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from battles.engine import ruleset as registry
from battles.engine.card_designer import CardDesigner, DesignedCard, DesignRefused
from battles.engine.ruleset import BaseRuleset
from battles.rules.ironclads.designer import CARD_DESIGNER
from tests.factories import UserFactory

GLOIRE = {
    "name": "GLOIRE", "nation": "French", "years": "1859-1879", "sisters": "INVINCIBLE, NORMANDIE",
    "displacement_tons": "5,630", "speed_knots": "13", "belt_iron_in": "4.75", "wood_backing_in": "26",
    "port": "18 x 6.4 in rifled", "starboard": "18 x 6.4 in rifled",
}  # fmt: skip


def test_the_designer_is_the_engines_card_designer() -> None:
    assert isinstance(CARD_DESIGNER, CardDesigner)
    keys = [f.key for f in CARD_DESIGNER.fields().fields]
    assert {"displacement_tons", "wood_backing_in", "forward_turret", "forward_turret_bears", "monitor"} <= set(keys)


@pytest.mark.rule("IC-CARD-30", "IC-CARD-31", "IC-CARD-32", "IC-CARD-33")
def test_gloire_from_the_form_ic_card_30_to_33() -> None:
    """IC-CARD-30..33 from the form's words: 13 a broadside, Armour 7, Propulsion 13, Hull 6."""
    result = CARD_DESIGNER.design({**GLOIRE, "monitor": False})
    assert isinstance(result, DesignedCard)
    assert result.sheet.title == "Name: GLOIRE"
    assert "Port broadside: 12.6, rounded up = 13 stats" in result.working
    assert result.sheet.section("ship").summary == "Armour 7, Propulsion 13, Hull 6"  # type: ignore[union-attr]


@pytest.mark.rule("IC-CARD-02")
def test_turret_arcs_from_the_form_ic_card_02() -> None:
    """IC-CARD-02: the turret's arcs as chosen (Arminius: the broadsides only)."""
    result = CARD_DESIGNER.design(
        {"name": "ARMINIUS", "displacement_tons": "1887", "speed_knots": "11.2", "belt_iron_in": "4.5",
         "forward_turret": "2 x 8.2 in smoothbore", "forward_turret_bears": ["port", "starboard"]}
    )  # fmt: skip
    assert isinstance(result, DesignedCard)
    item = result.sheet.section("guns").blocks[1].items[0]  # type: ignore[union-attr]
    assert item.summary == "bears Port and Starboard"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"port": "18 guns"}, "port"),
        ({"speed_knots": "fast"}, "speed_knots"),
        ({"displacement_tons": ""}, "displacement_tons"),
        ({"wood_backing_in": "thick"}, "wood_backing_in"),
        ({"rear_turret": "1 x 10 in", "rear_turret_bears": []}, "rear_turret_bears"),
    ],
)
def test_a_field_the_rules_cannot_read_is_refused_on_that_field(change: dict[str, object], field: str) -> None:
    result = CARD_DESIGNER.design({**GLOIRE, **change})  # type: ignore[dict-item]
    assert isinstance(result, DesignRefused)
    assert result.field == field


class StandIn(BaseRuleset[None]):
    """Ironclads is not registered yet: a stand-in carrying its designer shows the page works with it."""

    key = "ironclads_designer_stand_in"
    version = "1"
    title = "Ironclads 1850-1890 (stand-in)"
    card_designer = CARD_DESIGNER


@pytest.fixture
def page() -> Iterator[tuple[Client, str]]:
    rules = StandIn()
    registry.register(rules)
    client = Client()
    client.force_login(UserFactory())
    yield client, reverse("card_designer", kwargs={"key": rules.key})
    registry.unregister(rules.key, rules.version)


@pytest.mark.django_db
def test_the_page_draws_gloires_card(page: tuple[Client, str]) -> None:
    client, url = page
    assert client.get(url).status_code == 200
    answer = client.post(url, {**GLOIRE, "forward_turret_bears": ['"forward"', '"port"', '"starboard"', '"rear"']})
    text = answer.content.decode()
    assert answer.status_code == 200
    assert "Name: GLOIRE" in text
    assert "sheet--data-card" in text
    assert "18 Medium x 0.7 = 12.6" in text


@pytest.mark.django_db
def test_the_page_refuses_a_bad_gun_on_its_field_with_a_422(page: tuple[Client, str]) -> None:
    client, url = page
    answer = client.post(url, {**GLOIRE, "port": "eighteen big guns"})
    assert answer.status_code == 422
    assert "port" in answer.context["form"].errors
