"""Speed goal of the Dask backend (issue 7): 1e7 skull-island games on a local Dask
cluster within 20% of the local backend's wall time, with bit-identical totals.

Both runs use every core of this machine; the Dask time includes starting the
cluster and its worker processes, as `analyze simulate --backend dask` does. CPU
seconds (this process and its worker processes) are printed too: on a machine shared
with other work, wall times swing with the load, CPU seconds much less.
``python benchmarks/bench_distributed.py REPEATS`` alternates the backends REPEATS
times and keeps each one's best wall time.
"""

import os
import sys
import time

from analyzer.engine.runner import default_workers, execute
from analyzer.runspec import resolve

GAMES = 10_000_000
SEED = 7
GOAL_RATIO = 1.2


def cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(repeats: int = 1) -> None:
    spec = resolve(game="skull-island")
    game, prepared = spec.game, spec.game.prepare(spec.rules, spec.players, spec.seats)
    workers = default_workers()
    execute(game, prepared, 10_000, SEED, workers)  # compile (or load the cache) first

    best: dict[str, tuple[float, float]] = {}
    totals = {}
    for _ in range(repeats):
        for backend in ("local", "dask"):
            start, cpu = time.perf_counter(), cpu_seconds()
            totals[backend] = execute(game, prepared, GAMES, SEED, workers, backend=backend)
            wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
            print(f"skull-island {GAMES:,} games, backend {backend}, {workers} workers: {wall:.1f} s wall, "
                  f"{GAMES / wall:,.0f} games/s, {cpu:.1f} CPU s (load average {os.getloadavg()[0]:.1f})",
                  flush=True)
            best[backend] = min(best.get(backend, (wall, cpu)), (wall, cpu))
    ratio = best["dask"][0] / best["local"][0]
    verdict = "ok" if ratio <= GOAL_RATIO else "SLOWER THAN GOAL"
    identical = "identical" if totals["dask"].equals(totals["local"]) else "DIFFERENT"
    print(f"dask / local: wall {ratio:.2f} (goal at most {GOAL_RATIO:.1f}: {verdict}), "
          f"CPU {best['dask'][1] / best['local'][1]:.2f}; totals {identical}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
