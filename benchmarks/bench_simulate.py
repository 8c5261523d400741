"""`analyze simulate --n 1e6` for every game, timed as a user runs it (a fresh process,
kernels cached): the median of three runs, and the same as a multiple of the
calibration loop timed in this run, so that runs on a fast and a slow hour compare.
Then the start-up of each game: `analyze simulate --game G --n 1e3` as a user types it (its text
table, not ``--json``: the table once imported pandas), almost nothing but imports and loading.

With ``BASELINE=<git revision>`` in the environment (``make bench BASELINE=b130a99``) every
figure is also timed in that revision, in turn with this one (see ``baseline.py``)."""

import contextlib
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import baseline  # noqa: E402
from common import in_units, median_of, simulate_json, stamp, timed_run  # noqa: E402

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


def json_wall(args: list[str], env: dict | None = None) -> float:
    """Seconds of ``analyze simulate ARGS --json`` (a long run: what it prints does not matter)."""
    return simulate_json(args, env)[0]


def startup_wall(args: list[str], env: dict | None = None) -> float:
    """Seconds of ``analyze simulate ARGS`` with its default output, the text table (a start-up as typed)."""
    return timed_run(["simulate", *args], env)[0]


def against_baseline(folder: Path | None, command: list[str], n: str, wall) -> None:
    """Time ``command`` at ``--n n`` with ``wall`` (:func:`json_wall` or :func:`startup_wall`) here and in
    the baseline's ``folder``, in turn, and print the pair."""
    if folder is None:
        return
    old = baseline.environment(folder)
    simulate_json([*command, "--n", "1e4"], old)  # the baseline's own compilation and solves
    timed = [*command, "--n", n]
    this, before, ratio = baseline.paired(lambda: wall(timed), lambda: wall(timed, old), rounds=3)
    print(f"    against {os.environ['BASELINE']}, in turn: {this:.2f} s here, {before:.2f} s there; "
          f"ratio {ratio:.2f} (median of 3 pairs)")


def main() -> None:
    print(stamp())
    revision = os.environ.get("BASELINE")
    with baseline.checkout(revision) if revision else contextlib.nullcontext() as folder:
        for game, args, goal in RUNS:
            command = ["--game", game, *args, "--seed", "1"]
            simulate_json([*command, "--n", "1e4"])  # compile or load the cache, solve what needs solving
            wall, peak, data = median_of(3, [*command, "--n", "1e6"])
            playing = data["run"]["wall_seconds"]
            verdict = "ok" if wall <= goal else "SLOWER THAN GOAL"
            print(f"{game} {' '.join(args)}: 1e6 games {wall:.2f} s whole command ({in_units(wall)}), "
                  f"{playing:.2f} s playing ({in_units(playing)}), peak {peak} MB; goal {goal:.0f} s: {verdict}")
            against_baseline(folder, command, "1e6", json_wall)
        for game in dict.fromkeys(game for game, _, _ in RUNS):
            command = ["--game", game, "--seed", "1"]
            wall = statistics.median(startup_wall([*command, "--n", "1e3"]) for _ in range(3))
            verdict = "ok" if wall <= STARTUP_GOAL else "SLOWER THAN GOAL"
            print(f"{game} start-up, --n 1e3 (default players and strategy): {wall:.2f} s whole command "
                  f"({in_units(wall)}); goal {STARTUP_GOAL} s: {verdict}")
            against_baseline(folder, command, "1e3", startup_wall)


if __name__ == "__main__":
    main()
