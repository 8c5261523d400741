"""The balance report (a PDF or one self-contained HTML file), and the plots of sweeps and of the
fairness search.

>>> from analyzer.report import report
>>> report(scenarios=["scenarios/skull-island/standard.toml"], n=100_000, out="reports/skull-island.pdf", seed=1)

Matplotlib (Agg backend) is imported only by this package, so commands that do not
plot start fast.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.errors import AnalyzerError

if TYPE_CHECKING:
    from analyzer.execution import Execution

REPORTS_FOLDER = Path("reports")
#: games per strategy of the report's skill ladder (its own count, smaller than the report's)
SKILL_GAMES = 20_000
#: games per value of the seat verdict's balance search
BALANCE_GAMES = 20_000


@dataclass
class ReportOutcome:
    """What a report run produced: the file (or folder of figures), its pages and the runs."""

    path: Path
    pages: int
    runs: list
    comparison: object | None = None
    files: list[Path] = field(default_factory=list)
    skill: object | None = None
    precision: object | None = None
    #: the player counts side by side (``player_counts`` given), or None
    player_counts: object | None = None
    #: per scenario, its verdicts (most important first)
    verdicts: list = field(default_factory=list)


def _default_output(name: str, figures: str | None) -> Path:
    from analyzer.report.pages import slug

    REPORTS_FOLDER.mkdir(exist_ok=True)
    return REPORTS_FOLDER / (f"{slug(name)}-figures" if figures else f"{slug(name)}.pdf")


def report(scenarios: list | None = None, game: str | None = None, players: int | None = None,
           strategies: list[str] | None = None, sets: list[str] | None = None, n: int | str = 100_000,
           out: str | Path | None = None, figures: str | None = None, seed: int | None = None,
           workers: int | None = None, progress: bool | None = False, backend: str = "local",
           scheduler: str | None = None, checkpoint: str | Path | None = None,
           skill_n: int | str | None = SKILL_GAMES, balance_n: int | str | None = BALANCE_GAMES,
           precision: float | str | None = None, player_counts: list[int] | str | None = None) -> ReportOutcome:
    """Simulate every scenario (or ``game``'s standard rules) with one seed and write the report
    (see :func:`report_specs`)."""
    from analyzer.execution import Execution

    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    return report_specs(resolve_report_specs(scenarios, game, players, strategies, sets), n, execution, out, figures,
                        skill_n, balance_n, precision, player_counts)


def resolve_report_specs(scenarios: list | None, game: str | None, players: int | None,
                         strategies: list[str] | None, sets: list[str] | None) -> list:
    """The run specs of a report: every scenario (of one game), or ``game``'s standard rules."""
    from analyzer.experiments import resolve_scenarios
    from analyzer.runspec import resolve

    if scenarios:
        return resolve_scenarios(list(scenarios), game=game, players=players, strategies=strategies, sets=sets)
    return [resolve(game=game, players=players, strategies=strategies, sets=sets)]


def report_specs(specs: list, n: int | str, execution: Execution, out: str | Path | None = None,
                 figures: str | None = None, skill_n: int | str | None = SKILL_GAMES,
                 balance_n: int | str | None = BALANCE_GAMES, precision: float | str | None = None,
                 player_counts: list[int] | str | None = None) -> ReportOutcome:
    """Play every spec with ``execution`` (one seed for all) and write the report.

    ``out`` is a ``.pdf`` file (default ``reports/<scenario>.pdf``) or an ``.html`` (``.htm``)
    file, or with ``figures`` (``png`` or ``svg``) a folder that receives one file per figure. Several specs
    (of one game) make a comparison report: the comparison's verdicts, the comparison, and
    an appendix of each scenario's seat table and verdicts. A game with decisions gets the
    skill ladder of the first scenario, ``skill_n`` games per strategy (None: no ladder),
    whose verdict joins that scenario's. A report of one scenario opens with its verdicts.
    Where the game has a seat-compensating option, the value that equalises the seats is
    searched with ``balance_n`` games per value (None: no search). The output is checked
    before any game is played and written atomically.
    ``precision`` (percentage points): every scenario plays the same count, in rounds, until
    every seat's 95% win-rate interval (and, for several, every seat win-rate difference's)
    is within ± that many points, ``n`` games at most. ``player_counts`` (``"all"`` or a list)
    adds a page of the first scenario at those player counts side by side (see
    :mod:`analyzer.experiments.players`), ``n`` games each (how much skill matters only with the ladder).
    """
    from analyzer.api import parse_count
    from analyzer.experiments import Comparison, play_variant
    from analyzer.report.document import check_figure_folder, check_report_path, is_html

    n = parse_count(n)
    name = specs[0].name if len(specs) == 1 else f"{specs[0].game.id}-comparison"
    if out is None:
        out = _default_output(name if specs[0].scenario else specs[0].game.id, figures)
    path = check_figure_folder(out, figures) if figures else check_report_path(out)
    from analyzer.files import check_distinct_outputs

    check_distinct_outputs({"checkpoint": execution.checkpoint, "out": path})
    skill_n = None if skill_n is None else parse_count(skill_n, "skill_n")
    balance_n = None if balance_n is None else parse_count(balance_n, "balance_n")
    if player_counts is not None:
        from analyzer.experiments.players import check_player_counts

        player_counts = check_player_counts(specs[0], player_counts)
    reached = None
    if precision is None:
        runs = [play_variant(execution.for_run(index), spec, n, curve=True) for index, spec in enumerate(specs)]
    else:
        runs, reached = _play_to_precision(specs, n, execution, precision)
    comparison = Comparison(runs, execution.seed, reached) if len(runs) > 1 else None
    ladder = _skill_ladder(specs[0], skill_n, execution)
    verdicts = _verdicts(runs, ladder, balance_n, execution)
    counts = None
    if player_counts is not None:
        from analyzer.experiments.players import players_spec

        counts = players_spec(specs[0], n, replace(execution, checkpoint=None), player_counts, precision,
                              skill=skill_n is not None)
    pages = _report_pages(runs, comparison, ladder, verdicts, counts)
    if figures:
        from analyzer.report.document import write_figures

        files = write_figures(pages, path, figures)
        return ReportOutcome(path, len(files), runs, comparison, files, ladder, reached, verdicts, counts)
    title, subject = f"{specs[0].game.title}: balance report", ", ".join(s.name for s in specs)
    if is_html(path):
        from analyzer.report.html import write_html

        count = write_html(pages, path, title=title, subject=subject)
    else:
        from analyzer.report.document import write_pdf

        count = write_pdf(pages, path, title=title, subject=subject)
    return ReportOutcome(path, count, runs, comparison, skill=ladder, precision=reached, verdicts=verdicts,
                         player_counts=counts)


def _play_to_precision(specs: list, limit: int, execution: Execution, precision: float | str):
    """The report's runs played to ``precision`` (see :mod:`analyzer.experiments.precision`) and how it ended."""
    from analyzer.engine.precision import SEATS_MEASURED, parse_precision
    from analyzer.experiments import precision as to_precision

    several = len(specs) > 1
    return to_precision.play_variants_to_precision(
        specs, limit, execution, parse_precision(precision),
        to_precision.seats_and_differences_widest if several else to_precision.seats_widest,
        to_precision.SEATS_AND_DIFFERENCES_MEASURED if several else SEATS_MEASURED, curve=True)


def _skill_ladder(spec, skill_n: int | None, execution: Execution):
    """The skill ladder of the report's first scenario (not checkpointed: its runs are short), or None."""
    if skill_n is None or not spec.game.has_decisions:
        return None
    from analyzer.experiments.skill import skill_spec

    return skill_spec(spec, skill_n, replace(execution.derived("skill"), checkpoint=None))


def _verdicts(runs, ladder, balance_n: int | None, execution: Execution) -> list:
    """Each run's verdicts: its seat verdict with the balance search of the game's seat-compensating
    option (not checkpointed, like the ladder) and the exact seat win rates where the game has them,
    the first run's with the skill ladder; where the game assigns components at setup, their effects
    measured with them dealt at random (the run's seed: common random numbers) and the fix search of
    the strongest (see :mod:`analyzer.experiments.component_effects`)."""
    from analyzer.experiments.component_effects import ASSIGNMENT_GAMES, assigned_components, component_fix
    from analyzer.experiments.seat_balance import seat_compensation
    from analyzer.verdicts import ranked, run_verdicts

    found = []
    for index, run in enumerate(runs):
        compensation = seat_compensation(run, balance_n, execution.derived("balance", index))
        skill = ladder.to_dict() if ladder is not None and index == 0 else None
        exact = run.spec.game.exact_seat_win_rates(run.spec.rules, run.spec.players)
        same_games = replace(execution, checkpoint=None)
        assigned = assigned_components(run.spec, min(ASSIGNMENT_GAMES, run.n), same_games)
        fix = component_fix(run.spec, assigned, None if balance_n is None else min(balance_n, run.n), same_games)
        verdicts = run_verdicts(run.result.to_dict(), compensation, skill, assigned_components=assigned,
                                component_fix=fix, exact_win_rates=exact)
        if skill is not None:  # the expert at a casual table joins the ladder's own verdict
            verdicts = ranked([*verdicts, ladder.mixed_verdict()])
        found.append(verdicts)
    return found


def _report_pages(runs, comparison, ladder, verdicts, counts=None):
    """Title, then for one scenario its verdicts and its section; for several, the comparison's verdicts, the
    comparison and an appendix of each scenario's seats and verdicts; then the player counts side by side
    (``counts``). Pages are made lazily."""
    from analyzer.experiments import players_text, unique_names
    from analyzer.report.pages import title_page
    from analyzer.report.style import Palette
    from analyzer.report.verdict_page import verdict_pages

    names = unique_names([run.spec.name for run in runs])
    palette = Palette(strategies=[seat.label for run in runs for seat in run.spec.seats], scenarios=names)
    played = [players_text(run.spec) for run in runs]
    yield title_page(runs, names, sum(run.result.info.wall_seconds for run in runs))
    if comparison is not None:
        from analyzer.report import comparison_pages

        yield from comparison_pages.verdict_pages(comparison)
        yield from comparison_pages.body_pages(comparison, palette)
        yield from comparison_pages.appendix_pages(comparison, verdicts, played)
        return
    from analyzer.report.measure_pages import measure_pages
    from analyzer.report.pages import run_pages

    yield from verdict_pages(names, verdicts, played, decisions=runs[0].spec.game.has_decisions)
    yield from run_pages(runs[0], names[0], "", palette)
    yield from measure_pages(runs[0].result, names[0], "")
    if ladder is not None:
        from analyzer.report.skill_page import skill_pages

        yield from skill_pages(ladder, names[0])
    if counts is not None:
        from analyzer.report.players_page import player_counts_page

        yield player_counts_page(counts, names[0])


def write_experiment_pdf(result, path: str | Path) -> int:
    """Plot a :class:`~analyzer.experiments.Sweep` or :class:`~analyzer.experiments.Balance` into a PDF."""
    from analyzer.experiments import Balance, Sweep
    from analyzer.report.document import check_pdf_path, write_pdf
    from analyzer.report.pages import balance_pages, sweep_pages

    path = check_pdf_path(path)
    if isinstance(result, Sweep):
        return write_pdf(sweep_pages(result), path, title=f"{result.game.title}: sweep of {result.option.name}")
    if isinstance(result, Balance):
        return write_pdf(balance_pages(result), path, title=f"{result.game.title}: fairest {result.option.name}")
    raise AnalyzerError(f"{type(result).__name__} has no PDF form; a sweep or a balance search has")


class _CallableReportModule(types.ModuleType):
    """This package, callable as :func:`report`: ``analyzer.report(...)`` works whether or not
    the package was imported before (once imported, ``analyzer.report`` is the package)."""

    def __call__(self, *args, **kwargs) -> ReportOutcome:
        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableReportModule
