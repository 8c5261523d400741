"""The progress bar of a run (tqdm on stderr), shown only when stderr is a terminal unless asked.

The engine calls :meth:`Progress.advance` once per finished chunk with its games, and
lowers :attr:`Progress.total` by the games a resumed checkpoint already holds, so the
bar, its rate and its time left count only what this session plays.
"""

from __future__ import annotations

import sys

#: from this many units on, counts and rates are shown scaled (``1.25M/10.0M``)
SCALED_FROM = 10_000


class Progress:
    """A bar over ``total_games`` (``enabled``: True always, False never, None on a terminal)."""

    def __init__(self, total_games: int, label: str = "games", enabled: bool | None = None, stream=None):
        stream = stream or sys.stderr
        if enabled is None:
            enabled = hasattr(stream, "isatty") and stream.isatty()
        self.enabled = bool(enabled)
        self._bar = None  # no bar, and no tqdm imported, when it is not shown
        if self.enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=total_games, unit=f" {label}", unit_scale=total_games >= SCALED_FROM,
                             file=stream, mininterval=0.1, dynamic_ncols=True)
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
