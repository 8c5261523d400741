"""Play a run's chunks on a Dask cluster: an existing one, or a local one started here.

A task plays a group of consecutive chunks and returns each chunk's own aggregates,
preparing the run on its worker once per process from a small :class:`Recipe` (the
strategy tables are not sent with every task),
so the client merges exactly the numbers the local backend merges (integer sums:
the order of arrival does not matter) and reports every chunk to progress bars,
checkpoints and convergence curves. Groups are sized so each worker thread gets
about ``TASKS_PER_THREAD`` tasks (scheduling costs little, and the last tasks still
balance the load), and at most ``MAX_CHUNKS_PER_TASK`` chunks (a lost worker or a
kill costs little work). Only a window of tasks is submitted at a time, so a run of
1e12 games needs no more memory than one of 1e6.

When a worker dies, Dask reruns the tasks it had not delivered on the other workers;
a chunk's result depends only on (seed, chunk), so the totals do not change. When
every worker has been gone for ``worker_timeout`` seconds, the run stops with one line
(:class:`~analyzer.errors.AnalyzerError`); every chunk that arrived before has been
handed on, so a checkpoint keeps them all.

Dask itself is imported only when a run uses it (``--backend dask``).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import os
import signal
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import Chunk
from analyzer.engine.collect import ChunkCollector, RecordSink
from analyzer.engine.play import run_chunk
from analyzer.engine.progress import raise_lost_ctrl_c
from analyzer.errors import AnalyzerError, param
from analyzer.games.base import Game, Prepared
from analyzer.version import __version__

#: how long to try to reach a scheduler before giving up
CONNECT_TIMEOUT_SECONDS = 5
#: how long a scheduler may have no worker at all before the run is abandoned (--worker-timeout)
WORKER_WAIT_SECONDS = 120
#: how often a run waiting for its tasks looks whether any worker is left
WATCH_SECONDS = 1.0
TASKS_PER_THREAD = 16
MAX_CHUNKS_PER_TASK = 64
#: tasks in flight per worker thread: one running, one queued
WINDOW_PER_THREAD = 2
#: the environment of local-cluster worker processes: one process per core runs one
#: kernel at a time, so no library may start threads of its own
WORKER_ENVIRONMENT = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                      "OPENBLAS_NUM_THREADS": "1"}
#: Dask settings of a local cluster. By default Dask's housekeeping (event-loop health
#: checks every 20 ms, a statistical profiler sampling every 10 ms, memory and system
#: monitors) costs about 9% of a core on a 2-worker cluster; with these, a quarter of that
LOCAL_CLUSTER_CONFIG = {
    "distributed.admin.tick.interval": "200ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.worker.profile.enabled": False,
}


@dataclass(frozen=True)
class Recipe:
    """What a worker needs to prepare a run itself: the rules, players and seats, a few hundred
    bytes, where the prepared run's strategy tables are megabytes (sent with every task, they
    made Dask warn of a large graph). ``digest`` is the client's
    :func:`~analyzer.engine.checkpoint.kernel_inputs_digest`: a worker that prepares other
    inputs refuses, so a run plays the same numbers on every backend."""

    rules: dict
    players: int
    seats: list
    digest: str


#: the runs this worker process prepared, by game and digest (the most recent few)
_PREPARED: OrderedDict[tuple[str, str], Prepared] = OrderedDict()
PREPARED_KEPT = 4


def recipe(prepared: Prepared) -> Recipe:
    from analyzer.engine.checkpoint import kernel_inputs_digest

    return Recipe(prepared.rules, prepared.players, prepared.seats, kernel_inputs_digest(prepared))


def prepared_here(game: Game, made: Recipe) -> Prepared:
    """The run of ``made``, prepared once per worker process (its tables computed or loaded from
    this machine's cache) and checked against the client's digest."""
    from analyzer.engine.checkpoint import kernel_inputs_digest

    key = (game.id, made.digest)
    if key not in _PREPARED:
        prepared = game.prepare(made.rules, made.players, made.seats)
        if kernel_inputs_digest(prepared) != made.digest:
            raise AnalyzerError("a Dask worker prepared other kernel inputs than this machine (other game data "
                                "or solver tables?); install the same version and data everywhere")
        _PREPARED[key] = prepared
        while len(_PREPARED) > PREPARED_KEPT:
            _PREPARED.popitem(last=False)
    _PREPARED.move_to_end(key)
    return _PREPARED[key]


def play_chunks(game: Game, run: Recipe | Prepared, seed: int, chunks: list[Chunk], record: bool,
                version: str) -> list[tuple[Chunk, dict, dict | None]]:
    """The task a worker runs: play ``chunks`` of ``run`` (a :class:`Recipe`, prepared here, or a
    prepared run) and return each one's aggregates (and rows).

    ``version`` is the client's: a worker with another version of the package could
    play other numbers, so it refuses.
    """
    if version != __version__:
        raise AnalyzerError(f"a Dask worker has pirate-analyzer {__version__} and this machine {version}; "
                            f"install the same version everywhere")
    prepared = prepared_here(game, run) if isinstance(run, Recipe) else run
    return [(ch, *run_chunk(game, prepared, seed, ch.first_game, ch.n_games, record)) for ch in chunks]


def chunks_per_task(chunks_to_play: int, threads: int) -> int:
    return max(1, min(MAX_CHUNKS_PER_TASK, math.ceil(chunks_to_play / (TASKS_PER_THREAD * max(1, threads)))))


def consecutive_groups(chunks: Iterable[Chunk], size: int) -> Iterator[list[Chunk]]:
    """Runs of at most ``size`` chunks with consecutive indices (a gap starts a new group)."""
    group: list[Chunk] = []
    for ch in chunks:
        if group and (len(group) == size or ch.index != group[-1].index + 1):
            yield group
            group = []
        group.append(ch)
    if group:
        yield group


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise AnalyzerError(f"{param('backend')} dask needs Dask: pip install 'pirate-analyzer[dask]'") from None
    return distributed


@contextlib.contextmanager
def _quiet_dask_logs():
    """Dask's own log lines (reconnects, restarted workers) would break the one-line output."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def check_scheduler(address: str) -> None:
    """Fail within ``CONNECT_TIMEOUT_SECONDS`` with one line if ``address`` cannot be reached."""
    import asyncio  # here, not at the top: every run imports this module, and asyncio costs its start-up

    from distributed.comm import connect

    async def probe():
        comm = await connect(address, timeout=CONNECT_TIMEOUT_SECONDS)
        await comm.close()

    try:
        asyncio.run(probe())
    except ValueError as exc:
        raise AnalyzerError(f"{param('scheduler')} {address!r} is not a Dask scheduler address: {exc}") from None
    except OSError:
        raise AnalyzerError(f"cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT_SECONDS} s "
                            f"(is `dask scheduler` running there?)") from None
    except Exception as exc:  # noqa: BLE001 - whatever answered was not a Dask scheduler
        raise AnalyzerError(f"the service at {address} did not answer as a Dask scheduler "
                            f"({type(exc).__name__})") from None


def dask_setup(worker) -> None:
    """Run by each local-cluster worker process as it starts (this module is its preload).

    Ctrl-C reaches every process of the terminal's process group: the workers ignore
    it and the client, interrupted, closes the cluster (saving its checkpoint first).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def local_cluster(workers: int):
    """A Dask cluster on this machine: ``workers`` processes of one thread, no dashboard.

    Its scheduler and nannies run in this process and read ``LOCAL_CLUSTER_CONFIG``
    as they start; each nanny hands its settings to the worker process it (re)starts.
    Shutdown races (a heartbeat to a scheduler already gone) are logged as errors by
    Dask, so only critical log lines are let through.

    A cluster whose start is interrupted (Ctrl-C while its workers start) is left out of
    Dask's own clean-up at exit, which would fail on its half-started workers and print a
    traceback after the one line the user gets; its worker processes are daemons, which
    end with this process. For the same reason asyncio's report of a start task that failed
    unseen (a nanny whose worker process was cut off) is dropped (:class:`StartCutShort`).
    """
    distributed = _import_distributed()
    import dask
    from distributed.deploy.spec import SpecCluster

    resource_tracker_started_quietly()
    before = set(SpecCluster._instances)
    try:
        with dask.config.set(LOCAL_CLUSTER_CONFIG):
            return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                                            silence_logs=logging.CRITICAL, env=WORKER_ENVIRONMENT,
                                            preload=[__name__])
    except BaseException:
        for half_started in set(SpecCluster._instances) - before:
            half_started.shutdown_on_close = False
        asyncio_logger = logging.getLogger("asyncio")
        if not any(isinstance(each, StartCutShort) for each in asyncio_logger.filters):
            asyncio_logger.addFilter(StartCutShort())
        raise


#: the warning filter (``PYTHONWARNINGS``) of multiprocessing's resource tracker: its warning of leaked
#: objects at shutdown ignored
TRACKER_WARNINGS = "ignore::UserWarning:multiprocessing.resource_tracker"


def resource_tracker_started_quietly() -> None:
    """Start multiprocessing's resource tracker (unless it runs already) with its warning of leaked
    objects at shutdown ignored (:data:`TRACKER_WARNINGS`); it still removes them.

    A local cluster's nannies make semaphores (the queues of their worker processes), which the
    tracker, a process of its own, removes once this one has ended without doing so. That happens
    when Ctrl-C cuts the cluster's start short: a nanny still starting on the cluster's event-loop
    thread makes its queues after the clean-up at exit, and the tracker warned ("There appear to be
    6 leaked semaphore objects to clean up at shutdown") after the user's one line.
    """
    from multiprocessing import resource_tracker

    before = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = f"{before},{TRACKER_WARNINGS}" if before else TRACKER_WARNINGS  # the last wins
    try:
        resource_tracker.ensure_running()
    finally:
        if before is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = before


def stop_local_workers(cluster) -> None:
    """End the worker processes of a local cluster whose run was abandoned (Ctrl-C, an error), at once.

    Closed as usual, each worker would first finish the task it is playing, which compiled code
    cannot cut short: Ctrl-C took 4 s to end a run, its workers playing on on every core meanwhile.
    Its games are of no use (a checkpoint holds only the chunks that arrived), so each nanny is told
    not to start its worker again and the worker process is killed.
    """
    for nanny in list(cluster.workers.values()):
        nanny.close_gracefully(reason="run-abandoned")  # the nanny's own word for: do not restart it
        with contextlib.suppress(ProcessLookupError, TypeError):  # gone already, or never started (no pid)
            os.kill(nanny.pid, signal.SIGKILL)


class StartCutShort(logging.Filter):
    """Drops asyncio's reports of tasks and futures cut off (see ``CUT_OFF``): once a local cluster's
    start has been interrupted, its nannies' start tasks fail unseen or are left pending, and
    asyncio reports each as this process ends, a traceback after the one line the user gets."""

    CUT_OFF = ("Task exception was never retrieved", "Future exception was never retrieved",
               "Task was destroyed but it is pending")

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.CUT_OFF)


def _no_workers(where: str, seconds: float) -> AnalyzerError:
    return AnalyzerError(f"the Dask scheduler at {where} has had no workers for {seconds:g} s "
                         f"(start some with `dask worker {where}`, or raise {param('worker_timeout')})")


class WorkerWatch:
    """Stops a run whose cluster has had no worker for ``timeout`` seconds (see :meth:`check`)."""

    def __init__(self, client, timeout: float):
        self.client = client
        self.timeout = timeout
        self.gone_since: float | None = None

    def check(self) -> None:
        """Raise :class:`AnalyzerError` once no worker has been seen for ``timeout`` seconds."""
        try:
            present = bool(self.client.nthreads())
        except OSError:
            present = False  # the scheduler does not answer: no worker is reachable either
        now = time.monotonic()
        if present or self.gone_since is None:
            self.gone_since = None if present else now
        elif now - self.gone_since >= self.timeout:
            raise _no_workers(self.client.scheduler.address, self.timeout)


@contextlib.contextmanager
def dask_client(scheduler: str | None, workers: int, worker_timeout: float = WORKER_WAIT_SECONDS):
    """A client of the cluster at ``scheduler``, or of a local cluster of ``workers`` processes."""
    distributed = _import_distributed()
    with _quiet_dask_logs():
        if scheduler is None:
            with local_cluster(workers) as cluster, distributed.Client(cluster, set_as_default=False) as client:
                try:
                    yield client
                except BaseException:
                    stop_local_workers(cluster)
                    raise
            return
        check_scheduler(scheduler)
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_SECONDS, set_as_default=False)
        except OSError:
            raise AnalyzerError(f"cannot connect to the Dask scheduler at {scheduler}") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=worker_timeout)
            except TimeoutError:
                raise _no_workers(scheduler, worker_timeout) from None
            yield client


def run_on_dask(game: Game, prepared: Prepared, seed: int, chunks: Iterable[Chunk], chunks_to_play: int,
                workers: int, scheduler: str | None, on_chunk: Callable[[Chunk, dict], None] | None = None,
                record_sink: RecordSink | None = None, worker_timeout: float = WORKER_WAIT_SECONDS) -> Totals:
    """Play ``chunks`` (``chunks_to_play`` of them) on Dask; the merged totals, as :func:`run_chunks`.

    Raises :class:`AnalyzerError` when no worker has been left for ``worker_timeout`` seconds.
    """
    collector = ChunkCollector(on_chunk, record_sink)
    if chunks_to_play <= 0:
        return collector.totals
    with dask_client(scheduler, workers, worker_timeout) as client:
        from distributed import wait

        threads = sum(client.nthreads().values())
        groups = consecutive_groups(chunks, chunks_per_task(chunks_to_play, threads))
        run_key = uuid.uuid4().hex
        made = recipe(prepared)

        def submit(group: list[Chunk]):
            for ch in group:
                collector.planned(ch)
            return client.submit(play_chunks, game, made, seed, group, collector.record, __version__,
                                 key=f"play_chunks-{run_key}-{group[0].index}")

        pending = {submit(group) for group in itertools.islice(groups, max(2, WINDOW_PER_THREAD * threads))}
        watch = WorkerWatch(client, worker_timeout)
        while pending:
            try:
                with client.as_current():  # the client is not the default one
                    done, pending = wait(pending, timeout=WATCH_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                raise_lost_ctrl_c()
                watch.check()
                continue
            for task in done:
                for ch, aggregates, rows in task.result():
                    collector.finished(ch, aggregates, rows)
                task.release()
                pending.update(submit(group) for group in itertools.islice(groups, 1))
    return collector.totals
