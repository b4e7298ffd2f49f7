"""Foundation benchmarks: the reference-data load, the health endpoint, the checklist scan."""

from __future__ import annotations

import pytest

from battles.checklist import coverage_report, tagged_clauses
from strategic_map.services import reference_data_load


@pytest.mark.django_db
def test_bench_reference_data_reload(benchmark):
    """A re-run of load_reference_data on a loaded database (the `make run` path on every start)."""
    reference_data_load()
    result = benchmark(reference_data_load)
    assert result["hexes_unchanged"] == 500
    assert result["hexes_created"] == result["hexes_updated"] == 0


@pytest.mark.django_db
def test_bench_healthz(benchmark, client):
    response = benchmark(client.get, "/healthz")
    assert response.status_code == 200


def test_bench_rules_coverage_scan(benchmark):
    report = benchmark(lambda: coverage_report(None, tagged_clauses()))
    assert sum(entry.total for entry in report) == 1511
