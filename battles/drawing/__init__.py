"""Drawing the battle: the hex map (SVG) and the ship record sheets (HTML and PDF).

Presentation only. Everything here reads the board JSON a side may see (the ruleset's ``board_view``, as
``selectors.battle_view(...)["board"]`` gives it) and never anything more, so what a side may not know is
never in the drawing to begin with. Values the view blanks (``null``) are drawn as unknown, never as zero.
The hex geometry is the engine's (``battles.engine.hexgrid``); the figures are the ruleset's data.
"""
