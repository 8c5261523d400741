"""The candidates of a tuning search and its schedule of rounds.

``--param`` gives each searched parameter of the strategy as a range to cut into
points (``name=low:high``) or as explicit values (``name=start:stop:step``,
``name=a,b,c``); :func:`candidate_grid` combines them into candidates and
:func:`halving_schedule` shares the budget of games between successive-halving rounds.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.base import Strategy, StrategyChoice, canonical_label
from analyzer.games.options import Option

NUMERIC = ("int", "float")
PARAM_FORMS = "name=low:high, name=start:stop:step or name=a,b,c"


# -- the parameters searched ---------------------------------------------------------

@dataclass(frozen=True)
class SearchParam:
    """One searched parameter: an explicit list of values, or a range to cut into points."""

    option: Option
    values: tuple = ()
    low: float | None = None
    high: float | None = None

    @property
    def is_range(self) -> bool:
        return self.low is not None

    def size(self) -> float:
        """How many distinct values the parameter can take in the search."""
        if not self.is_range:
            return len(self.values)
        if self.option.kind == "int":
            return self.high - self.low + 1
        return 1 if self.low == self.high else math.inf

    def points(self, count: int) -> tuple:
        """``count`` evenly spaced values of the range (fewer when the range is smaller)."""
        if not self.is_range:
            return self.values
        if self.option.kind == "int":
            return tuple(sorted({int(round(v)) for v in np.linspace(self.low, self.high, count)}))
        if count < 2 or self.low == self.high:
            return (float(self.low),)
        step = (self.high - self.low) / (count - 1)
        decimals = max(0, 1 - math.floor(math.log10(step)))
        return tuple(sorted({round(float(v), decimals) for v in np.linspace(self.low, self.high, count)}))


def parse_tuning_param(strategy: Strategy, text: str) -> SearchParam:
    """``name=low:high``, ``name=start:stop:step`` or ``name=a,b,c`` for one parameter of ``strategy``."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        raise AnalyzerError(f"--param {text!r} must be written {PARAM_FORMS}")
    from analyzer.runspec import strategy_parameter

    option = strategy_parameter(strategy, name)
    where = f"--param {name}"
    if ":" not in spec:
        values = tuple(option.parse_text(v, where) for v in spec.split(",") if v.strip())
        if not values:
            raise AnalyzerError(f"--param {text!r} gives no values")
        return SearchParam(option, values=tuple(dict.fromkeys(values)))
    if option.kind not in NUMERIC:
        raise AnalyzerError(f"--param {name}: {name} is a {option.kind} parameter, not a number; "
                            f"give its values as {name}=a,b")
    parts = [p.strip() for p in spec.split(":")]
    if len(parts) not in (2, 3) or not all(parts):
        raise AnalyzerError(f"--param {text!r} must be written {PARAM_FORMS}")
    low, high = (option.parse_text(p, where) for p in parts[:2])
    if low > high:
        raise AnalyzerError(f"--param {text!r} is an empty range: {low} is above {high}")
    if len(parts) == 2:
        return SearchParam(option, low=low, high=high)
    step = _positive_step(option, parts[2], text)
    count = int(math.floor((high - low) / step + 1e-9)) + 1
    return SearchParam(option, values=tuple(option.validate(low + i * step, where) for i in range(count)))


def _positive_step(option: Option, text: str, whole: str):
    try:
        step = int(text) if option.kind == "int" else float(text)
    except ValueError:
        step = None
    if step is None or not step > 0 or not math.isfinite(step):
        kind = "a whole number" if option.kind == "int" else "a number"
        raise AnalyzerError(f"--param {whole!r}: the step must be {kind} above 0")
    return step


def candidate_grid(strategy: Strategy, params: list[SearchParam], budget: int) -> list[StrategyChoice]:
    """Every combination of the searched values; ranges share ``budget`` candidates.

    Explicit value lists are taken whole; the ranges get about ``budget`` divided by
    the lists' combinations between them, the smallest range first (a range with
    fewer values than its share gives all of them and leaves the rest to the others).
    """
    if not params:
        raise AnalyzerError(f"give at least one --param to search ({PARAM_FORMS})")
    names = [p.option.name for p in params]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise AnalyzerError(f"--param {sorted(repeated)[0]} is given more than once")
    fixed = math.prod(len(p.values) for p in params if not p.is_range)
    remaining = max(1, budget // fixed)
    ranges = sorted((p for p in params if p.is_range), key=lambda p: p.size())
    values: dict[str, tuple] = {p.option.name: p.values for p in params if not p.is_range}
    for i, p in enumerate(ranges):
        share = max(2, int(math.floor(remaining ** (1 / (len(ranges) - i)) + 1e-9)))
        values[p.option.name] = p.points(int(min(share, p.size())))
        remaining = max(1, remaining // len(values[p.option.name]))
    defaults = {p.name: p.default for p in strategy.params}
    seen: dict[str, StrategyChoice] = {}
    for combination in itertools.product(*(values[n] for n in names)):
        chosen = {**defaults, **dict(zip(names, combination, strict=True))}
        label = canonical_label(strategy, chosen)
        seen.setdefault(label, StrategyChoice(strategy.name, chosen, label))
    return list(seen.values())


# -- the schedule ---------------------------------------------------------------------

def halving_schedule(candidates: int, budget: int, players: int) -> list[tuple[int, int]]:
    """(candidates in, games per candidate) for each round of the search.

    Candidates halve (rounded up) each round until two are left; every round gets an
    equal share of ``budget``; a candidate's games are a multiple of ``players`` (one
    share per seat).
    """
    sizes = [candidates]
    while sizes[-1] > 2:
        sizes.append(-(-sizes[-1] // 2))
    per_round = budget // len(sizes)
    schedule = [(size, per_round // size // players * players) for size in sizes]
    if schedule[0][1] < players:
        needed = len(sizes) * candidates * players
        raise AnalyzerError(f"--n {budget:,} is too small to search {candidates} candidates over {players} seats; "
                            f"give at least {needed:,}")
    return schedule
