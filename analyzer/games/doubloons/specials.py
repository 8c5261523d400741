"""What the special cards other than the parrot do when a pirate plays them (jitted).

:func:`apply_special` runs on most turns, so :func:`turns.play_chain` inlines it (called,
matches ran 13% slower when the round loop still counted references). A pirate who
decides by search (``lookahead``) makes its choice outside the round loop:
:func:`apply_special` then stops at the legal candidates and :func:`play_choice` applies
the one chosen.
"""

from analyzer.engine.jit import njit
from analyzer.games.doubloons.cards import CHAINED_CHEST, CHAINED_PARROT, DRUNK_PIRATE, KEY, KRAKEN, PIRATE
from analyzer.games.doubloons.decisions import choose_chain, choose_key, choose_swap, searches
from analyzer.games.doubloons.play_area import (
    CHAINED,
    SLOT_STRIDE,
    V_DIRECTION,
    V_SKIP,
    chained_chest_targets,
    chained_parrot_targets,
    key_targets,
    pirate_swaps,
    push_discard,
    swap_chests,
    unlock,
)


@njit(cache=True, refcounts=False)
def rob(pirates, shared, p, choice):
    """The pirate's swap ``choice`` (victim * SLOT_STRIDE + slot); the pirate is discarded."""
    swap_chests(pirates, p, choice // SLOT_STRIDE, choice % SLOT_STRIDE)
    push_discard(shared, PIRATE)


@njit(cache=True, refcounts=False)
def lay_chain(pirates, choice):
    """A chain card comes to lie on ``choice`` (pirate * SLOT_STRIDE + slot)."""
    pirates[choice // SLOT_STRIDE, CHAINED + choice % SLOT_STRIDE] = 1


@njit(cache=True, refcounts=False)
def play_choice(pirates, shared, p, card, choice):
    """Play special ``card`` (a pirate, a chain or a key with a target) on the candidate chosen."""
    if card == PIRATE:
        rob(pirates, shared, p, choice)
    elif card == KEY:
        unlock(pirates, shared, p, choice)
    else:
        lay_chain(pirates, choice)


@njit(cache=True, refcounts=False, inline="always")
def apply_special(pirates, shared, inputs, p, card, rng):
    """Apply a special card other than the parrot; returns (acted, choices).

    The card goes to the discard pile, except a chain card that found a target (it lies
    on it) and a key that unlocked something (it follows the chain card it freed).
    ``choices`` is 0 unless p searches and the card has targets: then nothing is
    applied yet and the ``choices`` candidates are in ``shared[CAND:]`` (see
    :func:`play_choice`).
    """
    if card == DRUNK_PIRATE:
        shared[V_DIRECTION] = -shared[V_DIRECTION]
        push_discard(shared, card)
        return True, 0
    if card == KRAKEN:
        shared[V_SKIP] = 1
        push_discard(shared, card)
        return True, 0
    if card == PIRATE:
        count = pirate_swaps(pirates, shared, p)
    elif card == CHAINED_PARROT:
        count = chained_parrot_targets(pirates, shared, p)
    elif card == CHAINED_CHEST:
        count = chained_chest_targets(pirates, shared, p)
    else:  # the key
        count = key_targets(pirates, shared, p)
    if count == 0:
        push_discard(shared, card)
        return False, 0
    if searches(inputs, p):
        return False, count
    if card == PIRATE:
        rob(pirates, shared, p, choose_swap(pirates, shared, inputs, p, count, rng))
    elif card == KEY:
        unlock(pirates, shared, p, choose_key(pirates, shared, inputs, p, count, rng))
    else:
        lay_chain(pirates, choose_chain(pirates, shared, inputs, p, count, rng))
    return True, 0
