"""The phases of a Game Turn (IC-SEQ-06), functions over the resolver's Context: they roll, emit and ask, and
never change the board themselves."""
