"""What the win solver's policy class may lose: the whole turn solved exactly at sampled states.

At a game state the mover's turn is worth, for each way it can end, the win probability
of the state it leads to (:func:`game_values.after_turn` and the solved values). The
policy class picks the best of its policies for those utilities; :func:`solver_core.optimize`
finds the best of *every* turn policy (value iteration over the turn's states with
these utilities as terminal rewards). Their difference, per sampled state and card,
is the win probability one turn could gain by leaving the class there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.skull_island.components import COIN, DICE, SKULL, SWORD
from analyzer.games.skull_island.dice import count, of
from analyzer.games.skull_island.game_turns import POINTS, island_ends, terminal_pairs
from analyzer.games.skull_island.game_values import after_turn
from analyzer.games.skull_island.scoring import card_skulls, island_allowed, score_turn
from analyzer.games.skull_island.solver_core import optimize
from analyzer.games.skull_island.solver_space import N_RANKS, state_dice

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


def exact_turn(card: int, cfg, values, geometry, phase: int, x: int, y: int) -> float:
    """The best turn over every policy for the utilities of the state (phase, x, y)."""
    offsets, own, opponents = terminal_pairs(card, cfg)
    pairs = {pair: _utility(values, geometry, phase, x, y, *pair) for pair in set(zip(own.tolist(),
                                                                                   opponents.tolist(),
                                                                                   strict=True))}
    ends = np.array([pairs[pair] for pair in zip(own.tolist(), opponents.tolist(), strict=True)])
    on_island = np.zeros(N_RANKS)
    if island_allowed(card, cfg):
        table = island_ends(card)
        for rk in range(N_RANKS):
            dice = state_dice(rk)
            skulls = count(dice, SKULL)
            if skulls + card_skulls(card) < 4:
                continue
            seen = 1 if count(dice, SWORD) > 0 else 0
            for s in range(DICE + 1):
                for seen_end in range(2):
                    q = table[skulls, seen, s, seen_end]
                    if q > 0:
                        pair = score_turn(card, of(SKULL, s) + of(COIN, DICE - s), 0, True, seen_end == 1, cfg)
                        on_island[rk] += q * _utility(values, geometry, phase, x, y, *pair)
    return float(optimize(card, island_allowed(card, cfg), offsets, ends, on_island)[0])


def restriction_gains(rules: dict[str, Any], solved: dict[str, Any], n: int) -> np.ndarray:
    """Per sampled state and card in the deck: the class's best turn and the exact best turn
    (``GAIN_COLUMNS``)."""
    model = solved["model"]
    side = solved["side"]
    values = solved["values"]
    rows = []
    for phase, x, y in sample_states(solved["geometry"], n):
        for card in model.cards:
            k = side.n_outcomes[card]
            utilities = np.array([_utility(values, solved["geometry"], phase, x, y, int(side.own[card, i]) * POINTS,
                                           int(side.opponent[card, i]) * POINTS) for i in range(k)])
            best = float((side.dist[card, :side.n_policies[card], :k] @ utilities).max())
            rows.append((phase, x * POINTS, y * POINTS, card, best,
                         exact_turn(card, model.cfg, values, solved["geometry"], phase, x, y)))
    return np.array(rows, np.float64).reshape(-1, len(GAIN_COLUMNS))
