"""Speed goal of lucky-pirates (issue 3): 1e6 four-player games in at most 3 s wall on
2 cores once compiled; also times the exact four-player solution."""

import time

from analyzer.engine.runner import default_workers, run
from analyzer.games.base import StrategyChoice
from analyzer.games.lucky_pirates import GAME
from analyzer.games.options import defaults

GAMES = 1_000_000
PLAYERS = 4
GOAL_SECONDS = 3.0


def main() -> None:
    rules = defaults(GAME.options)
    prepared = GAME.prepare(rules, PLAYERS, [StrategyChoice("none", {}, "none")] * PLAYERS)
    workers = default_workers()
    run(GAME, prepared, 10_000, seed=1, workers=workers)  # compile (or load the cache) first
    start = time.perf_counter()
    totals = run(GAME, prepared, GAMES, seed=2, workers=workers)
    wall = time.perf_counter() - start
    assert int(totals["games"][0]) == GAMES
    verdict = "ok" if wall <= GOAL_SECONDS else "SLOWER THAN GOAL"
    print(f"lucky-pirates simulate: {GAMES:,} games, {PLAYERS} players, {workers} workers: "
          f"{wall:.2f} s wall, {GAMES / wall:,.0f} games/s (goal {GOAL_SECONDS:.0f} s: {verdict})")

    GAME.exact({}, 2)  # compile the solver first
    start = time.perf_counter()
    exact = GAME.exact({}, PLAYERS)
    wall = time.perf_counter() - start
    print(f"lucky-pirates exact: {PLAYERS} players, {exact['states']:,} states, "
          f"{exact['turns_computed']} turns pushed: {wall:.2f} s")


if __name__ == "__main__":
    main()
