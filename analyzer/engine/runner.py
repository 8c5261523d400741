"""Run ``n`` games as chunks and merge their aggregates exactly.

Locally, each chunk is played by the game's jitted kernel, which releases the GIL, so
plain threads use every core; at most ``2 * workers`` chunks are in flight, so memory
does not depend on ``n``. :func:`execute` can instead send the chunks to a Dask
cluster (:mod:`analyzer.engine.distributed`) and keep a checkpoint file
(:mod:`analyzer.engine.checkpoint`). Totals are integer sums, so the result is
bit-identical for any backend, any number of workers and any completion order.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Iterable

from analyzer.engine.aggregate import Totals
from analyzer.engine.checkpoint import Checkpoint
from analyzer.engine.chunks import Chunk, chunk_count, iter_chunks
from analyzer.engine.collect import ChunkCollector, RecordSink
from analyzer.engine.distributed import WORKER_WAIT_SECONDS, run_on_dask
from analyzer.engine.play import run_chunk
from analyzer.engine.precision import refuse_checkpoint
from analyzer.engine.progress import POLL_SECONDS, default_workers, raise_lost_ctrl_c
from analyzer.errors import AnalyzerError, param
from analyzer.games.base import Game, Prepared

BACKENDS = ("local", "dask")


def run_chunks(game: Game, prepared: Prepared, seed: int, chunks: Iterable[Chunk],
               workers: int = 1, on_chunk: Callable[[Chunk, dict], None] | None = None,
               record_sink: RecordSink | None = None) -> Totals:
    """Play the given chunks on local threads and return their merged totals.

    ``on_chunk(chunk, aggregates)`` is called as each chunk finishes (in completion
    order, for progress and checkpoints). ``record_sink(chunk, rows)`` receives the
    per-game rows in chunk order when given.
    """
    collector = ChunkCollector(on_chunk, record_sink)

    def play(ch: Chunk):
        return run_chunk(game, prepared, seed, ch.first_game, ch.n_games, collector.record)

    if workers <= 1:
        for ch in chunks:
            raise_lost_ctrl_c()
            collector.planned(ch)
            collector.finished(ch, *play(ch))
        return collector.totals

    # daemon threads, fed at most 2 * workers chunks ahead: on Ctrl-C or an error the
    # process stops at once instead of finishing the chunks under way and those queued
    todo: queue.Queue = queue.Queue()
    done: queue.Queue = queue.Queue()

    def work():
        while (ch := todo.get()) is not None:
            try:
                done.put((ch, play(ch), None))
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                done.put((ch, None, exc))

    threads = [threading.Thread(target=work, name="analyze-chunks", daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    try:
        chunk_iter = iter(chunks)
        in_flight = 0
        while True:
            for ch in itertools.islice(chunk_iter, 2 * workers - in_flight):
                collector.planned(ch)
                todo.put(ch)
                in_flight += 1
            if not in_flight:
                break
            ch, played, error = _next_done(done)
            in_flight -= 1
            if error is not None:
                raise error
            collector.finished(ch, *played)
    finally:
        while not todo.empty():  # after an error or Ctrl-C no queued chunk starts
            todo.get_nowait()
        for _ in threads:
            todo.put(None)
    return collector.totals


def _next_done(done: queue.Queue):
    """The next finished chunk: a lock wait, which Ctrl-C interrupts at once, in short steps that
    look for a Ctrl-C that was lost (see :func:`analyzer.engine.progress.remember_ctrl_c`)."""
    while True:
        try:
            return done.get(timeout=POLL_SECONDS)
        except queue.Empty:
            raise_lost_ctrl_c()


def run(game: Game, prepared: Prepared, n: int, seed: int, workers: int | None = None,
        progress=None, record_sink: RecordSink | None = None,
        on_chunk: Callable[[Chunk, dict], None] | None = None) -> Totals:
    """Play ``n`` games of ``prepared`` with ``seed`` on ``workers`` local threads."""
    return execute(game, prepared, n, seed, workers, progress=progress, record_sink=record_sink, on_chunk=on_chunk)


def execute(game: Game, prepared: Prepared, n: int, seed: int, workers: int | None = None,
            backend: str = "local", scheduler: str | None = None, checkpoint: str | None = None,
            progress=None, record_sink: RecordSink | None = None,
            on_chunk: Callable[[Chunk, dict], None] | None = None,
            worker_timeout: float = WORKER_WAIT_SECONDS, chunks: list[Chunk] | None = None) -> Totals:
    """The one entry point every command uses to play games.

    ``backend`` is ``local`` (threads here) or ``dask``; a ``scheduler`` address implies
    dask (without one, dask starts a local cluster of ``workers`` processes).
    ``checkpoint`` names a file that saves finished chunks and resumes from them: chunks
    already in it are not played again, and ``on_chunk`` sees only the chunks played
    now. ``progress.advance`` is called per chunk with its games. Whatever runs the
    chunks, the totals are bit-identical. On Dask, a run whose cluster has had no worker
    for ``worker_timeout`` seconds stops (the checkpoint keeps every chunk that arrived).
    ``chunks``: play only these chunks of the plan of ``n`` (a round of a precision run,
    :mod:`analyzer.engine.precision`); the totals are theirs. Not with a checkpoint.
    """
    if scheduler is not None:
        backend = "dask"
    if backend not in BACKENDS:
        raise AnalyzerError(f"{param('backend')} {backend!r} is not allowed; it must be local or dask")
    if checkpoint is not None and record_sink is not None:
        raise AnalyzerError(f"{param('checkpoint')} cannot be combined with {param('save_games')}: saved game rows "
                            f"cannot be resumed")
    if chunks is not None:
        refuse_checkpoint(checkpoint)
    workers = workers or default_workers()

    saved = None
    if checkpoint is not None:
        saved = Checkpoint.open(checkpoint, game, prepared, n, seed)
        if progress is not None:
            progress.total -= saved.games_done  # the bar and its rate count what is left to play
    if chunks is not None:
        chunks_to_play = len(chunks)
    else:
        chunks = (ch for ch in iter_chunks(n) if saved is None or not saved.has(ch.index))
        chunks_to_play = chunk_count(n) - (saved.chunks_done if saved is not None else 0)

    def finished(ch: Chunk, aggregates: dict) -> None:
        if saved is not None:
            saved.record(ch, aggregates)
        if progress is not None:
            progress.advance(ch.n_games)
        if on_chunk is not None:
            on_chunk(ch, aggregates)

    try:
        if backend == "local":
            totals = run_chunks(game, prepared, seed, chunks, workers, finished, record_sink)
        else:
            totals = run_on_dask(game, prepared, seed, chunks, chunks_to_play, workers, scheduler, finished,
                                 record_sink, worker_timeout)
    finally:
        if saved is not None:
            saved.save()
    return saved.totals if saved is not None else totals
