"""The progress bar of a run (tqdm on stderr), shown only when stderr is a terminal unless asked.

The engine calls :meth:`Progress.advance` once per finished chunk with its games, and
lowers :attr:`Progress.total` by the games a resumed checkpoint already holds, so the
bar, its rate and its time left count only what this session plays.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import Any

#: from this many units on, counts and rates are shown scaled (``1.25M/10.0M``)
SCALED_FROM = 10_000


def open_bar(enabled: bool | None, stream, **options):
    """``(shown, bar)``: a tqdm bar on ``stream`` (default stderr) with ``options`` when ``enabled`` (None: when
    the stream is a terminal), else ``(False, None)``, and tqdm is not even imported."""
    stream = stream or sys.stderr
    if enabled is None:
        enabled = hasattr(stream, "isatty") and stream.isatty()
    if not enabled:
        return False, None
    from tqdm import tqdm

    return True, tqdm(file=stream, dynamic_ncols=True, **options)


class Progress:
    """A bar over ``total_games`` (``enabled``: True always, False never, None on a terminal)."""

    def __init__(self, total_games: int, label: str = "games", enabled: bool | None = None, stream=None):
        self.enabled, self._bar = open_bar(enabled, stream, total=total_games, unit=f" {label}",
                                           unit_scale=total_games >= SCALED_FROM, mininterval=0.1)
        self._total = total_games
        self._done = 0

    @property
    def done(self) -> int:
        """The units advanced so far (the solver closes a bar only when it moved)."""
        return self._done

    @property
    def total(self) -> int:
        return self._total

    @total.setter
    def total(self, games: int) -> None:
        self._total = games
        if self.enabled:
            self._bar.total = games
            self._bar.refresh()

    def advance(self, games: int) -> None:
        self._done += games
        if self.enabled:
            self._bar.update(games)

    def close(self) -> None:
        if self.enabled:
            self._bar.close()


class Stages:
    """A bar over the named stages of a long computation (a whole-game solve), on stderr when it
    is a terminal (``enabled``: True always, False never, None on a terminal): the stage under
    way, how many are done and the time since the start, refreshed while compiled code runs
    (see :func:`wait_interruptibly`)."""

    def __init__(self, total: int, label: str = "stages", enabled: bool | None = None, stream=None):
        shown = "{desc}: {n_fmt}/{total_fmt} " + label + " done, {elapsed} so far"
        self.enabled, self._bar = open_bar(enabled, stream, total=total, unit=f" {label}", bar_format=shown)

    @contextlib.contextmanager
    def stage(self, name: str):
        """Show ``name`` as the stage under way; count it done when the block ends."""
        if self.enabled:
            self._bar.set_description_str(name)
        yield self
        if self.enabled:
            self._bar.update(1)

    def refresh(self) -> None:
        if self.enabled:
            self._bar.refresh()

    def close(self) -> None:
        if self.enabled:
            self._bar.close()


#: how often a wait for compiled code looks for Ctrl-C and refreshes the bar (seconds)
POLL_SECONDS = 0.2

_ctrl_c = threading.Event()


def remember_ctrl_c() -> None:
    """Make Ctrl-C (SIGINT) remembered as well as raised, so that a wait can raise it again when
    it was lost (see :func:`raise_lost_ctrl_c`); the command line calls this first. A signal
    ignored (a background job) stays ignored.

    Python raises KeyboardInterrupt in whatever Python code the main thread runs at the signal,
    and Numba's compiler runs some in callbacks from C (llvmlite's object cache notices each
    compiled module) that drop an exception raised in them: a Ctrl-C there, while a kernel is
    compiled or loaded from the cache, was lost, and the run went on. Python also prints such a
    lost KeyboardInterrupt ("Exception ignored in", with a traceback) when it came in a callback
    Python calls itself (a weak reference's, as the import system's module locks have): the
    hook of unraisable exceptions drops it silently instead, since it is remembered.
    """
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_ctrl_c)
        sys.unraisablehook = _unraisable_hook_keeping_quiet_on_ctrl_c(sys.unraisablehook)


def _on_ctrl_c(signum, frame):
    _ctrl_c.set()
    raise KeyboardInterrupt


def _unraisable_hook_keeping_quiet_on_ctrl_c(previous_hook):
    """A hook of unraisable exceptions (see :func:`sys.unraisablehook`) that passes every one on
    to ``previous_hook`` except a remembered Ctrl-C's KeyboardInterrupt."""

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and ctrl_c_seen():
            return
        previous_hook(unraisable)

    return hook


def ctrl_c_seen() -> bool:
    """Whether a Ctrl-C came since :func:`remember_ctrl_c` (raised, or lost)."""
    return _ctrl_c.is_set()


def raise_lost_ctrl_c() -> None:
    """Raise KeyboardInterrupt when a Ctrl-C came (a lost one: one that was raised ends the run):
    every wait calls this each :data:`POLL_SECONDS`."""
    if ctrl_c_seen():
        raise KeyboardInterrupt


def wait_interruptibly(function, *args, progress: Stages | None = None):
    """``function(*args)``, computed on a daemon thread while this one waits in short steps.

    Compiled (Numba) code does not see Ctrl-C until it returns, which for a long value
    iteration is minutes: waiting on another thread, the main thread takes the
    KeyboardInterrupt at once (the computing thread is abandoned and ends with the process,
    which does not wait for it), and it refreshes ``progress`` meanwhile.
    """
    outcome: dict[str, Any] = {}

    def compute():
        try:
            outcome["value"] = function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome["error"] = exc

    thread = threading.Thread(target=compute, name=f"analyze-{getattr(function, '__name__', 'compute')}",
                              daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(POLL_SECONDS)
        raise_lost_ctrl_c()
        if progress is not None:
            progress.refresh()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def default_workers() -> int:
    """The cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def map_on_threads(function, items, workers: int | None = None) -> list:
    """``[function(item) for item in items]`` on ``workers`` daemon threads (default: one per core,
    :func:`default_workers`; for compiled code that releases the GIL), in order, waited for as
    :func:`wait_interruptibly` does: on Ctrl-C or an error no further item starts, and the process
    does not wait for those under way."""
    workers = workers or default_workers()
    items = list(items)
    results: list[Any] = [None] * len(items)
    errors: list[BaseException] = []
    stop = threading.Event()
    lock = threading.Lock()
    taken = iter(range(len(items)))

    def work():
        while not stop.is_set():
            with lock:
                index = next(taken, None)
            if index is None:
                return
            try:
                results[index] = function(items[index])
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                errors.append(exc)
                stop.set()

    threads = [threading.Thread(target=work, name="analyze-map", daemon=True)
               for _ in range(max(1, min(workers, len(items))))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(POLL_SECONDS)
                raise_lost_ctrl_c()
    finally:
        stop.set()
    if errors:
        raise errors[0]
    return results
