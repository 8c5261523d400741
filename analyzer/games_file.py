"""``--save-games``: one row per game, streamed in game order to CSV or parquet, atomically."""

from __future__ import annotations

import contextlib
import os

import numpy as np

from analyzer.files import check_output_path, commit_temporary, create_temporary

KINDS = (".csv", ".parquet")


class GamesWriter:
    """Receives each chunk's rows in chunk order; the file appears only on commit."""

    def __init__(self, path, players: int):
        self.path = check_output_path(path, KINDS)
        self.kind = self.path.suffix.lower()
        self.temp = create_temporary(self.path)
        self._parquet = None
        self._csv = None
        self._done = False

    def write(self, chunk, columns: dict[str, np.ndarray]) -> None:
        game = np.arange(chunk.first_game, chunk.first_game + chunk.n_games, dtype=np.int64)
        table = {"game": game, **columns}
        if self.kind == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            batch = pa.table({k: pa.array(v) for k, v in table.items()})
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self.temp, batch.schema)
            self._parquet.write_table(batch)
        else:
            import pandas as pd

            header = self._csv is None
            if header:
                self._csv = open(self.temp, "w", encoding="utf-8", newline="")
            frame = pd.DataFrame({k: np.asarray(v, dtype=np.int64) for k, v in table.items()})
            frame.to_csv(self._csv, header=header, index=False, lineterminator="\n")

    def _close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._csv is not None:
            self._csv.close()
            self._csv = None

    def commit(self) -> None:
        self._close()
        commit_temporary(self.temp, self.path)
        self._done = True

    def abort(self) -> None:
        if not self._done:
            self._close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.temp)
