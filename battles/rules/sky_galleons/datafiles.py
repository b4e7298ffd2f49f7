"""Where the Sky Galleons tactical ruleset's own tables live (``data/``).

The ship model's tables (catalog, weapons, design, record and ordnance tables) are the campaign's and live
with it in ``galleons/data``; this folder keeps what only the tactical rules read.
"""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
