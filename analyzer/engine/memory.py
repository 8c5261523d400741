"""Arrays that no other thread writes next to.

Two threads that write to the same cache line, even to different bytes of it, pass the
line back and forth between their cores (false sharing). Small arrays allocated one
after the other by two threads can share a line, and a kernel that bumps a counter or a
total every turn then runs a third slower with two workers than alone. The arrays a
kernel writes while it plays a chunk (the chunk's aggregates and its own scratch
arrays) therefore come from here, padded by 256 bytes on each side (the
adjacent-line prefetcher fetches 64-byte lines in pairs; some CPUs have 128-byte
lines).
"""

import math

import numpy as np

PADDING = 256  # bytes


def chunk_zeros(shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """Zeroed int64 arrays of these shapes for one chunk, carved from one padded block."""
    sizes = [math.prod(shape) for shape in shapes.values()]
    pad = PADDING // np.dtype(np.int64).itemsize
    block = np.zeros(sum(sizes) + 2 * pad, np.int64)
    arrays = {}
    at = pad
    for (name, shape), size in zip(shapes.items(), sizes, strict=True):
        arrays[name] = block[at:at + size].reshape(shape)
        at += size
    return arrays


def padded_zeros(shape, dtype=np.int64) -> np.ndarray:
    """A zeroed array of ``shape`` that shares no cache line with any other array."""
    size = math.prod(shape) if isinstance(shape, tuple) else shape
    pad = PADDING // np.dtype(dtype).itemsize
    return np.zeros(size + 2 * pad, dtype)[pad:pad + size].reshape(shape)
