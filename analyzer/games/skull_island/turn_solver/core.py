"""Value iteration over the states of one Skull Island turn, jitted.

A turn is a Markov decision process on the states of :mod:`turn_states` (8 dice after
a roll, sorceress available or not). After a roll that leaves fewer than 3 skulls the
player stops (scoring the dice) or picks the dice to keep, which of them lie on the
treasure chest, and whether the sorceress rerolls a skull; the dice not kept are
rolled. The decision leads to an *afterstate* (kept dice, skulls, sorceress), whose
value is the expectation over the roll's outcomes: the next state's value if the turn
goes on, the terminal reward if the roll brings the third skull. Every terminal value
is :func:`scoring.score_turn` of the finished turn, as in the simulator: it is called
once per way a turn can end (:func:`terminal_scores`), and the iteration reads those
arrays.

Rerolls can come back to a state already seen (two monkeys rerolled into two
monkeys), so the values are found by iterating the Bellman update from the stopping
values until no value moves by ``TOLERANCE`` or more; every reroll of at least two
dice adds a skull with probability at least 11/36, so the iteration contracts. The
storm card allows one reroll only: one update from the stopping values is exact.

Two objectives share the code: ``EXPECTED`` (the own turn score) and ``AT_LEAST``
(1 if the own turn score is at least ``needed``, else 0: the probability of reaching
a known total, e.g. in the last turn of a game).

The chest content is chosen with each reroll: it matters only if the roll kills (then
only the chest scores) and it can be changed freely before the next decision, so the
best chest for a set of kept dice is the one with the best death value.

Policies are table rows in the format of :mod:`turn_states`.
"""

import numpy as np
from numba import types
from numba.typed import Dict

from analyzer.engine.arrays import add_into, copy_into
from analyzer.engine.jit import njit
from analyzer.games.skull_island.components import CHEST, DICE, SKULL, SORCERESS, STORM, SWORD
from analyzer.games.skull_island.dice import NON_SKULL, count, of, total_dice
from analyzer.games.skull_island.scoring import card_skulls, island_allowed, score_turn
from analyzer.games.skull_island.turn_states import (
    CHEST_SHIFT,
    N_RANKS,
    N_STATES,
    RANK_DICE,
    ROLL_DICE,
    ROLL_PROB,
    ROLL_START,
    encode,
    is_live,
    non_skull_dice,
    rank,
    sorceress_flags,
    state_dice,
    sub_index,
    sub_multiset,
    sub_multisets,
)

EXPECTED, AT_LEAST = 0, 1
TOLERANCE = 1e-9
MAX_SWEEPS = 100_000
#: skulls of the dice (card skulls not counted) an afterstate can hold
MAX_SKULLS = 3


@njit(cache=True, nogil=True)
def terminal_scores(card, turn_rules):
    """The own score of every way a turn of this card can end, by ``score_turn``.

    Returns ``(offsets, scores, island)``: ``scores[offsets[rk] + sub_index(dice, chest)]``
    for the 8 dice of rank ``rk`` with ``chest`` on the chest card (every sub-multiset of
    the non-skull dice under the chest card, the empty chest otherwise), and
    ``island[rk]`` for those dice on Skull Island.
    """
    offsets = np.zeros(N_RANKS + 1, dtype=np.int64)
    for rk in range(N_RANKS):
        offsets[rk + 1] = offsets[rk] + (sub_multisets(RANK_DICE[rk]) if card == CHEST else 1)
    scores = np.zeros(offsets[-1], dtype=np.int64)
    island = np.zeros(N_RANKS, dtype=np.int64)
    for rk in range(N_RANKS):
        dice = state_dice(rk)
        for j in range(offsets[rk + 1] - offsets[rk]):
            scores[offsets[rk] + j] = score_turn(card, dice, sub_multiset(dice, j), False, False, turn_rules)[0]
        island[rk] = score_turn(card, dice, 0, True, count(dice, SWORD) > 0, turn_rules)[0]
    return offsets, scores, island


def rewards(scores, objective, needed):
    """Terminal rewards of own turn scores: the score itself, or 1 if it is at least ``needed``."""
    if objective == EXPECTED:
        return scores.astype(np.float64)
    return (scores >= needed).astype(np.float64)


def achievable_scores(card, turn_rules):
    """Every own turn score the card can produce, ascending."""
    _, scores, island = terminal_scores(card, turn_rules)
    return np.unique(np.concatenate((scores, island)))


def terminal_rewards(card, turn_rules, objective, needed):
    """``(offsets, rewards, island rewards)`` of every way a turn can end (see :func:`terminal_scores`)."""
    offsets, scores, island = terminal_scores(card, turn_rules)
    return offsets, rewards(scores, objective, needed), rewards(island, objective, needed)


def solve_card(card, turn_rules, objective, needed):
    """The optimal policy of one card: (turn value, state values, policy table row, sweeps)."""
    return optimize(card, island_allowed(card, turn_rules), *terminal_rewards(card, turn_rules, objective, needed))


def evaluate_card(card, turn_rules, objective, needed, policy):
    """The value of a policy ``(offsets, weights, rerolls, chests)`` on one card: (turn value, state values,
    sweeps)."""
    return evaluate(card, island_allowed(card, turn_rules), *terminal_rewards(card, turn_rules, objective, needed),
                    *policy)


@njit(cache=True)
def stop_values(card, offsets, ends):
    """The reward of stopping, per rank (0 where the rank is not a live state)."""
    values = np.zeros(N_RANKS)
    for rk in range(N_RANKS):
        if is_live(rk, card):
            values[rk] = ends[offsets[rk]]
    return values


@njit(cache=True)
def death_value(card, offsets, ends, kept, chest, skulls):
    """The part of an afterstate's value from the outcomes that bring the third skull."""
    start_skulls = card_skulls(card)
    rolled = DICE - total_dice(kept) - skulls
    value = 0.0
    for e in range(ROLL_START[rolled], ROLL_START[rolled + 1]):
        outcome = ROLL_DICE[e]
        if skulls + count(outcome, SKULL) + start_skulls >= 3:
            dice = kept + of(SKULL, skulls) + outcome
            value += ROLL_PROB[e] * ends[offsets[rank(dice)] + sub_index(dice, chest)]
    return value


@njit(cache=True)
def is_afterstate(kept_rank, skulls, card):
    """Can a decision keep these dice with this many skulls (and roll at least two)?"""
    return skulls + card_skulls(card) < 3 and non_skull_dice(RANK_DICE[kept_rank]) + skulls <= DICE - 2


@njit(cache=True)
def best_chests(card, offsets, ends):
    """Per afterstate ``skulls * N_RANKS + kept rank``: the best death value over the chest
    contents, and that chest (always empty but under the treasure chest card)."""
    deaths = np.zeros(MAX_SKULLS * N_RANKS)
    chests = np.zeros(MAX_SKULLS * N_RANKS, dtype=np.int64)
    for skulls in range(MAX_SKULLS):
        for kept_rank in range(N_RANKS):
            if not is_afterstate(kept_rank, skulls, card):
                continue
            kept = RANK_DICE[kept_rank]
            a = skulls * N_RANKS + kept_rank
            deaths[a] = death_value(card, offsets, ends, kept, 0, skulls)
            if card == CHEST:
                for j in range(1, sub_multisets(kept)):
                    chest = sub_multiset(kept, j)
                    value = death_value(card, offsets, ends, kept, chest, skulls)
                    if value > deaths[a] + TOLERANCE:
                        deaths[a] = value
                        chests[a] = chest
    return deaths, chests


@njit(cache=True)
def transitions(card):
    """Per afterstate ``skulls * N_RANKS + kept rank``: the outcomes of its roll that leave the
    player alive, as (offsets, next state's rank, probability)."""
    start_skulls = card_skulls(card)
    offsets = np.zeros(MAX_SKULLS * N_RANKS + 1, dtype=np.int64)
    for pass_ in range(2):
        if pass_ == 1:
            offsets = np.cumsum(offsets)
            next_ranks = np.zeros(offsets[-1], dtype=np.int64)
            probabilities = np.zeros(offsets[-1])
        for skulls in range(MAX_SKULLS):
            for kept_rank in range(N_RANKS):
                if not is_afterstate(kept_rank, skulls, card):
                    continue
                a = skulls * N_RANKS + kept_rank
                kept = RANK_DICE[kept_rank]
                rolled = DICE - total_dice(kept) - skulls
                at = offsets[a] if pass_ == 1 else 0
                for e in range(ROLL_START[rolled], ROLL_START[rolled + 1]):
                    outcome = ROLL_DICE[e]
                    if skulls + count(outcome, SKULL) + start_skulls < 3:
                        if pass_ == 1:
                            next_ranks[at] = rank(kept + outcome)
                            probabilities[at] = ROLL_PROB[e]
                        at += 1
                if pass_ == 0:
                    offsets[a + 1] = at
    return offsets, next_ranks, probabilities


@njit(cache=True)
def rerolls():
    """Per rank: every set of kept dice that leaves at least one die to reroll, as
    (offsets, kept dice, their rank, how many dice are left to reroll)."""
    offsets = np.zeros(N_RANKS + 1, dtype=np.int64)
    for rk in range(N_RANKS):
        offsets[rk + 1] = offsets[rk] + sub_multisets(RANK_DICE[rk]) - 1
    kept_dice = np.zeros(offsets[-1], dtype=np.int64)
    kept_ranks = np.zeros(offsets[-1], dtype=np.int64)
    loose = np.zeros(offsets[-1], dtype=np.int64)
    for rk in range(N_RANKS):
        dice = RANK_DICE[rk]
        for j in range(sub_multisets(dice) - 1):  # the last sub-multiset is all the dice
            at = offsets[rk] + j
            kept_dice[at] = sub_multiset(dice, j)
            kept_ranks[at] = rank(kept_dice[at])
            loose[at] = total_dice(dice - kept_dice[at])
    return offsets, kept_dice, kept_ranks, loose


@njit(cache=True)
def alive_values(flags, values, offsets, next_ranks, probabilities, out):
    """Per (sorceress, afterstate): the expected value of the next state over the outcomes
    that leave the player alive (``values`` per sorceress flag and rank)."""
    for flag in range(flags):
        for a in range(MAX_SKULLS * N_RANKS):
            value = 0.0
            for e in range(offsets[a], offsets[a + 1]):
                value += probabilities[e] * values[flag, next_ranks[e]]
            out[flag, a] = value


@njit(cache=True)
def first_roll_value(card, island, offsets, ends, island_ends, values):
    """The turn's value before the first roll, from the values of the states after it
    (``island``: 4+ first-roll skulls go to Skull Island)."""
    start_skulls = card_skulls(card)
    flag = 1 if card == SORCERESS else 0
    total = 0.0
    for e in range(ROLL_START[DICE], ROLL_START[DICE + 1]):
        dice = ROLL_DICE[e]
        rk = rank(dice)
        skulls = count(dice, SKULL) + start_skulls
        if skulls >= 4 and island:
            total += ROLL_PROB[e] * island_ends[rk]
        elif skulls >= 3:
            total += ROLL_PROB[e] * ends[offsets[rk]]
        else:
            total += ROLL_PROB[e] * values[flag, rk]
    return total


@njit(cache=True, nogil=True)
def optimize(card, island, offsets, ends, island_ends):
    """The optimal policy of one card, from the terminal rewards (see :func:`solve_card`)."""
    stops = stop_values(card, offsets, ends)
    deaths, chests = best_chests(card, offsets, ends)
    t_offsets, t_next, t_probabilities = transitions(card)
    r_offsets, r_kept, r_ranks, r_loose = rerolls()
    flags = sorceress_flags(card)
    values = np.zeros((2, N_RANKS))
    for flag in range(flags):
        copy_into(stops, values[flag])
    after = np.zeros((2, MAX_SKULLS * N_RANKS))
    chosen = np.full(N_STATES, -1, dtype=np.int64)  # the reroll entry chosen (-1: stop)
    sorceress_used = np.zeros(N_STATES, dtype=np.bool_)
    sweeps = 0
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        alive_values(flags, values, t_offsets, t_next, t_probabilities, after)
        for flag in range(flags):
            add_into(deaths, after[flag])
        change = 0.0
        for flag in range(flags):
            for rk in range(N_RANKS):
                if not is_live(rk, card):
                    continue
                skulls = DICE - non_skull_dice(RANK_DICE[rk])
                best = stops[rk]
                choice = -1
                used = False
                for e in range(r_offsets[rk], r_offsets[rk + 1]):
                    if r_loose[e] >= 2:
                        value = after[flag, skulls * N_RANKS + r_ranks[e]]
                        if value > best + TOLERANCE:
                            best, choice, used = value, e, False
                    if flag == 1 and skulls > 0:
                        value = after[0, (skulls - 1) * N_RANKS + r_ranks[e]]
                        if value > best + TOLERANCE:
                            best, choice, used = value, e, True
                change = max(change, abs(best - values[flag, rk]))
                values[flag, rk] = best
                chosen[flag * N_RANKS + rk] = choice
                sorceress_used[flag * N_RANKS + rk] = used
        if card == STORM or change < TOLERANCE:
            break
    policy = np.zeros(N_STATES, dtype=np.int64)
    for i in range(flags * N_RANKS):
        e = chosen[i]
        if e >= 0:
            dice = RANK_DICE[i % N_RANKS]
            skulls = DICE - non_skull_dice(dice) - (1 if sorceress_used[i] else 0)
            reroll = dice - r_kept[e] + (of(SKULL, 1) if sorceress_used[i] else 0)
            policy[i] = encode(reroll, chests[skulls * N_RANKS + r_ranks[e]])
    if flags == 1:
        copy_into(values[0], values[1])
        copy_into(policy[:N_RANKS], policy[N_RANKS:])
    return first_roll_value(card, island, offsets, ends, island_ends, values), values, policy, sweeps


@njit(cache=True, nogil=True)
def evaluate(card, island, end_offsets, ends, island_ends, offsets, weights, rerolls, chests):
    """The value of a given policy, from the terminal rewards (see :func:`evaluate_card`).

    State ``i`` (``flag * N_RANKS + rank``) plays decision ``e`` for ``e`` in
    ``offsets[i]:offsets[i + 1]`` with probability ``weights[e]``: reroll ``rerolls[e]``
    (0: stop) leaving ``chests[e]`` on the chest card. Decisions must be legal.
    """
    stops = stop_values(card, end_offsets, ends)
    flags = sorceress_flags(card)
    n_entries = weights.shape[0]
    entry_after = np.full(n_entries, -1, dtype=np.int64)
    entry_death = np.zeros(n_entries)
    seen = Dict.empty(key_type=types.int64, value_type=types.float64)
    for flag in range(flags):
        for rk in range(N_RANKS):
            if not is_live(rk, card):
                continue
            dice = state_dice(rk)
            for e in range(offsets[flag * N_RANKS + rk], offsets[flag * N_RANKS + rk + 1]):
                if rerolls[e] == 0:
                    continue
                used = count(rerolls[e], SKULL)
                kept = (dice - rerolls[e]) & NON_SKULL
                skulls = count(dice, SKULL) - used
                entry_after[e] = ((0 if used else flag) * MAX_SKULLS + skulls) * N_RANKS + rank(kept)
                key = kept | (chests[e] << CHEST_SHIFT) | (skulls << 48)
                if key not in seen:
                    seen[key] = death_value(card, end_offsets, ends, kept, chests[e], skulls)
                entry_death[e] = seen[key]
    t_offsets, t_next, t_probabilities = transitions(card)
    values = np.zeros((2, N_RANKS))
    for flag in range(flags):
        copy_into(stops, values[flag])
    after = np.zeros((2, MAX_SKULLS * N_RANKS))
    flat_after = after.reshape(-1)
    sweeps = 0
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        alive_values(flags, values, t_offsets, t_next, t_probabilities, after)
        change = 0.0
        for flag in range(flags):
            for rk in range(N_RANKS):
                if not is_live(rk, card):
                    continue
                i = flag * N_RANKS + rk
                value = 0.0
                for e in range(offsets[i], offsets[i + 1]):
                    if entry_after[e] < 0:
                        value += weights[e] * stops[rk]
                    else:
                        value += weights[e] * (flat_after[entry_after[e]] + entry_death[e])
                change = max(change, abs(value - values[flag, rk]))
                values[flag, rk] = value
        if card == STORM or change < TOLERANCE:
            break
    if flags == 1:
        copy_into(values[0], values[1])
    return first_roll_value(card, island, end_offsets, ends, island_ends, values), values, sweeps


@njit(cache=True)
def decision_states(card):
    """How many states a player of this card decides in (live ranks times sorceress flags)."""
    live = 0
    for rk in range(N_RANKS):
        if is_live(rk, card):
            live += 1
    return live * sorceress_flags(card)
