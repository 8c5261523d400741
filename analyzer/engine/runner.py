"""Run ``n`` games as chunks on threads and merge their aggregates exactly.

Each chunk is played by the game's jitted kernel, which releases the GIL, so plain
threads use every core. At most ``2 * workers`` chunks are in flight, so memory does
not depend on ``n``. Totals are integer sums, so the result is bit-identical for
any number of workers and any completion order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import Chunk, iter_chunks
from analyzer.errors import AnalyzerError
from analyzer.games.base import Game, Prepared

RecordSink = Callable[[Chunk, dict], None]


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def run_chunks(game: Game, prepared: Prepared, seed: int, chunks: Iterable[Chunk],
               workers: int = 1, on_chunk: Callable[[Chunk, dict], None] | None = None,
               record_sink: RecordSink | None = None) -> Totals:
    """Play the given chunks and return their merged totals.

    ``on_chunk(chunk, aggregates)`` is called as each chunk finishes (in completion
    order, for progress and checkpoints). ``record_sink(chunk, rows)`` receives the
    per-game rows in chunk order when given.
    """
    totals = Totals()
    record = record_sink is not None

    def play(ch: Chunk):
        return game.run_chunk(prepared, seed, ch.first_game, ch.n_games, record)

    def finish(ch: Chunk, result) -> None:
        aggregates, rows = result
        totals.add(aggregates)
        if on_chunk is not None:
            on_chunk(ch, aggregates)
        if record:
            record_sink(ch, rows)

    if workers <= 1:
        for ch in chunks:
            finish(ch, play(ch))
        return totals

    pending_rows: dict[int, tuple[Chunk, object]] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        in_flight = {}
        chunk_iter = iter(chunks)
        order: list[Chunk] = []
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < 2 * workers:
                try:
                    ch = next(chunk_iter)
                except StopIteration:
                    exhausted = True
                    break
                order.append(ch)
                in_flight[pool.submit(play, ch)] = ch
            if not in_flight:
                break
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                ch = in_flight.pop(future)
                result = future.result()
                if not record:
                    finish(ch, result)
                    continue
                # rows must reach the sink in chunk order: hold early finishers
                pending_rows[ch.index] = (ch, result)
            while record and order and order[0].index in pending_rows:
                ch, result = pending_rows.pop(order.pop(0).index)
                finish(ch, result)
    return totals


def run(game: Game, prepared: Prepared, n: int, seed: int, workers: int | None = None,
        progress=None, record_sink: RecordSink | None = None,
        on_chunk: Callable[[Chunk, dict], None] | None = None) -> Totals:
    """Play ``n`` games of ``prepared`` with ``seed`` on ``workers`` local threads."""
    workers = workers or default_workers()

    def finished(ch: Chunk, aggregates) -> None:
        if progress is not None:
            progress.advance(ch.n_games)
        if on_chunk is not None:
            on_chunk(ch, aggregates)

    return run_chunks(game, prepared, seed, iter_chunks(n), workers, finished, record_sink)


def execute(game: Game, prepared: Prepared, n: int, seed: int, workers: int | None = None,
            backend: str = "local", scheduler: str | None = None, checkpoint: str | None = None,
            progress=None, record_sink: RecordSink | None = None,
            on_chunk: Callable[[Chunk, dict], None] | None = None) -> Totals:
    """The one entry point every command uses to play games.

    ``backend`` is ``local`` (threads here) or ``dask``; a ``scheduler`` address implies
    dask. ``checkpoint`` names a file that saves finished chunks and resumes from them.
    Whatever runs the chunks, the totals are bit-identical.
    """
    if scheduler is not None:
        backend = "dask"
    if backend not in ("local", "dask"):
        raise AnalyzerError(f"--backend {backend!r} is not allowed; it must be local or dask")
    if backend == "dask" or checkpoint is not None:
        raise AnalyzerError("the dask backend and --checkpoint are not available in this version")
    return run(game, prepared, n, seed, workers, progress, record_sink, on_chunk)
