"""The seat verdict's measurement: the fair value of the game's seat-compensating rule option.

Where a game declares a numeric option that compensates seats (``Game.seat_compensation_option``),
the report runs the same search as ``analyze balance`` on each scenario whose seats are measurably
unequal, with its own smaller game count.
"""

from __future__ import annotations

from dataclasses import replace

from analyzer.execution import Execution
from analyzer.experiments.balancing import balance_spec
from analyzer.experiments.batches import VariantRun
from analyzer.verdicts import SeatCompensation, run_args, seat_gap, strategies_differ


def seat_compensation(run: VariantRun, balance_n: int | None, execution: Execution) -> SeatCompensation | None:
    """The game's seat-compensating option with the value that equalises ``run``'s seats, searched with
    ``balance_n`` games per value (at most the run's own count); None where the game has no such option.

    The search replaces the option's value of the run (from the scenario or ``--set``). It is
    left out with ``balance_n`` None (the compensation says so), and where it has nothing to
    equalise: seats that play different strategies, or no measurable gap between seats.
    """
    spec = run.spec
    game = spec.game
    option = game.seat_compensation_option
    if option is None:
        return None
    data = run.result.to_dict()
    compensation = SeatCompensation(option, game.seat_compensation_span, run_args(spec, option), spec.rules[option])
    if balance_n is None:
        return replace(compensation, note="the report's search was left out with --no-balance")
    if strategies_differ(data) or seat_gap(data)[3][0] <= 0:
        return compensation
    low, high = compensation.search_range(data)
    base = replace(spec, set_options=spec.set_options - {option})  # a value given with --set is searched too
    search = balance_spec(f"{option}={low}:{high}", base, min(balance_n, data["n"]),
                          replace(execution, checkpoint=None))
    return replace(compensation, balance=search.to_dict())
