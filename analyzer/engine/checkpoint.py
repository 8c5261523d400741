"""Resumable runs: a file holding the merged totals of a run's finished chunks.

A chunk's aggregates depend only on (seed, rules, strategies, chunk), and the chunk
plan only on ``n`` (:mod:`analyzer.engine.chunks`), so a run that resumes from the
merged totals of its finished chunks and plays the others ends with exactly the
totals of an uninterrupted run, on any backend and any number of workers.

The file is JSON: what identifies the run (every argument that changes a number,
plus a digest of the arrays the kernel reads), the finished chunk indices as ranges,
the merged totals as exact integers, and a checksum (SHA-256) over all of it. It is
rewritten atomically (a temporary file, flushed to disk, then renamed), so a kill at
any moment leaves the previous complete version. A file made by a different run is
refused, naming what differs; so is a file whose checksum does not match its content
or whose totals do not add up (:func:`analyzer.engine.aggregate.inconsistency`) or hold
what its games could not produce (:mod:`analyzer.engine.tally_limits`), and
one of an earlier format (version 1 had no checksum): its games are played again.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.engine.aggregate import Totals, inconsistency
from analyzer.engine.chunks import Chunk, chunk_count, chunk_size
from analyzer.engine.play import aggregate_shapes
from analyzer.engine.tally_limits import TallyRules, beyond_limits, common_rules
from analyzer.errors import AnalyzerError, param
from analyzer.files import MAX_CHECKPOINT_BYTES, atomic_path, check_nesting, check_output_path, read_input
from analyzer.games.base import Game, Prepared
from analyzer.version import __version__

FILE_FORMAT = "pirate-analyzer checkpoint"
#: 2: with a checksum
SCHEMA = 2
#: the shortest time between two saves; a save also waits at least this many times as
#: long as the previous save took, so writing costs at most a few percent of a run
SAVE_INTERVAL_SECONDS = 1.0
SAVE_COST_FACTOR = 20


def _plain(value: Any) -> Any:
    """``value`` as plain JSON values (tuples as lists, numpy values as Python ones)."""
    def convert(item):
        if isinstance(item, (np.ndarray, np.generic)):
            return item.tolist()
        if isinstance(item, (set, frozenset)):
            return sorted(item)
        return str(item)

    return json.loads(json.dumps(value, default=convert, sort_keys=True))


def kernel_inputs_digest(prepared: Prepared) -> str:
    """A hash of everything the kernel reads besides the seed (the inputs, bins and caps)."""
    digest = hashlib.sha256()

    def add(name: str, value: Any) -> None:
        if hasattr(value, "_fields"):
            for field in value._fields:
                add(f"{name}.{field}", getattr(value, field))
        elif isinstance(value, np.ndarray):
            array = np.ascontiguousarray(value)
            digest.update(f"{name}:{array.dtype.str}:{array.shape}:".encode())
            digest.update(array.tobytes())
        else:
            digest.update(f"{name}={json.dumps(_plain(value))};".encode())

    add("inputs", prepared.inputs)
    add("rest", {"score_bins": prepared.score_bins, "length_caps": prepared.length_caps})
    return digest.hexdigest()


def run_identity(game: Game, prepared: Prepared, n: int, seed: int) -> dict[str, Any]:
    """Every argument that changes a run's numbers, as plain JSON values."""
    return _plain({
        "version": __version__,
        "game": game.id,
        "players": prepared.players,
        "rules": prepared.rules,
        "strategies": [seat.label for seat in prepared.seats],
        "strategy_params": [seat.params for seat in prepared.seats],
        "seed": seed,
        "n": n,
        "chunk_size": chunk_size(n),
        "kernel_inputs": kernel_inputs_digest(prepared),
    })


def fingerprint(identity: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def _canonical(document: dict[str, Any]) -> str:
    """The text a checkpoint file holds: its JSON with sorted keys and no spaces."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def checksum(document: dict[str, Any]) -> str:
    """The SHA-256 of a checkpoint document without its ``checksum`` key."""
    body = {key: value for key, value in document.items() if key != "checksum"}
    return hashlib.sha256(_canonical(body).encode()).hexdigest()


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def differences(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What differs between two run identities, in words (rule by rule for rules)."""
    found = []
    for key, now in current.items():
        then = stored.get(key)
        if then == now:
            continue
        if key == "rules" and isinstance(then, dict):
            for rule in sorted(set(then) | set(now)):
                if then.get(rule) != now.get(rule):
                    found.append(f"rule {rule} {_show(then.get(rule))} in the checkpoint, {_show(now.get(rule))} now")
        elif key == "kernel_inputs":
            found.append("the game's kernel inputs differ (other game data)")
        else:
            found.append(f"{key.replace('_', ' ')} {_show(then)} in the checkpoint, {_show(now)} now")
    return found


def variant_path(path: str | Path, index: int) -> str:
    """The checkpoint file of variant ``index`` of a command that plays several runs.

    ``runs/sweep.ckpt`` -> ``runs/sweep.3.ckpt``: each run keeps its own file, so a
    rerun of the same command resumes every variant and a changed one is refused.
    """
    path = Path(path)
    return str(path.with_name(f"{path.stem}.{index}{path.suffix}"))


def _ranges(indices: set[int]) -> list[list[int]]:
    """Sorted indices as ``[start, stop)`` ranges."""
    ranges: list[list[int]] = []
    for index in sorted(indices):
        if ranges and ranges[-1][1] == index:
            ranges[-1][1] = index + 1
        else:
            ranges.append([index, index + 1])
    return ranges


class Checkpoint:
    """The finished chunks of one run and their merged totals, saved to ``path``."""

    def __init__(self, path: Path, identity: dict[str, Any], n: int, shapes: dict[str, tuple[int, ...]],
                 score_bins: tuple[int, int, int], tally_rules: TallyRules | None = None):
        self.path = path
        self.identity = identity
        self.n = n
        self.shapes = shapes
        self.score_bins = score_bins
        #: what the recorded games could have put in each aggregate (checked on loading)
        self.tally_rules = tally_rules
        self.totals = Totals()
        self.finished: set[int] = set()
        self.games_done = 0
        self._dirty = True
        self._last_save = 0.0
        self._save_seconds = 0.0

    @classmethod
    def open(cls, path: str | Path, game: Game, prepared: Prepared, n: int, seed: int) -> Checkpoint:
        """Resume from ``path`` if it exists (refusing another run's file), else start it."""
        path = Path(path)
        rules = common_rules(prepared.players, prepared.length_caps, game.length_units) \
            .merged(game.tally_rules(prepared))
        checkpoint = cls(path, run_identity(game, prepared, n, seed), n, aggregate_shapes(game, prepared),
                         prepared.score_bins, rules)
        check_output_path(path, (), what="checkpoint")
        if path.exists():
            checkpoint._load()
        checkpoint.save()  # fails now, not after hours of play, if the file cannot be written
        return checkpoint

    @property
    def chunks_done(self) -> int:
        return len(self.finished)

    def has(self, index: int) -> bool:
        return index in self.finished

    def record(self, chunk: Chunk, aggregates: dict) -> None:
        """Add a finished chunk; save when enough time has passed since the last save."""
        if chunk.index in self.finished:
            raise ValueError(f"chunk {chunk.index} was recorded twice")
        self.totals.add(aggregates)
        self.finished.add(chunk.index)
        self.games_done += chunk.n_games
        self._dirty = True
        wait = max(SAVE_INTERVAL_SECONDS, SAVE_COST_FACTOR * self._save_seconds)
        if time.monotonic() - self._last_save >= wait:
            self.save()

    def save(self) -> None:
        """Write the file atomically (temporary file, fsync, rename) if anything changed."""
        if not self._dirty:
            return
        start = time.monotonic()
        document = {
            "format": FILE_FORMAT,
            "schema": SCHEMA,
            "fingerprint": fingerprint(self.identity),
            "run": self.identity,
            "chunks": chunk_count(self.n),
            "games_done": self.games_done,
            "finished": _ranges(self.finished),
            "totals": self.totals.to_jsonable(),
        }
        document["checksum"] = checksum(document)
        try:
            with atomic_path(self.path) as temp, open(temp, "w", encoding="utf-8") as stream:
                stream.write(_canonical(document))
                stream.flush()
                os.fsync(stream.fileno())
        except OSError as exc:
            raise AnalyzerError(f"checkpoint {self.path} cannot be written: {exc.strerror or exc}") from None
        self._dirty = False
        self._last_save = time.monotonic()
        self._save_seconds = self._last_save - start

    def _load(self) -> None:
        def not_valid(why: str = "") -> AnalyzerError:
            return AnalyzerError(f"checkpoint {self.path} is not a valid {FILE_FORMAT} file{why}; "
                                 f"delete it or use another name")

        raw = read_input(self.path, "checkpoint", MAX_CHECKPOINT_BYTES)
        try:
            text = raw.decode("utf-8")
            check_nesting(text, f"checkpoint {self.path}")
            document = json.loads(text)
        except (UnicodeDecodeError, ValueError):
            raise not_valid() from None
        if not isinstance(document, dict) or document.get("format") != FILE_FORMAT:
            raise not_valid()
        if document.get("schema") != SCHEMA:
            raise AnalyzerError(f"checkpoint {self.path} has format version {document.get('schema')!r}; "
                                f"this version of pirate-analyzer reads version {SCHEMA} (with a checksum): "
                                f"delete it and run again")
        if document.get("checksum") != checksum(document):
            raise not_valid(" (its checksum does not match its content: was it edited?)")
        if document.get("fingerprint") != fingerprint(self.identity):
            stored = document.get("run") if isinstance(document.get("run"), dict) else {}
            what = "; ".join(differences(stored, self.identity)) or "its run description was altered"
            raise AnalyzerError(f"checkpoint {self.path} belongs to a different run ({what}); "
                                f"give the same arguments to resume it, or another {param('checkpoint')} file")
        chunks = chunk_count(self.n)
        try:
            ranges = [(int(start), int(stop)) for start, stop in document["finished"]]
            if any(not 0 <= start < stop <= chunks for start, stop in ranges):
                raise ValueError("a chunk outside the run")
            finished = {i for start, stop in ranges for i in range(start, stop)}
            totals = Totals.from_jsonable(document["totals"])
            games_done = int(document["games_done"])
        except (KeyError, TypeError, ValueError):
            raise not_valid() from None
        size = chunk_size(self.n)
        games_in_finished = sum(min(size, self.n - i * size) for i in finished)
        if finished:
            why = inconsistency(totals, self.shapes, self.score_bins)
            if why is None and self.tally_rules is not None:
                why = beyond_limits(totals, self.tally_rules)
            if why is None and int(totals["games"][0]) != games_done:
                why = "its totals do not count the games of its finished chunks"
        else:
            why = "it has totals but no finished chunk" if totals.arrays else None
        if games_done != games_in_finished:
            why = "its finished chunks do not hold its games"
        if why is not None:
            raise not_valid(f" ({why})")
        self.finished, self.totals, self.games_done = finished, totals, games_done
        self._dirty = False
