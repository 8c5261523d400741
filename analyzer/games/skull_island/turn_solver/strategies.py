"""The built-in strategies as policies over the solver's states, for exact evaluation.

A deterministic strategy's policy is read off the very ``decisions.decide`` the kernel
calls, once per state; a decision the kernel would reject as illegal stops the turn,
as in the kernel. ``decide`` is asked with every non-skull die off the chest: the
built-in strategies decide from the whole dice (free plus chest), which
``tests/skull_island/test_turn_solver.py`` checks state by state.

``random`` draws its decisions, so its policy is its exact choice distribution (the
same law as ``decisions.random_decision``): with the chest card, each non-skull die
goes on the chest with probability 1/2; with the sorceress available and a skull
showing, she is used with probability 1/2; then it stops with probability 1/2 (or
surely, with fewer than two dice to move) and otherwise rerolls each movable die with
probability 1/2, redrawn until at least two dice move.

A policy is given as ``(offsets, weights, rerolls, chests)`` (see
:func:`turn_solver.core.evaluate`).
"""

import math

import numpy as np

from analyzer.engine.arrays import copy_into
from analyzer.engine.jit import njit
from analyzer.games.skull_island.components import CHEST, DICE, SKULL
from analyzer.games.skull_island.decisions import decision_row
from analyzer.games.skull_island.dice import NON_SKULL, count, of, total_dice
from analyzer.games.skull_island.kernel import is_legal
from analyzer.games.skull_island.turn_states import (
    CHEST_SHIFT,
    N_RANKS,
    N_STATES,
    REROLL_MASK,
    is_live,
    sorceress_flags,
    state_dice,
    sub_multiset,
    sub_multisets,
)

_CHOOSE = np.array([[math.comb(n, k) for k in range(DICE + 1)] for n in range(DICE + 1)], dtype=np.float64)


@njit(cache=True)
def decided_table(strategy, params, card, turn_rules):
    """A deterministic strategy's decision in every state (``decisions.decision_row``), as a
    policy table row; an illegal decision stops the turn, as in the kernel."""
    row = decision_row(strategy, params, card, turn_rules)
    for flag in range(sorceress_flags(card)):
        for rk in range(N_RANKS):
            entry = row[flag * N_RANKS + rk]
            if entry != 0 and not is_legal(card, state_dice(rk), 0, entry >> CHEST_SHIFT, entry & REROLL_MASK,
                                           flag == 1):
                row[flag * N_RANKS + rk] = 0
    if sorceress_flags(card) == 1:
        copy_into(row[:N_RANKS], row[N_RANKS:])
    return row


def table_policy(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A policy table row as a (deterministic) policy for :func:`turn_solver.core.evaluate`."""
    table = np.asarray(table, dtype=np.int64)
    return (np.arange(table.size + 1, dtype=np.int64), np.ones(table.size), table & REROLL_MASK,
            table >> CHEST_SHIFT)


@njit(cache=True)
def _half_weight(dice, part):
    """The probability that choosing each non-skull die of ``dice`` with probability 1/2 chooses ``part``."""
    weight = 1.0
    for face in range(SKULL):
        n = count(dice, face)
        weight *= _CHOOSE[n, count(part, face)] / 2.0**n
    return weight


@njit(cache=True)
def _random_entries(card, flag, rk, fill, at, weights, rerolls, chests):
    """The random strategy's decisions in one state: written from ``at`` when ``fill``; returns their number."""
    dice = state_dice(rk)
    loose = dice & NON_SKULL
    use_choices = 2 if flag == 1 and count(dice, SKULL) > 0 else 1
    n_chests = sub_multisets(loose) if card == CHEST else 1
    entries = 1  # entry 0: stop
    stop = 0.0
    for j in range(n_chests):
        chest = sub_multiset(loose, j) if card == CHEST else 0
        chest_weight = _half_weight(loose, chest) if card == CHEST else 1.0
        movable = loose - chest
        n_movable = total_dice(movable)
        for use in range(use_choices):
            weight = chest_weight / use_choices
            if n_movable + use < 2:
                stop += weight
                continue
            stop += weight / 2
            too_few = 1.0 / 2.0**n_movable * (1.0 if use else 1.0 + n_movable)  # P(fewer than 2 dice move)
            for jr in range(sub_multisets(movable)):
                reroll = sub_multiset(movable, jr)
                if total_dice(reroll) + use < 2:
                    continue
                if fill:
                    weights[at + entries] = weight / 2 * _half_weight(movable, reroll) / (1.0 - too_few)
                    rerolls[at + entries] = reroll + of(SKULL, use)
                    chests[at + entries] = chest
                entries += 1
    if fill:
        weights[at] = stop
        rerolls[at] = 0
        chests[at] = 0
    return entries


@njit(cache=True)
def random_policy(card):
    """The random strategy's exact decision distribution in every state."""
    offsets = np.zeros(N_STATES + 1, dtype=np.int64)
    empty_f = np.zeros(0)
    empty_i = np.zeros(0, dtype=np.int64)
    for flag in range(sorceress_flags(card)):
        for rk in range(N_RANKS):
            i = flag * N_RANKS + rk
            n = _random_entries(card, flag, rk, False, 0, empty_f, empty_i, empty_i) if is_live(rk, card) else 0
            offsets[i + 1] = n
    offsets = np.cumsum(offsets)
    weights = np.zeros(offsets[-1])
    rerolls = np.zeros(offsets[-1], dtype=np.int64)
    chests = np.zeros(offsets[-1], dtype=np.int64)
    for flag in range(sorceress_flags(card)):
        for rk in range(N_RANKS):
            if is_live(rk, card):
                _random_entries(card, flag, rk, True, offsets[flag * N_RANKS + rk], weights, rerolls, chests)
    return offsets, weights, rerolls, chests
