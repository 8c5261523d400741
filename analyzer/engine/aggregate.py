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

    def merge(self, other: "Totals") -> None:
        """Add another run's totals (e.g. the next round of a precision run)."""
        for key, value in other.arrays.items():
            if key in self.arrays:
                if self.arrays[key].shape != value.shape:
                    raise ValueError(f"aggregate {key!r} changed shape between runs")
                self.arrays[key] = self.arrays[key] + value
            else:
                self.arrays[key] = value.copy()
        self.chunks_merged += other.chunks_merged

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
        """The totals of :meth:`to_jsonable`; ValueError unless every value is a whole number
        (and one of int64 outside the wide keys)."""
        totals = cls()
        for key, value in data.items():
            array = np.array(value, dtype=object)
            if array.dtype != object or not all(type(item) is int for item in array.flat):
                raise ValueError(f"aggregate {key!r} holds other values than whole numbers")
            try:
                totals.arrays[key] = array if is_wide(key) else array.astype(np.int64)
            except OverflowError:
                raise ValueError(f"aggregate {key!r} holds a number beyond 64 bits") from None
        return totals


#: the common keys that count games or seats, never below zero
COUNT_KEYS = ("games", "wins", "ties", "tie_games", "capped", "score_hist")


def inconsistency(totals: Totals, shapes: dict[str, tuple[int, ...]], score_bins: tuple[int, int, int]) -> str | None:
    """What in ``totals`` no run of games could have produced, in words (None: it all adds up).

    ``shapes`` gives every key's shape (:func:`analyzer.engine.play.aggregate_shapes`) and
    ``score_bins`` the final-score histogram's ``(low, width, count)``. Checked: the keys
    and shapes; counts never negative; a game is won by one seat, shared or (capped) by
    none; every histogram counts every game; each seat's score sum lies within what the
    games in its histogram bins could score, and its sum of squares is at least the
    square of its sum over the games.
    """
    if set(totals.arrays) != set(shapes):
        return "its aggregates are not the ones this run keeps"
    for key, shape in shapes.items():
        if totals[key].shape != tuple(shape):
            return f"aggregate {key} has the wrong shape"
    if any(int(np.min(totals[key], initial=0)) < 0 for key in COUNT_KEYS if key in totals) \
            or any(value < 0 for value in totals["score_sq"]):
        return "a count is negative"
    games = int(totals["games"][0])
    wins, ties, tie_games = int(totals["wins"].sum()), int(totals["ties"].sum()), int(totals["tie_games"][0])
    players = len(totals["wins"])
    if wins + tie_games > games or not 2 * tie_games <= ties <= players * tie_games or totals["capped"][0] > games:
        return "its wins, ties and games do not add up"
    lengths = [key for key in shapes if key.startswith("length_")]
    if any(int(row.sum()) != games for row in totals["score_hist"]) \
            or any(int(totals[key].sum()) != games for key in lengths):
        return "a histogram does not count every game"
    low, width, bins = score_bins
    for seat in range(players):
        counts = [int(count) for count in totals["score_hist"][seat]]
        least = sum(count * (low + b * width) for b, count in enumerate(counts))
        most = sum(count * (low + (b + 1) * width - 1) for b, count in enumerate(counts))
        total, squares = totals["score_sum"][seat], totals["score_sq"][seat]
        if (counts[0] == 0 and total < least) or (counts[-1] == 0 and total > most) or games * squares < total * total:
            return f"seat {seat + 1}'s score sums are beyond what its games could score"
    return None
