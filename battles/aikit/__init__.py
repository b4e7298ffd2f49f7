"""The AI kit: what every ruleset's AI captain needs and no ruleset owns (issue 21).

Pure Python beside the engine, like it importing neither Django nor any ruleset package:

* ``memo``: what a captain works out from the board's immutable records, kept for as long as the record
  lives (a ship's guns, the threat her guns make at a hex), so that one battle's captain reckons each once;
* ``ties``: the seeded choice among answers scored alike, so that captains differ and a battle replays;
* ``search``: the best candidates by score, found without scoring the hopeless ones (a bound first);
* ``odds``: the chances of six-sided dice, one against a score or two against each other;

Sky Galleons' tactics (battles/rules/sky_galleons/tactics.py) is built on it; the next rulesets' AIs should be.
"""
