"""Cloudships of Mars in its own words: the stages of a round, the event kinds, the decision kinds and the fates.

One place to name them: the phases, the fold, the narrator and the forms import them from here. A stage is the
engine's phase (``BattleState.phase``) and a round is the engine's turn (``BattleState.turn``): the board does not
keep a second copy of either.
"""

from __future__ import annotations

# --- stages (the engine's phases), in the order a round goes through them -------------------------------------
SETUP = "setup"  # the engine's first phase: the ships are on the board, no card turned yet
DECK = "deck"  # the next card is to be turned (CM-SEQ-03)
CARD = "card"  # the umpire has given the go-ahead: the card is turned (option umpire_turns_cards)
# A ship's turn, steps 1 to 5 (CM-SEQ-05..12): one phase function a step, in phases/turn.py.
STATUS, MOVE, FIRE, DAMAGE, AMBERS = "status", "move", "fire", "damage", "ambers"
BOARDING = "boarding"  # step 2b, grappling and boarding, between the move and fire (the boarding slice, below)
TURN_STEPS = (STATUS, MOVE, BOARDING, FIRE, DAMAGE, AMBERS)
END_OF_ROUND = "end of round"  # CM-SEQ-14..16, fires and crew repairs
STAGES = (SETUP, DECK, CARD, *TURN_STEPS, END_OF_ROUND)

# --- event kinds (the engine's own, a roll, a turn (= a round), a phase, come with every ruleset) ---------------
DECK_MADE = "deck made"  # this round's cards, one per ship still in the battle; which they are, never their order
CARD_TURNED = "card turned"  # the umpire turns the next card: that ship's turn begins
STATUS_CHECKED = "status checked"  # step 1: what the ship may do this turn
GUN_FIRED = "gun fired"  # a gun fires and takes its Fired marker (CM-SEQ-10; the fire slice emits these)
DAMAGE_DUE = "damage due"  # a hit scored, waiting for step 4 (the fire slice emits these)
BOX_CROSSED = "box crossed"  # one box of a damage track crossed, and what it was
GUN_LOST = "gun lost"  # a Gun box or a Magazine Hit: the gun may fire no more (CM-DMG-06)
PARTY_LOST = "party lost"  # a Boarding Party box: a party or a flight aboard is hit (CM-DMG-10, CM-FLY-25)
CRITICAL = "critical"  # a Critical box rolled on the ship's chart (CM-DMG-11)
BAND_LOST = "band lost"  # a Medium or Low box: the ship's greatest altitude falls (CM-DMG-07/08)
DROPPED = "dropped"  # forced down to the new greatest altitude (CM-ALT-03/05)
AMBER_LIT = "amber lit"  # step 5: a critical's lights turn amber (CM-SEQ-12)
FIRE_BURNS = "fire burns"  # end of round: a lit Fire crosses a box (docs/cloudships.md section 4)
LIGHTS_CYCLED = "lights cycled"  # end of round: reds off, ambers to red, Fired markers off (CM-SEQ-14..16)
REPAIRED = "repaired"  # a crew repair put out the fire or took a red light off (CM-REP-07)
FATE = "fate"  # a ship leaves the fight: crashed, sunk, struck or left the map
TURN_ENDED = "turn ended"  # the active ship's five steps are done
KINDS = (
    DECK_MADE,
    CARD_TURNED,
    STATUS_CHECKED,
    GUN_FIRED,
    DAMAGE_DUE,
    BOX_CROSSED,
    GUN_LOST,
    PARTY_LOST,
    CRITICAL,
    BAND_LOST,
    DROPPED,
    AMBER_LIT,
    FIRE_BURNS,
    LIGHTS_CYCLED,
    REPAIRED,
    FATE,
    TURN_ENDED,
)

# --- the move (step 2: phases/movement.py, manoeuvre.py) -------------------------------------------------------
MOVE_DECISION = "move"  # the decision: the active ship's plan of steps, and a ram declared (CM-SEQ-06, CM-RAM-01)
MOVED = "moved"  # one step of the move made: where she is after it (CM-MOV-03..17, CM-PT-*)
MOVE_HELD = "move held"  # a grappled ship stays where she is (CM-BRD-18)
RAM_TRIED = "ram tried"  # the rammer and her target roll; a hit leaves damage due (CM-RAM-01..05)
COLLISION_CHECK = "collision check"  # a ship comes into a hex and band another holds: both roll (CM-COL-01..03)
MOVE_DONE = "move done"  # the move is over: the written plan is put away
MOVE_KINDS = (MOVED, MOVE_HELD, RAM_TRIED, COLLISION_CHECK, MOVE_DONE)

# --- decision kinds ---------------------------------------------------------------------------------------------
TURN_CARD = "turn the next card"  # with the option umpire_turns_cards: the go-ahead before each card
TURN_IT = "turn"  # its one answer

# --- fates (Ship.status) ----------------------------------------------------------------------------------------
FLYING = "flying"
CRASHED = "crashed"  # fell to Ground (CM-ALT-02)
SUNK = "sunk"  # destroyed outright (a scenario or a later rule)
STRUCK = "struck"  # surrendered: boarding value 0 (CM-BRD-20/21)
LEFT = "left"  # flew off the map
FATES = (FLYING, CRASHED, SUNK, STRUCK, LEFT)

# --- options ----------------------------------------------------------------------------------------------------
UMPIRE_TURNS_CARDS = "umpire_turns_cards"
REALLY_LOW_BAND = "really_low"  # the advanced band below Low (CM-ALT-06/07), off by default
# The firer chooses the gun a capitalised GUN box takes (CM-GUN-03..05): agreed before the battle, off by default.
GUN_IN_CAPITALS = "gun_in_capitals"
HIT_FIRST = "hit_first"  # the fire orders' key: {target: [her guns the firer wants hit first]} (CM-GUN-03)
DEFAULT_ROUNDS = 12  # a scenario that names no round limit ends after these (the text sets none)

# --- fire (step 3, CM-SEQ-07..10, CM-FIRE, CM-AP, CM-RKT): the fire slice's words -----------------------------
FIRE_ORDERS = "fire orders"  # decision: the active captain names each gun's target (CM-SEQ-07)
RETURN_FIRE = "return fire"  # decision: a captain fired on names his guns firing back at the active ship (CM-SEQ-08)
VOLLEY = "volley"  # every order given, carried out at once (CM-SEQ-09): the dice follow
CREW_HIT = "crew hit"  # step 4: anti-personnel hits read on the target's crew chart (CM-AP-06..09)
FIRE_KINDS = (VOLLEY, CREW_HIT)  # the fire slice's event kinds, beside KINDS above
# --- grappling and boarding (the boarding slice: phases/boarding.py, boarding.py) ---------------------------------
# The stage between the move and fire: the active ship grapples and boards a ship in her hex and band, or carries
# on (or casts off) a boarding action she began (CM-BRD-01..19; docs/cloudships.md section 8). Stage BOARDING above.
BOARD_DECISION = "grapple or board"  # the active captain: grapple a ship there, board on, cast off, or nothing
NOTHING = "none"  # its answer for leaving well alone
GRAPPLE, BOARD, CAST_OFF = "grapple", "board", "cast off"  # its answers' keys: {"grapple": ship} and so on
LOSSES_DECISION = "boarding losses"  # a captain with parties and flights aboard says which the losses take
GRAPPLE_TRIED = "grapple tried"  # both roll a die plus boarding value; the grappler must score higher (CM-BRD-03..06)
GRAPPLED = "grappled"  # the lines hold: a boarding action begins (CM-BRD-02/04)
BOARDING_FOUGHT = "boarding fought"  # a round of boarding: scores, the winner and the losses owed (CM-BRD-07..15)
LOSSES_TAKEN = "losses taken"  # boarding losses marked off: parties, flights, then the rest (CM-BRD-11/16)
GRAPPLES_CUT = "grapples cut"  # the boarders repelled, or the attacker casts off (CM-BRD-18)
BOARDING_DONE = "boarding done"  # the stage's work is over: the order and the round put away
BOARDING_KINDS = (GRAPPLE_TRIED, GRAPPLED, BOARDING_FOUGHT, LOSSES_TAKEN, GRAPPLES_CUT, BOARDING_DONE)
ATTACKERS, DEFENDERS, TIE = "attackers", "defenders", "tie"  # who won a boarding round
PARTY_HITS_DECISION = "boarding party hits"  # at step 4: how many of a ship's Boarding Party boxes take a flight


# --- exotic ordnance (CM-SMT, CM-TM, CM-DT; phases/ordnance.py, ordnance.py): the ordnance slice's words ---------
# Stage MOVE opens with the start of the ship's turn: her torpedoes in flight fly on, then one decision lets out or
# winches in her tether mines and drogues and launches her Smutts torpedoes (CM-TM-01/02, CM-SMT-01).
ORDNANCE_DECISION = "mines and torpedoes"  # decision: {"let_out": [gun], "winch_in": [gun], "launch": [gun]}
LET_OUT = "let out"  # a tether mine or drogue let out on its cable (CM-TM-01, CM-DT-01)
WINCHED_IN = "winched in"  # one winched back aboard (CM-TM-02)
TORPEDO_LAUNCHED = "torpedo launched"  # a Smutts torpedo leaves its launcher (CM-SMT-01, CM-SMT-11)
TORPEDO_FLEW = "torpedo flew"  # a torpedo in flight enters the next hex of its straight line (CM-SMT-01)
CONTACT = "contact"  # a torpedo, mine or drogue tries to strike a ship: the ramming roll (CM-SMT-02..05, CM-TM-04)
TORPEDO_GONE = "torpedo gone"  # self-destructed after its second turn, or off the map (CM-SMT-07)
READIED = "ordnance readied"  # the start of the ship's turn is done: the move is asked next
ORDNANCE_KINDS = (LET_OUT, WINCHED_IN, TORPEDO_LAUNCHED, TORPEDO_FLEW, CONTACT, TORPEDO_GONE, READIED)


# --- Flying Martians deployed (CM-FLY-02..21; deployed.py, phases/flights.py): the flights slice's words ----------
# Stage MOVE opens (after the ordnance's start of turn) with the mother ship's flights: deployed, flown, redocked.
FLIGHTS_DECISION = "flying martians"  # decision: {"deploy": n, "fly": {flight: [steps]}, "redock": [flight]}
FLIGHT_DEPLOYED = "flight deployed"  # a flight leaves its ship, placed in her hex at her band (CM-FLY-04)
FLIGHT_FLEW = "flight flew"  # a deployed flight's move, before its mother ship's (CM-FLY-06..12)
FLIGHT_REDOCKED = "flight redocked"  # back aboard: part of her boarding parties again (CM-FLY-20/21)
FLIGHTS_READY = "flights ready"  # the start of her turn is done for her flights: the move is asked next
FLIGHT_ATTACKED = "flight attacked"  # a flight's attack as one Nordenfelt, deployed or aboard (CM-FLY-13/27)
FLIGHT_HIT = "flight hit"  # anti-personnel fire at a deployed flight: shrugged off or wiped out (CM-FLY-14..16)
FLIGHT_KINDS = (FLIGHT_DEPLOYED, FLIGHT_FLEW, FLIGHT_REDOCKED, FLIGHTS_READY, FLIGHT_ATTACKED, FLIGHT_HIT)
FLIGHTS_KEY, AT_FLIGHTS_KEY = "flights", "at_flights"  # the fire orders' keys for flights' attacks and fire at them
RUN = "run"  # a side's AI tuning (``sides[].ai.run``): the ships that make for the map's edge (ai.py, campaign.py)
