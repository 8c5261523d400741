"""Issue 2's goals for `analyze simulate --game skull-island`, timed as a user runs it.

- 1e6 four-player threshold games: at most 4 s wall with the kernel cached (imports
  count), at most 30 s on the very first run including compilation;
- games per second and nanoseconds per die rolled;
- peak memory under 500 MB and the same for --n 1e5, 1e6 and 1e7;
- (issue 8) optimal-ev at most 1.5 times the time of threshold for the same games.
"""

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import in_units, median_of, simulate_json, stamp  # noqa: E402

ARGS = ["--game", "skull-island", "--players", "4", "--strategy", "threshold", "--seed", "1"]


def main():
    print(stamp())
    with tempfile.TemporaryDirectory() as cache:
        wall, peak, _ = simulate_json([*ARGS, "--n", "1e6"], env={"NUMBA_CACHE_DIR": cache})
    print(f"first run, compiling (empty cache): {wall:6.2f} s wall, {in_units(wall)}  (goal <= 30 s); "
          f"peak memory {peak} MB")
    simulate_json([*ARGS, "--n", "1e4"])  # make sure the normal cache is warm
    wall, peak, data = median_of(3, [*ARGS, "--n", "1e6"])
    dice = data["game_stats"]["dice_rolled"]
    workers = data["run"]["workers"]
    kernel = data["run"]["wall_seconds"]
    print(f"1e6 games, cached, median of 3: {wall:6.2f} s wall for the whole command, {in_units(wall)} "
          f"(goal <= 4 s); "
          f"{kernel:.2f} s playing, {1e6 / wall:,.0f} games/s overall, {data['run']['games_per_second']:,.0f} "
          f"games/s playing")
    print(f"  {dice:,} dice rolled: {kernel / dice * 1e9:.2f} ns wall per die, "
          f"{kernel * workers / dice * 1e9:.2f} ns per die per core ({workers} workers)")
    threshold_wall = data["run"]["wall_seconds"]
    simulate_json(["--game", "skull-island", "--strategy", "optimal-ev", "--n", "1e4"])  # solve and cache
    _, _, optimal = median_of(3, ["--game", "skull-island", "--players", "4", "--strategy", "optimal-ev",
                                "--seed", "1", "--n", "1e6"])
    ratio = optimal["run"]["wall_seconds"] / threshold_wall
    print(f"optimal-ev: {optimal['run']['wall_seconds']:.2f} s playing 1e6 games "
          f"({in_units(optimal['run']['wall_seconds'])}), {ratio:.2f} x threshold "
          f"(goal <= 1.5)")
    for n in ("1e5", "1e6", "1e7"):
        wall, peak, _ = simulate_json([*ARGS, "--n", n])
        print(f"--n {n}: peak memory {peak:4d} MB (goal < 500 MB, flat in n), {wall:6.2f} s wall")


if __name__ == "__main__":
    main()
