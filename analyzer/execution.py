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
from analyzer.engine.distributed import WORKER_WAIT_SECONDS
from analyzer.engine.progress import default_workers
from analyzer.engine.seeding import MAX_SEED, derived_seed, draw_seed
from analyzer.errors import AnalyzerError, param
from analyzer.files import check_output_path

#: the longest --worker-timeout (a week)
MAX_WORKER_TIMEOUT = 7 * 24 * 3600


def parse_seed(value: Any) -> int:
    """A seed as given (a whole number, or its text) or, for None, a drawn one."""
    if value is None:
        return draw_seed()
    try:
        seed = int(str(value).replace("_", "")) if not isinstance(value, int) or isinstance(value, bool) else value
    except ValueError:
        seed = None
    if seed is None or isinstance(value, bool) or not 0 <= seed <= MAX_SEED:
        raise AnalyzerError(f"{param('seed')} {value!r} is not allowed: it must be a whole number from 0 to 2**64 - 1")
    return seed


def parse_workers(value: Any, on_this_machine: bool = True) -> int:
    """Worker threads (local) or processes (a local Dask cluster); None: every core.

    Workers on this machine are capped at its cores (more would only take turns on them).
    """
    if value is None:
        return default_workers()
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AnalyzerError(f"{param('workers')} {value!r} is not allowed: it must be a whole number of at least 1")
    return min(value, default_workers()) if on_this_machine else value


def parse_worker_timeout(value: Any) -> float:
    """Seconds a Dask run waits while it has no worker at all; None: the default."""
    if value is None:
        return WORKER_WAIT_SECONDS
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_WORKER_TIMEOUT:
        raise AnalyzerError(f"{param('worker_timeout')} {value!r} is not allowed: it must be a number of seconds "
                            f"above 0 and at most {MAX_WORKER_TIMEOUT:,}")
    return float(value)


@dataclass(frozen=True)
class Execution:
    """Where and how games are played; every run of one command uses the same seed.

    ``progress``: True shows a bar, False none, None a bar when stderr is a terminal.
    ``checkpoint``: the file that keeps finished chunks (run *k* of a command made of
    several runs keeps its own, see :meth:`for_run`). ``worker_timeout``: how long a Dask
    run waits while its cluster has no worker before it stops.
    """

    seed: int
    workers: int = field(default_factory=default_workers)
    backend: str = "local"
    scheduler: str | None = None
    checkpoint: str | None = None
    progress: bool | None = False
    worker_timeout: float = WORKER_WAIT_SECONDS

    @classmethod
    def create(cls, seed: Any = None, workers: Any = None, backend: str = "local", scheduler: str | None = None,
               checkpoint: Any = None, progress: bool | None = False, worker_timeout: Any = None) -> Execution:
        """Validate the user's values (a seed is drawn when none is given; workers beyond the
        cores of this machine are capped, unless a scheduler's cluster plays)."""
        return cls(parse_seed(seed), parse_workers(workers, on_this_machine=scheduler is None), backend, scheduler,
                   None if checkpoint is None else str(checkpoint), progress, parse_worker_timeout(worker_timeout))

    def check_checkpoint(self) -> None:
        """Check that the checkpoint file can be written, before any game is prepared or played."""
        if self.checkpoint is not None:
            check_output_path(self.checkpoint, (), what="checkpoint")

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

    def play(self, game, prepared, n: int, progress=None, record_sink=None, on_chunk=None, chunks=None):
        """Play ``n`` games of ``prepared`` (or only ``chunks`` of their plan) and return their merged totals
        (see :func:`runner.execute`)."""
        return runner.execute(game, prepared, n, self.seed, self.workers, backend=self.backend,
                              scheduler=self.scheduler, checkpoint=self.checkpoint, progress=progress,
                              record_sink=record_sink, on_chunk=on_chunk, worker_timeout=self.worker_timeout,
                              chunks=chunks)
