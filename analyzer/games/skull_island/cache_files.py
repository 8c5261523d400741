"""The solvers' cache files: numpy arrays written atomically, kept in memory when they cannot be.

A cache that cannot be written costs only the cache: the arrays stay in memory for the
rest of the process (so one command does not solve the same thing twice), and the
caller decides whether to warn.

The last few files read are kept too, while the file on disk is unchanged, and each read gets a
copy (its own arrays, writeable, as from the file): a report or sweep prepares dozens of runs of
one rule set, and each read the same final-round tables again (18 MB: 30-150 ms a read, a
few ms a copy).
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np

from analyzer.output import atomic_path

#: the game's package, whose files' code keys the cache files (:func:`cache_key`)
PACKAGE = Path(__file__).parent
#: arrays whose cache file could not be written (or is written only once the command ends,
#: :func:`hold_arrays`), kept for the rest of the process
_UNWRITTEN: dict[Path, dict[str, np.ndarray]] = {}
#: files kept after a read, by path: (inode, modification time, size) of the file read, and its arrays
KEPT_FILES = 4
_kept: OrderedDict[Path, tuple[tuple[int, int, int], dict[str, np.ndarray]]] = OrderedDict()
_keeping = threading.Lock()


def cache_key(description: str, sources: tuple[str, ...]) -> str:
    """A cache file's key: ``description`` (what it depends on: rule options, say, as JSON) and the
    code of ``sources`` (files of the game's package), so that a change to the code never serves a
    stale file."""
    digest = hashlib.sha256(description.encode())
    for code in _code(sources):
        digest.update(code)
    return digest.hexdigest()[:24]


@functools.cache
def _code(sources: tuple[str, ...]) -> tuple[bytes, ...]:
    """The files' bytes, read once a process (a report keys dozens of runs)."""
    return tuple((PACKAGE / name).read_bytes() for name in sources)


def hold_arrays(path: Path, **arrays: np.ndarray) -> None:
    """Keep ``arrays`` as ``path``'s for this process without writing them yet (see :func:`save_arrays`)."""
    _UNWRITTEN[path] = arrays


def load_arrays(path: Path) -> dict[str, np.ndarray] | None:
    """A cache file's arrays, or None when it is missing or unreadable (then it is recomputed)."""
    if path in _UNWRITTEN:
        return _UNWRITTEN[path]
    try:
        stat = os.stat(path)
        version = (stat.st_ino, stat.st_mtime_ns, stat.st_size)  # a file saved again is a new one (atomic)
        with _keeping:
            kept = _kept.get(path)
            if kept is not None and kept[0] == version:
                _kept.move_to_end(path)
                return {name: array.copy() for name, array in kept[1].items()}
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None
    with _keeping:
        _kept[path] = (version, arrays)
        _kept.move_to_end(path)
        while len(_kept) > KEPT_FILES:
            _kept.popitem(last=False)
    return {name: array.copy() for name, array in arrays.items()}


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
