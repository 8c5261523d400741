"""Verdicts: a run's findings in words, ranked on one scale, each with its effect, its 95% interval and the
action it suggests.

A verdict is read from a run's JSON (:meth:`analyzer.result.Result.to_dict`) and from what
other measurements add: the balance search over the game's seat-compensating rule option, the
skill ladder (their ``to_dict``), the exact seat win rates where the game has an exact solution,
components measured in a run that assigned them at random and the balance search over a
component's number. Keys the JSON may not carry give no verdict when absent. Nothing here
plots, so ``simulate`` prints the same lines as the report. How verdicts rank: :mod:`.core`.
"""

from __future__ import annotations

from analyzer.verdicts.components import ComponentFix, component_verdicts
from analyzer.verdicts.core import FAIRNESS_KINDS, TEXT_WIDTH, Verdict, command, ranked
from analyzer.verdicts.findings import (
    RARE_SHARE,
    length_verdict,
    mechanics_verdict,
    quality_verdict,
    skill_ladder_verdict,
    skill_verdict,
)
from analyzer.verdicts.seats import (
    SeatCompensation,
    matchup_command,
    round_starter_verdict,
    run_args,
    search_range,
    seat_gap,
    seat_verdict,
    seats_not_measurable,
    strategies_differ,
)

__all__ = ["FAIRNESS_KINDS", "RARE_SHARE", "TEXT_WIDTH", "ComponentFix", "SeatCompensation", "Verdict", "command",
           "component_verdicts", "length_verdict", "matchup_command", "mechanics_verdict", "quality_verdict",
           "ranked", "round_starter_verdict", "run_args", "run_verdicts", "search_range", "seat_gap", "seat_verdict",
           "seats_not_measurable", "skill_ladder_verdict", "skill_verdict", "strategies_differ", "verdict_lines"]


def run_verdicts(run: dict, compensation: SeatCompensation | None = None, ladder: dict | None = None, *,
                 assigned_components: list[dict] | None = None, component_fix: ComponentFix | None = None,
                 exact_win_rates: list[float] | None = None) -> list[Verdict]:
    """Every verdict of ``run`` (a run's JSON), ranked (see :mod:`analyzer.verdicts.core`).

    ``assigned_components``: component records (as JSON ``components``, evidence ``random
    assignment``) of a run that assigned them at random; ``component_fix``: the balance search over
    the component number that closes a component finding; ``exact_win_rates``: each seat's exact
    win rate (the seat verdict uses it, the simulated rates beside).
    """
    return ranked([seat_verdict(run, compensation, exact_win_rates), round_starter_verdict(run),
                   *component_verdicts(run, assigned_components, component_fix), length_verdict(run),
                   quality_verdict(run), mechanics_verdict(run), skill_ladder_verdict(ladder)])


def verdict_lines(verdicts: list[Verdict], width: int = TEXT_WIDTH) -> list[str]:
    """The verdicts as numbered, wrapped lines under a heading (for the terminal and markdown)."""
    lines = ["Verdicts, most important first:"]
    for rank, verdict in enumerate(verdicts, start=1):
        lines += verdict.lines(rank, width)
    return lines
