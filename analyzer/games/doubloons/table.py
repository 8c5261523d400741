"""The state of a Doubloons round on the table, and the jitted moves that change it.

The state is two plain integer arrays (numba takes and releases a reference to every
array a jitted call receives, each array of a tuple included, so few arrays keep the
calls cheap):

- ``tab[p, ...]``, one row per pirate: the card in each slot (``tab[p, CARD + s]``),
  the slot's state (``STATE + s``), whether a chain card lies on it (``CHAINED + s``)
  and the pirate's fields ``F_*``. Slots are 1 to ``CHESTS``; a pirate with ``c``
  chests uses slots 1..c and the rest are ``UNUSED``. A slot is ``CLOSED`` (a
  face-down card in it), ``OPEN`` (its number face up) or ``HOLDS_PARROT`` (the
  owner's parrot). A chain card lying on a slot is not stored as a card: a chained
  ``CLOSED`` slot carries a chained chest card, a chained ``HOLDS_PARROT`` slot a
  chained parrot card.
- ``g``, the shared part: the round's scalars ``V_*``, the open and discarded number
  cards of each value, the order of final turns, the candidates of the decision at
  hand with their scores, and the two piles (top card last): the deck at ``DECK``
  and the discard pile at ``g[V_DISCARD_AT]``.

The jitted functions read every array they need before branching where they can: an
array whose last use sits in only one branch costs a reference-count round trip per
call, which on the hot path costs more than the work itself.

Every card of the deck is always in exactly one place: the deck, the discard pile,
a slot, or (a chain card) lying on a slot. The legal-move functions write the
candidates to ``g[CAND:]`` and return their count; a candidate naming a pirate's slot
is ``pirate * SLOT_STRIDE + slot``.
"""

import numpy as np
from numba import njit

from analyzer.engine.rng import shuffle
from analyzer.games.doubloons.cards import CHAINED_CHEST, CHAINED_PARROT, CHESTS, KEY, N_CODES, PARROT, USED_KEY
from analyzer.games.doubloons.rules import COMPOSITION, MAX_PLAYERS_WITH_OPTION, R_DECK_SIZE

CLOSED, OPEN, HOLDS_PARROT, UNUSED = range(4)
SLOT_STRIDE = 16

# a pirate's row of tab
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

# g: the round's scalars
V_DECK_N, V_DISCARD_N, V_DIRECTION, V_SKIP, V_REFILLS, V_REDEALS, V_DISCARD_AT = range(7)
OPEN_COUNT = 7                                     # + number: open number cards, all chests
DISCARD_COUNT = OPEN_COUNT + CHESTS + 1            # + number: number cards in the discard pile
ORDER = DISCARD_COUNT + CHESTS + 1                 # + i: the seat playing the i-th final turn
CAND = ORDER + MAX_PLAYERS_WITH_OPTION             # + i: candidates of the decision at hand
CAND_SCORE = CAND + MAX_PLAYERS_WITH_OPTION * SLOT_STRIDE  # + i: their scores (lowest is chosen)
DECK = CAND_SCORE + MAX_PLAYERS_WITH_OPTION * SLOT_STRIDE  # + i: the deck, top card last


@njit(cache=True)
def new_table(players, deck_size):
    """The arrays ``tab`` and ``g`` for a table of ``players`` and a deck of ``deck_size``."""
    g = np.zeros(DECK + 2 * deck_size, np.int64)
    g[V_DISCARD_AT] = DECK + deck_size
    g[V_DIRECTION] = 1
    return np.zeros((players, ROW), np.int64), g


# -- piles -------------------------------------------------------------------------------
@njit(cache=True)
def push_discard(g, card):
    n = g[V_DISCARD_N]
    g[g[V_DISCARD_AT] + n] = card
    g[V_DISCARD_N] = n + 1
    if card <= CHESTS:
        g[DISCARD_COUNT + card] += 1


@njit(cache=True)
def pop_discard(g):
    n = g[V_DISCARD_N] - 1
    card = g[g[V_DISCARD_AT] + n]
    if card <= CHESTS:
        g[DISCARD_COUNT + card] -= 1
    g[V_DISCARD_N] = n
    return card


@njit(cache=True)
def discard_top(g):
    """The discard pile's top card, 0 when the pile is empty."""
    n = g[V_DISCARD_N]
    return g[g[V_DISCARD_AT] + n - 1] if n > 0 else 0


@njit(cache=True)
def pop_deck(g):
    n = g[V_DECK_N] - 1
    g[V_DECK_N] = n
    return g[DECK + n]


@njit(cache=True)
def refill_deck(g, rng):
    """Shuffle the discards but the top card into a new deck (used keys become keys)."""
    base = g[V_DISCARD_AT]
    n = g[V_DISCARD_N] - 1
    top = g[base + n]
    for i in range(n):
        card = g[base + i]
        g[DECK + i] = KEY if card == USED_KEY else card
    shuffle(rng, g[DECK:DECK + n], n)
    g[V_DECK_N] = n
    g[base] = top
    g[V_DISCARD_N] = 1
    g[DISCARD_COUNT:DISCARD_COUNT + CHESTS + 1] = 0
    if top <= CHESTS:
        g[DISCARD_COUNT + top] = 1
    g[V_REFILLS] += 1


# -- the deal ----------------------------------------------------------------------------
@njit(cache=True)
def deal_round(tab, g, setup, rng):
    """Shuffle every card into the deck, deal each pirate's ``F_CHESTS`` chests face down
    and turn up a number to start the discard pile (a special is shuffled back).

    Should no number card be left in the deck (possible only with very few number
    cards), the deal is redone; ``V_REDEALS`` counts how often.
    """
    size = setup[R_DECK_SIZE]
    deck = g[DECK:DECK + size]
    g[V_REDEALS] = -1
    while True:
        g[V_REDEALS] += 1
        i = 0
        for code in range(1, N_CODES):
            for _ in range(setup[COMPOSITION + code]):
                deck[i] = code
                i += 1
        shuffle(rng, deck, size)
        n = size
        for p in range(tab.shape[0]):
            chests = tab[p, F_CHESTS]
            for slot in range(1, CHESTS + 1):
                tab[p, CHAINED + slot] = 0
                if slot <= chests:
                    n -= 1
                    tab[p, CARD + slot] = deck[n]
                    tab[p, STATE + slot] = CLOSED
                else:
                    tab[p, CARD + slot] = 0
                    tab[p, STATE + slot] = UNUSED
            tab[p, F_UNOPENED] = chests
            tab[p, F_PARROT] = 0
            tab[p, F_ROUND_WON] = 0
        numbers_left = 0
        for i in range(n):
            if deck[i] <= CHESTS:
                numbers_left += 1
        if numbers_left > 0:
            break
    while deck[n - 1] > CHESTS:
        shuffle(rng, deck, n)
    g[OPEN_COUNT:OPEN_COUNT + CHESTS + 1] = 0
    g[DISCARD_COUNT:DISCARD_COUNT + CHESTS + 1] = 0
    g[V_DECK_N] = n
    g[V_DISCARD_N] = 0
    g[V_DIRECTION] = 1
    g[V_SKIP] = 0
    g[V_REFILLS] = 0
    push_discard(g, pop_deck(g))


# -- chests ------------------------------------------------------------------------------
@njit(cache=True)
def can_place(tab, p, number):
    """Can pirate p put this number card in its slot (closed, or its own parrot, unchained)?"""
    state = tab[p, STATE + number]
    chained = tab[p, CHAINED + number]
    return (state == CLOSED or state == HOLDS_PARROT) and chained == 0


@njit(cache=True)
def place_number(tab, g, p, number):
    """Open slot ``number`` with its card; returns the card that lay there (p's own
    parrot, now freed, or the face-down card)."""
    under = tab[p, CARD + number]
    if tab[p, STATE + number] == HOLDS_PARROT:
        tab[p, F_PARROT] = 0
    tab[p, CARD + number] = number
    tab[p, STATE + number] = OPEN
    tab[p, F_UNOPENED] -= 1
    g[OPEN_COUNT + number] += 1
    return under


@njit(cache=True)
def put_parrot(tab, p, slot):
    """Put pirate p's parrot on a closed slot; returns the face-down card it uncovers."""
    under = tab[p, CARD + slot]
    tab[p, CARD + slot] = PARROT
    tab[p, STATE + slot] = HOLDS_PARROT
    tab[p, F_PARROT] = slot
    return under


@njit(cache=True)
def swap_chests(tab, p, q, slot):
    """The pirate's swap: p's slot (closed or p's parrot) for q's open number there."""
    if tab[p, STATE + slot] == HOLDS_PARROT:
        tab[q, CARD + slot] = PARROT
        tab[q, STATE + slot] = HOLDS_PARROT
        tab[q, F_PARROT] = slot
        tab[p, F_PARROT] = 0
    else:
        tab[q, CARD + slot] = tab[p, CARD + slot]
        tab[q, STATE + slot] = CLOSED
    tab[p, CARD + slot] = slot
    tab[p, STATE + slot] = OPEN
    tab[p, F_UNOPENED] -= 1
    tab[q, F_UNOPENED] += 1


@njit(cache=True)
def unlock(tab, g, p, slot):
    """A key frees p's chained slot: the chain card, then the used key, go to the discard."""
    tab[p, CHAINED + slot] = 0
    push_discard(g, CHAINED_PARROT if tab[p, STATE + slot] == HOLDS_PARROT else CHAINED_CHEST)
    push_discard(g, USED_KEY)


# -- legal moves (write g[CAND:], return the count) -----------------------------------------
@njit(cache=True)
def parrot_slots(tab, g, p):
    """Pirate p's closed, unchained slots (where a parrot may go)."""
    count = 0
    for slot in range(1, tab[p, F_CHESTS] + 1):
        if tab[p, STATE + slot] == CLOSED and tab[p, CHAINED + slot] == 0:
            g[CAND + count] = slot
            count += 1
    return count


@njit(cache=True)
def pirate_swaps(tab, g, p):
    """(victim, slot) pairs for p's pirate: p's slot closed or p's parrot, unchained, the
    victim's slot open; p's parrot only goes to a victim without one."""
    count = 0
    for q in range(tab.shape[0]):
        if q == p:
            continue
        for slot in range(1, min(tab[p, F_CHESTS], tab[q, F_CHESTS]) + 1):
            if tab[q, STATE + slot] != OPEN or tab[p, CHAINED + slot]:
                continue
            mine = tab[p, STATE + slot]
            if mine == CLOSED or (mine == HOLDS_PARROT and tab[q, F_PARROT] == 0):
                g[CAND + count] = q * SLOT_STRIDE + slot
                count += 1
    return count


@njit(cache=True)
def chained_parrot_targets(tab, g, p):
    """Opponents' unchained parrots."""
    count = 0
    for q in range(tab.shape[0]):
        slot = tab[q, F_PARROT]
        if q != p and slot > 0 and tab[q, CHAINED + slot] == 0:
            g[CAND + count] = q * SLOT_STRIDE + slot
            count += 1
    return count


@njit(cache=True)
def chained_chest_targets(tab, g, p):
    """Opponents' closed, unchained chests."""
    count = 0
    for q in range(tab.shape[0]):
        if q == p:
            continue
        for slot in range(1, tab[q, F_CHESTS] + 1):
            if tab[q, STATE + slot] == CLOSED and tab[q, CHAINED + slot] == 0:
                g[CAND + count] = q * SLOT_STRIDE + slot
                count += 1
    return count


@njit(cache=True)
def key_targets(tab, g, p):
    """Pirate p's own chained slots."""
    count = 0
    for slot in range(1, tab[p, F_CHESTS] + 1):
        if tab[p, CHAINED + slot]:
            g[CAND + count] = slot
            count += 1
    return count


@njit(cache=True)
def can_take_discard(tab, p, card):
    """The book's discard restrictions: numbers; a parrot if p has none; an unused key."""
    has_parrot = tab[p, F_PARROT] != 0
    if card == 0:
        return False
    if card <= CHESTS or card == KEY:
        return True
    return card == PARROT and not has_parrot


@njit(cache=True)
def unseen(g, setup, number, count_discards):
    """Copies of ``number`` not in sight: the deck's copies less the open ones (and, for a
    pirate who remembers it, the discard pile's)."""
    copies = setup[COMPOSITION + number]
    opened = g[OPEN_COUNT + number]
    discarded = g[DISCARD_COUNT + number]
    return copies - opened - (discarded if count_discards else 0)


@njit(cache=True)
def count_cards(tab, g, counts):
    """Add every card on the table to ``counts`` (by code; a used key counts as a key)."""
    for i in range(g[V_DECK_N]):
        counts[g[DECK + i]] += 1
    base = g[V_DISCARD_AT]
    for i in range(g[V_DISCARD_N]):
        card = g[base + i]
        counts[KEY if card == USED_KEY else card] += 1
    for p in range(tab.shape[0]):
        for slot in range(1, CHESTS + 1):
            state = tab[p, STATE + slot]
            if state != UNUSED:
                counts[tab[p, CARD + slot]] += 1
            if tab[p, CHAINED + slot]:
                counts[CHAINED_PARROT if state == HOLDS_PARROT else CHAINED_CHEST] += 1
