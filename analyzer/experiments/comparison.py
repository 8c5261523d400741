"""Comparing variants of one game: every metric side by side, with the paired difference to the first.

Every difference gets a two-sided p-value from the Student t of its batch-means interval;
a comparison marks a difference ``significant`` only after Benjamini–Hochberg control of
the false discovery rate over every difference it tests (every metric of every scenario
against the first), and names its changes largest first, by the relative size of the change.
"""

from __future__ import annotations

import math
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.api import parse_count
from analyzer.engine.precision import Precision, parse_precision
from analyzer.errors import AnalyzerError
from analyzer.execution import Execution
from analyzer.experiments.batches import VariantRun, play_variant
from analyzer.experiments.components_compared import components_side_by_side
from analyzer.experiments.metrics import describe_metric
from analyzer.experiments.paired import paired_difference
from analyzer.experiments.precision import DIFFERENCES_MEASURED, differences_widest, play_variants_to_precision
from analyzer.experiments.setup import resolve_scenarios, setup_text, unique_names
from analyzer.experiments.significance import FDR_LEVEL, benjamini_hochberg
from analyzer.experiments.variant_verdicts import VariantVerdicts, verdict_lines
from analyzer.games.options import jsonable
from analyzer.output import Rendered, frame_text
from analyzer.runspec import RunSpec

#: the changes named per scenario in a comparison's summary, largest first
MAX_CHANGES_NAMED = 8
#: below this measured gain (variance ratio) common random numbers are said to bring none
NO_GAIN_BELOW = 1.1
#: metrics left out of the named changes: the first-player advantage moves as seat 1's win rate
#: (exactly, at equal players)
NOT_NAMED = ("first_player_advantage",)
#: what the marks of the comparison table say
MARK_NOTE = ("* significant after false discovery rate control; ° the 95% interval excludes 0 on its own, "
             "but not significant after the control")


class Comparison(Rendered):
    """Every metric of several variants side by side, with the difference to the first."""

    SCHEMA = "pirate-analyzer/compare/1"

    def __init__(self, runs: list[VariantRun], seed: int, precision: Precision | None = None):
        self.runs = runs
        self.seed = seed
        #: how a ``precision`` run ended (None: a run of a fixed count)
        self.precision = precision
        self.names = unique_names([run.spec.name for run in runs])
        self.game = runs[0].spec.game
        keys = list(dict.fromkeys(k for run in runs for k in run.values))
        self.metrics = [describe_metric(k, self.game) for k in keys]
        self.differences = {
            (metric.key, j): paired_difference(runs[0], run, metric.key)
            for metric in self.metrics for j, run in enumerate(runs) if j > 0
        }
        tested = [key for key, d in self.differences.items() if d.p_value is not None]
        marks = benjamini_hochberg([self.differences[key].p_value for key in tested])
        #: (metric, scenario) -> significant after Benjamini–Hochberg control over every tested difference
        self.significant = dict.fromkeys(self.differences, False) | dict(zip(tested, marks, strict=True))
        self.tested = len(tested)

    @property
    def n(self) -> int:
        return self.runs[0].n

    @cached_property
    def variant(self) -> VariantVerdicts:
        """Its significant changes and what did not change (:mod:`analyzer.experiments.variant_verdicts`)."""
        return VariantVerdicts(self)

    @cached_property
    def verdicts(self) -> list:
        """The comparison's answer: its variant verdicts."""
        return self.variant.verdicts()

    def rows(self) -> list[dict[str, Any]]:
        """One row per metric and scenario (the JSON rows)."""
        rows = []
        for metric in self.metrics:
            for j, run in enumerate(self.runs):
                difference = self.differences.get((metric.key, j))
                rows.append({
                    "metric": metric.key,
                    "scenario": self.names[j],
                    "value": run.values.get(metric.key),
                    "difference": None if difference is None else difference.value,
                    "difference_ci": None if difference is None or difference.interval is None
                    else list(difference.interval),
                    "significant": self.significant.get((metric.key, j), False),
                    "significant_unadjusted": bool(difference is not None and difference.significant_unadjusted),
                    "p_value": None if difference is None else difference.p_value,
                })
        return rows

    def frame(self) -> pd.DataFrame:
        """The rows as a DataFrame, the interval in ``difference_low`` and ``difference_high`` (the CSV)."""
        rows = []
        for row in self.rows():
            low, high = row.pop("difference_ci") or (None, None)
            marks = {key: row.pop(key) for key in ("significant", "significant_unadjusted", "p_value")}
            rows.append({**row, "difference_low": low, "difference_high": high, **marks})
        return pd.DataFrame(rows)

    def variance_reduction(self) -> list[dict[str, Any]]:
        return [{"metric": metric.key, "scenario": self.names[j], "factor": self.differences[(metric.key, j)]
                 .variance_reduction} for metric in self.metrics for j in range(1, len(self.runs))]

    def typical_reduction(self, scenario: int, prefix: str = "win_rate_seat_") -> float | None:
        """The median variance reduction of scenario ``scenario`` over the metrics starting with ``prefix``."""
        factors = [d.variance_reduction for (key, j), d in self.differences.items()
                   if j == scenario and key.startswith(prefix) and d.variance_reduction is not None]
        return float(np.median(factors)) if factors else None

    # -- the comparison in words ------------------------------------------------------------------

    def relative_change(self, key: str, scenario: int) -> float | None:
        """The difference as a fraction of the first scenario's value (±inf from a value of 0), or None."""
        base, d = self.runs[0].values.get(key), self.differences[(key, scenario)]
        if base is None or d.value is None:
            return None
        if base == 0:
            return 0.0 if d.value == 0 else math.copysign(math.inf, d.value)
        return d.value / abs(base)

    def changes(self, scenario: int) -> list[str]:
        """The metric keys whose difference is significant after the control, largest relative change first."""
        named = [m.key for m in self.metrics if self.significant[(m.key, scenario)] and m.key not in NOT_NAMED
                 and self.relative_change(m.key, scenario) is not None]
        return sorted(named, key=lambda key: -abs(self.relative_change(key, scenario)))

    def change_text(self, key: str, scenario: int) -> str:
        """One change in words, e.g. ``games 26% shorter in rounds (20.28 → 15.00)``."""
        metric = describe_metric(key, self.game)
        base, new = self.runs[0].values[key], self.runs[scenario].values[key]
        relative = self.relative_change(key, scenario)
        values = f"{metric.show(base)} → {metric.show(new)}"
        if metric.kind == "rate":
            values += f", {metric.show_difference(new - base)}"
        if not math.isfinite(relative):
            return f"{metric.label} from {values}"
        size = abs(relative) * 100
        size_text = f"{size:.0f}%" if size >= 9.5 else f"{size:.1f}%" if size >= 0.095 else f"{size:.2g}%"
        if key.startswith("mean_length_"):
            return f"games {size_text} {'shorter' if relative < 0 else 'longer'} in {metric.unit} ({values})"
        return f"{metric.label} {size_text} {'higher' if relative > 0 else 'lower'} ({values})"

    def summary_line(self, scenario: int, limit: int = MAX_CHANGES_NAMED) -> str:
        """The significant changes of ``scenario`` against the first, largest first, and what fell to the control."""
        against = f"{self.names[scenario]} against {self.names[0]}"
        changes = self.changes(scenario)
        if changes:
            more = len(changes) - limit
            said = (f"{against}, significant changes, largest first: "
                    + "; ".join(self.change_text(key, scenario) for key in changes[:limit])
                    + (f"; and {more} more (see the table)" if more > 0 else "") + ".")
        else:
            said = f"{against}: no significant change."
        borderline = sum(1 for m in self.metrics
                         if self.differences[(m.key, scenario)].significant_unadjusted
                         and not self.significant[(m.key, scenario)])
        if borderline:
            said += (f" {borderline} more difference{'s' if borderline > 1 else ''} "
                     f"{'have' if borderline > 1 else 'has'} a 95% interval excluding 0 on "
                     f"{'their' if borderline > 1 else 'its'} own but {'are' if borderline > 1 else 'is'} not "
                     f"significant after the false discovery rate control (marked ° in the table).")
        return said

    def method_text(self) -> str:
        return (f"Significance: two-sided p-values from the same batch-means Student t as the intervals; a difference "
                f"is significant (*) after Benjamini–Hochberg control of the false discovery rate at "
                f"{FDR_LEVEL:.0%} over the {self.tested} differences tested (every metric of every scenario against "
                f"the first), so on average at most 1 in {round(1 / FDR_LEVEL)} differences marked * is a chance "
                f"finding.")

    def gain_remark(self, scenario: int) -> str | None:
        """The measured gain of the common random numbers on the seat win rates, in words (None if not measured)."""
        gain = self.typical_reduction(scenario)
        if gain is None:
            return None
        against = f"Common random numbers, {self.names[scenario]} against {self.names[0]}"
        if math.isinf(gain):
            return (f"{against}: the paired games gave the seat win rates the same outcomes in every batch, so "
                    f"their differences carry no chance at all.")
        said = (f"{against}: paired games made the seat win-rate differences {gain:,.2f} times as precise as "
                f"independent runs (median over the seats, variance ratio from batch means)")
        if gain < NO_GAIN_BELOW:
            return (f"{said}: no gain. These rules change the course of the games too much for the same random "
                    f"streams to keep them paired; the intervals are as wide as independent runs would give.")
        return f"{said}: independent runs would need about {gain:,.1f} times as many games for the same intervals."

    def significance(self) -> dict[str, Any]:
        """How ``significant`` is decided (the JSON's ``significance``)."""
        return {"method": "benjamini-hochberg", "false_discovery_rate": FDR_LEVEL, "tested": self.tested,
                "p_value": "two-sided, batch-means Student t"}

    def to_dict(self) -> dict[str, Any]:
        built = {
            "schema": self.SCHEMA,
            "game": self.game.id,
            "n": self.n,
            "seed": self.seed,
            "batches": len(self.runs[0].batch_values[0]),
            "verdicts": [verdict.to_dict() for verdict in self.verdicts],
            "scenarios": [{
                "name": name,
                "path": run.spec.scenario.path if run.spec.scenario else None,
                "players": run.spec.players,
                "strategies": [s.label for s in run.spec.seats],
                "changed_rules": jsonable(run.spec.changed_rules()),
                "wall_seconds": run.result.info.wall_seconds,
            } for name, run in zip(self.names, self.runs, strict=True)],
            "significance": self.significance(),
            "rows": self.rows(),
            "variance_reduction": self.variance_reduction(),
            "components": components_side_by_side(self.names, [run.result for run in self.runs]),
        }
        if self.precision is not None:
            built["precision"] = self.precision.to_dict()
        return built

    def display_frame(self) -> pd.DataFrame:
        """Metrics down, scenarios across: each value, and after the first its difference, interval and mark."""
        headers = ["metric", self.names[0]]
        for name in self.names[1:]:
            headers += [name, "difference", "95% interval", ""]
        rows = []
        for metric in self.metrics:
            row = [metric.label, metric.show(self.runs[0].values.get(metric.key))]
            for j, run in enumerate(self.runs[1:], start=1):
                d = self.differences[(metric.key, j)]
                row += [metric.show(run.values.get(metric.key)), metric.show_difference(d.value),
                        metric.show_interval(d.interval, signed=True), self.mark(metric.key, j)]
            rows.append(row)
        return pd.DataFrame(rows, columns=headers)

    def mark(self, key: str, scenario: int) -> str:
        """``*`` significant after the control, ``°`` only with the difference tested alone, else nothing."""
        if self.significant[(key, scenario)]:
            return "*"
        return "°" if self.differences[(key, scenario)].significant_unadjusted else ""

    def _header_lines(self) -> list[str]:
        lines = [f"{self.game.title}: {self.n:,} games per scenario, seed {self.seed} "
                 f"(every scenario plays game i from the same random stream)"]
        for name, run in zip(self.names, self.runs, strict=True):
            lines.append(f"  {name}: {setup_text(run.spec)}")
        return lines

    def _footer_lines(self) -> list[str]:
        lines = [self.method_text(), MARK_NOTE]
        if self.precision is not None:
            lines.append(self.precision.sentence())
        for j in range(1, len(self.runs)):
            lines.append(self.summary_line(j))
            remark = self.gain_remark(j)
            if remark:
                lines.append(remark)
        return lines

    def to_table(self) -> str:
        return "\n".join([*verdict_lines(self.names, self.verdicts), "", *self._header_lines(), "",
                          frame_text(self.display_frame(), "table"), "",
                          *self._footer_lines()])

    def to_markdown(self) -> str:
        verdicts = [line.replace("*", "\\*") for line in verdict_lines(self.names, self.verdicts, width=10**6)]
        lines = [f"# {self.game.title}: comparison", "", verdicts[0], "", *verdicts[1:], "",
                 *(f"- {line.strip()}" for line in self._header_lines()), "",
                 frame_text(self.display_frame(), "markdown")]
        footer = [line.replace("*", "\\*") for line in self._footer_lines()]  # paragraphs, no list or emphasis
        return "\n".join(lines) + "\n\n" + "\n\n".join(footer)

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")


def compare_specs(specs: list[RunSpec], n: int | str, execution: Execution,
                  precision: float | str | None = None) -> Comparison:
    """Run every spec with the same seed and ``n``, and compare them with the first.

    ``precision`` (percentage points): play rounds until every seat win-rate
    difference's 95% interval is within ± that many points, ``n`` games at most
    (:mod:`analyzer.experiments.precision`).
    """
    if len(specs) < 2:
        raise AnalyzerError("a comparison needs at least two scenarios")
    n = parse_count(n)
    if precision is not None:
        runs, outcome = play_variants_to_precision(specs, n, execution, parse_precision(precision),
                                                   differences_widest, DIFFERENCES_MEASURED)
        return Comparison(runs, execution.seed, outcome)
    runs = [play_variant(execution.for_run(index), spec, n) for index, spec in enumerate(specs)]
    return Comparison(runs, execution.seed)


def compare(scenarios: list, n: int | str = 100_000, players: int | None = None,
            strategies: list[str] | None = None, sets: list[str] | None = None, seed: int | None = None,
            workers: int | None = None, progress: bool | None = False, backend: str = "local",
            scheduler: str | None = None, checkpoint: str | Path | None = None,
            precision: float | str | None = None) -> Comparison:
    """Compare scenario files (or parsed scenarios) of one game with common random numbers.

    ``players``, ``strategies`` and ``sets`` apply to every scenario; ``precision``: see
    :func:`compare_specs`.
    """
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    specs = resolve_scenarios(list(scenarios), players=players, strategies=strategies, sets=sets)
    return compare_specs(specs, n, execution, precision)
