"""The state space of one Skull Island turn, as the solvers and the kernel's tables index it.

After a roll, everything that matters for the rest of the turn is the 8 dice (skulls
included) and whether the sorceress is still available: which of the dice lie on the
treasure chest card does not constrain the next decision (dice may be placed and taken
back at any time) and scores only if the next roll kills, so the solver chooses the
chest content together with each reroll (see :mod:`turn_solver.core`).

The 8 dice are a multiset of at most 8 non-skull dice over 5 faces (the skulls are
the rest), so a state is one of ``N_RANKS = C(13, 5) = 1287`` ranks, computed without
a lookup table by the combinatorial number system (:func:`rank`), times the sorceress
flag. The same rank indexes a set of kept dice (non-skull, at most 8).

A policy table (``load_policy``, ``final_round_policy`` in :mod:`turn_solver.solve`) is an int64
array ``[card, state_index(dice, sorceress)]`` holding 0 for "stop", else
``reroll | chest << 24`` (packed dice, see :mod:`dice`; the reroll includes the
sorceress's skull when she is used). :func:`table_decision` reads it inside a jitted
kernel with the conventions of ``decisions.decide``. The kernel stacks every table its
seats play by into one array ``[table, card, state]``: the solver's, and those of the
strategies whose decisions depend on the turn's dice alone (``decisions.tabulate``).
"""

import itertools
import math

import numpy as np

from analyzer.engine.jit import njit
from analyzer.games.skull_island.components import CHEST, DICE, N_CARDS, PEACE, SKULL, SORCERESS, STORM, SWORD
from analyzer.games.skull_island.coverage import (
    CHEST_SAVES,
    FULL_CHEST,
    N_MECHANICS,
    PEACE_PENALTY,
    SEA_BATTLE_LOST,
    SEA_BATTLE_WON,
    STORM_SKULLS,
    THREE_SKULLS,
)
from analyzer.games.skull_island.dice import count, of, pack_rows
from analyzer.games.skull_island.scoring import card_skulls, every_die_scores, sabres_needed, score_turn

N_FACES = SKULL + 1
N_RANKS = math.comb(DICE + SKULL, SKULL)  # multisets of at most 8 dice over the 5 non-skull faces
N_STATES = 2 * N_RANKS  # times "the sorceress is still available"
CHEST_SHIFT = 24
REROLL_MASK = (1 << CHEST_SHIFT) - 1
#: the kernel's stack of per-state tables: first the table of the turns that end alive
#: (:func:`alive_tables`), then from ``POLICIES`` on the policy tables its seats play by
ALIVE = 0
POLICIES = 1
#: an entry of the alive table holds the turn's score above the bits of its mechanics (``1 << m``
#: for mechanic m, each below ``1 << N_MECHANICS``): ``score << ALIVE_SCORE_SHIFT | events``. The
#: score has the 63 - N_MECHANICS bits above them (29), far more than it needs: the rule options'
#: values are at most 10**6 each (tests/skull_island/test_kernel.py reads them back at their highest).
ALIVE_SCORE_SHIFT = N_MECHANICS
ALIVE_EVENTS = (1 << ALIVE_SCORE_SHIFT) - 1

_BINOMIAL = np.array([[math.comb(n, k) for k in range(N_FACES)] for n in range(DICE + SKULL)], dtype=np.int64)


@njit(cache=True)
def rank(dice):
    """The index in ``[0, N_RANKS)`` of the non-skull dice of ``dice`` (at most 8 of them).

    Face counts ``c_0..c_4`` are the 5-subset ``{p_i = c_0 + ... + c_i + i}`` of
    ``0..12``, ranked by the combinatorial number system ``sum C(p_i, i + 1)``.
    """
    index = 0
    position = -1
    for face in range(SKULL):
        position += count(dice, face) + 1
        index += _BINOMIAL[position, face + 1]
    return index


@njit(cache=True)
def state_index(dice, sorceress):
    """The row of a policy table for these 8 dice (skulls included) and the sorceress flag."""
    return rank(dice) + (N_RANKS if sorceress else 0)


@njit(cache=True)
def encode(reroll, chest):
    """A policy table entry: the dice to reroll and the dice to leave on the chest card."""
    return reroll | (chest << CHEST_SHIFT)


@njit(cache=True)
def table_decision(tables, table, card, free, chest, sorceress):
    """Policy table ``tables[table]``'s decision after a roll, as ``decisions.decide`` returns it:
    ``(reroll?, new_chest, reroll)``.

    ``free``/``chest``: the dice off and on the treasure chest card; ``sorceress``: she
    is still available.
    """
    entry = tables[table, card, state_index(free + chest, sorceress)]
    reroll = entry & REROLL_MASK
    if reroll == 0:
        return False, 0, 0
    return True, entry >> CHEST_SHIFT, reroll


@njit(cache=True)
def final_round_table(thresholds, first_table, needed):
    """Which of the final-round tables from ``solver.final_round_tables`` (stored from
    ``first_table`` on) maximises P(own turn score >= ``needed``).

    Table ``j`` is the policy for every ``needed`` in ``(thresholds[j - 1], thresholds[j]]``;
    the last one (no score reaches ``needed``) is the expected-score policy.
    """
    return first_table + np.searchsorted(thresholds, needed)


@njit(cache=True)
def sub_multisets(dice):
    """How many sub-multisets the non-skull dice of ``dice`` have."""
    n = 1
    for face in range(SKULL):
        n *= count(dice, face) + 1
    return n


@njit(cache=True)
def sub_multiset(dice, index):
    """The ``index``-th sub-multiset of the non-skull dice (mixed radix over the face counts)."""
    part = 0
    for face in range(SKULL):
        radix = count(dice, face) + 1
        part += of(face, index % radix)
        index //= radix
    return part


@njit(cache=True)
def sub_index(dice, part):
    """The index of ``part`` among the sub-multisets of the non-skull dice (see :func:`sub_multiset`)."""
    index = 0
    radix = 1
    for face in range(SKULL):
        index += count(part, face) * radix
        radix *= count(dice, face) + 1
    return index


@njit(cache=True)
def non_skull_dice(dice):
    n = 0
    for face in range(SKULL):
        n += count(dice, face)
    return n


@njit(cache=True)
def sorceress_flags(card):
    """How many values of the sorceress flag the card's states take (2 for the sorceress)."""
    return 2 if card == SORCERESS else 1


@njit(cache=True)
def state_dice(rk):
    """The 8 dice of a rank, skulls included."""
    dice = RANK_DICE[rk]
    return dice + of(SKULL, DICE - non_skull_dice(dice))


@njit(cache=True)
def is_live(rk, card):
    """Is the rank a state in which the player decides (fewer than 3 skulls, card skulls included)?"""
    return DICE - non_skull_dice(RANK_DICE[rk]) + card_skulls(card) < 3


@njit(cache=True, inline="always")
def ending_events(card, dice, dead, own, turn_rules):
    """The mechanics (bits ``1 << m``, see :mod:`coverage`) of a turn that ended off Skull
    Island with ``dice`` (all 8, those on the chest included) and own change ``own``,
    as :func:`scoring.score_turn` scores it."""
    swords = count(dice, SWORD)
    if dead:
        return death_events(card, swords, own)
    need = sabres_needed(card)
    if need > 0 and swords < need:
        return 1 << SEA_BATTLE_LOST
    if card == PEACE and swords > 0:
        return 1 << PEACE_PENALTY
    events = (1 << SEA_BATTLE_WON) if need > 0 else 0
    if card != STORM and turn_rules.full_chest_bonus != 0 and every_die_scores(card, dice):
        events |= 1 << FULL_CHEST
    return events


@njit(cache=True, inline="always")
def death_events(card, swords, own):
    """:func:`ending_events` of a turn that ended with three skulls or more (``swords`` among its dice):
    three skulls, and the storm's skulls, the sea battle lost, the penalty of peace or the treasure
    chest's saved dice, as the card has them. Without a branch on the card: the kernel works these
    out for every death, and which card a turn drew is as hard to predict as the deck (each card is
    one of these four at most, so the bits of the others are 0)."""
    return ((1 << THREE_SKULLS) | (np.int64(card == STORM) << STORM_SKULLS)
            | (np.int64(sabres_needed(card) > 0) << SEA_BATTLE_LOST)
            | (np.int64((card == PEACE) & (swords > 0)) << PEACE_PENALTY)
            | (np.int64((card == CHEST) & (own > 0)) << CHEST_SAVES))


@njit(cache=True)
def alive_tables(turn_rules):
    """The table ``[card, state]`` of every state a turn can end in alive (0 where the dice hold 3
    skulls), as ``[ALIVE]`` of an array whose first axis, ``POLICIES`` long, is the first part of
    the kernel's stack: its own score by ``score_turn`` and its mechanics by :func:`ending_events`,
    in one entry (see :data:`ALIVE_SCORE_SHIFT`). The kernel scores most turns, and finds their mechanics, by this one
    lookup (working the mechanics out every turn cost 13% of a game; a table of its own for them, a
    second lookup a turn in memory a cache level away, 4%). The dice on the treasure chest card score
    only after a death, so the score of an alive state does not depend on them; an alive turn
    changes no opponent's total.
    """
    tables = np.zeros((POLICIES, N_CARDS, N_STATES), dtype=np.int64)
    for card in range(N_CARDS):
        for rk in range(N_RANKS):
            if is_live(rk, card):
                dice = state_dice(rk)  # the same in either sorceress state (rk, N_RANKS + rk)
                score = score_turn(card, dice, 0, False, False, turn_rules)[0]
                entry = (score << ALIVE_SCORE_SHIFT) | ending_events(card, dice, False, 0, turn_rules)
                tables[ALIVE, card, rk] = tables[ALIVE, card, N_RANKS + rk] = entry
    return tables


def _rank_dice() -> np.ndarray:
    """The non-skull dice of every rank, packed: :func:`rank` inverted.

    Every 5-subset ``p_0 < ... < p_4`` of ``0..12`` is one multiset (``c_0 = p_0``,
    ``c_i = p_i - p_(i-1) - 1``) of rank ``sum C(p_i, i + 1)``. Whole arrays, not
    the jitted ``rank``, which would load compiled code on every import.
    """
    positions = np.array(list(itertools.combinations(range(DICE + SKULL), SKULL)), dtype=np.int64)
    counts = np.diff(positions, axis=1, prepend=-1) - 1
    ranks = sum(_BINOMIAL[positions[:, i], i + 1] for i in range(SKULL))
    table = np.zeros(N_RANKS, dtype=np.int64)
    table[ranks] = pack_rows(counts)
    return table


def _roll_outcomes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every outcome of rolling r = 0..8 dice: offsets by r, the packed outcomes, their probabilities.

    The outcomes of r dice are the face multisets in ``combinations_with_replacement`` order, each
    counted with whole arrays (this runs on every import)."""
    starts, outcomes, probabilities = [0], [], []
    factorials = np.array([math.factorial(n) for n in range(DICE + 1)], dtype=np.int64)
    for r in range(DICE + 1):
        rolls = list(itertools.combinations_with_replacement(range(N_FACES), r))
        faces = np.array(rolls, dtype=np.int64).reshape(len(rolls), r)
        counts = (faces[:, :, None] == np.arange(N_FACES)).sum(axis=1)
        outcomes.append(pack_rows(counts))
        probabilities.append((math.factorial(r) // factorials[counts].prod(axis=1)) / N_FACES**r)
        starts.append(starts[-1] + len(counts))
    return np.array(starts, np.int64), np.concatenate(outcomes), np.concatenate(probabilities)


#: the non-skull dice of each rank (a state's skulls are 8 minus their number)
RANK_DICE = _rank_dice()
#: outcomes of rolling r dice are ROLL_DICE[ROLL_START[r]:ROLL_START[r + 1]], with ROLL_PROB
ROLL_START, ROLL_DICE, ROLL_PROB = _roll_outcomes()
