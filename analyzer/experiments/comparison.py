"""Comparing variants of one game: every metric side by side, with the paired difference to the first."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.api import parse_count
from analyzer.engine.precision import Precision, parse_precision
from analyzer.errors import AnalyzerError
from analyzer.execution import Execution
from analyzer.experiments.batches import VariantRun, play_variant
from analyzer.experiments.metrics import describe_metric
from analyzer.experiments.paired import paired_difference
from analyzer.experiments.precision import DIFFERENCES_MEASURED, differences_widest, play_variants_to_precision
from analyzer.experiments.setup import resolve_scenarios, setup_text, unique_names
from analyzer.games.options import jsonable
from analyzer.output import Rendered, frame_text
from analyzer.runspec import RunSpec


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

    @property
    def n(self) -> int:
        return self.runs[0].n

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
                    "significant": bool(difference is not None and difference.significant),
                })
        return rows

    def frame(self) -> pd.DataFrame:
        """The rows as a DataFrame, the interval in ``difference_low`` and ``difference_high`` (the CSV)."""
        rows = []
        for row in self.rows():
            low, high = row.pop("difference_ci") or (None, None)
            significant = row.pop("significant")
            rows.append({**row, "difference_low": low, "difference_high": high, "significant": significant})
        return pd.DataFrame(rows)

    def variance_reduction(self) -> list[dict[str, Any]]:
        return [{"metric": metric.key, "scenario": self.names[j], "factor": self.differences[(metric.key, j)]
                 .variance_reduction} for metric in self.metrics for j in range(1, len(self.runs))]

    def typical_reduction(self, scenario: int, prefix: str = "win_rate_seat_") -> float | None:
        """The median variance reduction of scenario ``scenario`` over the metrics starting with ``prefix``."""
        factors = [d.variance_reduction for (key, j), d in self.differences.items()
                   if j == scenario and key.startswith(prefix) and d.variance_reduction is not None]
        return float(np.median(factors)) if factors else None

    def to_dict(self) -> dict[str, Any]:
        built = {
            "schema": self.SCHEMA,
            "game": self.game.id,
            "n": self.n,
            "seed": self.seed,
            "batches": len(self.runs[0].batch_values[0]),
            "scenarios": [{
                "name": name,
                "path": run.spec.scenario.path if run.spec.scenario else None,
                "players": run.spec.players,
                "strategies": [s.label for s in run.spec.seats],
                "changed_rules": jsonable(run.spec.changed_rules()),
                "wall_seconds": run.result.info.wall_seconds,
            } for name, run in zip(self.names, self.runs, strict=True)],
            "rows": self.rows(),
            "variance_reduction": self.variance_reduction(),
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
                        metric.show_interval(d.interval, signed=True), "*" if d.significant else ""]
            rows.append(row)
        return pd.DataFrame(rows, columns=headers)

    def _header_lines(self) -> list[str]:
        lines = [f"{self.game.title}: {self.n:,} games per scenario, seed {self.seed} "
                 f"(every scenario plays game i from the same random stream)"]
        for name, run in zip(self.names, self.runs, strict=True):
            lines.append(f"  {name}: {setup_text(run.spec)}")
        return lines

    def _footer_lines(self) -> list[str]:
        lines = ["* the 95% interval of the difference to the first scenario excludes 0"]
        if self.precision is not None:
            lines.append(self.precision.sentence())
        for j in range(1, len(self.runs)):
            gain = self.typical_reduction(j)
            if gain is not None and math.isfinite(gain):
                lines.append(f"Common random numbers: for the seat win rates, {self.names[j]} vs {self.names[0]} "
                             f"needs about {gain:,.1f} times fewer games than independent runs for the same precision")
        return lines

    def to_table(self) -> str:
        return "\n".join([*self._header_lines(), "", frame_text(self.display_frame(), "table"), "",
                          *self._footer_lines()])

    def to_markdown(self) -> str:
        lines = [f"# {self.game.title}: comparison", "", *(f"- {line.strip()}" for line in self._header_lines()), "",
                 frame_text(self.display_frame(), "markdown"), "", *self._footer_lines()]
        return "\n".join(lines)

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
