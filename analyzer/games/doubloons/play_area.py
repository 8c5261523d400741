"""The play area of a Doubloons round (chests and piles), and the jitted moves that change it.

The state is two plain integer arrays:

- ``pirates[p, ...]``, one row per pirate: the card in each slot (``pirates[p, CARD + s]``),
  the slot's state (``STATE + s``), whether a chain card lies on it (``CHAINED + s``)
  and the pirate's fields ``F_*``. Slots are 1 to ``CHESTS``; a pirate with ``c``
  chests uses slots 1..c and the rest are ``UNUSED``. A slot is ``CLOSED`` (a
  face-down card in it), ``OPEN`` (its number face up) or ``HOLDS_PARROT`` (the
  owner's parrot). A chain card lying on a slot is not stored as a card: a chained
  ``CLOSED`` slot carries a chained chest card, a chained ``HOLDS_PARROT`` slot a
  chained parrot card.
- ``shared``, what all pirates share: the round's scalars ``V_*`` (among them where
  the round stands: see :mod:`turns`), the open and discarded number cards of each
  value, the order of final turns, the candidates of the decision at hand with their
  scores, and the two piles (top card last): the deck at ``DECK`` and the discard pile
  at ``shared[V_DISCARD_AT]``.

The jitted functions are compiled without reference counts (``refcounts=False``, see
:mod:`analyzer.engine.jit`): they allocate nothing and return no array, and their callers
hold the arrays they are handed.

Every card of the deck is always in exactly one place: the deck, the discard pile,
a slot, or (a chain card) lying on a slot. The legal-move functions write the
candidates to ``shared[CAND:]`` and return their count; a candidate naming a pirate's
slot is ``pirate * SLOT_STRIDE + slot``.
"""

from analyzer.engine.jit import njit
from analyzer.engine.memory import padded_zeros
from analyzer.engine.rng import shuffle
from analyzer.games.doubloons.cards import CHAINED_CHEST, CHAINED_PARROT, CHESTS, KEY, N_CODES, PARROT, USED_KEY
from analyzer.games.doubloons.rules import MAX_PLAYERS_WITH_OPTION

CLOSED, OPEN, HOLDS_PARROT, UNUSED = range(4)
SLOT_STRIDE = 16

# a pirate's row of ``pirates``
CARD = 0
STATE = CARD + CHESTS + 1
CHAINED = STATE + CHESTS + 1
F_CHESTS = CHAINED + CHESTS + 1   # chests this round (slots 1..F_CHESTS)
F_UNOPENED = F_CHESTS + 1         # slots not yet showing their number (closed or parrot)
F_PARROT = F_CHESTS + 2           # the slot holding the pirate's parrot, 0 for none
F_WINS = F_CHESTS + 3             # rounds won in this match
F_ROUND_WON = F_CHESTS + 4        # WON_ROUND or WON_IN_FINAL_TURNS once the pirate finished the round
ROW = F_CHESTS + 5
WON_ROUND, WON_IN_FINAL_TURNS = 1, 2

# shared: the round's scalars
V_DECK_N, V_DISCARD_N, V_DIRECTION, V_SKIP, V_REFILLS, V_REDEALS, V_DISCARD_AT = range(7)
# shared: where the round stands, so that it can stop at a decision and go on (see turns)
V_PLAYER, V_TURNS, V_FINAL, V_STEP, V_CARD, V_ORIGIN, V_CHOICES = range(7, 14)
OPEN_COUNT = 14                                    # + number: open number cards, all chests
DISCARD_COUNT = OPEN_COUNT + CHESTS + 1            # + number: number cards in the discard pile
ORDER = DISCARD_COUNT + CHESTS + 1                 # + i: the seat playing the i-th final turn
CAND = ORDER + MAX_PLAYERS_WITH_OPTION             # + i: candidates of the decision at hand
CAND_SCORE = CAND + MAX_PLAYERS_WITH_OPTION * SLOT_STRIDE  # + i: their scores (lowest is chosen)
DECK = CAND_SCORE + MAX_PLAYERS_WITH_OPTION * SLOT_STRIDE  # + i: the deck, top card last


def new_play_area(players, deck_size):
    """The arrays ``pirates`` and ``shared`` for ``players`` and a deck of ``deck_size``
    (padded: each chunk's play area is written all the time)."""
    shared = padded_zeros(DECK + 2 * deck_size)
    shared[V_DISCARD_AT] = DECK + deck_size
    shared[V_DIRECTION] = 1
    return padded_zeros((players, ROW)), shared


# -- piles -------------------------------------------------------------------------------
@njit(cache=True, refcounts=False)
def push_discard(shared, card):
    n = shared[V_DISCARD_N]
    shared[shared[V_DISCARD_AT] + n] = card
    shared[V_DISCARD_N] = n + 1
    if card <= CHESTS:
        shared[DISCARD_COUNT + card] += 1


@njit(cache=True, refcounts=False)
def pop_discard(shared):
    n = shared[V_DISCARD_N] - 1
    card = shared[shared[V_DISCARD_AT] + n]
    if card <= CHESTS:
        shared[DISCARD_COUNT + card] -= 1
    shared[V_DISCARD_N] = n
    return card


@njit(cache=True, refcounts=False)
def discard_top(shared):
    """The discard pile's top card, 0 when the pile is empty."""
    n = shared[V_DISCARD_N]
    return shared[shared[V_DISCARD_AT] + n - 1] if n > 0 else 0


@njit(cache=True, refcounts=False)
def discarded(shared, card):
    """Copies of ``card`` in the discard pile."""
    base = shared[V_DISCARD_AT]
    count = 0
    for i in range(shared[V_DISCARD_N]):
        if shared[base + i] == card:
            count += 1
    return count


@njit(cache=True, refcounts=False)
def pop_deck(shared):
    n = shared[V_DECK_N] - 1
    shared[V_DECK_N] = n
    return shared[DECK + n]


@njit(cache=True, refcounts=False)
def refill_deck(shared, rng):
    """Shuffle the discards but the top card into a new deck (used keys become keys)."""
    base = shared[V_DISCARD_AT]
    n = shared[V_DISCARD_N] - 1
    top = shared[base + n]
    for i in range(n):
        card = shared[base + i]
        shared[DECK + i] = KEY if card == USED_KEY else card
    shuffle(rng, shared[DECK:DECK + n], n)
    shared[V_DECK_N] = n
    shared[base] = top
    shared[V_DISCARD_N] = 1
    shared[DISCARD_COUNT:DISCARD_COUNT + CHESTS + 1] = 0
    if top <= CHESTS:
        shared[DISCARD_COUNT + top] = 1
    shared[V_REFILLS] += 1


# -- the deal ----------------------------------------------------------------------------
@njit(cache=True, refcounts=False)
def deal_round(pirates, shared, inputs, rng):
    """Shuffle every card into the deck, deal each pirate's ``F_CHESTS`` chests face down
    and turn up a number to start the discard pile (a special is shuffled back).

    Should no number card be left in the deck (possible only with very few number
    cards), the deal is redone; ``V_REDEALS`` counts how often.
    """
    size = inputs.deck_size
    composition = inputs.composition
    deck = shared[DECK:DECK + size]
    shared[V_REDEALS] = -1
    while True:
        shared[V_REDEALS] += 1
        i = 0
        for code in range(1, N_CODES):
            for _ in range(composition[code]):
                deck[i] = code
                i += 1
        shuffle(rng, deck, size)
        n = size
        for p in range(pirates.shape[0]):
            chests = pirates[p, F_CHESTS]
            for slot in range(1, CHESTS + 1):
                pirates[p, CHAINED + slot] = 0
                if slot <= chests:
                    n -= 1
                    pirates[p, CARD + slot] = deck[n]
                    pirates[p, STATE + slot] = CLOSED
                else:
                    pirates[p, CARD + slot] = 0
                    pirates[p, STATE + slot] = UNUSED
            pirates[p, F_UNOPENED] = chests
            pirates[p, F_PARROT] = 0
            pirates[p, F_ROUND_WON] = 0
        numbers_left = 0
        for i in range(n):
            if deck[i] <= CHESTS:
                numbers_left += 1
        if numbers_left > 0:
            break
    while deck[n - 1] > CHESTS:
        shuffle(rng, deck, n)
    shared[OPEN_COUNT:OPEN_COUNT + CHESTS + 1] = 0
    shared[DISCARD_COUNT:DISCARD_COUNT + CHESTS + 1] = 0
    shared[V_DECK_N] = n
    shared[V_DISCARD_N] = 0
    shared[V_DIRECTION] = 1
    shared[V_SKIP] = 0
    shared[V_REFILLS] = 0
    push_discard(shared, pop_deck(shared))


# -- chests ------------------------------------------------------------------------------
@njit(cache=True, refcounts=False)
def can_place(pirates, p, number):
    """Can pirate p put this number card in its slot (closed, or its own parrot, unchained)?"""
    state = pirates[p, STATE + number]
    chained = pirates[p, CHAINED + number]
    return (state == CLOSED or state == HOLDS_PARROT) and chained == 0


@njit(cache=True, refcounts=False)
def place_number(pirates, shared, p, number):
    """Open slot ``number`` with its card; returns the card that lay there (p's own
    parrot, now freed, or the face-down card)."""
    under = pirates[p, CARD + number]
    if pirates[p, STATE + number] == HOLDS_PARROT:
        pirates[p, F_PARROT] = 0
    pirates[p, CARD + number] = number
    pirates[p, STATE + number] = OPEN
    pirates[p, F_UNOPENED] -= 1
    shared[OPEN_COUNT + number] += 1
    return under


@njit(cache=True, refcounts=False)
def put_parrot(pirates, p, slot):
    """Put pirate p's parrot on a closed slot; returns the face-down card it uncovers."""
    under = pirates[p, CARD + slot]
    pirates[p, CARD + slot] = PARROT
    pirates[p, STATE + slot] = HOLDS_PARROT
    pirates[p, F_PARROT] = slot
    return under


@njit(cache=True, refcounts=False)
def swap_chests(pirates, p, q, slot):
    """The pirate's swap: p's slot (closed or p's parrot) for q's open number there."""
    if pirates[p, STATE + slot] == HOLDS_PARROT:
        pirates[q, CARD + slot] = PARROT
        pirates[q, STATE + slot] = HOLDS_PARROT
        pirates[q, F_PARROT] = slot
        pirates[p, F_PARROT] = 0
    else:
        pirates[q, CARD + slot] = pirates[p, CARD + slot]
        pirates[q, STATE + slot] = CLOSED
    pirates[p, CARD + slot] = slot
    pirates[p, STATE + slot] = OPEN
    pirates[p, F_UNOPENED] -= 1
    pirates[q, F_UNOPENED] += 1


@njit(cache=True, refcounts=False)
def unlock(pirates, shared, p, slot):
    """A key frees p's chained slot: the chain card, then the used key, go to the discard."""
    pirates[p, CHAINED + slot] = 0
    push_discard(shared, CHAINED_PARROT if pirates[p, STATE + slot] == HOLDS_PARROT else CHAINED_CHEST)
    push_discard(shared, USED_KEY)


# -- legal moves (write shared[CAND:], return the count) -----------------------------------------
@njit(cache=True, refcounts=False)
def parrot_slots(pirates, shared, p):
    """Pirate p's closed, unchained slots (where a parrot may go)."""
    count = 0
    for slot in range(1, pirates[p, F_CHESTS] + 1):
        if pirates[p, STATE + slot] == CLOSED and pirates[p, CHAINED + slot] == 0:
            shared[CAND + count] = slot
            count += 1
    return count


@njit(cache=True, refcounts=False)
def pirate_swaps(pirates, shared, p):
    """(victim, slot) pairs for p's pirate: p's slot closed or p's parrot, unchained, the
    victim's slot open; p's parrot only goes to a victim without one."""
    count = 0
    for q in range(pirates.shape[0]):
        if q == p:
            continue
        for slot in range(1, min(pirates[p, F_CHESTS], pirates[q, F_CHESTS]) + 1):
            if pirates[q, STATE + slot] != OPEN or pirates[p, CHAINED + slot]:
                continue
            mine = pirates[p, STATE + slot]
            if mine == CLOSED or (mine == HOLDS_PARROT and pirates[q, F_PARROT] == 0):
                shared[CAND + count] = q * SLOT_STRIDE + slot
                count += 1
    return count


@njit(cache=True, refcounts=False)
def chained_parrot_targets(pirates, shared, p):
    """Opponents' unchained parrots."""
    count = 0
    for q in range(pirates.shape[0]):
        slot = pirates[q, F_PARROT]
        if q != p and slot > 0 and pirates[q, CHAINED + slot] == 0:
            shared[CAND + count] = q * SLOT_STRIDE + slot
            count += 1
    return count


@njit(cache=True, refcounts=False)
def chained_chest_targets(pirates, shared, p):
    """Opponents' closed, unchained chests."""
    count = 0
    for q in range(pirates.shape[0]):
        if q == p:
            continue
        for slot in range(1, pirates[q, F_CHESTS] + 1):
            if pirates[q, STATE + slot] == CLOSED and pirates[q, CHAINED + slot] == 0:
                shared[CAND + count] = q * SLOT_STRIDE + slot
                count += 1
    return count


@njit(cache=True, refcounts=False)
def key_targets(pirates, shared, p):
    """Pirate p's own chained slots."""
    count = 0
    for slot in range(1, pirates[p, F_CHESTS] + 1):
        if pirates[p, CHAINED + slot]:
            shared[CAND + count] = slot
            count += 1
    return count


@njit(cache=True, refcounts=False)
def can_take_discard(pirates, p, card):
    """The book's discard restrictions: numbers; a parrot if p has none; an unused key."""
    has_parrot = pirates[p, F_PARROT] != 0
    if card == 0:
        return False
    if card <= CHESTS or card == KEY:
        return True
    return card == PARROT and not has_parrot


@njit(cache=True, refcounts=False)
def unseen(shared, composition, number, count_discards):
    """Copies of ``number`` not in sight: the deck's copies less the open ones (and, for a
    pirate who remembers it, the discard pile's)."""
    copies = composition[number]
    opened = shared[OPEN_COUNT + number]
    discarded = shared[DISCARD_COUNT + number]
    return copies - opened - (discarded if count_discards else 0)
