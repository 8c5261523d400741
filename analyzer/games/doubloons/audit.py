"""The audit of a Doubloons play area: card conservation and bookkeeping invariants.

:func:`audit` runs after the deal and after every turn when the kernel's inputs ask
for it (``Doubloons.audit_games``); it never changes the play area.
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.games.doubloons.cards import CHAINED_CHEST, CHAINED_PARROT, CHESTS, KEY, N_CODES, PARROT, USED_KEY
from analyzer.games.doubloons.play_area import (
    CARD,
    CHAINED,
    CLOSED,
    DECK,
    DISCARD_COUNT,
    F_CHESTS,
    F_PARROT,
    F_UNOPENED,
    F_WINS,
    HOLDS_PARROT,
    OPEN,
    OPEN_COUNT,
    STATE,
    UNUSED,
    V_DECK_N,
    V_DISCARD_AT,
    V_DISCARD_N,
)


@njit(cache=True)
def count_cards(pirates, shared, counts):
    """Add every card in the play area to ``counts`` (by code; a used key counts as a key)."""
    for i in range(shared[V_DECK_N]):
        counts[shared[DECK + i]] += 1
    base = shared[V_DISCARD_AT]
    for i in range(shared[V_DISCARD_N]):
        card = shared[base + i]
        counts[KEY if card == USED_KEY else card] += 1
    for p in range(pirates.shape[0]):
        for slot in range(1, CHESTS + 1):
            state = pirates[p, STATE + slot]
            if state != UNUSED:
                counts[pirates[p, CARD + slot]] += 1
            if pirates[p, CHAINED + slot]:
                counts[CHAINED_PARROT if state == HOLDS_PARROT else CHAINED_CHEST] += 1


@njit(cache=True)
def audit(pirates, shared, composition):
    """Count broken invariants of the play area: every card dealt is in exactly one place
    (deck, discard pile, a slot, or a chain card lying on a slot); each pirate has one
    chest fewer per round won; and the bookkeeping (open/unopened counts, parrots,
    chains, pile counts) matches the slots."""
    violations = 0
    counts = np.zeros(N_CODES, np.int64)
    count_cards(pirates, shared, counts)
    for code in range(N_CODES):
        if counts[code] != composition[code]:
            violations += 1
    open_count = np.zeros(CHESTS + 1, np.int64)
    for p in range(pirates.shape[0]):
        chests = pirates[p, F_CHESTS]
        if chests != CHESTS - pirates[p, F_WINS]:
            violations += 1
        unopened = 0
        parrots = 0
        for slot in range(1, CHESTS + 1):
            state = pirates[p, STATE + slot]
            card = pirates[p, CARD + slot]
            if (state == UNUSED) != (slot > chests):
                violations += 1
            if state == OPEN:
                open_count[slot] += 1
                if card != slot:
                    violations += 1
            elif state == CLOSED or state == HOLDS_PARROT:
                unopened += 1
            if state == HOLDS_PARROT:
                parrots += 1
                if card != PARROT or pirates[p, F_PARROT] != slot:
                    violations += 1
            if pirates[p, CHAINED + slot] and state != CLOSED and state != HOLDS_PARROT:
                violations += 1
        if unopened != pirates[p, F_UNOPENED] or parrots > 1:
            violations += 1
        if parrots == 0 and pirates[p, F_PARROT] != 0:
            violations += 1
    discard_count = np.zeros(CHESTS + 1, np.int64)
    base = shared[V_DISCARD_AT]
    for i in range(shared[V_DISCARD_N]):
        card = shared[base + i]
        if card <= CHESTS:
            discard_count[card] += 1
    for number in range(1, CHESTS + 1):
        if open_count[number] != shared[OPEN_COUNT + number] or discard_count[number] != shared[DISCARD_COUNT + number]:
            violations += 1
    if shared[V_DECK_N] < 0 or shared[V_DISCARD_N] < 0:
        violations += 1
    return violations
