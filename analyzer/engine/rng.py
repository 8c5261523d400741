"""The in-kernel random generator: xoshiro256** seeded per game by splitmix64.

Game ``i`` of a run with seed ``s`` draws every random number from a stream whose
state depends only on ``(s, i)``: chunking, threads, processes and machines never
change a number, and two rule variants run with the same seed start game ``i`` from
the same stream (common random numbers).

The state is a ``uint64[4]`` array owned by the kernel and re-seeded per game.

A game may also draw from sub-streams keyed by (seed, i, k), for example one per turn:
``substream`` starts one, ``split_next`` draws from it. A sub-stream is a splitmix64
generator, whose whole state is one ``uint64``: a kernel keeps it in a register and
passes it by value, with none of the reference counting an array costs in Numba.
"""

import numpy as np

from analyzer.engine.jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0x5EED5EED5EED5EED)
_SUBSTREAM_SALT = np.uint64(0xD1CE5EED0F7A1E5)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1) << np.uint64(32)


@njit(cache=True, inline="always")
def splitmix64_mix(z):
    """The splitmix64 finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def game_key(seed, game_index):
    """A 64-bit hash of (seed, game index): the root of everything game ``game_index`` draws."""
    return splitmix64_mix(splitmix64_mix(np.uint64(seed) ^ _SEED_SALT) + np.uint64(game_index) * _GOLDEN)


@njit(cache=True)
def seed_game(seed, game_index, state):
    """Fill ``state`` with the generator state of game ``game_index`` of run ``seed``."""
    z = game_key(seed, game_index)
    for k in range(4):
        z = z + _GOLDEN
        state[k] = splitmix64_mix(z)


@njit(cache=True, inline="always")
def substream(key, stream):
    """The start of sub-stream ``stream`` of the game whose ``game_key`` is ``key``.

    A game may draw, say, each turn's dice from its own sub-stream (stream = turn):
    two rule variants then roll the same dice in turn t even after one of them has
    drawn a different number of random values earlier, which keeps common random
    numbers in step for much longer.
    """
    return splitmix64_mix((np.uint64(key) ^ _SUBSTREAM_SALT) + np.uint64(stream) * _GOLDEN)


@njit(cache=True, inline="always")
def split_next(stream):
    """The next 64-bit output of a sub-stream (splitmix64) and the advanced sub-stream."""
    stream = np.uint64(stream) + _GOLDEN
    return splitmix64_mix(stream), stream


@njit(cache=True, inline="always")
def rotate_left(x, k):
    """The unsigned 64-bit word ``x`` rotated left by ``k`` bits (0 < k < 64): one instruction."""
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def next_u64(state):
    """The next 64-bit output of xoshiro256**."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = rotate_left(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotate_left(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True, inline="always")
def lemire_accepts(low, n):
    """Lemire's test for ``x * n`` (``x`` 32 random bits) whose low 32 bits are ``low``:
    accepted, its high 32 bits are uniform in [0, n) without bias; rejected, draw again."""
    return low >= n or low >= (TWO32 - n) % n


@njit(cache=True, inline="always")
def _bounded32(state, x, n):
    """Lemire's unbiased multiply-shift: map the 32-bit value ``x`` to [0, n)."""
    m = x * n
    while not lemire_accepts(m & LOW32, n):
        x = next_u64(state) >> np.uint64(32)
        m = x * n
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def randint(state, n):
    """A uniform integer in [0, n), without bias, for 1 <= n < 2**32."""
    return _bounded32(state, next_u64(state) >> np.uint64(32), np.uint64(n))


@njit(cache=True, inline="always")
def random01(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(state, values, count):
    """Fisher-Yates shuffle of ``values[:count]`` in place."""
    for i in range(count - 1, 0, -1):
        j = randint(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
