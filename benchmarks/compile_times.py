"""Where a game's fresh compile goes: the time of each compiled function, its own and with what it calls.

Plays one game in a new process with an empty Numba cache of its own (every kernel compiled) and
listens to Numba's compile events. A function's time with its callees ("with callees") includes
their compiles; its own time is the rest: typing and lowering it, and optimising and emitting the
code of everything it links (Numba optimises each compiled function's code again with all it
calls, so a deep chain of functions compiled apart pays for its lower levels at every level).
Not part of ``make bench``; a fresh compile varies by 10% and more from run to run on a shared
machine, so compare two checkouts side by side (``PYTHONPATH=<checkout>``), several times.

    python benchmarks/compile_times.py dead-mans-chest
    python benchmarks/compile_times.py doubloons --top 10 --tree 0.5
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time


def _name(event) -> str:
    function = event.data["dispatcher"].py_func
    return f"{(function.__module__ or '?').rsplit('.', 1)[-1]}.{function.__name__}"


def profile(game: str, top: int, tree_above: float | None) -> None:
    """In the fresh process: compile ``game``'s kernel by playing one game, and print the profile."""
    from numba.core import event

    own, total, count = collections.Counter(), collections.Counter(), collections.Counter()
    rows: list[list] = []  # [depth, name, seconds with callees], in the order the compiles started
    open_compiles: list[list] = []  # [name, start, seconds in callees, row]

    class Listener(event.Listener):
        def on_start(self, started):
            row = [len(open_compiles), _name(started), 0.0]
            rows.append(row)
            open_compiles.append([row[1], time.perf_counter(), 0.0, row])

        def on_end(self, ended):
            name, start, in_callees, row = open_compiles.pop()
            spent = time.perf_counter() - start
            row[2] = spent
            total[name] += spent
            own[name] += spent - in_callees
            count[name] += 1
            if open_compiles:
                open_compiles[-1][2] += spent

    event.register("numba:compile", Listener())
    start = time.perf_counter()
    from analyzer.api import simulate

    simulate(game=game, n=1, seed=1, workers=1)
    print(f"{game}: {time.perf_counter() - start:.1f} s to compile and play one game, {len(rows)} compiles")
    print(f"{'own s':>7} {'with callees':>12}  compiles  function")
    for name, seconds in own.most_common(top):
        print(f"{seconds:7.2f} {total[name]:12.2f}  {count[name]:8d}  {name}")
    if tree_above is not None:
        print(f"\nwhat compiled what (with callees, above {tree_above} s):")
        for depth, name, seconds in rows:
            if seconds > tree_above:
                print(f"{'  ' * depth}{name} {seconds:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--top", type=int, default=25, help="functions listed, by their own time (default 25)")
    parser.add_argument("--tree", type=float, default=None, metavar="SECONDS",
                        help="also print what compiled what, each compile that took more than SECONDS")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from analyzer.games.registry import available_ids

    if args.game not in available_ids():
        parser.error(f"unknown game {args.game!r}; games: {', '.join(available_ids())}")
    if args.inside:
        profile(args.game, args.top, args.tree)
        return 0
    with tempfile.TemporaryDirectory(prefix="compile-times-") as cache:
        command = [sys.executable, __file__, args.game, "--top", str(args.top), "--inside"]
        if args.tree is not None:
            command += ["--tree", str(args.tree)]
        return subprocess.run(command, env={**os.environ, "NUMBA_CACHE_DIR": cache}).returncode


if __name__ == "__main__":
    raise SystemExit(main())
