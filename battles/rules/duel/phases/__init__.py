"""The duel's phases, each a set of functions over the resolver's Context: set-up and deployment (deploy.py),
initiative and plotting (initiative.py), movement (movement.py), fire and the end of the turn (fire.py).
sequence.py says which runs when."""
