"""What Cloudships of Mars shows its players: the log in words (narration.py), the map (map_view.py) and the
control panels as record sheets (sheets.py), all read from the board view one side may see."""
