"""Speed goal of doubloons (issue 4): 1e6 three-player matches (best of 3 rounds, greedy
players) in at most 15 s wall on 2 cores once compiled."""

import time

from analyzer.engine.runner import default_workers, run
from analyzer.games.doubloons import GAME
from analyzer.runspec import resolve

GAMES = 1_000_000
PLAYERS = 3
GOAL_SECONDS = 15.0


def main() -> None:
    spec = resolve(game="doubloons", players=PLAYERS)
    prepared = GAME.prepare(spec.rules, spec.players, spec.seats)
    workers = default_workers()
    run(GAME, prepared, 10_000, seed=1, workers=workers)  # compile (or load the cache) first
    start = time.perf_counter()
    cpu_start = time.process_time()
    totals = run(GAME, prepared, GAMES, seed=2, workers=workers)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    assert int(totals["games"][0]) == GAMES
    turns = sum(i * int(c) for i, c in enumerate(totals["length_turns"])) / GAMES
    verdict = "ok" if wall <= GOAL_SECONDS else "SLOWER THAN GOAL"
    print(f"doubloons simulate: {GAMES:,} matches, {PLAYERS} players, {workers} workers: "
          f"{wall:.2f} s wall ({cpu:.2f} s CPU), {GAMES / wall:,.0f} matches/s, "
          f"{turns:.0f} turns a match (goal {GOAL_SECONDS:.0f} s: {verdict})")


if __name__ == "__main__":
    main()
