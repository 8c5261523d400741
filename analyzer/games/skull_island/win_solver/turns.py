"""What a whole Skull Island turn does to the two totals, per card and turn policy, jitted.

The win solver (:mod:`win_solver.solve`) needs, for each fortune card and each turn policy
it may play, the exact probability of every way the turn changes the totals: the own
change and the change of every opponent (Skull Island, and a storm death, take points
from the opponents). :func:`turn_outcomes` finds it by pushing the probability mass of
the turn forward through the turn states of :mod:`turn_states`, as the kernel plays
(:func:`kernel.play_turn`): the first roll, Skull Island played to its end (every
roll of the remaining dice while it adds a skull, the storm's one roll), then the
policy's decisions roll by roll until every state's mass has stopped or died, down
to ``MASS_LEFT``. Every end is scored by :func:`scoring.score_turn`.

A policy is ``(offsets, weights, rerolls, chests)`` as :func:`turn_solver.core.evaluate`
takes it (a table row through :func:`turn_solver.strategies.table_policy`). The result is
a grid ``[own - own_low, opponent - opponent_low]`` in hundreds of points.
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.games.skull_island.components import CHEST, COIN, DICE, SKULL, SORCERESS, STORM, SWORD
from analyzer.games.skull_island.dice import NON_SKULL, count, of, total_dice
from analyzer.games.skull_island.scoring import card_skulls, island_allowed, score_turn
from analyzer.games.skull_island.turn_states import (
    N_RANKS,
    RANK_DICE,
    ROLL_DICE,
    ROLL_PROB,
    ROLL_START,
    rank,
    state_dice,
    sub_multiset,
    sub_multisets,
)

#: the turn's mass still undecided when the forward pass stops (it is left out)
MASS_LEFT = 1e-16
POINTS = 100  # the unit of every total: the rules' values are multiples of it


@njit(cache=True, inline="always")
def _add(grid, own_low, opponent_low, own, opponents, mass):
    grid[own // POINTS - own_low, opponents // POINTS - opponent_low] += mass


@njit(cache=True)
def island_ends(card):
    """Skull Island played out from a first roll with ``s`` dice skulls and (``seen``) a sabre:
    ``ends[s, seen, s_end, seen_end]``, the probability that it ends with ``s_end`` dice
    skulls and (``seen_end``) a sabre seen on some roll (the kernel's island loop)."""
    ends = np.zeros((DICE + 1, 2, DICE + 1, 2))
    for s0 in range(DICE + 1):
        for seen0 in range(2):
            active = np.zeros((DICE + 1, 2))
            active[s0, seen0] = 1.0
            rolls = 1 if card == STORM else DICE
            for _ in range(rolls):
                rolling = np.zeros((DICE + 1, 2))
                for s in range(DICE + 1):
                    for seen in range(2):
                        mass = active[s, seen]
                        if mass == 0.0:
                            continue
                        if DICE - s < 2:
                            ends[s0, seen0, s, seen] += mass
                            continue
                        for e in range(ROLL_START[DICE - s], ROLL_START[DICE - s + 1]):
                            new = count(ROLL_DICE[e], SKULL)
                            seen_now = 1 if seen == 1 or count(ROLL_DICE[e], SWORD) > 0 else 0
                            if new == 0:
                                ends[s0, seen0, s, seen_now] += mass * ROLL_PROB[e]
                            else:
                                rolling[s + new, seen_now] += mass * ROLL_PROB[e]
                active = rolling
            for s in range(DICE + 1):
                for seen in range(2):
                    ends[s0, seen0, s, seen] += active[s, seen]
    return ends


@njit(cache=True)
def first_roll(card, turn_rules, own_low, opponent_low, grid):
    """The first roll: its Skull Island and death ends go into ``grid``; returns the mass of
    every live state ``[sorceress flag, rank]`` the player decides in. Policy-independent."""
    island = island_allowed(card, turn_rules)
    ends = island_ends(card)
    start = card_skulls(card)
    live = np.zeros((2, N_RANKS))
    for e in range(ROLL_START[DICE], ROLL_START[DICE + 1]):
        dice = ROLL_DICE[e]
        p = ROLL_PROB[e]
        skulls = count(dice, SKULL)
        if skulls + start >= 4 and island:
            seen = 1 if count(dice, SWORD) > 0 else 0
            for s in range(DICE + 1):
                for seen_end in range(2):
                    q = ends[skulls, seen, s, seen_end]
                    if q > 0.0:
                        own, opponents = score_turn(card, of(SKULL, s) + of(COIN, DICE - s), 0, True,
                                                    seen_end == 1, turn_rules)
                        _add(grid, own_low, opponent_low, own, opponents, p * q)
        elif skulls + start >= 3:
            own, opponents = score_turn(card, dice, 0, False, False, turn_rules)
            _add(grid, own_low, opponent_low, own, opponents, p)
        else:
            live[1 if card == SORCERESS else 0, rank(dice)] += p
    return live


@njit(cache=True, nogil=True)
def turn_outcomes(card, turn_rules, start_grid, start_live, own_low, opponent_low, offsets, weights, rerolls, chests):
    """The probability of every (own, opponents) change of a turn under a policy, as a grid
    (see the module docstring); ``start_grid``/``start_live`` come from :func:`first_roll`."""
    grid = start_grid.copy()
    live = start_live.copy()
    start = card_skulls(card)
    decisions = 0
    while live.sum() > MASS_LEFT:
        rolled_to = np.zeros((2, N_RANKS))
        for flag in range(2):
            for rk in range(N_RANKS):
                mass = live[flag, rk]
                if mass == 0.0:
                    continue
                dice = state_dice(rk)
                i = flag * N_RANKS + rk
                for e in range(offsets[i], offsets[i + 1]):
                    w = mass * weights[e]
                    if rerolls[e] == 0 or (card == STORM and decisions > 0):  # the storm allows one reroll
                        own, opponents = score_turn(card, dice, 0, False, False, turn_rules)
                        _add(grid, own_low, opponent_low, own, opponents, w)
                        continue
                    used = count(rerolls[e], SKULL)
                    kept = (dice - rerolls[e]) & NON_SKULL
                    skulls = count(dice, SKULL) - used
                    to_flag = 0 if used else flag
                    n = DICE - total_dice(kept) - skulls
                    for o in range(ROLL_START[n], ROLL_START[n + 1]):
                        after = kept + of(SKULL, skulls) + ROLL_DICE[o]
                        q = w * ROLL_PROB[o]
                        if count(after, SKULL) + start >= 3:
                            own, opponents = score_turn(card, after, chests[e], False, False, turn_rules)
                            _add(grid, own_low, opponent_low, own, opponents, q)
                        else:
                            rolled_to[to_flag, rank(after)] += q
        live = rolled_to
        decisions += 1
    return grid


@njit(cache=True)
def terminal_pairs(card, turn_rules):
    """``(offsets, own, opponents)`` of every way a turn can end off Skull Island, laid out as
    :func:`turn_solver.core.terminal_scores` lays out its scores (rank, then chest content)."""
    offsets = np.zeros(N_RANKS + 1, dtype=np.int64)
    for rk in range(N_RANKS):
        offsets[rk + 1] = offsets[rk] + (sub_multisets(RANK_DICE[rk]) if card == CHEST else 1)
    own = np.zeros(offsets[-1], dtype=np.int64)
    opponents = np.zeros(offsets[-1], dtype=np.int64)
    for rk in range(N_RANKS):
        dice = state_dice(rk)
        for j in range(offsets[rk + 1] - offsets[rk]):
            own[offsets[rk] + j], opponents[offsets[rk] + j] = score_turn(card, dice, sub_multiset(dice, j), False,
                                                                          False, turn_rules)
    return offsets, own, opponents
