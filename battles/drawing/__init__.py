"""Drawing a battle of any ruleset: the hex map (SVG) and the record sheets (HTML and PDF).

Presentation only, and no ruleset's own: the ruleset says what is on the map and the sheets as data (its
``map_view`` and ``record_sheet``, battles/engine/presentation.py), built from the board JSON a side may see
(``board_view``), so what a side may not know is never in the drawing to begin with. Values the view blanks
are drawn as unknown, never as zero. The hex geometry is the engine's (``battles.engine.hexgrid``).
"""
