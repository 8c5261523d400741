"""Building small Doubloons play areas by hand for the rule and strategy tests.

A play area is laid out slot by slot: every slot of a pirate's chests is open unless the
test says otherwise, so a case only names what matters. The counters the kernel keeps
alongside the slots (unopened chests, parrot slot, open and discarded numbers) are
recomputed from the layout, so the hand-built state is one the kernel could reach.
"""

import numpy as np

from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.cards import CHESTS, PARROT
from analyzer.games.doubloons.play_area import (
    CARD,
    CHAINED,
    CLOSED,
    DECK,
    DISCARD_COUNT,
    F_CHESTS,
    F_PARROT,
    F_UNOPENED,
    HOLDS_PARROT,
    OPEN,
    OPEN_COUNT,
    STATE,
    UNUSED,
    V_DECK_N,
    V_DIRECTION,
    V_DISCARD_AT,
    V_DISCARD_N,
    new_play_area,
)
from analyzer.games.doubloons.turns import N_EVENTS
from analyzer.runspec import resolve

#: a slot holding the owner's parrot (in ``lay``)
PARROT_HERE = "parrot"


def prepared(players=3, strategies=("greedy",), **rules):
    """The game's prepared run for these rules and strategy specs."""
    spec = resolve(game="doubloons", players=players, strategies=list(strategies), rules=rules)
    return GAME.prepare(spec.rules, spec.players, spec.seats)


class PlayArea:
    """A hand-built play area: ``pirates``, ``shared`` and the kernel ``inputs`` of ``prepared(...)``."""

    def __init__(self, players=3, strategies=("greedy",), **rules):
        self.inputs = prepared(players, strategies, **rules).inputs
        self.players = players
        self.pirates, self.shared = new_play_area(players, self.inputs.deck_size)
        self.events = np.zeros((players, N_EVENTS), np.int64)
        self.rng = np.zeros(4, np.uint64)
        self.rng[:] = (1, 2, 3, 4)
        for p in range(players):
            self.lay(p, {})

    def lay(self, p, closed, chests=CHESTS, chained=()):
        """Pirate p's chests: ``closed`` maps a slot to its face-down card, or to
        ``PARROT_HERE``; every other slot up to ``chests`` is open; ``chained`` slots
        carry a chain card."""
        pirates = self.pirates
        pirates[p, F_CHESTS] = chests
        pirates[p, F_PARROT] = 0
        for slot in range(1, CHESTS + 1):
            pirates[p, CHAINED + slot] = 1 if slot in chained else 0
            if slot > chests:
                pirates[p, STATE + slot], pirates[p, CARD + slot] = UNUSED, 0
            elif slot not in closed:
                pirates[p, STATE + slot], pirates[p, CARD + slot] = OPEN, slot
            elif closed[slot] == PARROT_HERE:
                pirates[p, STATE + slot], pirates[p, CARD + slot] = HOLDS_PARROT, PARROT
                pirates[p, F_PARROT] = slot
            else:
                pirates[p, STATE + slot], pirates[p, CARD + slot] = CLOSED, closed[slot]
        pirates[p, F_UNOPENED] = sum(1 for slot in range(1, chests + 1) if pirates[p, STATE + slot] != OPEN)
        self._recount()

    def piles(self, deck=(), discard=()):
        """The deck and the discard pile, bottom card first (the top card is last)."""
        shared = self.shared
        shared[DECK:DECK + len(deck)] = deck
        shared[V_DECK_N] = len(deck)
        base = shared[V_DISCARD_AT]
        shared[base:base + len(discard)] = discard
        shared[V_DISCARD_N] = len(discard)
        self._recount()

    def _recount(self):
        shared, pirates = self.shared, self.pirates
        shared[OPEN_COUNT:OPEN_COUNT + CHESTS + 1] = 0
        shared[DISCARD_COUNT:DISCARD_COUNT + CHESTS + 1] = 0
        for p in range(self.players):
            for slot in range(1, CHESTS + 1):
                if pirates[p, STATE + slot] == OPEN:
                    shared[OPEN_COUNT + slot] += 1
        for card in self.discard():
            if card <= CHESTS:
                shared[DISCARD_COUNT + card] += 1

    # -- reading the play area back ----------------------------------------------------------
    def deck(self):
        return [int(c) for c in self.shared[DECK:DECK + self.shared[V_DECK_N]]]

    def discard(self):
        base = self.shared[V_DISCARD_AT]
        return [int(c) for c in self.shared[base:base + self.shared[V_DISCARD_N]]]

    def state(self, p, slot):
        return int(self.pirates[p, STATE + slot])

    def card(self, p, slot):
        return int(self.pirates[p, CARD + slot])

    def chained(self, p, slot):
        return bool(self.pirates[p, CHAINED + slot])

    def field(self, p, name):
        return int(self.pirates[p, name])

    @property
    def direction(self):
        return int(self.shared[V_DIRECTION])

    def closed_slots(self, p):
        return [s for s in range(1, CHESTS + 1) if self.pirates[p, STATE + s] == CLOSED]
