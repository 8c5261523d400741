"""Speed goals of the balance report and of comparisons (issue 6).

- ``analyze report`` over 1e6 skull-island games costs at most 10 s more than simulating them, not
  counting the balance search and the skill ladder (they play their own, smaller game counts: timed
  apart);
- ``analyze compare`` of two variants at 1e6 games each takes at most 2.2 times one simulation;
- the report's randomized-assignment run and the fix search of the strongest assigned component
  (Dead Man's Chest, 4 players: captains dealt at random) are timed apart, with their game counts.

Both are measured against plain simulations of the same scenarios, seed and workers,
after the kernel is compiled (or loaded from Numba's cache).
"""

import tempfile
import time
from pathlib import Path

from analyzer.api import run_spec
from analyzer.engine.runner import default_workers
from analyzer.experiments import Execution, compare_specs, resolve_scenarios
from analyzer.runspec import resolve

GAMES = 1_000_000
SEED = 2024
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "skull-island"
VARIANTS = [SCENARIOS / "standard.toml", SCENARIOS / "floor-at-zero.toml"]
REPORT_GOAL_SECONDS = 10.0
COMPARE_GOAL_RATIO = 2.2


def _timed(action):
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def main() -> None:
    from analyzer.report import report

    workers = default_workers()
    specs = resolve_scenarios(VARIANTS)
    execution = Execution.create(SEED, workers)
    run_spec(specs[0], 10_000, execution)  # compile (or load the cache) first
    simulations = [_timed(lambda spec=spec: run_spec(spec, GAMES, execution))[1] for spec in specs]

    with tempfile.TemporaryDirectory() as folder:
        outcome, report_seconds = _timed(lambda: report(scenarios=[VARIANTS[0]], n=GAMES, seed=SEED, workers=workers,
                                                        out=Path(folder) / "report.pdf", skill_n=None,
                                                        balance_n=None))
        full, full_seconds = _timed(lambda: report(scenarios=[VARIANTS[0]], n=GAMES, seed=SEED, workers=workers,
                                                   out=Path(folder) / "full.pdf"))
    # the report's own simulation is timed inside it: the rest is what the report adds
    simulated = outcome.runs[0].result.info.wall_seconds
    overhead = report_seconds - simulated
    verdict = "ok" if overhead <= REPORT_GOAL_SECONDS else "SLOWER THAN GOAL"
    print(f"report: {GAMES:,} skull-island games, {workers} workers: {report_seconds:.1f} s of which the "
          f"simulation {simulated:.1f} s (alone: {simulations[0]:.1f} s); the report adds {overhead:.1f} s for "
          f"{outcome.pages} pages (goal at most {REPORT_GOAL_SECONDS:.0f} s: {verdict}); with the balance search "
          f"and the skill ladder (their own game counts): {full_seconds:.1f} s, {full.pages} pages")

    comparison, compare_seconds = _timed(lambda: compare_specs(specs, GAMES, execution))
    comparison.to_table()  # the batch statistics are part of the cost
    one = sum(simulations) / len(simulations)
    ratio = compare_seconds / one
    added = compare_seconds - sum(run.result.info.wall_seconds for run in comparison.runs)
    verdict = "ok" if ratio <= COMPARE_GOAL_RATIO else "SLOWER THAN GOAL"
    print(f"compare: 2 variants × {GAMES:,} games: {compare_seconds:.1f} s = {ratio:.2f} × one simulation "
          f"({one:.1f} s; goal at most {COMPARE_GOAL_RATIO} ×: {verdict}); {added:.1f} s beyond its own two "
          f"simulations; measured variance reduction of the seat win rates {comparison.typical_reduction(1):.1f} ×")

    _assignment_timings(workers)


def _assignment_timings(workers: int) -> None:
    """The report's randomized-assignment run and its fix search, as the report plays them by default."""
    from analyzer.experiments.component_effects import ASSIGNMENT_GAMES, assigned_components, component_fix
    from analyzer.report import BALANCE_GAMES

    spec = resolve(game="dead-mans-chest")
    execution = Execution.create(SEED, workers)
    run_spec(spec.with_rules(spec.game.random_assignment.rules), 2_000, execution)  # compile first
    assigned, assigned_seconds = _timed(lambda: assigned_components(spec, ASSIGNMENT_GAMES, execution))
    fix, fix_seconds = _timed(lambda: component_fix(spec, assigned, BALANCE_GAMES, execution))
    found = "no component's effect excludes zero" if fix is None else (
        f"{fix.parameter}: {fix.balance['games']:,} games ({len(fix.balance['evaluations'])} values × "
        f"{fix.balance['n_per_value']:,}), recommended {fix.balance['recommended']}")
    print(f"randomized assignment: {ASSIGNMENT_GAMES:,} dead-mans-chest games, captains dealt at random: "
          f"{assigned_seconds:.1f} s; fix search {fix_seconds:.1f} s ({found})")


if __name__ == "__main__":
    main()
