"""The phases of a Cloudships battle, each a function over the resolver's Context that reads ``ctx.board``, rolls
with ``ctx.roll`` (logged) and records what happened with ``ctx.emit``; none changes the board itself (the fold
does). sequence.py says which runs at which stage:

- rounds.py: the battle opens, each round begins with a new deck, the end of the round (fires, lights, repairs)
  and the checks that end the battle;
- deck.py: the next card turned, by the app or on the umpire's go-ahead;
- turn.py: a ship's turn, steps 1 (status) and 5 (ambers), and its end;
- ordnance.py: the start of a ship's turn (mines, drogues, torpedoes) and their strikes in the move;
- movement.py: step 2, the move (a placeholder: the movement slice fills it in);
- fire.py: step 3, fire and return fire (a placeholder: the fire slice fills it in);
- damage.py: step 4, the damage due marked box by box on the tracks.
"""
