"""Speed goal of `analyze players` (issue 25): `analyze players --game skull-island --n 1e5` takes at most
about four times one `simulate --n 1e5` per player count it plays.

Both are timed as a user runs them (a fresh process, kernels cached, the standard rules'
solve cached): the players command once, and `simulate` once at each player count; the
ratio is the players command's wall time over the sum of the simulations'. `python
benchmarks/bench_players.py 1e4` runs a shorter check.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import in_units, simulate_json, stamp, timed_run  # noqa: E402

GAME = "skull-island"
SEED = "1"
GOAL_RATIO = 4.0


def main(games: str = "1e5") -> None:
    print(stamp())
    timed_run(["players", "--game", GAME, "--n", "1e3", "--seed", SEED, "--quiet"])  # compile, solve, cache
    wall, peak, output = timed_run(["players", "--game", GAME, "--n", games, "--seed", SEED, "--quiet", "--json"])
    counts = [entry["players"] for entry in json.loads(output)["counts"]]
    simulations = 0.0
    for players in counts:
        one, _, _ = simulate_json(["--game", GAME, "--players", str(players), "--n", games, "--seed", SEED])
        simulations += one
    ratio = wall / simulations
    verdict = "ok" if ratio <= GOAL_RATIO else "SLOWER THAN GOAL"
    print(f"players --game {GAME} --n {games} ({len(counts)} counts): {wall:.2f} s ({in_units(wall)}), peak "
          f"{peak} MB; simulate --n {games} at each count: {simulations:.2f} s in all; ratio {ratio:.2f}, "
          f"goal {GOAL_RATIO:g}: {verdict}")


if __name__ == "__main__":
    main(*sys.argv[1:])
