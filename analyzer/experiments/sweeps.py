"""Sweeps: every metric for each value of one rule option, all values played with the same seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.api import parse_count
from analyzer.execution import Execution
from analyzer.experiments.batches import VariantRun, play_variant
from analyzer.experiments.metrics import describe_metric
from analyzer.experiments.params import NUMERIC_KINDS, parse_sweep_param, refuse_set
from analyzer.experiments.setup import players_text, rules_text
from analyzer.games.options import format_value
from analyzer.output import Rendered, frame_text
from analyzer.runspec import RunSpec, resolve


class Sweep(Rendered):
    """Every metric for each value of one rule option (all values played with the same seed)."""

    SCHEMA = "pirate-analyzer/sweep/1"

    def __init__(self, option, values: list, runs: list[VariantRun], seed: int):
        self.option = option
        self.values = values
        self.runs = runs
        self.seed = seed
        self.base = runs[0].spec
        self.game = self.base.game
        keys = list(dict.fromkeys(k for run in runs for k in run.values))
        self.metrics = [describe_metric(k, self.game) for k in keys]

    @property
    def n(self) -> int:
        return self.runs[0].n

    @property
    def numeric(self) -> bool:
        return self.option.kind in NUMERIC_KINDS

    def rows(self) -> list[dict[str, Any]]:
        rows = []
        for metric in self.metrics:
            for value, run in zip(self.values, self.runs, strict=True):
                interval = run.interval(metric.key)
                rows.append({"metric": metric.key, "option_value": value, "value": run.values.get(metric.key),
                             "ci": None if interval is None else list(interval)})
        return rows

    def frame(self) -> pd.DataFrame:
        """One row per metric and value, the option's column named after it (the CSV)."""
        rows = []
        for row in self.rows():
            low, high = row["ci"] or (None, None)
            rows.append([row["metric"], format_value(row["option_value"]), row["value"], low, high])
        return pd.DataFrame(rows, columns=["metric", self.option.name, "value", "ci_low", "ci_high"])

    def to_dict(self) -> dict[str, Any]:
        return {"schema": self.SCHEMA, "game": self.game.id, "option": self.option.name, "values": self.values,
                "n": self.n, "seed": self.seed, "players": self.base.players,
                "strategies": [s.label for s in self.base.seats], "rows": self.rows()}

    def _intro(self) -> list[str]:
        rules = rules_text(self.base, leave_out=self.option.name)
        return [f"{self.game.title}: {self.option.name} over {len(self.values)} values, {self.n:,} games each, "
                f"seed {self.seed} (every value plays game i from the same random stream)",
                f"{players_text(self.base)}; {rules}. Each cell: estimate ± half its 95% interval."]

    def display_frame(self) -> pd.DataFrame:
        """Metrics down, values across: each estimate ± half its interval."""
        rows = []
        for metric in self.metrics:
            row = [metric.label]
            for run in self.runs:
                value = run.values.get(metric.key)
                interval = run.interval(metric.key)
                cell = metric.show(value)
                if interval is not None:
                    half = (interval[1] - interval[0]) / 2
                    cell += " ± " + (f"{half * 100:.2f}" if metric.kind == "rate" else metric.show(half))
                row.append(cell)
            rows.append(row)
        return pd.DataFrame(rows, columns=["metric", *(f"{self.option.name} = {format_value(v)}"
                                                       for v in self.values)])

    def to_table(self) -> str:
        return "\n".join([*self._intro(), "", frame_text(self.display_frame(), "table")])

    def to_markdown(self) -> str:
        return "\n".join([f"# {self.game.title}: sweep of {self.option.name}", "", *self._intro(), "",
                          frame_text(self.display_frame(), "markdown")])

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")


def sweep_spec(param: str, base: RunSpec, n: int | str, execution: Execution) -> Sweep:
    """Run one rule option of ``base`` over a range (``name=start:stop:step``) or a list (``name=a,b,c``)."""
    n = parse_count(n)
    option, values = parse_sweep_param(base.game, param, base.rules)
    refuse_set(option.name, base)
    specs = [base.with_rules({option.name: value}) for value in values]  # every value checked before any run
    runs = [play_variant(execution.for_run(index), spec, n) for index, spec in enumerate(specs)]
    return Sweep(option, values, runs, execution.seed)


def sweep(param: str, game: str | None = None, scenario: str | Path | None = None, players: int | None = None,
          strategies: list[str] | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
          n: int | str = 100_000, seed: int | None = None, workers: int | None = None,
          progress: bool | None = False, backend: str = "local", scheduler: str | None = None,
          checkpoint: str | Path | None = None) -> Sweep:
    """Run one rule option over a range (``name=start:stop:step``) or a list (``name=a,b,c``)."""
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    base = resolve(game=game, scenario=None if scenario is None else str(scenario), players=players,
                   strategies=strategies, rules=rules, sets=sets)
    return sweep_spec(param, base, n, execution)
