"""The engine: generator, chunk plan, exact merging, and worker-independent results."""

import math

import numpy as np
import pytest

from analyzer.api import parse_count
from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import MAX_CHUNK, MIN_CHUNK, chunk_count, chunk_size, iter_chunks
from analyzer.engine.jit import njit
from analyzer.engine.memory import PADDING, chunk_zeros, padded_zeros
from analyzer.engine.rng import game_key, next_u64, randint, random01, seed_game, split_next, substream
from analyzer.errors import AnalyzerError
from analyzer.execution import parse_seed
from tests.reference_rng import MASK64, splitmix64_reference


@njit
def _first_outputs(seed, game, count):
    state = np.zeros(4, dtype=np.uint64)
    seed_game(seed, game, state)
    out = np.zeros(count, dtype=np.uint64)
    for i in range(count):
        out[i] = next_u64(state)
    return out


@njit
def _die_counts(seed, draws):
    state = np.zeros(4, dtype=np.uint64)
    seed_game(seed, 0, state)
    counts = np.zeros(6, dtype=np.int64)
    for _ in range(draws):
        counts[randint(state, 6)] += 1
    return counts


@njit
def _uniform_mean(seed, draws):
    state = np.zeros(4, dtype=np.uint64)
    seed_game(seed, 0, state)
    total = 0.0
    for _ in range(draws):
        total += random01(state)
    return total / draws


def test_streams_depend_only_on_seed_and_game():
    assert np.array_equal(_first_outputs(np.uint64(7), 3, 8), _first_outputs(np.uint64(7), 3, 8))
    assert not np.array_equal(_first_outputs(np.uint64(7), 3, 8), _first_outputs(np.uint64(7), 4, 8))
    assert not np.array_equal(_first_outputs(np.uint64(7), 3, 8), _first_outputs(np.uint64(8), 3, 8))
    # the largest seed is accepted and differs from its neighbours
    assert not np.array_equal(_first_outputs(np.uint64(2**64 - 1), 0, 4), _first_outputs(np.uint64(2**64 - 2), 0, 4))


def test_xoshiro256starstar_reference_output():
    """The generator is xoshiro256** exactly: check against the reference algorithm in Python."""
    state = np.zeros(4, dtype=np.uint64)
    seed_game(11, 5, state)
    s = [int(x) for x in state]
    mask = 2**64 - 1

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & mask

    expected = []
    for _ in range(5):
        expected.append(rotl(s[1] * 5 & mask, 7) * 9 & mask)
        t = s[1] << 17 & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
    assert [int(v) for v in _first_outputs(np.uint64(11), 5, 5)] == expected


def test_dice_are_uniform():
    draws = 300_000
    counts = _die_counts(12345, draws)
    n = counts.sum()
    expected = n / 6
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # chi-square with 5 degrees of freedom: P(chi2 > 25.7) < 1e-4
    assert chi2 < 25.7, counts


def test_substreams_are_splitmix64():
    # the reference generator's published first output from state 0
    assert splitmix64_reference(0)[0] == 0xE220A8397B1DCDAF
    for start in (0, 1, 2**63 + 12345, MASK64):
        stream, reference = start, start
        for _ in range(4):
            value, stream = split_next(np.uint64(stream))  # a Python int above 2**63 is no int64
            expected, reference = splitmix64_reference(reference)
            assert int(value) == expected and int(stream) == reference


def test_substreams_depend_on_game_and_stream_only():
    key = np.uint64(game_key(np.uint64(7), 3))
    assert key == game_key(np.uint64(7), 3)
    assert len({int(game_key(np.uint64(s), g)) for s in (7, 8) for g in (3, 4)}) == 4
    starts = {int(substream(key, turn)) for turn in range(1000)}
    assert len(starts) == 1000
    assert substream(key, 5) != substream(np.uint64(game_key(np.uint64(7), 4)), 5)


def test_uniform_floats_have_mean_one_half():
    draws = 200_000
    mean = _uniform_mean(99, draws)
    assert abs(mean - 0.5) < 4 * math.sqrt(1 / 12 / draws)


@pytest.mark.parametrize("n", [1, 2047, 2048, 2049, 10**6, 10**9, 10**12])
def test_chunk_plan_covers_every_game_once(n):
    size = chunk_size(n)
    assert MIN_CHUNK <= size <= MAX_CHUNK
    count = chunk_count(n)
    if n <= 10**6:
        chunks = list(iter_chunks(n))
        assert len(chunks) == count
        assert chunks[0].first_game == 0
        assert sum(c.n_games for c in chunks) == n
        for before, after in zip(chunks, chunks[1:], strict=False):
            assert after.first_game == before.first_game + before.n_games
    else:
        assert (count - 1) * size < n <= count * size


def test_totals_merge_exactly_and_widely():
    a = Totals()
    big = np.array([2**62, 5], dtype=np.int64)
    a.add({"score_sq": big, "wins": np.array([1, 2])})
    a.add({"score_sq": big, "wins": np.array([3, 4])})
    assert a["score_sq"][0] == 2**63  # beyond int64: accumulated as a Python integer
    assert list(a["wins"]) == [4, 6]
    b = Totals.from_jsonable(a.to_jsonable())
    assert a.equals(b)
    with pytest.raises(TypeError):
        a.add({"wins": np.array([0.5, 1.0])})


@pytest.mark.parametrize("text,value", [("1e6", 10**6), ("1000000", 10**6), ("1_000_000", 10**6), ("2.5e3", 2500),
                                        ("1e12", 10**12), (7, 7)])
def test_counts_accepted(text, value):
    assert parse_count(text) == value


@pytest.mark.parametrize("text", ["0", "-5", "abc", "1.5", "2e12", "1e-3", "", "1e1000000", True, 2.5])
def test_counts_refused(text):
    with pytest.raises(AnalyzerError):
        parse_count(text)


def test_seeds():
    assert parse_seed("12") == 12
    assert 0 <= parse_seed(None) < 2**63
    for bad in ("-1", "x", str(2**64)):
        with pytest.raises(AnalyzerError):
            parse_seed(bad)


def test_chunk_arrays_are_zeroed_disjoint_and_padded():
    arrays = chunk_zeros({"wins": (3,), "hist": (3, 5), "games": (1,)})
    assert [a.shape for a in arrays.values()] == [(3,), (3, 5), (1,)]
    spans = sorted((a.__array_interface__["data"][0], a.nbytes) for a in arrays.values())
    for (start, size), (next_start, _) in zip(spans, spans[1:], strict=False):
        assert start + size <= next_start
    block = arrays["wins"].base
    low = block.__array_interface__["data"][0]
    high = low + block.nbytes
    assert spans[0][0] - low >= PADDING and high - (spans[-1][0] + spans[-1][1]) >= PADDING
    for a in arrays.values():
        assert a.dtype == np.int64 and not a.any()
        a += 1  # writable views
    assert block.sum() == 3 + 15 + 1


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.bool_])
def test_padded_arrays_are_padded(dtype):
    first, second = padded_zeros((2, 3), dtype), padded_zeros(5, dtype)
    assert first.shape == (2, 3) and second.shape == (5,) and first.dtype == second.dtype == dtype
    assert not first.any() and not second.any()
    # each lies PADDING bytes inside its own allocation: two of them are at least 2 * PADDING apart
    first_at, second_at = first.ctypes.data, second.ctypes.data
    assert abs(first_at - second_at) >= 2 * PADDING + 5 * first.itemsize
