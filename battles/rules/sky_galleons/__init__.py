"""Sky Galleons of Mars: ship design, records, combat, movement, scenarios and the ruleset (registered here)."""

from battles.engine.ruleset import register
from battles.rules.sky_galleons.ruleset import SKY_GALLEONS

register(SKY_GALLEONS)
