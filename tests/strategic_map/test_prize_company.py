"""SGC-MONEY-08 with SG-BRD-21/22: a prize brought home keeps her captor's men aboard until she is landed.

The tactical capture options carry over into the campaign: the captor's boarders who crew her (her prize crew)
and the one boarder detailed for good to guard her prisoners stay aboard her on the way home, so the ship that
took her sails short of those men; when she is landed at a friendly city and handed to the prize court with her
prisoners, they come back aboard the ship that brought her in (as deckhands: their posts are not kept).
"""

from __future__ import annotations

import pytest

from battles.engine.outcome import CAPTURED, ShipOutcome
from battles.models import BattleResult
from campaign.models import CampaignShip, ShipStatus
from galleons.record import ShipRecord
from strategic_map import arrival
from tests.strategic_map import arrival_fixtures
from tests.strategic_map.test_arrival import PIRATE, PRIZE_IN_TOW

pytestmark = pytest.mark.django_db

table = arrival_fixtures.table
fight = arrival_fixtures.fight


def men(ship: CampaignShip) -> tuple[int, int]:
    """Her men alive aboard by her campaign record, and of them her deckhands."""
    ship.refresh_from_db()
    record = ShipRecord.from_json(ship.record)
    return record.men_alive, record.crew.deckhands


@pytest.mark.rule("SGC-MONEY-08", "SG-BRD-22")
def test_the_guard_of_the_prisoners_stays_with_the_prize_until_she_is_landed(fight, table):
    assert men(table.gull) == (29, 3)
    # Seed arrival_fixtures.BOARDING: the Gull's boarders take the Golden Dawn (a marine detailed to guard her 25
    # prisoners), the Black Wing goes down, and the Gull loses 9 men.
    encounter = fight([PIRATE, PRIZE_IN_TOW], seed=arrival_fixtures.BOARDING)
    result = {e["name"]: e for e in BattleResult.objects.get(battle=encounter.battle).data["ships"]}
    assert result["Golden Dawn"]["prize"]["guard"] == {"rank": "marines", "ship": "Gull"}, "the engine changed: reseed"
    assert result["Golden Dawn"]["prize"]["prize_crew"] == {}  # held and taken in tow, not crewed
    assert result["Golden Dawn"]["prize"]["prisoners"] == 25
    assert result["Black Wing"]["prize"] is None
    assert (result["Gull"]["crew"]["lost"], result["Gull"]["crew"]["away"]["guards"]) == (9, 1)

    # At sea, home-bound: 29 - 9 killed = 20 alive, one of them aboard the Golden Dawn with her prisoners.
    prize = CampaignShip.objects.get(status=ShipStatus.PRIZE)
    assert (prize.name, prize.towed_by_id) == ("Golden Dawn", table.gull.pk)
    alive_aboard, deckhands = men(table.gull)
    assert alive_aboard == 19
    assert ShipRecord.from_json(prize.record).men_alive == 25  # her own men, prisoners

    # Landed at Parhoon: the prisoners go to the prize court and the guard comes back aboard the Gull.
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=5)
    assert men(table.gull) == (20, deckhands + 1)
    arrival.voyage_arrive(voyage_id=table.voyage.pk, city="Parhoon", day=6)  # the tick run twice: once only
    assert men(table.gull) == (20, deckhands + 1)


@pytest.mark.rule("SGC-MONEY-08", "SG-BRD-21", "SG-BRD-22")
def test_a_prize_crew_and_the_guard_are_counted_by_the_ship_they_came_from():
    """The men of each captor ship aboard a crewed prize, from the battle result's prize entry: her prize crew
    by ship, and the guard on the ship he was detailed from."""

    def ship(prize_crew: dict[str, int], guard: str | None) -> ShipOutcome:
        return ShipOutcome(
            name="Golden Dawn",
            side_at_start="pirates",
            side_at_end="british",
            fate=CAPTURED,
            prize_crew=prize_crew,
            prize_guard=guard,
        )

    assert arrival._men_in_prize_company(ship({"Gull": 5, "Kestrel": 2}, "Gull")) == {"Gull": 6, "Kestrel": 2}
    assert arrival._men_in_prize_company(ship({"Gull": 0}, None)) == {}
