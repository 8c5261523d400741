"""What the game-quality, mechanics and component measures cost each game (issue 22's goal: at most
a tenth of its playing time).

Builds a copy of this checkout's ``analyzer`` in a temporary folder with
``analyzer.engine.quality.MEASURING`` set False, which compiles away every piece of code that notes
or tallies a measure (the standings after each round, the mechanics and components noted, the
chunk template's tally), and times each game's kernel single-thread against it in turn
(``kernel_turns.compare``: each side a process of its own, the fastest of five timings, the other
first in each pair). Prints the median of the pairs' ratios (with / without the measures), the
ratio of the fastest runs, the measures' share of the playing time, ``1 - 1 / ratio``, and each
side's time for 1e6 games in multiples of the calibration loop.
The copy compiles its kernels on its first timing of each game (some 2 minutes in all).

    python benchmarks/bench_measures.py                    # every game, as make bench does
    python benchmarks/bench_measures.py lucky-pirates --pairs 20 --games 1e6
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run by benchmarks/run.py too

from baseline import PROJECT  # noqa: E402
from common import in_units  # noqa: E402
from kernel_turns import compare  # noqa: E402

#: the line of analyzer/engine/quality.py that the copy turns False
SWITCH = "MEASURING = True\n"
#: what make bench times: (game, strategy or "" for the game's default, games a timing: some 0.3 s)
GAMES = (("skull-island", "", 60_000), ("skull-island", "threshold", 60_000), ("lucky-pirates", "", 300_000),
         ("doubloons", "", 20_000), ("dead-mans-chest", "", 20_000))
PAIRS = 8
#: the goal: the measures' share of a game's playing time at most this
GOAL_SHARE = 0.10


@contextlib.contextmanager
def without_measures():
    """A temporary copy of this checkout's package with ``MEASURING`` False; yields its folder."""
    with tempfile.TemporaryDirectory(prefix="bench-without-measures-") as folder:
        shutil.copytree(PROJECT / "analyzer", Path(folder) / "analyzer",
                        ignore=shutil.ignore_patterns("__pycache__"))
        quality = Path(folder) / "analyzer" / "engine" / "quality.py"
        source = quality.read_text(encoding="utf-8")
        if source.count(SWITCH) != 1:
            raise RuntimeError(f"{quality.relative_to(folder)} has no line {SWITCH.strip()!r} to switch off")
        quality.write_text(source.replace(SWITCH, "MEASURING = False\n"), encoding="utf-8")
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(folder) / "analyzer")], check=True)
        yield Path(folder)


def measure(folder: Path, game: str, strategy: str, games: int, pairs: int, show_pairs: bool) -> None:
    """Time one game with and without its measures and print the result, with each side's time for a
    million games in multiples of the calibration loop: a ratio is only as sound as the build without
    measures, which where its compiler happens to spill values on the stack alone made a tenth slower
    in a game as short as Lucky Pirates' (README, "Speed and memory"); its multiple, compared from run
    to run, shows that."""
    ratio, fastest, with_seconds, without_seconds = compare(folder, game, games, pairs, 0, strategy, show_pairs)
    share = 1 - 1 / ratio
    verdict = "ok" if share <= GOAL_SHARE else "OVER THE GOAL"
    with_million, without_million = (seconds * 1e6 / games for seconds in (with_seconds, without_seconds))
    print(f"{game}{f' {strategy}' if strategy else ''}: with / without the measures {ratio:.3f} "
          f"(median of {pairs} pairs of {games:,} games; fastest runs {fastest:.3f}): the measures "
          f"{share:.1%} of its playing time (goal at most {GOAL_SHARE:.0%}: {verdict}); 1e6 games "
          f"single-thread {with_million:.2f} s with them ({in_units(with_million)}), "
          f"{without_million:.2f} s without ({in_units(without_million)})", flush=True)


def main() -> None:
    """Every game of :data:`GAMES`, as ``make bench`` runs it."""
    with without_measures() as folder:
        for game, strategy, games in GAMES:
            measure(folder, game, strategy, games, PAIRS, show_pairs=False)


def cli() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", help="one game (default: every game, as make bench)")
    parser.add_argument("--strategy", default="", help="every seat's strategy (default: the game's)")
    parser.add_argument("--games", type=float, default=3e5, help="games a timing (default 3e5)")
    parser.add_argument("--pairs", type=int, default=12)
    args = parser.parse_args()
    if args.game is None:
        main()
        return 0
    if int(args.games) < 1 or args.pairs < 1:
        parser.error("--games and --pairs must be at least 1")
    with without_measures() as folder:
        measure(folder, args.game, args.strategy, int(args.games), args.pairs, show_pairs=True)
    return 0


if __name__ == "__main__":
    sys.exit(cli())
