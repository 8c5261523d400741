"""A small constructed game table for feeding states to the jitted rule functions.

``Table`` prepares the game like the engine does, builds the kernel's ``Match`` over
state arrays the test keeps (``table.st``), deals a new game, and offers helpers to
place ships, set cash, give tiles and look up spaces by (segment, position).
"""

from __future__ import annotations

import numpy as np

from analyzer.engine.rng import seed_game
from analyzer.games.base import StrategyChoice, canonical_label
from analyzer.games.dead_mans_chest import GAME
from analyzer.games.dead_mans_chest.kernel import setup_game
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    CASH,
    IN_PILE,
    ISLA_COUNT,
    MASCOT_VALUE,
    MASCOTS,
    NO_SHIP,
    ON_ISLA_CRUCES,
    OWNER_FREE,
    PILE_COUNT,
    POS,
    ROUTE,
    SHIP,
    new_state,
)
from analyzer.games.dead_mans_chest.match import make_match
from analyzer.games.dead_mans_chest.rules import components_for
from analyzer.games.dead_mans_chest.tiles import set_tile_owner
from analyzer.games.options import defaults


def choice(name: str, **params) -> StrategyChoice:
    strategy = GAME.strategy(name)
    values = {o.name: o.default for o in strategy.params}
    values.update(params)
    return StrategyChoice(name, values, canonical_label(strategy, values))


def prepared(players: int = 4, strategies=("sensible",), rules: dict | None = None, check: bool = False):
    """A Prepared run, strategies given once for every seat or per seat."""
    full_rules = {**defaults(GAME.options), **(rules or {})}
    names = list(strategies) * players if len(strategies) == 1 else list(strategies)
    seats = [s if isinstance(s, StrategyChoice) else choice(s) for s in names]
    prep = GAME.prepare(full_rules, players, seats)
    prep.scalars["check_invariants"] = check
    return prep


class Table:
    def __init__(self, players: int = 3, strategies=("sensible",), rules: dict | None = None, seed: int = 1):
        self.prep = prepared(players, strategies, rules)
        self.components = components_for(self.prep.rules)
        self.board, self.rules, self.seats = GAME.tables(self.prep)
        self.st = new_state(self.board, players)
        self.m = make_match(self.board, self.rules, self.seats, self.st)
        self.players = players
        seed_game(seed, 0, self.st.rng)
        setup_game(self.m)

    # -- the board --------------------------------------------------------------------
    def space(self, segment: str, position: int) -> int:
        """Index of the ``position``-th space (0 = first) of board segment ``segment``."""
        spaces = [i for i, s in enumerate(self.components.spaces) if s.segment == segment]
        return spaces[position]

    def kind(self, index: int) -> str:
        return self.components.spaces[index].kind

    def ship(self, name: str) -> int:
        return [s.name for s in self.components.ships].index(name)

    def mascot(self, name: str) -> int:
        return [m.name for m in self.components.mascots].index(name)

    def captain(self, name: str) -> int:
        return [c.name for c in self.components.captains].index(name)

    # -- setting up a position ------------------------------------------------------------
    def place(self, p: int, segment: str, position: int) -> int:
        index = self.space(segment, position)
        self.st.players[p, POS] = index
        return index

    def park_others(self, *players: int) -> None:
        """Put these players on their start space, out of the way."""
        for q in players:
            self.st.players[q, POS] = self.board.route_start[self.st.players[q, ROUTE]]

    def set_captain(self, p: int, name: str) -> None:
        self.st.players[p, CAPTAIN] = self.captain(name)

    def cash(self, p: int) -> int:
        return int(self.st.players[p, CASH])

    def set_cash(self, p: int, amount: int) -> None:
        """Set cash directly (outside the money ledger: for rule tests, not invariant runs)."""
        self.st.players[p, CASH] = amount

    def give_ship(self, p: int, name: str | None) -> None:
        old = self.st.players[p, SHIP]
        if old != NO_SHIP:
            self.st.ship_owner[old] = OWNER_FREE
        if name is None:
            self.st.players[p, SHIP] = NO_SHIP
            return
        ship = self.ship(name)
        self.st.players[p, SHIP] = ship
        self.st.ship_owner[ship] = p

    def only_ships_in_deck(self, *names: str, holder: int) -> None:
        """Leave only these ship cards in the deck (the others go to ``holder``'s pile)."""
        keep = {self.ship(n) for n in names}
        for s in range(len(self.components.ships)):
            if self.st.ship_owner[s] == OWNER_FREE and s not in keep:
                self.st.ship_owner[s] = holder

    def only_mascots_in_deck(self, *names: str, holder: int) -> None:
        keep = {self.mascot(n) for n in names}
        for k in range(len(self.components.mascots)):
            if self.st.mascot_owner[k] == OWNER_FREE and k not in keep:
                self.st.mascot_owner[k] = holder

    def give_mascot(self, p: int, name: str) -> None:
        k = self.mascot(name)
        self.st.mascot_owner[k] = p
        self.st.players[p, MASCOTS] |= 1 << k
        self.st.players[p, MASCOT_VALUE] += self.components.mascots[k].fee

    def tile(self, value: int, mascot: str | None = None, where: int | None = None) -> int:
        """A tile with this value and mascot mark: the first one lying at ``where`` (a seat),
        or by default the first one not held by a player (on the pile or Isla Cruces)."""
        mark = -1 if mascot is None else self.mascot(mascot)
        for t, tile in enumerate(self.components.tiles):
            loc = self.st.tile_loc[t]
            if tile.value == value and tile.mascot == mark and (loc == where if where is not None else loc < 0):
                return t
        raise LookupError(f"no tile {value} {mascot} at {where}")

    def _pick_up(self, t: int) -> None:
        """Take tile ``t`` off the pile or Isla Cruces (a tile with a player stays listed nowhere)."""
        for listed, count in ((self.st.pile, PILE_COUNT), (self.st.isla, ISLA_COUNT)):
            n = self.st.counters[count]
            where = np.nonzero(listed[:n] == t)[0]
            if len(where) and self.st.tile_loc[t] == (IN_PILE if count == PILE_COUNT else ON_ISLA_CRUCES):
                listed[where[0]] = listed[n - 1]
                self.st.counters[count] = n - 1

    def give_tile(self, p: int, t: int) -> None:
        """Hand tile ``t`` (wherever it lies) to player ``p``."""
        self._pick_up(t)
        set_tile_owner(self.m, t, p)

    def empty_pile(self, holder: int) -> None:
        """Hand every tile on the pile to ``holder``."""
        while self.st.counters[PILE_COUNT]:
            self.give_tile(holder, int(self.st.pile[0]))

    def tiles_of(self, p: int) -> list[int]:
        return [int(t) for t in np.nonzero(self.st.tile_loc == p)[0]]

    def set_isla(self, *tiles: int) -> None:
        """Put exactly these tiles on Isla Cruces (the ones there before go back to the pile)."""
        for i in range(self.st.counters[ISLA_COUNT]):
            t = int(self.st.isla[i])
            self.st.tile_loc[t] = IN_PILE
            self.st.pile[self.st.counters[PILE_COUNT]] = t
            self.st.counters[PILE_COUNT] += 1
        self.st.counters[ISLA_COUNT] = 0
        for t in tiles:
            self._pick_up(t)
            set_tile_owner(self.m, t, ON_ISLA_CRUCES)
            self.st.isla[self.st.counters[ISLA_COUNT]] = t
            self.st.counters[ISLA_COUNT] += 1
