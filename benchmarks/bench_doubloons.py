"""Speed goal of doubloons (issue 4): 1e6 three-player matches (best of 3 rounds, the
default strategy: saboteurs since issue 16) in at most 15 s wall on 2 cores once
compiled. Also the searching player's speed (issue 16): two-player matches of
lookahead at its defaults against the default strategy."""

import time

from analyzer.engine.runner import default_workers, run
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.strategies import DEFAULT_STRATEGY
from analyzer.runspec import resolve

GAMES = 1_000_000
PLAYERS = 3
GOAL_SECONDS = 15.0
LOOKAHEAD_GAMES = 2000


def timed(strategies: list[str], players: int, games: int, workers: int) -> tuple[dict, float, float]:
    """(totals, wall seconds, CPU seconds) of ``games`` matches, compiled (or cached) first."""
    spec = resolve(game="doubloons", players=players, strategies=strategies)
    prepared = GAME.prepare(spec.rules, spec.players, spec.seats)
    run(GAME, prepared, 100, seed=1, workers=workers)  # compile (or load the cache) first
    start = time.perf_counter()
    cpu_start = time.process_time()
    totals = run(GAME, prepared, games, seed=2, workers=workers)
    assert int(totals["games"][0]) == games
    return totals, time.perf_counter() - start, time.process_time() - cpu_start


def main() -> None:
    workers = default_workers()
    totals, wall, cpu = timed([DEFAULT_STRATEGY], PLAYERS, GAMES, workers)
    turns = sum(i * int(c) for i, c in enumerate(totals["length_turns"])) / GAMES
    verdict = "ok" if wall <= GOAL_SECONDS else "SLOWER THAN GOAL"
    print(f"doubloons simulate: {GAMES:,} matches, {PLAYERS} players ({DEFAULT_STRATEGY}), {workers} workers: "
          f"{wall:.2f} s wall ({cpu:.2f} s CPU), {GAMES / wall:,.0f} matches/s, "
          f"{turns:.0f} turns a match (goal {GOAL_SECONDS:.0f} s: {verdict})")
    _, wall, cpu = timed(["lookahead", DEFAULT_STRATEGY], 2, LOOKAHEAD_GAMES, workers)
    print(f"doubloons lookahead (defaults) vs {DEFAULT_STRATEGY}: {LOOKAHEAD_GAMES:,} matches, 2 players, "
          f"{workers} workers: "
          f"{wall:.2f} s wall ({cpu:.2f} s CPU), {LOOKAHEAD_GAMES / wall:,.0f} matches/s, "
          f"{LOOKAHEAD_GAMES / cpu:,.0f} a CPU second")


if __name__ == "__main__":
    main()
