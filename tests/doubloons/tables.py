"""Building small Doubloons tables by hand for the rule and strategy tests.

A table is laid out slot by slot: every slot of a pirate's chests is open unless the
test says otherwise, so a case only names what matters. The counters the kernel keeps
alongside the slots (unopened chests, parrot slot, open and discarded numbers) are
recomputed from the layout, so the hand-built state is one the kernel could reach.
"""

import numpy as np

from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.cards import CHESTS, PARROT
from analyzer.games.doubloons.kernel import N_EVENTS
from analyzer.games.doubloons.rules import R_DECK_SIZE
from analyzer.games.doubloons.table import (
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
    new_table,
)
from analyzer.runspec import resolve

#: a slot holding the owner's parrot (in ``lay``)
PARROT_HERE = "parrot"


def prepared(players=3, strategies=("greedy",), **rules):
    """The game's prepared arrays for these rules and strategy specs."""
    spec = resolve(game="doubloons", players=players, strategies=list(strategies), rules=rules)
    return GAME.prepare(spec.rules, spec.players, spec.seats)


class Table:
    """A hand-built table: ``tab``, ``g`` and the kernel inputs of ``prepared(...)``."""

    def __init__(self, players=3, strategies=("greedy",), **rules):
        prep = prepared(players, strategies, **rules)
        self.setup = prep.arrays["setup"]
        self.params = prep.arrays["params"]
        self.players = players
        self.tab, self.g = new_table(players, self.setup[R_DECK_SIZE])
        self.events = np.zeros((players, N_EVENTS), np.int64)
        self.rng = np.zeros(4, np.uint64)
        self.rng[:] = (1, 2, 3, 4)
        for p in range(players):
            self.lay(p, {})

    def lay(self, p, closed, chests=CHESTS, chained=()):
        """Pirate p's chests: ``closed`` maps a slot to its face-down card, or to
        ``PARROT_HERE``; every other slot up to ``chests`` is open; ``chained`` slots
        carry a chain card."""
        tab = self.tab
        tab[p, F_CHESTS] = chests
        tab[p, F_PARROT] = 0
        for slot in range(1, CHESTS + 1):
            tab[p, CHAINED + slot] = 1 if slot in chained else 0
            if slot > chests:
                tab[p, STATE + slot], tab[p, CARD + slot] = UNUSED, 0
            elif slot not in closed:
                tab[p, STATE + slot], tab[p, CARD + slot] = OPEN, slot
            elif closed[slot] == PARROT_HERE:
                tab[p, STATE + slot], tab[p, CARD + slot] = HOLDS_PARROT, PARROT
                tab[p, F_PARROT] = slot
            else:
                tab[p, STATE + slot], tab[p, CARD + slot] = CLOSED, closed[slot]
        tab[p, F_UNOPENED] = sum(1 for slot in range(1, chests + 1) if tab[p, STATE + slot] != OPEN)
        self._recount()

    def piles(self, deck=(), discard=()):
        """The deck and the discard pile, bottom card first (the top card is last)."""
        g = self.g
        g[DECK:DECK + len(deck)] = deck
        g[V_DECK_N] = len(deck)
        base = g[V_DISCARD_AT]
        g[base:base + len(discard)] = discard
        g[V_DISCARD_N] = len(discard)
        self._recount()

    def _recount(self):
        g, tab = self.g, self.tab
        g[OPEN_COUNT:OPEN_COUNT + CHESTS + 1] = 0
        g[DISCARD_COUNT:DISCARD_COUNT + CHESTS + 1] = 0
        for p in range(self.players):
            for slot in range(1, CHESTS + 1):
                if tab[p, STATE + slot] == OPEN:
                    g[OPEN_COUNT + slot] += 1
        for card in self.discard():
            if card <= CHESTS:
                g[DISCARD_COUNT + card] += 1

    # -- reading the table back ----------------------------------------------------------
    def deck(self):
        return [int(c) for c in self.g[DECK:DECK + self.g[V_DECK_N]]]

    def discard(self):
        base = self.g[V_DISCARD_AT]
        return [int(c) for c in self.g[base:base + self.g[V_DISCARD_N]]]

    def state(self, p, slot):
        return int(self.tab[p, STATE + slot])

    def card(self, p, slot):
        return int(self.tab[p, CARD + slot])

    def chained(self, p, slot):
        return bool(self.tab[p, CHAINED + slot])

    def field(self, p, name):
        return int(self.tab[p, name])

    @property
    def direction(self):
        return int(self.g[V_DIRECTION])

    def closed_slots(self, p):
        return [s for s in range(1, CHESTS + 1) if self.tab[p, STATE + s] == CLOSED]
