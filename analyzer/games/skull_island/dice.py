"""Dice as one integer: the count of each face in 4 bits (faces in ``FACES`` order).

A set of up to 15 dice per face fits in 24 bits, so the turn's state (the dice in
play, the dice on the treasure chest card) is two plain integers: adding dice is
integer addition, and the kernel passes no small arrays around (Numba reference-counts
arrays, which would cost more than the game logic itself).
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.rng import LOW32, lemire_accepts, split_next
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
def roll(stream, n):
    """``n`` <= 8 freshly rolled dice from the sub-stream ``stream``: ``(dice, stream)``.

    One 32-bit draw ``x`` rolls them all, without bias: ``x * 6**n = D * 2**32 + rest``
    makes ``D`` uniform in ``[0, 6**n)`` once draws with ``rest < 2**32 mod 6**n`` are
    rejected (Lemire's multiply-shift), and the base-6 digits of ``D`` are the dice;
    multiplying by 6 ``n`` times reads them off one by one.
    """
    while True:
        value, stream = split_next(stream)
        rest = value >> np.uint64(32)
        dice = 0
        outcomes = np.uint64(1)
        for _ in range(n):
            rest *= np.uint64(6)
            dice += of(np.int64(rest >> np.uint64(32)), 1)
            rest &= LOW32
            outcomes *= np.uint64(6)
        if lemire_accepts(rest, outcomes):
            return dice, stream


def pack(counts) -> int:
    """Face counts (a sequence of 6) to the packed integer."""
    return int(pack_rows(np.asarray(counts, dtype=np.int64).reshape(1, -1))[0])


def pack_rows(counts: np.ndarray) -> np.ndarray:
    """Each row of face counts (int64, ``FACES`` order; fewer columns leave the last faces at 0)
    to its packed integer."""
    return (counts << (FACE_BITS * np.arange(counts.shape[1]))).sum(axis=1)


def unpack(dice: int) -> np.ndarray:
    return np.array([(dice >> (FACE_BITS * f)) & FACE_MASK for f in range(len(FACES))], dtype=np.int64)
