"""The phases of the Sky Galleons sequence of play, as functions over the battle's context (SG-SEQ-01..12)."""
