"""Dice rolls: exactly the documented algorithm (checked against a Python reference,
rejections included), and the law of fair dice."""

import itertools
import math

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.rng import game_key, substream
from analyzer.games.skull_island.components import DICE
from analyzer.games.skull_island.dice import pack, roll, unpack
from tests.reference_rng import splitmix64_reference

TWO32 = 2**32


def reference_roll(stream, n):
    """``n`` dice from a 32-bit draw ``x``: the base-6 digits of D = floor(x * 6**n / 2**32),
    rejecting the draw when (x * 6**n) mod 2**32 < 2**32 mod 6**n (Lemire). Returns
    (face counts, stream, draws used)."""
    draws = 0
    while True:
        value, stream = splitmix64_reference(stream)
        draws += 1
        d, rest = divmod((value >> 32) * 6**n, TWO32)
        if rest >= TWO32 % 6**n:
            counts = [0] * 6
            for _ in range(n):
                d, face = divmod(d, 6)
                counts[face] += 1
            return counts, stream, draws


@njit(cache=True)
def _roll(stream, n):
    return roll(stream, n)


def test_rolls_follow_the_reference_algorithm():
    for start in range(0, 2**64, 2**64 // 50):
        for n in range(1, DICE + 1):
            dice, stream = _roll(np.uint64(start), n)
            counts, expected_stream, _ = reference_roll(start, n)
            assert dice == pack(counts) and int(stream) == expected_stream, (start, n)


def test_a_rejected_draw_is_redrawn():
    start = next(s for s in itertools.count(1) if reference_roll(s, DICE)[2] > 1)
    counts, expected_stream, draws = reference_roll(start, DICE)
    assert draws == 2
    dice, stream = _roll(np.uint64(start), DICE)
    assert dice == pack(counts) and int(stream) == expected_stream


@njit(cache=True)
def _three_dice_outcomes(rolls):
    key = game_key(np.uint64(2026), 0)
    outcomes = np.zeros(rolls, dtype=np.int64)
    for turn in range(rolls):
        outcomes[turn], _ = roll(substream(key, turn), 3)  # as the kernel rolls: a sub-stream per turn
    return outcomes


def test_three_dice_follow_the_multinomial_law():
    rolls = 200_000
    observed = {}
    for dice in _three_dice_outcomes(rolls):
        observed[int(dice)] = observed.get(int(dice), 0) + 1
    chi2 = 0.0
    outcomes = list(itertools.combinations_with_replacement(range(6), 3))
    for faces in outcomes:
        counts = np.bincount(faces, minlength=6)
        p = math.factorial(3) / math.prod(math.factorial(int(c)) for c in counts) / 6**3
        expected = rolls * p
        chi2 += (observed.get(pack(counts), 0) - expected) ** 2 / expected
    assert len(observed) == len(outcomes) == 56
    assert sum(observed.values()) == rolls
    # chi-square with 55 degrees of freedom: P(chi2 > 103) < 1e-4 (Wilson-Hilferty)
    assert chi2 < 103, chi2
    assert all(unpack(d).sum() == 3 for d in list(observed)[:5])
