"""Speed goal of issue 5: 1e6 four-player dead-mans-chest games in at most 20 s wall on
this 2-core machine, once compiled (default rules and strategy, all cores). Also the
search player's speed (issue 16): lookahead at its defaults against the default strategy,
2 players, the match-up its strength is measured in; it has no goal but to be reported."""

from __future__ import annotations

import time

from analyzer.engine.runner import default_workers, run
from analyzer.runspec import resolve

GOAL_SECONDS = 20.0
LOOKAHEAD_GAMES = 4000


def timed(spec, n: int, seed: int, workers: int) -> tuple[float, float]:
    """(wall, CPU) seconds for ``n`` games of ``spec``'s run, compiled (or loaded) first."""
    prepared = spec.game.prepare(spec.rules, spec.players, spec.seats)
    run(spec.game, prepared, 256, seed=0, workers=1)
    start, cpu_start = time.perf_counter(), time.process_time()
    totals = run(spec.game, prepared, n, seed=seed, workers=workers)
    assert int(totals["games"][0]) == n
    return time.perf_counter() - start, time.process_time() - cpu_start


def main(n: int = 1_000_000, players: int = 4, workers: int | None = None) -> float:
    workers = workers or default_workers()
    simulate_wall, cpu = timed(resolve(game="dead-mans-chest", players=players), n, 1, workers)
    verdict = "within" if simulate_wall <= GOAL_SECONDS else "OVER"
    print(f"dead-mans-chest: {n:,} games, {players} players, {workers} workers: {simulate_wall:.2f} s wall "
          f"({cpu:.2f} s CPU), {n / simulate_wall:,.0f} games/s ({verdict} the {GOAL_SECONDS:.0f} s goal)")
    search = resolve(game="dead-mans-chest", players=2, strategies=["lookahead", "sensible"])
    wall, cpu = timed(search, LOOKAHEAD_GAMES, 2, workers)
    print(f"dead-mans-chest lookahead (defaults) vs sensible: {LOOKAHEAD_GAMES:,} games, 2 players, {workers} "
          f"workers: {wall:.2f} s wall ({cpu:.2f} s CPU), {LOOKAHEAD_GAMES / wall:,.0f} games/s")
    return simulate_wall


if __name__ == "__main__":
    main()
