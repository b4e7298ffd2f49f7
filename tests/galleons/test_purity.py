"""The campaign's ship model (galleons) is pure: it loads no framework, no app and no tactical ruleset."""

import subprocess
import sys
from pathlib import Path

from galleons import catalog, design, record

ROOT = Path(__file__).resolve().parents[2]


def test_the_ship_model_imports_only_itself_and_the_pure_engine():
    # A fresh interpreter: in the test process Django and every ruleset are already loaded.
    script = "; ".join(
        [
            "import sys",
            "import galleons.catalog, galleons.design, galleons.record",
            "roots = {'django', 'rest_framework', 'celery', 'campaign', 'strategic_map', 'accounts', 'config'}",
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in roots"
            " or (m.startswith('battles.') and m.split('.')[1] != 'engine'))",
            "print(','.join(bad))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.strip() == ""


def test_the_ship_model_reads_its_tables_from_its_own_folder():
    data = ROOT / "galleons" / "data"
    tables = (
        catalog.SHIP_CATALOG_FILE,
        catalog.WEAPONS_FILE,
        design.DESIGN_TABLES_FILE,
        record.COMBAT_TABLES_FILE,
        record.ORDNANCE_FILE,
    )
    assert all(path.parent == data and path.is_file() for path in tables)
