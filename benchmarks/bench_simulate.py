"""`analyze simulate --n 1e6` for every game, timed as a user runs it (a fresh process,
kernels cached): the median of three runs, and the same as a multiple of the
calibration loop timed in this run, so that runs on a fast and a slow hour compare.
Then the start-up of each game: `--n 1e3`, almost nothing but imports and loading."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import in_units, median_of, simulate_json, stamp  # noqa: E402

#: game, its command-line arguments, the goal for the whole command in seconds
RUNS = (
    ("skull-island", ["--players", "4", "--strategy", "threshold"], 4.0),
    ("skull-island", ["--players", "4", "--strategy", "optimal-ev"], 6.0),
    ("skull-island", ["--players", "4"], 6.0),  # the default, solved: what make run plays
    ("lucky-pirates", ["--players", "4"], 3.0),
    ("doubloons", ["--players", "3"], 15.0),
    ("dead-mans-chest", ["--players", "4"], 20.0),
)

#: the whole command of a short run, kernels cached, in seconds
STARTUP_GOAL = 0.5


def main() -> None:
    print(stamp())
    for game, args, goal in RUNS:
        command = ["--game", game, *args, "--seed", "1"]
        simulate_json([*command, "--n", "1e4"])  # compile or load the cache, solve what needs solving
        wall, peak, data = median_of(3, [*command, "--n", "1e6"])
        playing = data["run"]["wall_seconds"]
        verdict = "ok" if wall <= goal else "SLOWER THAN GOAL"
        print(f"{game} {' '.join(args)}: 1e6 games {wall:.2f} s whole command ({in_units(wall)}), "
              f"{playing:.2f} s playing ({in_units(playing)}), peak {peak} MB; goal {goal:.0f} s: {verdict}")
    for game in dict.fromkeys(game for game, _, _ in RUNS):
        wall, _, _ = median_of(3, ["--game", game, "--seed", "1", "--n", "1e3"])
        verdict = "ok" if wall <= STARTUP_GOAL else "SLOWER THAN GOAL"
        print(f"{game} start-up, --n 1e3 (default players and strategy): {wall:.2f} s whole command "
              f"({in_units(wall)}); goal {STARTUP_GOAL} s: {verdict}")


if __name__ == "__main__":
    main()
