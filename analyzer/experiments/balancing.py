"""The fairness search: the value of a numeric rule option that makes every seat equally likely to win."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.api import parse_count
from analyzer.errors import AnalyzerError
from analyzer.execution import Execution
from analyzer.experiments.balance_targets import ComponentTarget, SeatTarget, parse_target
from analyzer.experiments.batches import VariantRun, play_variant, t_quantile_95
from analyzer.experiments.params import parse_search_param, refuse_set
from analyzer.experiments.setup import players_text, rules_text
from analyzer.output import Rendered, frame_text
from analyzer.runspec import RunSpec, resolve

#: values evaluated per round of the fairness search, and the most rounds
BALANCE_POINTS = 5
BALANCE_MAX_ROUNDS = 6
#: the search stops only once the lines are fitted over a bracket at most this many times the interval width
#: (the seat win rates are curved over a wide range; a local fit keeps the interval honest)
LOCAL_FIT_WIDTH = 2.5


@dataclass
class Evaluation:
    """The target's win rates (the seats', by default) at one value of the searched option."""

    value: float
    run: VariantRun
    target: SeatTarget | ComponentTarget

    def _counts(self, totals) -> tuple[np.ndarray, np.ndarray]:
        return self.target.counts(totals, self.run.spec.game.components(self.run.result.prepared))

    @cached_property
    def win_rates(self) -> np.ndarray:
        wins, games = self._counts(self.run.result.totals)
        return wins / games

    @cached_property
    def batch_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """([complete batches, columns] wins, the same shape of games they are out of)."""
        counts = [self._counts(self.run.batches.totals[b]) for b in self.run.batches.complete()]
        return np.array([c[0] for c in counts]), np.array([c[1] for c in counts])

    @property
    def largest_gap(self) -> float:
        return float(self.win_rates.max() - self.win_rates.min())


@dataclass
class GridClass:
    """Values of the searched option from ``low`` to ``high`` that play alike (one value, or
    those strictly between two steps), measured at one of them."""

    low: int
    high: int
    evaluation: Evaluation

    def shown_range(self) -> str:
        return f"{self.low}" if self.low == self.high else f"{self.low} to {self.high}"

    def to_dict(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "value": self.evaluation.value,
                "win_rates": self.evaluation.win_rates.tolist(), "largest_gap": self.evaluation.largest_gap}


def grid_around(value: float, step: int, low: float, high: float) -> list[tuple[int, int, int]]:
    """The classes of the grid bracketing ``value`` within [low, high]: ``(first, last, measured
    at)``, the step below it, the values strictly between (when the step is over 1) and the step
    above; each measured at its middle."""
    below = math.floor(value / step) * step
    classes = [(below, below)]
    if step > 1:
        classes.append((below + 1, below + step - 1))
    classes.append((below + step, below + step))
    found = []
    for first, last in classes:
        first, last = max(first, math.ceil(low)), min(last, math.floor(high))
        if first <= last:
            found.append((first, last, first + (last - first + 1) // 2 if first != last else first))
    return found


def _fairest_value(xs: np.ndarray, rates: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """Fit a line per seat to ``rates`` [values, seats] against ``xs`` and return the value in
    [low, high] where the fitted lines are closest together, and the fitted largest gap there.

    The largest gap of lines is convex and piecewise linear, so its minimum lies at an end
    or where two lines cross.
    """
    design = np.column_stack([np.ones_like(xs), xs])
    coefficients, *_ = np.linalg.lstsq(design, rates, rcond=None)  # [2, seats]
    intercepts, slopes = coefficients
    candidates = [low, high]
    for i in range(len(slopes)):
        for j in range(i + 1, len(slopes)):
            if slopes[i] != slopes[j]:
                x = (intercepts[j] - intercepts[i]) / (slopes[i] - slopes[j])
                if low < x < high:
                    candidates.append(float(x))
    candidates = np.array(sorted(candidates))
    fitted = intercepts[None, :] + slopes[None, :] * candidates[:, None]
    gaps = fitted.max(axis=1) - fitted.min(axis=1)
    best = int(np.argmin(gaps))
    return float(candidates[best]), float(gaps[best])


class Balance(Rendered):
    """The value of a numeric rule option that makes every seat equally likely to win."""

    SCHEMA = "pirate-analyzer/balance/1"

    def __init__(self, option, low, high, interval_width, evaluations: list[Evaluation], rounds: int,
                 recommended: float, interval: tuple[float, float] | None, fitted_gap: float,
                 measured: Evaluation, seed: int, n: int, fitted: float | None = None, step: int | None = None,
                 grid: list[GridClass] | None = None):
        self.option = option
        self.low, self.high = low, high
        self.interval_width = interval_width
        #: the fairest value of the fitted lines (continuous), the option's step and its grid around it
        self.fitted = recommended if fitted is None else fitted
        self.step = step
        self.grid = grid or []
        self.evaluations = evaluations
        self.rounds = rounds
        self.recommended = recommended
        self.interval = interval
        self.fitted_gap = fitted_gap
        self.measured = measured
        self.seed = seed
        self.n = n
        self.base = evaluations[0].run.spec
        self.game = self.base.game

    @property
    def interval_width_reached(self) -> bool:
        return self.interval is not None and self.interval[1] - self.interval[0] < self.interval_width

    @property
    def best_measured(self) -> Evaluation:
        """The evaluated value with the smallest measured gap between seats."""
        return min(self.evaluations, key=lambda e: (e.largest_gap, e.value))

    @property
    def acts_in_steps(self) -> bool:
        """Two evaluated values won exactly the same games per seat (e.g. scores move in steps of 100)."""
        seen = [tuple(e.run.result.totals["wins"].tolist()) for e in self.evaluations]
        return len(set(seen)) < len(seen)

    @property
    def at_edge(self) -> bool:
        return self.recommended in (self.low, self.high)

    def _in_order(self) -> list[Evaluation]:
        return sorted(self.evaluations, key=lambda e: e.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.SCHEMA, "game": self.game.id, "option": self.option.name, "low": self.low,
            "high": self.high, "players": self.base.players, "strategies": [s.label for s in self.base.seats],
            "n_per_value": self.n, "seed": self.seed, "precision": self.interval_width,
            "recommended": self.recommended, "fitted": self.fitted, "step": self.step,
            "grid": [grid_class.to_dict() for grid_class in self.grid],
            "best_measured": self.best_measured.value,
            "interval": None if self.interval is None else list(self.interval),
            "precision_reached": self.interval_width_reached, "predicted_balance": 1 - self.fitted_gap,
            "measured_balance": 1 - self.measured.largest_gap,
            "rounds": self.rounds, "games": self.n * len(self.evaluations),
            "evaluations": [{"value": e.value, "win_rates": e.win_rates.tolist(), "largest_gap": e.largest_gap,
                             "balance": 1 - e.largest_gap} for e in self.evaluations],
            **({} if self.target.text is None else {"target": self.target.text, "columns": self.target.labels}),
        }

    @property
    def target(self):
        """What the search equalises (:mod:`analyzer.experiments.balance_targets`)."""
        return self.evaluations[0].target

    @property
    def _between(self) -> str:
        return "seats" if self.target.text is None else f"{self.target.text} and the others"

    def frame(self) -> pd.DataFrame:
        """One row per evaluated value: the seat win rates, the largest gap and the balance (the CSV)."""
        seats = [f"win_rate_{label.replace(' ', '_')}" for label in self.target.labels]
        rows = [[e.value, *e.win_rates.tolist(), e.largest_gap, 1 - e.largest_gap] for e in self._in_order()]
        return pd.DataFrame(rows, columns=[self.option.name, *seats, "largest_gap", "balance"])

    def _show_value(self, value: float) -> str:
        return f"{value:.0f}" if self.option.kind == "int" else f"{value:.4g}"

    def intro(self) -> list[str]:
        name = self.option.name
        aim = "" if self.target.text is None else f" (to equalise {self.target.text} and the others of its table)"
        lines = [f"{self.game.title}: the fairest {name} in {self._show_value(self.low)} to "
                 f"{self._show_value(self.high)}{aim} for {players_text(self.base)}, {rules_text(self.base, name)}, "
                 f"seed {self.seed}"]
        if self.interval is None:
            interval = "no interval: too few batches, raise --n"
        else:
            interval = f"95% interval {self._show_value(self.interval[0])} to {self._show_value(self.interval[1])}"
        chosen = next((c for c in self.grid if c.evaluation is self.measured), None)
        alike = f" (every value from {chosen.shown_range()} plays alike)" if chosen and chosen.low != chosen.high \
            else ""
        lines.append(f"Recommended {name} = {self._show_value(self.recommended)}{alike}: balance there "
                     f"{1 - self.measured.largest_gap:.4f} measured (largest gap between {self._between} "
                     f"{self.measured.largest_gap * 100:.2f} points of win rate)")
        lines.append(f"Fitted lines: fairest at {self._show_value(self.fitted)} ({interval}), balance "
                     f"{1 - self.fitted_gap:.4f} predicted (largest gap {self.fitted_gap * 100:.2f} points)")
        if self.grid:
            lines.append(f"On the grid {name} plays in (steps of {self._show_value(self.step)}), around "
                         f"{self._show_value(self.fitted)}:")
            for grid_class in self.grid:
                rates = ", ".join(f"{label} {rate * 100:.2f}%"
                                  for label, rate in zip(self.target.labels, grid_class.evaluation.win_rates,
                                                         strict=True))
                lines.append(f"  {grid_class.shown_range()}: {rates} (largest gap "
                             f"{grid_class.evaluation.largest_gap * 100:.2f} points)")
        state = "reached" if self.interval_width_reached else "NOT reached (raise --n)"
        lines.append(f"Interval width {self._show_value(self.interval_width)} {state} after {self.rounds} rounds, "
                     f"{len(self.evaluations)} values × {self.n:,} games each")
        best = self.best_measured
        lines.append(f"Fairest value measured: {self._show_value(best.value)} (largest gap "
                     f"{best.largest_gap * 100:.2f} points)")
        if self.acts_in_steps:
            lines.append(f"{name} acts in steps: different values gave exactly the same games, so every value of "
                         f"a step is equally fair (the table shows the steps)")
        if self.at_edge:
            lines.append(f"The fairest value lies at the edge of the range: widen --param {name}=LOW:HIGH")
        return lines

    def display_frame(self) -> pd.DataFrame:
        """One row per evaluated value, as shown."""
        rows = [[self._show_value(e.value), *(f"{r * 100:.2f}%" for r in e.win_rates),
                 f"{e.largest_gap * 100:.2f} pts", f"{1 - e.largest_gap:.4f}"] for e in self._in_order()]
        return pd.DataFrame(rows, columns=[self.option.name, *self.target.labels, "largest gap", "balance"])

    def to_table(self) -> str:
        return "\n".join([*self.intro(), "", frame_text(self.display_frame(), "table", left=0)])

    def to_markdown(self) -> str:
        return "\n".join([f"# {self.game.title}: fairest {self.option.name}", "", *self.intro(), "",
                          frame_text(self.display_frame(), "markdown", left=0)])

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")


def _search_points(option, low: float, high: float, done: set) -> list:
    """Up to BALANCE_POINTS evenly spaced values of [low, high] not evaluated yet."""
    points = np.linspace(low, high, BALANCE_POINTS)
    if option.kind == "int":
        values = [int(round(p)) for p in points]
    else:
        values = [float(p) for p in points]
    return [v for v in dict.fromkeys(values) if v not in done]


def _jackknife_interval(evaluations: list[Evaluation], bracket: tuple[float, float],
                        limits: tuple[float, float]) -> tuple[float, float] | None:
    """The 95% interval of the fairest value in ``bracket`` by leaving out one batch at a time
    (clipped to ``limits``).

    All values ran the same games (common random numbers), so batch ``b`` is the same
    games everywhere and the jackknife keeps the correlation between values.
    """
    low, high = bracket
    xs = np.array([e.value for e in evaluations], dtype=np.float64)
    wins = np.stack([e.batch_counts[0] for e in evaluations])  # [values, batches, columns]
    games = np.stack([e.batch_counts[1] for e in evaluations])
    batches = wins.shape[1]
    if batches < 2:
        return None
    total_wins, total_games = wins.sum(axis=1), games.sum(axis=1)
    estimate, _ = _fairest_value(xs, total_wins / total_games, low, high)
    leave_out = np.array([_fairest_value(xs, (total_wins - wins[:, b]) / (total_games - games[:, b]), low, high)[0]
                          for b in range(batches)])
    se = math.sqrt((batches - 1) / batches * float(np.sum((leave_out - leave_out.mean()) ** 2)))
    half = t_quantile_95(batches - 1) * se
    return (max(limits[0], estimate - half), min(limits[1], estimate + half))


def balance_spec(param: str, base: RunSpec, n: int | str, execution: Execution,
                 interval_width: float | None = None, target: str | None = None) -> Balance:
    """Search ``name=low:high`` of ``base`` for the value that brings the seat win rates closest together
    (or, with ``target`` ``TABLE[SELECTOR]``, those components' win rate and the others', see
    :mod:`analyzer.experiments.balance_targets`).

    Each round plays up to five values of the current bracket, ``n`` games each with
    the same seed; a line per seat fitted to the values in the bracket gives the value
    where the lines are closest (Ludii's balance: one minus the largest gap), its 95%
    interval comes from a jackknife over batches, and the bracket shrinks around it.
    The search stops once the interval is narrower than ``interval_width`` (in the option's
    units; default: a tenth of the range) and the bracket at most 2.5 times that wide, or
    after six rounds. The recommendation is a value the game can play: on the option's grid
    (:meth:`~analyzer.games.base.Game.option_step`), of the steps bracketing the fitted
    value and the values between them, the one measured fairest.
    """
    n = parse_count(n)
    option, low, high = parse_search_param(base.game, param, base.rules)
    refuse_set(option.name, base)
    aim = parse_target(target, base)
    if interval_width is None:
        interval_width = (high - low) / 10
    elif isinstance(interval_width, bool) or not isinstance(interval_width, (int, float)) or not interval_width > 0:
        raise AnalyzerError(f"--interval-width {interval_width!r} is not allowed: it must be a number above 0 "
                            f"(in {option.name}'s units)")
    evaluations: dict[Any, Evaluation] = {}

    def evaluate(value) -> Evaluation:
        if value not in evaluations:
            spec = base.with_rules({option.name: value})
            run = play_variant(execution.for_run(len(evaluations)), spec, n, batch_keys=aim.batch_keys)
            evaluations[value] = Evaluation(value, run, aim)
        return evaluations[value]

    bracket = (low, high)
    recommended, fitted_gap, interval = low, 1.0, None
    rounds = 0
    for rounds in range(1, BALANCE_MAX_ROUNDS + 1):
        new = _search_points(option, *bracket, set(evaluations))
        for value in new:
            evaluate(value)
        inside = [e for v, e in sorted(evaluations.items()) if bracket[0] <= v <= bracket[1]]
        xs = np.array([e.value for e in inside], dtype=np.float64)
        recommended, fitted_gap = _fairest_value(xs, np.stack([e.win_rates for e in inside]), *bracket)
        interval = _jackknife_interval(inside, bracket, (low, high))
        local = bracket[1] - bracket[0] <= LOCAL_FIT_WIDTH * interval_width
        # at an inner edge of the bracket the fairest value may lie beyond it: move the bracket first
        settled = bracket[0] < recommended < bracket[1] or recommended in (low, high)
        if interval is not None and interval[1] - interval[0] < interval_width and settled and (local or not new):
            break
        if not new and rounds > 1:
            break
        width = bracket[1] - bracket[0]
        half = max(width / 4, 0.75 * (interval[1] - interval[0]) if interval else width / 2)
        if option.kind == "int":
            half = max(half, 2)
        centre = min(max(recommended, low + half), high - half)
        bracket = (max(low, centre - half), min(high, centre + half))
    declared = option.name in {declared.name for declared in base.game.options}
    step = base.game.option_step(option.name, base.rules) if declared else (1 if option.kind == "int" else None)
    fitted, grid = recommended, []
    if option.kind == "int" and interval is not None:
        interval = (math.floor(interval[0]), math.ceil(interval[1]))
    if step:
        # the fitted lines are a model, finer than the game plays: measure the grid around them
        grid = [GridClass(first, last, evaluate(at)) for first, last, at in grid_around(fitted, step, low, high)]
        measured = min(grid, key=lambda c: (c.evaluation.largest_gap, c.evaluation.value)).evaluation
        recommended = measured.value
    else:
        measured = evaluate(recommended)  # the fitted lines are a model: measure the recommendation itself
    return Balance(option, low, high, interval_width, list(evaluations.values()), rounds, recommended, interval,
                   fitted_gap, measured, execution.seed, n, fitted, step, grid)


def balance(param: str, game: str | None = None, scenario: str | Path | None = None, players: int | None = None,
            strategies: list[str] | None = None, rules: dict[str, Any] | None = None,
            sets: list[str] | None = None, n: int | str = 100_000, interval_width: float | None = None,
            seed: int | None = None, workers: int | None = None, progress: bool | None = False,
            backend: str = "local", scheduler: str | None = None,
            checkpoint: str | Path | None = None, target: str | None = None) -> Balance:
    """Search ``name=low:high`` for the value that brings the seat win rates (or ``target``'s) closest
    together (see :func:`balance_spec`)."""
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    base = resolve(game=game, scenario=None if scenario is None else str(scenario), players=players,
                   strategies=strategies, rules=rules, sets=sets)
    return balance_spec(param, base, n, execution, interval_width, target)
