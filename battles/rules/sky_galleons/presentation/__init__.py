"""What Sky Galleons shows the players: its events in words (narration.py), its battle map as data
(map_view.py) and its ship record sheets as data (sheets.py). Pure; SkyGalleons delegates to these."""
