import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["hexgrid", "dice", "events", "decisions", "state", "ruleset", "resolver", "policies"]


def test_the_engine_imports_no_framework_and_no_app():
    script = "; ".join(
        [f"import battles.engine.{name}" for name in MODULES]
        + [
            "import sys",
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'django', 'rest_framework', 'celery', 'campaign', 'strategic_map', 'accounts', 'config'})",
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
