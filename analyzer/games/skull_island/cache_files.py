"""The solvers' cache files: numpy arrays written atomically, kept in memory when they cannot be.

A cache that cannot be written costs only the cache: the arrays stay in memory for the
rest of the process (so one command does not solve the same thing twice), and the
caller decides whether to warn.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from analyzer.output import atomic_path

#: arrays whose cache file could not be written (or is written only once the command ends,
#: :func:`hold_arrays`), kept for the rest of the process
_UNWRITTEN: dict[Path, dict[str, np.ndarray]] = {}


def hold_arrays(path: Path, **arrays: np.ndarray) -> None:
    """Keep ``arrays`` as ``path``'s for this process without writing them yet (see :func:`save_arrays`)."""
    _UNWRITTEN[path] = arrays


def load_arrays(path: Path) -> dict[str, np.ndarray] | None:
    """A cache file's arrays, or None when it is missing or unreadable (then it is recomputed)."""
    if path in _UNWRITTEN:
        return _UNWRITTEN[path]
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None


def save_arrays(path: Path, **arrays: np.ndarray) -> OSError | None:
    """Write a cache file atomically; one that cannot be written only costs the cache (the
    arrays are kept in memory for this process) and its error is returned."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as temp, open(temp, "wb") as handle:
            np.savez(handle, **arrays)
    except OSError as error:
        _UNWRITTEN[path] = arrays
        return error
    _UNWRITTEN.pop(path, None)
    return None
