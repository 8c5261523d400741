"""Python's garbage collector, held back from its oldest generation while the package makes many objects.

The collector sorts the objects that can hold references into three generations by age, and
collects the oldest when enough objects have reached it since the last time. Each collection of
the oldest generation walks every object the process holds: in a test worker that has compiled
every kernel, some 0.36 s a collection. Two kinds of work make many objects that live long
enough to reach the oldest generation, and then die, so that it is collected again and again:

- **A Numba compile** (its IR and the copies it inlines, types, LLVM IR as text). The collector
  took 4.6 s of Skull Island's 21 s first compile and 4.2 s of Dead Man's Chest's 42 s, 3.7 s
  and 3.3 s of them in collections of the oldest generation; held back, 0.8 s each. The peak
  memory of the compile is larger: 110 MB more for Skull Island, 150 MB for Dead Man's Chest.
- **A report's pages** (matplotlib's artists, their texts and paths). The collector took 0.74 s
  of a 7.4 s PDF report of Dead Man's Chest and 0.53 s of a 9.4 s HTML one; held back, 0.16 s
  and 0.13 s, with the peak memory the same within 20 MB.

:func:`oldest_generation_held` does the holding: the package's compiles
(:mod:`analyzer.engine.jit`) and report writers run inside it. The young generations are still
collected, which frees most of the garbage, and the oldest is again once the work is done.
"""

from __future__ import annotations

import contextlib
import gc
import threading

#: the oldest generation's threshold while held: never reached
HELD_THRESHOLD = 10**9

#: how many blocks hold the oldest generation, and the collector's thresholds before the first
_holds = {"count": 0, "thresholds": (0, 0, 0)}
_holds_lock = threading.Lock()


@contextlib.contextmanager
def oldest_generation_held():
    """No collection of the garbage collector's oldest generation inside the block (see the module's
    docstring). Nested and concurrent blocks share one hold; the thresholds of before the first are
    restored when the last ends, whether or not it raised. Usable as a decorator too."""
    with _holds_lock:
        if _holds["count"] == 0:
            _holds["thresholds"] = gc.get_threshold()
            young, middle, _ = _holds["thresholds"]
            gc.set_threshold(young, middle, HELD_THRESHOLD)
        _holds["count"] += 1
    try:
        yield
    finally:
        with _holds_lock:
            _holds["count"] -= 1
            if _holds["count"] == 0:
                gc.set_threshold(*_holds["thresholds"])
