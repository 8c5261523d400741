"""Experiments of several runs played to a precision (``compare`` and ``report`` with ``--precision``).

Their intervals come from batches of the chunk plan, and the plan depends on the
run's game count, so a round here plays every variant's first ``m`` games again
from game 0 (a simulation extends its run instead, see
:func:`analyzer.engine.precision.extend_to_precision`).
The result is then exactly the one of a fixed run of ``m`` games. The rounds grow
from the measured width (:mod:`analyzer.engine.precision`), so a run typically
costs one small round more than its final count.
"""

from __future__ import annotations

from collections.abc import Callable

from analyzer.engine.chunks import chunk_size
from analyzer.engine.precision import Precision, first_round, play_to_precision, refuse_checkpoint, seat_half_points
from analyzer.execution import Execution
from analyzer.experiments.batches import VariantRun, play_variant
from analyzer.experiments.paired import paired_difference
from analyzer.runspec import RunSpec

#: the first round plays at least this many chunks (batches), so its intervals are not from a handful
MIN_FIRST_BATCHES = 8
#: the metrics whose intervals a precision run narrows
WIN_RATE_PREFIX = "win_rate_seat_"
#: what a comparison's precision narrows, in words
DIFFERENCES_MEASURED = "every seat win-rate difference's 95% interval"
#: what a report of several scenarios narrows, in words
SEATS_AND_DIFFERENCES_MEASURED = "every seat's 95% win-rate interval in every scenario and every difference's"


def seats_widest(runs: list[VariantRun]) -> float:
    """The widest side of any seat's win-rate interval over every run, in percentage points."""
    return max(seat_half_points(run.result.totals["wins"], run.n) for run in runs)


def differences_widest(runs: list[VariantRun]) -> float:
    """The widest half-width of any seat win-rate difference to the first run (as compare computes it), in points."""
    widest = 0.0
    for run in runs[1:]:
        for key in run.values:
            if key.startswith(WIN_RATE_PREFIX):
                interval = paired_difference(runs[0], run, key).interval
                widest = max(widest, float("inf") if interval is None else 50 * (interval[1] - interval[0]))
    return widest


def seats_and_differences_widest(runs: list[VariantRun]) -> float:
    """The report's measure: the wider of :func:`seats_widest` and (several runs) :func:`differences_widest`."""
    return max(seats_widest(runs), differences_widest(runs))


def play_variants_to_precision(specs: list[RunSpec], limit: int, execution: Execution, target: float,
                               widest: Callable[[list[VariantRun]], float], measured: str,
                               curve: bool = False) -> tuple[list[VariantRun], Precision]:
    """Play every spec (one seed, run ``index`` with its own execution) in rounds until ``widest(runs)``
    is at most ``target`` points or ``limit`` games per spec are played.

    Every spec plays the same count (the batches of a paired difference need it); each
    run's ``result.info.precision`` is the outcome.
    """
    refuse_checkpoint(execution.checkpoint)
    # one bar over every spec's limit; a round that plays the first games again counts them again
    bar = execution.progress_bar(limit * len(specs))

    def play_prefix(games: int) -> list[VariantRun]:
        return [play_variant(execution.for_run(index), spec, games, curve=curve, progress=bar)
                for index, spec in enumerate(specs)]

    players = max(spec.players for spec in specs)
    batched = MIN_FIRST_BATCHES * chunk_size(limit) if len(specs) > 1 else 1  # paired differences need batches
    first = first_round(target, limit, players, batched)
    try:
        runs, outcome = play_to_precision(target, limit, first, play_prefix, widest, measured)
    finally:
        if bar is not None:
            bar.close()
    for run in runs:
        run.result.info.precision = outcome
    return runs, outcome
