"""What the special cards other than the parrot do when a pirate plays them (jitted).

:func:`apply_special` runs on most turns, so :func:`kernel.play_out_round` inlines it
(see there why).
"""

from numba import njit

from analyzer.games.doubloons.cards import CHAINED_CHEST, CHAINED_PARROT, DRUNK_PIRATE, KRAKEN, PIRATE
from analyzer.games.doubloons.decisions import choose_chain, choose_key, choose_swap
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


@njit(cache=True, inline="always")
def apply_special(pirates, shared, inputs, p, card, rng):
    """Apply a special card other than the parrot; returns True if it acted.

    The card goes to the discard pile, except a chain card that found a target (it lies
    on it) and a key that unlocked something (it follows the chain card it freed).
    """
    if card == DRUNK_PIRATE:
        shared[V_DIRECTION] = -shared[V_DIRECTION]
        push_discard(shared, card)
        return True
    if card == KRAKEN:
        shared[V_SKIP] = 1
        push_discard(shared, card)
        return True
    if card == PIRATE:
        count = pirate_swaps(pirates, shared, p)
        if count > 0:
            choice = choose_swap(pirates, shared, inputs, p, count, rng)
            swap_chests(pirates, p, choice // SLOT_STRIDE, choice % SLOT_STRIDE)
        push_discard(shared, card)
        return count > 0
    if card == CHAINED_PARROT or card == CHAINED_CHEST:
        if card == CHAINED_PARROT:
            count = chained_parrot_targets(pirates, shared, p)
        else:
            count = chained_chest_targets(pirates, shared, p)
        if count == 0:
            push_discard(shared, card)
            return False
        choice = choose_chain(pirates, shared, inputs, p, count, rng)
        pirates[choice // SLOT_STRIDE, CHAINED + choice % SLOT_STRIDE] = 1
        return True
    # the key
    count = key_targets(pirates, shared, p)
    if count == 0:
        push_discard(shared, card)
        return False
    unlock(pirates, shared, p, choose_key(pirates, shared, inputs, p, count, rng))
    return True
