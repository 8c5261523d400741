"""Where finished chunks go, whatever backend played them (threads here or Dask workers)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import Chunk

RecordSink = Callable[[Chunk, dict], None]
ChunkCallback = Callable[[Chunk, dict], None]


class ChunkCollector:
    """Where finished chunks go, whatever played them.

    Aggregates are merged into ``totals`` and shown to ``on_chunk`` in completion
    order; per-game rows reach ``record_sink`` in the order the chunks were handed out
    (:meth:`planned`), so rows that finish early wait for their predecessors.
    """

    def __init__(self, on_chunk: ChunkCallback | None = None, record_sink: RecordSink | None = None):
        self.totals = Totals()
        self.on_chunk = on_chunk
        self.record_sink = record_sink
        self._planned: deque[int] = deque()
        self._waiting_rows: dict[int, tuple[Chunk, dict]] = {}

    @property
    def record(self) -> bool:
        return self.record_sink is not None

    def planned(self, chunk: Chunk) -> None:
        if self.record:
            self._planned.append(chunk.index)

    def finished(self, chunk: Chunk, aggregates: dict, rows: dict | None) -> None:
        self.totals.add(aggregates)
        if self.on_chunk is not None:
            self.on_chunk(chunk, aggregates)
        if self.record:
            self._waiting_rows[chunk.index] = (chunk, rows)
            while self._planned and self._planned[0] in self._waiting_rows:
                self.record_sink(*self._waiting_rows.pop(self._planned.popleft()))
