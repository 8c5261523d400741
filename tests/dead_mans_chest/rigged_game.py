"""A game whose state a test sets up by hand, for feeding states to the jitted rule functions.

``RiggedGame`` prepares the game like the engine does, takes the scratch arrays of a
chunk (``game.scratch``) and the kernel's ``Match`` over them (``game.m``), deals a new
game, and offers helpers to place ships, set cash, give tiles and look up spaces by
(segment, position). It plays on the rules tests' own board (``RULES_BOARD``) unless the
rules name another component file, so a recalibration of the packaged reconstruction
never rewrites a hand-checked rules test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.engine.rng import seed_game
from analyzer.games.base import StrategyChoice, canonical_label
from analyzer.games.dead_mans_chest import GAME
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
)
from analyzer.games.dead_mans_chest.rules import components_for
from analyzer.games.dead_mans_chest.tiles import gain_mascot, set_tile_owner
from analyzer.games.dead_mans_chest.turns import draft_captain, next_step, setup_game
from analyzer.games.options import defaults

#: reconstruction 1 of the components, frozen for the rules tests
RULES_BOARD = Path(__file__).with_name("rules_board.toml")


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
    prep.inputs = prep.inputs._replace(check_invariants=check)
    return prep


def deal_and_draft(scratch, players: int) -> None:
    """Set up a new game (``scratch``: the game's Scratch) and draft every player's captain."""
    setup_game(scratch.match)
    for _ in range(players):
        _, seat = next_step(scratch.counters, players, 0)  # the turn cap plays no part in the draft
        draft_captain(scratch.match, seat)


class RiggedGame:
    def __init__(self, players: int = 3, strategies=("sensible",), rules: dict | None = None, seed: int = 1):
        self.prep = prepared(players, strategies, {"components": str(RULES_BOARD), **(rules or {})})
        self.components = components_for(self.prep.rules)
        self.scratch = GAME.scratch(self.prep)
        self.m = self.scratch.match
        self.players = players
        seed_game(seed, 0, self.scratch.rng)
        deal_and_draft(self.scratch, players)

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
        self.scratch.players[p, POS] = index
        return index

    def park_others(self, *players: int) -> None:
        """Put these players on their start space, out of the way."""
        for q in players:
            self.scratch.players[q, POS] = self.prep.inputs.route_start[self.scratch.players[q, ROUTE]]

    def set_captain(self, p: int, name: str) -> None:
        self.scratch.players[p, CAPTAIN] = self.captain(name)

    def cash(self, p: int) -> int:
        return int(self.scratch.players[p, CASH])

    def set_cash(self, p: int, amount: int) -> None:
        """Set cash directly (outside the money ledger: for rule tests, not invariant runs)."""
        self.scratch.players[p, CASH] = amount

    def give_ship(self, p: int, name: str | None) -> None:
        old = self.scratch.players[p, SHIP]
        if old != NO_SHIP:
            self.scratch.ship_owner[old] = OWNER_FREE
        if name is None:
            self.scratch.players[p, SHIP] = NO_SHIP
            return
        ship = self.ship(name)
        self.scratch.players[p, SHIP] = ship
        self.scratch.ship_owner[ship] = p

    def only_ships_in_deck(self, *names: str, holder: int) -> None:
        """Leave only these ship cards in the deck (the others go to ``holder``'s pile)."""
        keep = {self.ship(n) for n in names}
        for s in range(len(self.components.ships)):
            if self.scratch.ship_owner[s] == OWNER_FREE and s not in keep:
                self.scratch.ship_owner[s] = holder

    def only_mascots_in_deck(self, *names: str, holder: int) -> None:
        keep = {self.mascot(n) for n in names}
        for k in range(len(self.components.mascots)):
            if self.scratch.mascot_owner[k] == OWNER_FREE and k not in keep:
                self.scratch.mascot_owner[k] = holder

    def give_mascot(self, p: int, name: str) -> None:
        k = self.mascot(name)
        gain_mascot(self.m, p, k)
        self.scratch.players[p, MASCOT_VALUE] += self.components.mascots[k].fee

    def tile(self, value: int, mascot: str | None = None, where: int | None = None) -> int:
        """A tile with this value and mascot mark: the first one lying at ``where`` (a seat),
        or by default the first one not held by a player (on the pile or Isla Cruces)."""
        mark = -1 if mascot is None else self.mascot(mascot)
        for t, tile in enumerate(self.components.tiles):
            loc = self.scratch.tile_loc[t]
            if tile.value == value and tile.mascot == mark and (loc == where if where is not None else loc < 0):
                return t
        raise LookupError(f"no tile {value} {mascot} at {where}")

    def _pick_up(self, t: int) -> None:
        """Take tile ``t`` off the pile or Isla Cruces (a tile with a player stays listed nowhere)."""
        for listed, count in ((self.scratch.pile, PILE_COUNT), (self.scratch.isla, ISLA_COUNT)):
            n = self.scratch.counters[count]
            where = np.nonzero(listed[:n] == t)[0]
            if len(where) and self.scratch.tile_loc[t] == (IN_PILE if count == PILE_COUNT else ON_ISLA_CRUCES):
                listed[where[0]] = listed[n - 1]
                self.scratch.counters[count] = n - 1

    def give_tile(self, p: int, t: int) -> None:
        """Hand tile ``t`` (wherever it lies) to player ``p``."""
        self._pick_up(t)
        set_tile_owner(self.m, t, p)

    def empty_pile(self, holder: int) -> None:
        """Hand every tile on the pile to ``holder``."""
        while self.scratch.counters[PILE_COUNT]:
            self.give_tile(holder, int(self.scratch.pile[0]))

    def tiles_of(self, p: int) -> list[int]:
        return [int(t) for t in np.nonzero(self.scratch.tile_loc == p)[0]]

    def mascots_of(self, p: int) -> list[str]:
        return [m.name for k, m in enumerate(self.components.mascots) if (self.scratch.players[p, MASCOTS] >> k) & 1]

    def set_isla(self, *tiles: int) -> None:
        """Put exactly these tiles on Isla Cruces (the ones there before go back to the pile)."""
        for i in range(self.scratch.counters[ISLA_COUNT]):
            t = int(self.scratch.isla[i])
            self.scratch.tile_loc[t] = IN_PILE
            self.scratch.pile[self.scratch.counters[PILE_COUNT]] = t
            self.scratch.counters[PILE_COUNT] += 1
        self.scratch.counters[ISLA_COUNT] = 0
        for t in tiles:
            self._pick_up(t)
            set_tile_owner(self.m, t, ON_ISLA_CRUCES)
            self.scratch.isla[self.scratch.counters[ISLA_COUNT]] = t
            self.scratch.counters[ISLA_COUNT] += 1
