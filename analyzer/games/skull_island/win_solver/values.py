"""Win probabilities of the two-player game over score pairs, jitted (see :mod:`win_solver.solve`).

A game state is seen by the player to move: their total ``x``, the opponent's total
``y`` (both in hundreds) and the phase: 0, no trigger; 1, the opponent is the trigger
and this is the player's one last turn (RULES.md's end rule). Its value is P(the player
to move wins) + P(shared win) / 2. A turn draws a card (probability ``probs[card]``);
the player picks one of the card's turn policies, whose outcomes are the changes
``(own[card, k], opponent[card, k])`` with probabilities ``dist[card, policy, k]``.
After the turn (:func:`after_turn`) the game is over, or it is the opponent's state,
whose value counts for the player as one minus it.

The states solved: ``low <= x < top`` and, in phase 0, ``low <= y < top``; in phase 1,
``top <= y < high``. ``top`` is the target in hundreds and ``high - top`` the largest
own turn score, so every state a two-player game reaches is among them; totals below
``low`` count as ``low`` (the lower bound, see :mod:`win_solver.solve`).
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.games.skull_island.components import N_CARDS
from analyzer.games.skull_island.win_solver.turns import POINTS

#: the game's results for the player who just played, in half wins
LOST, SHARED, WON = 0, 1, 2
#: a policy must beat the best before it by this much to be chosen (ties keep the first)
CHOICE_MARGIN = 1e-12


@njit(cache=True, inline="always")
def after_turn(phase, x, y, own, opponent, low, top, floor):
    """The turn's end: ``(over, result, next phase, next x, next y)``; the next state is the
    opponent's (their total first). Over means the trigger still stands after the last turn."""
    x2 = x + own
    y2 = y + opponent
    if floor:
        x2 = max(x2, 0)
        y2 = max(y2, 0)
    x2 = max(x2, low)
    y2 = max(y2, low)
    if phase == 1 and y2 >= top:
        return True, (WON if x2 > y2 else (SHARED if x2 == y2 else LOST)), 0, 0, 0
    # phase 0: the player triggers at the target; phase 1 cancelled: the player may trigger anew
    return False, LOST, (1 if x2 >= top else 0), y2, x2


@njit(cache=True, inline="always")
def _y_range(phase, low, top, high):
    return (top, high) if phase == 1 else (low, top)


@njit(cache=True, nogil=True)
def solve_values(probs, own, opponent, n_outcomes, by_outcome, n_policies, low, top, high, floor, tolerance,
                 max_sweeps):
    """The optimal value of every state and the policy chosen per card: ``(values, choices, sweeps, change)``.

    Gauss-Seidel value iteration (phase 1 first, totals descending, an order fixed so the
    result is the same on every run) until no value moves by ``tolerance`` in a sweep.
    ``by_outcome[card, k, policy]`` is ``dist[card, policy, k]`` laid out outcome first (the
    innermost loop runs over the policies), made by the caller with NumPy: transposed in here,
    the checks of ``np.transpose``'s axes brought Numba's string formatting into the compile.
    """
    values = np.full((2, top - low, high - low), 0.5)
    choices = np.zeros((2, top - low, high - low, N_CARDS), dtype=np.int64)
    totals = np.zeros(by_outcome.shape[2])
    sweeps = 0
    change = 1.0
    while sweeps < max_sweeps and change >= tolerance:
        sweeps += 1
        change = 0.0
        for phase in (1, 0):
            y_low, y_high = _y_range(phase, low, top, high)
            for x in range(top - 1, low - 1, -1):
                for y in range(y_high - 1, y_low - 1, -1):
                    value = 0.0
                    for card in range(N_CARDS):
                        if probs[card] == 0.0:
                            continue
                        policies = n_policies[card]
                        totals[:policies] = 0.0
                        for k in range(n_outcomes[card]):
                            over, result, p2, x2, y2 = after_turn(phase, x, y, own[card, k], opponent[card, k],
                                                                  low, top, floor)
                            utility = 0.5 * result if over else 1.0 - values[p2, x2 - low, y2 - low]
                            for policy in range(policies):
                                totals[policy] += by_outcome[card, k, policy] * utility
                        best = -1.0
                        chosen = 0
                        for policy in range(policies):
                            total = totals[policy]
                            if total > best + CHOICE_MARGIN:
                                best = total
                                chosen = policy
                        value += probs[card] * best
                        choices[phase, x - low, y - low, card] = chosen
                    change = max(change, abs(value - values[phase, x - low, y - low]))
                    values[phase, x - low, y - low] = value
    return values, choices, sweeps, change


@njit(cache=True, nogil=True)
def play_values(probs, own, opponent, n_outcomes, dist, choices, low, top, high, floor, tolerance, max_sweeps):
    """Two fixed players, side 0 and side 1, against each other: ``(wins, shared, sweeps)``,
    each ``[side to move, phase, x - low, y - low]``: P(the side to move wins) and P(a shared win).

    Side ``s`` plays policy ``choices[s, phase, x - low, y - low, card]`` of
    ``dist[s, card]`` over its outcomes ``own[s, card]``, ``opponent[s, card]``.
    """
    shape = (2, 2, top - low, high - low)
    wins = np.zeros(shape)
    shared = np.zeros(shape)
    sweeps = 0
    change = 1.0
    while sweeps < max_sweeps and change >= tolerance:
        sweeps += 1
        change = 0.0
        for side in range(2):
            other = 1 - side
            for phase in (1, 0):
                y_low, y_high = _y_range(phase, low, top, high)
                for x in range(top - 1, low - 1, -1):
                    for y in range(y_high - 1, y_low - 1, -1):
                        win = 0.0
                        tie = 0.0
                        for card in range(N_CARDS):
                            if probs[card] == 0.0:
                                continue
                            policy = choices[side, phase, x - low, y - low, card]
                            for k in range(n_outcomes[side, card]):
                                q = probs[card] * dist[side, card, policy, k]
                                if q == 0.0:
                                    continue
                                over, result, p2, x2, y2 = after_turn(phase, x, y, own[side, card, k],
                                                                      opponent[side, card, k], low, top, floor)
                                if over:
                                    win += q * (result == WON)
                                    tie += q * (result == SHARED)
                                else:
                                    other_tie = shared[other, p2, x2 - low, y2 - low]
                                    win += q * (1.0 - wins[other, p2, x2 - low, y2 - low] - other_tie)
                                    tie += q * other_tie
                        at = (side, phase, x - low, y - low)
                        change = max(change, abs(win - wins[at]), abs(tie - shared[at]))
                        wins[at] = win
                        shared[at] = tie
    return wins, shared, sweeps


@njit(cache=True)
def win_table(choices, low, first_table, final_turn, own_total, leader_total, card):
    """The kernel's table for an optimal-win turn: ``first_table`` (the first of the
    final-round tables, see :func:`solver.final_round_tables`) plus the solved choice
    ``choices[phase, x - low, y - low, card]`` at the own total and the leader's.

    Totals outside the solved states (3 to 5 players) are moved to the nearest one.
    """
    top = low + choices.shape[1]
    high = low + choices.shape[2]
    phase = 1 if final_turn else 0
    x = min(max(own_total // POINTS, low), top - 1)
    y_low, y_high = _y_range(phase, low, top, high)
    y = min(max(leader_total // POINTS, y_low), y_high - 1)
    return first_table + choices[phase, x - low, y - low, card]
