"""The win solver's model of a turn: every card's first roll, the policy class (the final-round
tables, one per distinct policy) and the exact outcome distribution of each policy of the class
(:class:`Side`), as :mod:`win_solver.values` reads them.

The class's outcomes depend only on the turn's rules and the cards in the deck, not on the
target or the end, so they are cached beside the solver's other files (``turn-outcomes-*``):
a solve at another target score, seat bonus or end rule reads them instead of pushing every
policy's probability mass through the turn again (about 300 policies, 10 ms each).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from analyzer.engine.progress import map_on_threads
from analyzer.games.skull_island.cache_files import cache_key, load_arrays, save_arrays
from analyzer.games.skull_island.components import N_CARDS
from analyzer.games.skull_island.rules import deck_counts
from analyzer.games.skull_island.turn_solver.solve import cache_folder, rules_key
from analyzer.games.skull_island.win_solver.turns import POINTS

#: the most skulls a turn can count (8 dice and a skull-2 card)
DICE_AND_CARD_SKULLS = 10
#: the arrays of a :class:`Side`, as its cache file holds them
SIDE_ARRAYS = ("own", "opponent", "n_outcomes", "dist", "n_policies")
#: the win solver's files the outcomes depend on besides the turn solver's (part of their cache key)
_SOURCES = ("win_solver/turns.py", "win_solver/model.py")


def card_probabilities(rules: dict[str, Any]) -> np.ndarray:
    counts = deck_counts(rules).astype(np.float64)
    return counts / counts.sum()


# -- the turn policies and their outcomes -----------------------------------------------------

class Side:
    """One player's turn play as :mod:`win_solver.values` reads it: per card its possible outcomes
    (own and opponent changes, in hundreds) and one outcome distribution per policy (the arrays of
    ``SIDE_ARRAYS``)."""

    def __init__(self, grids: list[list[np.ndarray]], own_low: int, opponent_low: int):
        supports = [np.flatnonzero(sum(cards).ravel()) if cards else np.zeros(0, np.int64) for cards in grids]
        width = max(1, *(s.size for s in supports))
        depth = max(1, *(len(g) for g in grids))
        self.own = np.zeros((N_CARDS, width), np.int64)
        self.opponent = np.zeros((N_CARDS, width), np.int64)
        self.n_outcomes = np.array([s.size for s in supports], np.int64)
        self.dist = np.zeros((N_CARDS, depth, width))
        self.n_policies = np.array([len(g) for g in grids], np.int64)
        for card, (cells, cards) in enumerate(zip(supports, grids, strict=True)):
            if not cards:
                continue
            columns = cards[0].shape[1]
            self.own[card, :cells.size] = cells // columns + own_low
            self.opponent[card, :cells.size] = cells % columns + opponent_low
            for policy, grid in enumerate(cards):
                self.dist[card, policy, :cells.size] = grid.ravel()[cells]

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> Side:
        """The side whose arrays (``SIDE_ARRAYS``) are these, as :meth:`arrays` gave them."""
        side = cls.__new__(cls)
        for name in SIDE_ARRAYS:
            setattr(side, name, arrays[name])
        return side

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in SIDE_ARRAYS}

    @property
    def largest_gain(self) -> int:
        return int(self.own.max())


def stack(sides: list[Side]) -> tuple[np.ndarray, ...]:
    """Two sides as the stacked arrays :func:`win_solver.values.play_values` takes (padded alike)."""
    width = max(s.own.shape[1] for s in sides)
    depth = max(s.dist.shape[1] for s in sides)

    def padded(array, shape):
        out = np.zeros(shape, array.dtype)
        out[tuple(slice(0, n) for n in array.shape)] = array
        return out

    return (np.stack([padded(s.own, (N_CARDS, width)) for s in sides]),
            np.stack([padded(s.opponent, (N_CARDS, width)) for s in sides]),
            np.stack([s.n_outcomes for s in sides]),
            np.stack([padded(s.dist, (N_CARDS, depth, width)) for s in sides]))


class TurnModel:
    """Every card's first roll and the outcome grids of turn policies under one rule set."""

    def __init__(self, rules: dict[str, Any]):
        from analyzer.games.skull_island.rules import TurnRules
        from analyzer.games.skull_island.turn_solver.core import achievable_scores
        from analyzer.games.skull_island.win_solver.turns import first_roll

        self.turn_rules = TurnRules.from_rules(rules)
        self.probs = card_probabilities(rules)
        self.cards = [card for card in range(N_CARDS) if self.probs[card] > 0]
        scores = np.concatenate([achievable_scores(card, self.turn_rules) for card in self.cards])
        self.own_low = int(scores.min()) // POINTS
        self.opponent_low = -2 * rules["island_penalty"] * (DICE_AND_CARD_SKULLS + 1) // POINTS
        shape = (int(scores.max()) // POINTS - self.own_low + 1, -self.opponent_low + 1)
        self.starts = {}
        for card in self.cards:
            grid = np.zeros(shape)
            live = first_roll(card, self.turn_rules, self.own_low, self.opponent_low, grid)
            self.starts[card] = (grid, live)

    def outcomes(self, card: int, policy: tuple[np.ndarray, ...]) -> np.ndarray:
        from analyzer.games.skull_island.win_solver.turns import turn_outcomes

        grid, live = self.starts[card]
        return turn_outcomes(card, self.turn_rules, grid, live, self.own_low, self.opponent_low, *policy)

    def side(self, policies: dict[int, list[tuple[np.ndarray, ...]]]) -> Side:
        """The side playing ``policies[card]`` (a list of policies per card in the deck); the policies'
        outcomes are computed on threads (the compiled :func:`~win_solver.turns.turn_outcomes` releases
        the GIL), each on its own."""
        jobs = [(card, policy) for card in range(N_CARDS) for policy in policies.get(card, [])]
        done = iter(map_on_threads(lambda job: self.outcomes(*job), jobs))
        grids = [[next(done) for _ in policies.get(card, [])] for card in range(N_CARDS)]
        return Side(grids, self.own_low, self.opponent_low)


def class_tables(rules: dict[str, Any], cards: list[int]) -> tuple[np.ndarray, np.ndarray, dict, dict]:
    """The policy class: ``(thresholds, tables, members, member_of)``: ``members[card]`` lists the
    final-round table indices of the card's distinct policies, the expected-score one first;
    ``member_of[card][j]`` is the position in it of final-round table ``j``'s policy."""
    from analyzer.games.skull_island.turn_solver.solve import final_round_tables

    thresholds, tables = final_round_tables(rules)
    members, member_of = {}, {}
    for card in cards:
        seen: dict[bytes, int] = {}
        for j in [tables.shape[0] - 1, *range(tables.shape[0] - 1)]:
            seen.setdefault(tables[j, card].tobytes(), len(seen))
        members[card] = [0] * len(seen)
        member_of[card] = np.array([seen[tables[j, card].tobytes()] for j in range(tables.shape[0])], np.int64)
        for j in range(tables.shape[0] - 1, -1, -1):  # the lowest j of each policy, the expected-score one first
            members[card][member_of[card][j]] = j
        members[card][0] = tables.shape[0] - 1
    return thresholds, tables, members, member_of


def outcomes_key(rules: dict[str, Any], cards: list[int]) -> str:
    """The cache key of the class's outcomes: the turn's rules and code (the turn solver's key, which
    also keys the final-round tables), the cards in the deck, and the code of :mod:`win_solver.turns`."""
    return cache_key(f"{rules_key(rules)} {json.dumps(cards)}", _SOURCES)


def class_side(rules: dict[str, Any], model: TurnModel, tables: np.ndarray, members: dict) -> Side:
    """The side playing the policy class (``members[card]``: the indexes in ``tables`` of the card's
    policies, see :func:`class_tables`), from the cache when a solve of the same turn rules and deck
    made it (a cache file that cannot be written costs only the cache)."""
    from analyzer.games.skull_island.turn_solver.strategies import table_policy

    path = cache_folder() / f"turn-outcomes-{outcomes_key(rules, model.cards)}.npz"
    stored = load_arrays(path)
    if stored is not None and set(SIDE_ARRAYS) <= set(stored):
        return Side.from_arrays(stored)
    side = model.side({card: [table_policy(tables[j, card]) for j in members[card]] for card in model.cards})
    save_arrays(path, **side.arrays())
    return side

