"""Dice as one integer: the count of each face in 4 bits (faces in ``FACES`` order).

A set of up to 15 dice per face fits in 24 bits, so the turn's state (the dice in
play, the dice on the treasure chest card) is two plain integers: adding dice is
integer addition, and the kernel passes no small arrays around (Numba reference-counts
arrays, which would cost more than the game logic itself).
"""

import numpy as np
from numba import njit

from analyzer.engine.rng import randint, randint_pair
from analyzer.games.skull_island.components import FACES, SKULL

FACE_BITS = 4
FACE_MASK = (1 << FACE_BITS) - 1
NON_SKULL = (1 << (FACE_BITS * SKULL)) - 1  # the bits of every face but the skull


@njit(cache=True, inline="always")
def count(dice, face):
    """How many dice show ``face``."""
    return (dice >> (FACE_BITS * face)) & FACE_MASK


@njit(cache=True, inline="always")
def of(face, n):
    """``n`` dice showing ``face``."""
    return n << (FACE_BITS * face)


@njit(cache=True, inline="always")
def total_dice(dice):
    """The number of dice, of any face."""
    n = 0
    for face in range(6):
        n += count(dice, face)
    return n


@njit(cache=True, inline="always")
def roll(state, n):
    """``n`` freshly rolled dice."""
    dice = 0
    for _ in range(n >> 1):
        first, second = randint_pair(state, 6)
        dice += of(first, 1) + of(second, 1)
    if n & 1:
        dice += of(randint(state, 6), 1)
    return dice


def pack(counts) -> int:
    """Face counts (a sequence of 6) to the packed integer."""
    return int(sum(int(n) << (FACE_BITS * face) for face, n in enumerate(counts)))


def unpack(dice: int) -> np.ndarray:
    return np.array([(dice >> (FACE_BITS * f)) & FACE_MASK for f in range(len(FACES))], dtype=np.int64)
