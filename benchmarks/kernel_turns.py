"""One game's kernel timed on one thread, in turn with another checkout of the project.

Whole commands are timed in turn by ``make bench BASELINE=<revision>``; this times the games
alone (no start-up, no merging), which is where a change to a kernel shows:

    python benchmarks/kernel_turns.py lucky-pirates --against 3a55a9c
    python benchmarks/kernel_turns.py skull-island --strategy threshold --against /tmp/a-scratch-copy

``--against`` takes a git revision (checked out beside this one, as ``make bench BASELINE=`` does)
or the folder of another copy of the project, such as a scratch build with part of a kernel taken
out. Each side runs in a process of its own with one Numba thread: it plays a chunk to load or
compile its kernel, then times ``--games`` games five times and keeps the fastest. The sides take
turns, the other first, ``--pairs`` times; printed are each pair and the medians of the pairs'
ratios (this / other) and the ratio of the two sides' fastest runs. On a shared machine a single
pair may be off by 10% either way: take ten pairs or more to tell a few percent apart.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

# beside this file: run as a script, its folder is on the path
from baseline import PROJECT, checkout, environment, paired

HERE = Path(__file__).resolve().parent
#: what each side's process runs: argv is this folder, game, games, players (0: the game's default) and
#: strategy ("": the game's)
TIMED = """
import sys, time
sys.path.insert(0, sys.argv[1])
from one_thread import prepared_game
from analyzer.engine.play import run_chunk
game, prepared = prepared_game(sys.argv[2], int(sys.argv[4]), sys.argv[5])
games = int(sys.argv[3])
fastest = float("inf")
for _ in range(5):
    start = time.perf_counter()
    run_chunk(game, prepared, 1, 0, games)
    fastest = min(fastest, time.perf_counter() - start)
print(fastest)
"""


def time_side(folder: Path, game: str, games: int, players: int, strategy: str) -> float:
    """The fastest of five timings of ``games`` games in the copy of the project at ``folder`` (seconds)."""
    run = subprocess.run([sys.executable, "-c", TIMED, str(HERE), game, str(games), str(players), strategy], cwd=folder,
                         env={**os.environ, **environment(folder), "NUMBA_NUM_THREADS": "1"}, capture_output=True,
                         text=True)
    if run.returncode != 0:
        print(f"{folder}: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else 'failed'}", file=sys.stderr)
        raise SystemExit(2)
    return float(run.stdout.split()[-1])


class Comparison(NamedTuple):
    """Two copies' kernels timed in turn (see :func:`compare`)."""

    ratio: float  # the median of the pairs' ratios, this / other
    fastest: float  # the ratio of the two sides' fastest runs
    this_seconds: float  # the median of this side's timings (of ``games`` games)
    other_seconds: float  # the same for the other side


def compare(other: Path, game: str, games: int, pairs: int, players: int = 0, strategy: str = "",
            show_pairs: bool = True) -> Comparison:
    """Time ``game``'s kernel in this checkout and in the copy at ``other`` in turn, ``pairs`` times (the
    other first)."""
    this_times, other_times = [], []

    def time_other() -> float:
        other_times.append(time_side(other, game, games, players, strategy))
        return other_times[-1]

    def time_this() -> float:  # the second of each pair (see baseline.paired)
        this_times.append(time_side(PROJECT, game, games, players, strategy))
        if show_pairs:
            print(f"pair {len(this_times):2}: this {this_times[-1] / games * 1e9:7.0f} ns a game, "
                  f"other {other_times[-1] / games * 1e9:7.0f} ns, ratio {this_times[-1] / other_times[-1]:.3f}",
                  flush=True)
        return this_times[-1]

    this_median, other_median, ratio = paired(time_this, time_other, pairs)
    return Comparison(ratio, min(this_times) / min(other_times), this_median, other_median)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--against", required=True, help="a git revision, or the folder of another copy")
    parser.add_argument("--players", type=int, default=0, help="players (default: the game's)")
    parser.add_argument("--strategy", default="", help="every seat's strategy (default: the game's)")
    parser.add_argument("--games", type=float, default=3e5, help="games a timing (default 3e5)")
    parser.add_argument("--pairs", type=int, default=10)
    args = parser.parse_args()
    games = int(args.games)
    if games < 1 or args.pairs < 1:
        parser.error("--games and --pairs must be at least 1")
    other = Path(args.against)
    with contextlib.ExitStack() as stack:
        if not other.is_dir():
            try:
                other = stack.enter_context(checkout(args.against))
            except ValueError:
                parser.error(f"--against {args.against}: neither a folder nor a git revision of this project")
        ratio, fastest, _, _ = compare(other, args.game, games, args.pairs, args.players, args.strategy)
    print(f"{args.game}, {args.players or 'default'} players, {games:,} games, {args.pairs} pairs: this / other "
          f"{ratio:.3f} (median of the pairs), {fastest:.3f} (fastest runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
