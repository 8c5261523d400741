"""A small progress bar on stderr, shown only when stderr is a terminal."""

import sys
import time


class Progress:
    def __init__(self, total_games: int, label: str = "games", enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.enabled = enabled
        self.total = total_games
        self.done = 0
        self.label = label
        self.start = time.perf_counter()
        self._last_draw = 0.0

    def advance(self, games: int) -> None:
        self.done += games
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last_draw >= 0.1 or self.done >= self.total:
            self._last_draw = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        fraction = self.done / self.total if self.total else 1.0
        width = 30
        filled = int(round(fraction * width))
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        remaining = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(
            f"\r[{bar}] {fraction * 100:5.1f}% {self.done:,}/{self.total:,} {self.label}"
            f"  {rate:,.0f}/s  eta {remaining:5.1f}s"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()
