"""The encounter statistics (issue 7's done-when): over 60,000 simulated days in each territory, moving and
patrolling, with the campaign's own dice (campaign/dice.die_for) from a fixed seed, encounters come at the
territory's rate (n in 6) and the table's rows and the categories met come up as the table says.

Tolerances: a count of hits is within 4 binomial standard deviations of its expectation; the six faces of the
table die pass a chi-square test with 5 degrees of freedom at 20.52 (p = 0.001); the ships of each category per
encounter are within 4 standard deviations of the mean the table gives. With the seed fixed the test is
deterministic; the tolerances say how far a fair die may stray, so a biased die or a misread table fails."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from campaign.dice import die_for
from galleons import catalog
from strategic_map import encounter_rules as rules
from strategic_map import mapdata

SEED = "5ca1ab1e" * 8
DAYS = 60_000
SIGMAS = 4.0
CHI_SQUARE_5_DOF_P001 = 20.515

ALL_TABLE_CLAUSES = tuple(f"SGC-ENCT-{n:02d}" for n in range(1, 43))


@dataclass
class Sample:
    """What the days in one territory came to: encounters moving and patrolling, the table die's faces, and the
    ships met per category (over all encounters)."""

    moving_hits: int = 0
    patrolling_hits: int = 0
    faces: Counter[int] | None = None
    ships: Counter[str] | None = None

    @property
    def encounters(self) -> int:
        return self.moving_hits + self.patrolling_hits


def _dice() -> Iterator[int]:
    seq = 0
    while True:
        seq += 1
        yield die_for(SEED, seq, 6)


def _simulate() -> dict[str, Sample]:
    """Every territory of the map, DAYS days: each day's encounter die read as a moving ship's and as a patrolling
    ship's (two samples of DAYS dice each, from one stream to keep the test quick), and for each hit the table
    die, in the order the tick draws them."""
    stream = _dice()
    results: dict[str, Sample] = {}
    for name, territory in mapdata.mars_map().territories.items():
        sample = Sample(faces=Counter(), ships=Counter())
        results[name] = sample
        if territory.move_through is None or territory.patrol is None:
            continue  # SGC-ENC-01: British territory rolls no die
        table = catalog.encounter_table(name)
        # Each line read once (rules.parse_line), then counted per face.
        met = {
            face: Counter(ship.category for ship in rules.parse_line(table.encounter_for(face))) for face in range(1, 7)
        }
        for _ in range(DAYS):
            die = next(stream)
            for patrolling, number in ((False, territory.move_through), (True, territory.patrol)):
                if not rules.encounter_happens(die, number):
                    continue
                if patrolling:
                    sample.patrolling_hits += 1
                else:
                    sample.moving_hits += 1
                face = next(stream)
                sample.faces[face] += 1
                sample.ships.update(met[face])
    return results


@pytest.fixture(scope="module")
def samples() -> dict[str, Sample]:
    return _simulate()


def _within(observed: float, expected: float, sigma: float) -> bool:
    return abs(observed - expected) <= SIGMAS * sigma + 1e-9


@pytest.mark.rule(
    "SGC-ENC-01",
    "SGC-ENC-02",
    "SGC-ENC-03",
    "SGC-ENC-04",
    "SGC-ENC-05",
    "SGC-ENC-08",
    "SGC-ENC-09",
    "SGC-ENC-10",
    "SGC-ENC-11",
    "SGC-ENC-12",
    "SGC-ENC-13",
    "SGC-ENC-14",
)
def test_encounters_come_at_the_territorys_rate_moving_and_patrolling(samples):
    territories = mapdata.mars_map().territories
    for name, sample in samples.items():
        territory = territories[name]
        for hits, number in ((sample.moving_hits, territory.move_through), (sample.patrolling_hits, territory.patrol)):
            if number is None:
                assert hits == 0, name
                continue
            p = number / 6
            sigma = math.sqrt(DAYS * p * (1 - p))
            assert _within(hits, DAYS * p, sigma), (name, number, hits, DAYS * p, sigma)
            if number == 6:
                assert hits == DAYS, name  # patrolling Shastapsh or Oenotria always meets someone
    assert samples["British"].encounters == 0
    assert {name: t.move_through for name, t in territories.items() if name != "British"} == {
        t.territory: t.move_through for t in catalog.encounter_tables()
    }


@pytest.mark.rule("SGC-ENC-15", *ALL_TABLE_CLAUSES)
def test_the_table_die_comes_up_evenly_in_every_territory(samples):
    for name, sample in samples.items():
        if not sample.encounters:
            continue
        assert sample.faces is not None
        expected = sample.encounters / 6
        chi_square = sum((sample.faces[face] - expected) ** 2 / expected for face in range(1, 7))
        assert chi_square < CHI_SQUARE_5_DOF_P001, (name, dict(sample.faces), chi_square)


@pytest.mark.rule("SGC-ENC-15", "SGC-ENC-17", *ALL_TABLE_CLAUSES)
def test_the_ships_met_per_category_match_the_tables_counts(samples):
    for name, sample in samples.items():
        if not sample.encounters:
            continue
        assert sample.ships is not None
        lines = [rules.parse_line(line) for line in catalog.encounter_table(name).type_roll]
        categories = {ship.category for line in lines for ship in line}
        assert set(sample.ships) <= categories
        for category in categories:
            per_line = [sum(ship.category == category for ship in line) for line in lines]
            mean = sum(per_line) / 6
            variance = sum(k * k for k in per_line) / 6 - mean * mean
            sigma = math.sqrt(sample.encounters * variance)
            observed = sample.ships[category]
            assert _within(observed, sample.encounters * mean, sigma), (
                name,
                category,
                observed,
                sample.encounters * mean,
            )


@pytest.mark.rule("SGC-ENC-17")
def test_a_draw_from_a_pool_comes_up_evenly_across_its_classes():
    pool = catalog.encounter_category("Cloud Captain").class_ids
    draws = Counter(rules.drawn_class(pool, die_for(SEED, seq, len(pool))) for seq in range(1, DAYS + 1))
    expected = DAYS / len(pool)
    chi_square = sum((draws[class_id] - expected) ** 2 / expected for class_id in pool)
    assert chi_square < 18.467  # 4 degrees of freedom, p = 0.001


def test_the_tolerance_catches_a_die_that_hits_one_number_too_often():
    # A misread rule (an encounter on a roll *under* the number rather than at most it) is far outside 4 sigma.
    p = 2 / 6
    sigma = math.sqrt(DAYS * p * (1 - p))
    misread = sum(1 for seq in range(1, DAYS + 1) if die_for(SEED, seq, 6) < 2)
    assert not _within(misread, DAYS * p, sigma)
