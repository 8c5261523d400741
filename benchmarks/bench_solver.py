"""Speed goals of the Skull Island solver (issue 8): `analyze solve --game skull-island`
for all cards in at most 60 s without a cache and at most 1 s with it, timed as a user
runs it (a fresh process each time). Also times the final-round tables and the tuner."""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import timed_run  # noqa: E402

GOAL_COLD_SECONDS = 60.0
GOAL_CACHED_SECONDS = 1.0


def timed_cli(args: list[str], env: dict[str, str]) -> float:
    return timed_run(args, env)[0]


def verdict(seconds: float, goal: float) -> str:
    return f"goal {goal:.0f} s: {'ok' if seconds <= goal else 'SLOWER THAN GOAL'}"


def main() -> None:
    solve = ["solve", "--game", "skull-island", "--quiet"]
    with tempfile.TemporaryDirectory() as policies, tempfile.TemporaryDirectory() as compiled:
        env = {"PIRATE_ANALYZER_CACHE": policies}
        first_ever = timed_cli(solve, {**env, "NUMBA_CACHE_DIR": compiled})
        for path in Path(policies).rglob("*"):
            if path.is_file():
                path.unlink()
        no_policy_cache = timed_cli(solve, env)
        cached = min(timed_cli(solve, env) for _ in range(3))
        print(f"skull-island solve, all cards, nothing cached (compiling the jitted code too): {first_ever:.2f} s "
              f"({verdict(first_ever, GOAL_COLD_SECONDS)})")
        print(f"skull-island solve, all cards, no policy cache (compiled code cached): {no_policy_cache:.2f} s "
              f"({verdict(no_policy_cache, GOAL_COLD_SECONDS)})")
        print(f"skull-island solve, all cards, policies cached: {cached:.2f} s "
              f"({verdict(cached, GOAL_CACHED_SECONDS)})")

        os.environ["PIRATE_ANALYZER_CACHE"] = policies
        from analyzer.games.skull_island.turn_solver.solve import final_round_tables, optimal_policies
        from analyzer.runspec import resolve

        rules = resolve(game="skull-island").rules
        policies_ = optimal_policies(rules)
        print(f"  {int(policies_.states[0]):,} decision states per card ({int(policies_.states.max()):,} with the "
              f"sorceress); value iteration {int(policies_.sweeps.min())}-{int(policies_.sweeps.max())} sweeps "
              f"per card")
        start = time.perf_counter()
        thresholds, tables = final_round_tables(rules)
        print(f"skull-island final-round tables: {thresholds.size} thresholds x {tables.shape[1]} cards, "
              f"{tables.nbytes / 1e6:.1f} MB: {time.perf_counter() - start:.2f} s")

    tune = ["tune", "--game", "skull-island", "--strategy", "threshold", "--param", "stop_at=200:2000", "--param",
            "max_skulls=1:2", "--opponents", "threshold", "--n", "2e5", "--players", "2", "--seed", "1", "--quiet"]
    print(f"skull-island tune, 32 candidates, 200,000 games: {timed_cli(tune, {}):.2f} s")


if __name__ == "__main__":
    main()
