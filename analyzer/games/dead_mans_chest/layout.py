"""The kernel's data layout: kind codes and the column indices of the kernel's arrays.

Numba reads module-level integers as compile-time constants, so ``m.players[p, CASH]``
costs no more than a local variable. Every mechanic is a small jitted function
``f(m, player, ...)`` where ``m`` is a :class:`~analyzer.games.dead_mans_chest.kernel.Match`,
whose fields are those of the kernel's ``Inputs`` (board, rules, seats) and the state
arrays of its ``Scratch``.

Two idioms of the kernel modules: loops read ``m``'s arrays through local names (the
compiler cannot tell that a write to one array leaves ``m`` unchanged, so it reads an
``m.field`` again each time; the Match's arrays are borrowed views, see
``kernel.make_match``, so a read costs no reference count); candidate
counters passed to other jitted functions start as ``np.int64(0)``, not ``0`` (a
literal 0 would make Numba compile an extra specialisation of the callee).
"""

# -- space kinds (names as written in the component file) ---------------------------------
SPACE_KINDS = (
    "start", "share_the_loot", "collect", "pay", "life", "shipyard", "choose_a_mascot",
    "choose_another_mascot", "acquire_vessel", "davy_jones", "raid", "isla_cruces",
)
(START, SHARE_THE_LOOT, COLLECT, PAY, LIFE, SHIPYARD, CHOOSE_A_MASCOT,
 CHOOSE_ANOTHER_MASCOT, ACQUIRE_VESSEL, DAVY_JONES, RAID, ISLA_CRUCES) = range(len(SPACE_KINDS))
#: kinds whose space carries a dollar amount
MONEY_SPACES = ("collect", "pay")
#: stop spaces: movement ends there whatever is left of the spin
STOP_SPACES = ("shipyard", "choose_a_mascot", "isla_cruces")
#: spaces that hold any number of ships (no bumping to the next free space)
SHARED_SPACES = ("start",) + STOP_SPACES

# columns of ``m.spaces``
SP_KIND, SP_AMOUNT, SP_NEXT, SP_STOP, SP_SHARED = range(5)
NO_SPACE = -1

# -- LIFE card actions (the vocabulary of the component file) -----------------------------
CARD_ACTIONS = (
    "collect", "pay", "collect_from_each", "pay_each", "tiles", "take_tiles", "spin_collect", "spin_pay",
)
(CARD_COLLECT, CARD_PAY, CARD_COLLECT_FROM_EACH, CARD_PAY_EACH, CARD_TILES, CARD_TAKE_TILES,
 CARD_SPIN_COLLECT, CARD_SPIN_PAY) = range(len(CARD_ACTIONS))
#: the columns a player's spaces and LIFE cards met take (see ``MET`` below)
N_MET = len(SPACE_KINDS) + len(CARD_ACTIONS)
#: actions whose amount counts tiles (at least 1) rather than dollars
TILE_COUNT_ACTIONS = ("tiles", "take_tiles")

# columns of ``m.cards``, ``m.ships``, ``m.tiles``, ``m.captains``
CARD_ACTION, CARD_AMOUNT = range(2)
SHIP_FEE, SHIP_COMBAT, SHIP_PEARL = range(3)
TILE_VALUE, TILE_MASCOT = range(2)
CAPTAIN_ROUTE, CAPTAIN_LOOT, CAPTAIN_ROUTE_LOOT = range(3)
NO_MASCOT = -1
NO_SHIP = -1

# -- per-player state: columns of ``m.players`` -------------------------------------------
(POS, CASH, SHIP, MASCOTS, MASCOT_VALUE, TILES, TILE_WORTH, LOANS, UNPAID, RETIRED, CAPTAIN, ROUTE,
 WAITS, RECEIVED, PAID, TAKEN_THIS_TURN, MET) = range(17)
#: from ``MET`` on, the times this game the player landed on each space kind (``MET + kind``; START
#: is never landed on), then drew each LIFE card action (``MET_CARDS + action``): the measures'
#: notes live in the player's row, which the turn already reads and the set-up already clears
MET_CARDS = MET + len(SPACE_KINDS)
N_PLAYER_FIELDS = MET + N_MET
# MASCOTS is a bit set (bit m: owns mascot m); TILE_WORTH is what the player's tiles are worth
# at the final count as they stand, doubled for the player's mascots (kept up to date by
# ``tiles``); LOANS counts loans not yet repaid; UNPAID is the loan debt (with interest) cash
# could not cover at retirement; RECEIVED / PAID are the player's money ledger;
# TAKEN_THIS_TURN counts tiles taken from this (retired) player during the current turn.

# where a tile is (``m.tile_loc``): a player index, or one of these
IN_PILE = -1
ON_ISLA_CRUCES = -2
OWNER_FREE = -1  # a ship or mascot card still in its deck (``m.ship_owner``)
TREASURY = -1  # the treasury's account in payments (players are 0..n-1)

# -- per-game counters: ``m.counters`` ----------------------------------------------------
(PILE_COUNT, ISLA_COUNT, DRAW_COUNT, DISCARD_COUNT, RETIRED_COUNT, TREASURY_RECEIVED,
 TREASURY_PAID, RAIDS, RAID_WINS, SHIPYARD_WAITS, SHIPYARD_LOANS, LOANS_TAKEN, TILES_TAKEN,
 PILE_RAN_DRY, NEXT_DRAFTER, DRAFTED, NEXT_SEAT, TURNS_PLAYED, N_COUNTERS) = range(19)
# the game's progress (see turns.next_step): NEXT_DRAFTER drafts next, DRAFTED players
# have drafted; NEXT_SEAT moves next, TURNS_PLAYED turns have been played.
#: the per-game event counters reported as statistics, in ``events_sum`` order
EVENTS = ("raids", "raid_wins", "shipyard_waits", "shipyard_loans", "loans", "tiles_taken", "pile_ran_dry")
EVENT_COUNTERS = (RAIDS, RAID_WINS, SHIPYARD_WAITS, SHIPYARD_LOANS, LOANS_TAKEN, TILES_TAKEN, PILE_RAN_DRY)
N_EVENTS = len(EVENTS)

# -- invariant violations (checking mode): ``m.violations`` -------------------------------
INVARIANTS = ("money", "tiles", "cards", "movement", "decks")
V_MONEY, V_TILES, V_CARDS, V_MOVEMENT, V_DECKS = range(len(INVARIANTS))

# -- final value parts: columns of the ``value_parts_sum`` aggregate ----------------------
VALUE_PARTS = ("tiles", "mascot_bonus", "cash", "ship", "mascots", "unpaid_loans")
PART_TILES, PART_BONUS, PART_CASH, PART_SHIP, PART_MASCOTS, PART_UNPAID = range(len(VALUE_PARTS))
N_VALUE_PARTS = len(VALUE_PARTS)

# -- strategies (index in strategies.STRATEGIES) ------------------------------------------
RANDOM, SENSIBLE, AGGRESSIVE, THRIFTY = range(4)
#: lookahead's objectives (the mean it maximises over its rollouts)
OBJECTIVES = ("win", "score", "lead")
OBJECTIVE_WIN, OBJECTIVE_SCORE, OBJECTIVE_LEAD = range(len(OBJECTIVES))

# -- rule codes ---------------------------------------------------------------------------
UNPAID_LOAN_MODES = ("subtract", "cash_in_tiles", "forgive")
UNPAID_SUBTRACT, UNPAID_CASH_IN_TILES, UNPAID_FORGIVE = range(3)
TILE_FROM_PLAYER_MODES = ("random", "choose")
TILE_AT_RANDOM, TILE_CHOSEN = range(2)
DRAFT_STARTS = ("random", "first-player", "last-player")
DRAFT_AT_RANDOM, DRAFT_FIRST_PLAYER, DRAFT_LAST_PLAYER = range(3)
# rule option captain_draft: draft = draw two, keep one (the book); random = keep the first drawn
CAPTAIN_DRAFTS = ("draft", "random")
CAPTAINS_DRAFTED, CAPTAINS_DEALT = range(2)

SPINNER = 10  # the spinner shows 1..10
