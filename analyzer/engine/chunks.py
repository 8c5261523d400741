"""Cutting a run of ``n`` games into chunks.

The plan depends on ``n`` alone (never on the number of workers), so a chunk index
names the same games on every machine; a chunk's result depends only on
(seed, rules, strategies, chunk), which is what lets threads, processes, Dask
workers and checkpoints all produce bit-identical totals.
"""

from dataclasses import dataclass

MIN_CHUNK = 2048
MAX_CHUNK = 1 << 18
TARGET_CHUNKS = 2048


@dataclass(frozen=True)
class Chunk:
    index: int
    first_game: int
    n_games: int


def chunk_size(n: int) -> int:
    """Games per chunk for a run of ``n`` games (a function of ``n`` only)."""
    size = -(-n // TARGET_CHUNKS)
    return max(MIN_CHUNK, min(MAX_CHUNK, size))


def chunk_count(n: int) -> int:
    return -(-n // chunk_size(n))


def chunk(n: int, index: int) -> Chunk:
    size = chunk_size(n)
    first = index * size
    if index < 0 or first >= n:
        raise IndexError(f"chunk {index} is outside a run of {n} games")
    return Chunk(index, first, min(size, n - first))


def iter_chunks(n: int):
    for index in range(chunk_count(n)):
        yield chunk(n, index)
