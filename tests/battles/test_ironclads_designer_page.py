"""The registered Ironclads ruleset offers its Appendix A designer on the Rulesets page, and its page rates the
GLOIRE from her particulars as the text's worked example does (IC-CARD-30..33); a bad figure is a 422 on its field."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from battles import engine_io
from battles.engine import ruleset as registry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GLOIRE = {
    "name": "GLOIRE",
    "nation": "French",
    "years": "1859-1879",
    "displacement_tons": "5630",
    "speed_knots": "13",
    "monitor": "false",
    "belt_iron_in": "4.75",
    "wood_backing_in": "26",
    "port": "18 x 6.4 in rifled",
    "starboard": "18 x 6.4 in rifled",
}


def _designer_key() -> str:
    engine_io.discover_rulesets()
    return next(rs.key for rs in registry.all_rulesets() if rs.card_designer and "Ironclads" in rs.title)


@pytest.mark.rule("IC-CARD-33")
def test_the_ironclads_designer_rates_the_gloire_from_her_particulars() -> None:
    client = Client()
    client.force_login(UserFactory())
    key = _designer_key()
    assert reverse("card_designer", kwargs={"key": key}) in client.get(reverse("ruleset_tools")).content.decode()
    answer = client.post(reverse("card_designer", kwargs={"key": key}), GLOIRE)
    page = answer.content.decode()
    assert answer.status_code == 200, page[:2000]
    assert "12.6, rounded up = 13 stats" in page
    assert re.search(r"held to the limit of 7", page)
    assert "5,630 tons = 6" in page
    refused = client.post(reverse("card_designer", kwargs={"key": key}), {**GLOIRE, "speed_knots": "fast"})
    assert refused.status_code == 422
