"""The fixed-size arrays a chunk returns, and their exact merge.

Every aggregate is an integer array, so merging is integer addition: exact,
associative and commutative, whatever order chunks finish in. Keys named in
``WIDE_KEYS`` (sums and sums of squares) are accumulated as Python integers so a
run of up to 1e12 games cannot overflow; a single chunk always fits in int64.

Keys every game fills (the engine's common statistics read them):

- ``games``: [1] games played
- ``wins``, ``ties``: [players] outright wins; shared wins (a tie counts for each
  tied player, never as a win)
- ``tie_games``: [1] games that ended in a shared win
- ``capped``: [1] games stopped by the game's cap
- ``score_sum``, ``score_sq``: [players] final score sums and sums of squares
- ``score_hist``: [players, bins] final scores in the game's fixed bins
- ``length_<unit>``: [cap + 1] histogram of the game's length in that unit

Anything else a game adds is merged the same way and read by its own ``game_stats``.
"""

import numpy as np

WIDE_SUFFIXES = ("_sum", "_sq")


def is_wide(key: str) -> bool:
    return key.endswith(WIDE_SUFFIXES)


class Totals:
    """The running, exact sum of chunk aggregates."""

    def __init__(self):
        self.arrays: dict[str, np.ndarray] = {}
        self.chunks_merged = 0

    def add(self, chunk_arrays: dict[str, np.ndarray]) -> None:
        for key, value in chunk_arrays.items():
            value = np.asarray(value)
            if value.dtype.kind not in "iu":
                raise TypeError(f"aggregate {key!r} must be integer, got {value.dtype}")
            if is_wide(key):
                value = value.astype(object)
            else:
                value = value.astype(np.int64)
            if key in self.arrays:
                if self.arrays[key].shape != value.shape:
                    raise ValueError(f"aggregate {key!r} changed shape between chunks")
                self.arrays[key] = self.arrays[key] + value
            else:
                self.arrays[key] = value.copy()
        self.chunks_merged += 1

    def __getitem__(self, key: str) -> np.ndarray:
        return self.arrays[key]

    def __contains__(self, key: str) -> bool:
        return key in self.arrays

    def as_float(self, key: str) -> np.ndarray:
        return np.array(self.arrays[key], dtype=np.float64)

    def equals(self, other: "Totals") -> bool:
        """Bit-for-bit equality of every aggregate."""
        if self.arrays.keys() != other.arrays.keys():
            return False
        return all(
            self.arrays[k].shape == other.arrays[k].shape
            and bool(np.all(self.arrays[k] == other.arrays[k]))
            for k in self.arrays
        )

    def to_jsonable(self) -> dict:
        """Plain lists of Python ints (exact), e.g. for a checkpoint file."""
        return {k: np.asarray(v).tolist() for k, v in self.arrays.items()}

    @classmethod
    def from_jsonable(cls, data: dict) -> "Totals":
        totals = cls()
        for key, value in data.items():
            totals.arrays[key] = np.array(value, dtype=object if is_wide(key) else np.int64)
        return totals
