"""How the games of a command are played: one :class:`Execution` from the API down to the engine.

The seed, the workers, the backend and its scheduler, the checkpoint file and the
progress bar travel together as one object: the API functions build it from their
keyword arguments (the CLI from its options) and every run, experiment, search and
report passes it on. It sits below the API and the experiments, so both import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from analyzer.engine import runner
from analyzer.engine.seeding import MAX_SEED, derived_seed, draw_seed
from analyzer.errors import AnalyzerError


def parse_seed(value: Any) -> int:
    """A seed as given (a whole number, or its text) or, for None, a drawn one."""
    if value is None:
        return draw_seed()
    try:
        seed = int(str(value).replace("_", "")) if not isinstance(value, int) or isinstance(value, bool) else value
    except ValueError:
        seed = None
    if seed is None or isinstance(value, bool) or not 0 <= seed <= MAX_SEED:
        raise AnalyzerError(f"--seed {value!r} is not allowed: it must be a whole number from 0 to 2**64 - 1")
    return seed


def parse_workers(value: Any) -> int:
    """Worker threads (local) or processes (a local Dask cluster); None: every core."""
    if value is None:
        return runner.default_workers()
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AnalyzerError(f"--workers {value!r} is not allowed: it must be a whole number of at least 1")
    return value


@dataclass(frozen=True)
class Execution:
    """Where and how games are played; every run of one command uses the same seed.

    ``progress``: True shows a bar, False none, None a bar when stderr is a terminal.
    ``checkpoint``: the file that keeps finished chunks (run *k* of a command made of
    several runs keeps its own, see :meth:`for_run`).
    """

    seed: int
    workers: int = field(default_factory=runner.default_workers)
    backend: str = "local"
    scheduler: str | None = None
    checkpoint: str | None = None
    progress: bool | None = False

    @classmethod
    def create(cls, seed: Any = None, workers: Any = None, backend: str = "local", scheduler: str | None = None,
               checkpoint: Any = None, progress: bool | None = False) -> Execution:
        """Validate the user's values (a seed is drawn when none is given)."""
        return cls(parse_seed(seed), parse_workers(workers), backend, scheduler,
                   None if checkpoint is None else str(checkpoint), progress)

    @property
    def backend_name(self) -> str:
        """The backend that really plays: a scheduler address means Dask."""
        return "dask" if self.scheduler is not None else self.backend

    @property
    def reported_workers(self) -> int | None:
        """The workers to report: None on a Dask cluster given by its address (its own workers play)."""
        return None if self.scheduler is not None else self.workers

    def derived(self, *parts: Any) -> Execution:
        """The same execution from a seed derived from this one and ``parts`` (an independent sub-run)."""
        return replace(self, seed=derived_seed(self.seed, *parts))

    def for_run(self, index: int) -> Execution:
        """Run ``index`` of a command made of several runs: its own checkpoint file."""
        if self.checkpoint is None:
            return self
        from analyzer.engine.checkpoint import variant_path

        return replace(self, checkpoint=variant_path(self.checkpoint, index))

    def progress_bar(self, total: int, label: str = "games"):
        """A :class:`~analyzer.engine.progress.Progress` over ``total``, or None when turned off."""
        if self.progress is False:
            return None
        from analyzer.engine.progress import Progress

        return Progress(total, label=label, enabled=self.progress)

    def play(self, game, prepared, n: int, progress=None, record_sink=None, on_chunk=None):
        """Play ``n`` games of ``prepared`` and return their merged totals (see :func:`runner.execute`)."""
        return runner.execute(game, prepared, n, self.seed, self.workers, backend=self.backend,
                              scheduler=self.scheduler, checkpoint=self.checkpoint, progress=progress,
                              record_sink=record_sink, on_chunk=on_chunk)
