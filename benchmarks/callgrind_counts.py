"""Instructions and mispredicted branches per game of one game's kernel, counted by valgrind's callgrind.

Timing cannot tell a few percent apart on a shared machine; these counts are the same in every
run. The kernel plays ``n`` games on one thread after a warm-up; callgrind counts only those
(``--instr-atstart=no``, switched on and off with ``callgrind_control``), with its model of the
branch predictor. Needs valgrind (``apt-get install valgrind``); not part of ``make bench``.

    python benchmarks/callgrind_counts.py lucky-pirates 4e4
    python benchmarks/callgrind_counts.py skull-island 1e4 --players 4 --strategy threshold

Run it in two checkouts (``PYTHONPATH=<checkout>``) to compare them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

EVENTS = ("instructions", "conditional branches", "mispredicted", "indirect branches", "mispredicted indirect")


def play(game: str, games: int, players: int | None, strategy: str | None) -> None:
    """Inside valgrind: warm up, then count ``games`` games (single thread)."""
    from one_thread import prepared_game  # beside this file: run as a script, its folder is on the path

    from analyzer.engine.play import run_chunk

    game_class, prepared = prepared_game(game, players, strategy)

    def collect(switch: str) -> None:
        subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], check=True, capture_output=True)

    collect("on")
    run_chunk(game_class, prepared, 1, 0, games)
    collect("off")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("games", type=float)
    parser.add_argument("--players", type=int)
    parser.add_argument("--strategy")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        play(args.game, int(args.games), args.players, args.strategy)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", "--branch-sim=yes", "--instr-atstart=no",
                   f"--callgrind-out-file={out}", sys.executable, __file__, *sys.argv[1:], "--inside"]
        run = subprocess.run(command, capture_output=True, text=True,
                             env={**os.environ, "NUMBA_NUM_THREADS": "1"})
        if run.returncode != 0 or not os.path.exists(out):
            own = [line for line in run.stderr.splitlines() if line.strip() and not line.startswith("==")]
            print(own[-1] if own else "valgrind failed", file=sys.stderr)  # the program's last line, not valgrind's
            return 2
        totals = next(line for line in open(out) if line.startswith("totals:")).split()[1:]
    for name, total in zip(EVENTS, totals, strict=True):
        print(f"{name:>22}: {int(total) / args.games:12,.1f} a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
