"""What the win solver's policy class may lose: the whole turn solved exactly at sampled states.

At a game state the mover's turn is worth, for each way it can end, the win probability
of the state it leads to (:func:`win_solver.values.after_turn` and the solved values). The
policy class picks the best of its policies for those utilities; :func:`turn_solver.core.optimize`
finds the best of *every* turn policy (value iteration over the turn's states with
these utilities as terminal rewards). Their difference, per sampled state and card,
is the win probability one turn could gain by leaving the class there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.engine.progress import map_on_threads
from analyzer.games.skull_island.components import COIN, DICE, SKULL, SWORD
from analyzer.games.skull_island.dice import count, of
from analyzer.games.skull_island.scoring import card_skulls, island_allowed, score_turn
from analyzer.games.skull_island.turn_solver.core import optimize
from analyzer.games.skull_island.turn_states import N_RANKS, state_dice
from analyzer.games.skull_island.win_solver.turns import POINTS, island_ends, terminal_pairs
from analyzer.games.skull_island.win_solver.values import after_turn

#: columns of the gains array
GAIN_COLUMNS = ("phase", "own_total", "opponent_total", "card", "policy_class", "exact")
_SEED = 15


def sample_states(geometry: tuple[int, int, int, bool], n: int) -> list[tuple[int, int, int]]:
    """``n`` states (phase, x, y) drawn with a fixed seed: three in four before the end, the rest
    in a last turn; totals from -1000 (or the bound) up."""
    low, top, high, _ = geometry
    rng = np.random.default_rng(_SEED)
    lowest = max(low, -1000 // POINTS)
    states = []
    for i in range(n):
        phase = 1 if i % 4 == 3 else 0
        x = int(rng.integers(lowest, top))
        y = int(rng.integers(top, high)) if phase else int(rng.integers(lowest, top))
        states.append((phase, x, y))
    return states


def _utility(values, geometry, phase, x, y, own, opponent) -> float:
    low, top, _, floor = geometry
    over, result, p2, x2, y2 = after_turn(phase, x, y, own // POINTS, opponent // POINTS, low, top, floor)
    return 0.5 * result if over else 1.0 - values[p2, x2 - low, y2 - low]


class TurnEnds:
    """Every way a card's turn can end, as the exact turn solver reads them: the ends off
    Skull Island (laid out as :func:`turn_solver.core.terminal_scores`) and, per first-roll rank,
    the chances of Skull Island's ends, each end an index into ``pairs`` (own, opponents)."""

    def __init__(self, card: int, turn_rules):
        self.card = card
        self.island = bool(island_allowed(card, turn_rules))
        self.offsets, own, opponents = terminal_pairs(card, turn_rules)
        island_rows = []  # (first-roll rank, own, opponents, probability)
        if self.island:
            table = island_ends(card)
            for rk in range(N_RANKS):
                dice = state_dice(rk)
                skulls = count(dice, SKULL)
                if skulls + card_skulls(card) < 4:
                    continue
                seen = 1 if count(dice, SWORD) > 0 else 0
                for s, seen_end in zip(*np.nonzero(table[skulls, seen]), strict=True):
                    pair = score_turn(card, of(SKULL, int(s)) + of(COIN, DICE - int(s)), 0, True, seen_end == 1,
                                      turn_rules)
                    island_rows.append((rk, *pair, table[skulls, seen, s, seen_end]))
        rows = np.array(island_rows, np.float64).reshape(-1, 4)
        all_pairs = np.concatenate([np.stack([own, opponents], axis=1), rows[:, 1:3].astype(np.int64)])
        self.pairs, inverse = np.unique(all_pairs, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        self.ends = inverse[:own.size]
        self.island_rank = rows[:, 0].astype(np.int64)
        self.island_end = inverse[own.size:]
        self.island_chance = rows[:, 3]

    def best(self, values, geometry, phase: int, x: int, y: int) -> float:
        """The best turn over every policy for the utilities of the state (phase, x, y)."""
        utility = np.array([_utility(values, geometry, phase, x, y, int(own), int(opponents))
                            for own, opponents in self.pairs])
        on_island = np.zeros(N_RANKS)
        np.add.at(on_island, self.island_rank, self.island_chance * utility[self.island_end])
        return float(optimize(self.card, self.island, self.offsets, utility[self.ends], on_island)[0])


def restriction_gains(solved: dict[str, Any], n: int) -> np.ndarray:
    """Per sampled state and card in the deck: the class's best turn and the exact best turn
    (``GAIN_COLUMNS``); the states on threads (the turn solver releases the GIL), in order."""
    model = solved["model"]
    side = solved["side"]
    values = solved["values"]
    geometry = solved["geometry"]
    ends = {card: TurnEnds(card, model.turn_rules) for card in model.cards} if n else {}

    def rows(state):
        phase, x, y = state
        found = []
        for card in model.cards:
            k = side.n_outcomes[card]
            utilities = np.array([_utility(values, geometry, phase, x, y, int(side.own[card, i]) * POINTS,
                                           int(side.opponent[card, i]) * POINTS) for i in range(k)])
            best = float((side.dist[card, :side.n_policies[card], :k] @ utilities).max())
            found.append((phase, x * POINTS, y * POINTS, card, best, ends[card].best(values, geometry, phase, x, y)))
        return found

    found = [row for state_rows in map_on_threads(rows, sample_states(geometry, n))
             for row in state_rows]
    return np.array(found, np.float64).reshape(-1, len(GAIN_COLUMNS))
