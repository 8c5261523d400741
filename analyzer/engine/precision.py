"""Playing until the win-rate intervals are narrow enough (``--precision POINTS``).

A precision run plays in rounds. Each round asks for the first ``m`` games of the
run (a prefix of the game sequence 0..m-1, ``m`` a whole number of chunks of the
limit's chunk plan, or the limit), measures the widest interval that matters, and
either stops or picks the next ``m`` from that width. The schedule depends only on
the target, the limit, the player count and the merged totals (exact integer sums),
never on timing, workers or backend: the same seed and precision always stop at the
same game count, and the result is the one of a fixed run of that many games.

:func:`play_to_precision` drives the rounds for any state; :func:`extend_to_precision`
is the simulation's, which plays only the new chunks each round (experiments whose
intervals depend on the chunk plan of their count play each round's prefix again,
see :mod:`analyzer.experiments.precision`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import Chunk, chunk, chunk_size
from analyzer.errors import AnalyzerError, param
from analyzer.stats import Z95, wilson_interval

#: the widest target: a win-rate interval cannot be wider than ±100 points
MAX_POINTS = 100.0
#: the first round plays this share of the games a fair game would need
FIRST_ROUND_SHARE = 0.25
#: each later round plays at least this many times the games of the one before ...
MIN_GROWTH = 1.25
#: ... at most this many times (a first estimate from few games may be far off) ...
MAX_GROWTH = 16.0
#: ... and this margin above the count the current width predicts
PREDICTION_MARGIN = 1.05

#: what a simulation's precision narrows, in words
SEATS_MEASURED = "every seat's 95% win-rate interval"

State = TypeVar("State")


def parse_precision(value: Any) -> float:
    """``--precision`` as a target in percentage points: a finite number above 0 and at most 100."""
    try:
        points = float(str(value).replace("_", "")) if not isinstance(value, bool) else math.nan
    except ValueError:
        points = math.nan
    if not (math.isfinite(points) and 0 < points <= MAX_POINTS):
        raise AnalyzerError(f"{param('precision')} {value!r} is not allowed: it must be a number of percentage "
                            f"points above 0 and at most {MAX_POINTS:g} (for example 0.5)")
    return points


def refuse_checkpoint(checkpoint: str | None) -> None:
    """A precision run plays in rounds, which a checkpoint file cannot resume: refuse the pair."""
    if checkpoint is not None:
        raise AnalyzerError(f"{param('precision')} cannot be combined with {param('checkpoint')}: a precision run "
                            f"plays in rounds that a checkpoint cannot resume")


@dataclass(frozen=True)
class Precision:
    """How a precision run ended: ``widest_points`` is the widest half-width it measured last,
    ``measured`` names in words the intervals it narrowed."""

    target_points: float
    reached: bool
    games_used: int
    limit: int
    widest_points: float
    measured: str = SEATS_MEASURED

    def to_dict(self) -> dict[str, Any]:
        return {"target_points": self.target_points, "reached": self.reached, "games_used": self.games_used,
                "limit": self.limit, "widest_points": None if math.isinf(self.widest_points) else self.widest_points}

    def sentence(self) -> str:
        """The outcome in words."""
        if self.reached:
            return (f"Precision: stopped at {self.games_used:,} games: {self.measured} is within "
                    f"±{self.target_points:g} points")
        widest = "" if math.isinf(self.widest_points) else f" (the widest is ±{self.widest_points:.2f})"
        return (f"Precision: reached the limit --n {self.limit:,} before ±{self.target_points:g} points: "
                f"{self.measured} is not yet that narrow{widest}")


def seat_half_points(wins, games: int) -> float:
    """The widest side of any seat's Wilson 95% win-rate interval, in percentage points."""
    widest = 0.0
    for seat_wins in wins:
        rate = int(seat_wins) / games
        low, high = wilson_interval(int(seat_wins), games)
        widest = max(widest, rate - low, high - rate)
    return 100 * widest


def round_up(games: float, limit: int) -> int:
    """``games`` rounded up to whole chunks of the limit's chunk plan, at most the limit."""
    size = chunk_size(limit)
    return min(limit, max(1, math.ceil(games / size)) * size)


def first_round(target: float, limit: int, players: int, min_games: int = 1) -> int:
    """A share of the games a fair game (every seat winning 1/players) needs, at least ``min_games``."""
    rate = 1 / players
    fair_need = (Z95 * 100 / target) ** 2 * rate * (1 - rate)
    return round_up(max(min_games, FIRST_ROUND_SHARE * fair_need), limit)


def next_round(games: int, widest: float, target: float, limit: int) -> int:
    """The next prefix: the count the width predicts (it shrinks as 1/sqrt(games)), within the growth bounds."""
    predicted = games * (widest / target) ** 2 * PREDICTION_MARGIN if math.isfinite(widest) else math.inf
    return round_up(min(MAX_GROWTH * games, max(MIN_GROWTH * games, predicted)), limit)


def play_to_precision(target: float, limit: int, first: int, play_prefix: Callable[[int], State],
                      widest: Callable[[State], float], measured: str = SEATS_MEASURED) -> tuple[State, Precision]:
    """Play prefixes from ``first`` games on until ``widest(state)`` is at most ``target`` or the limit is played.

    ``play_prefix(m)`` returns the state of the first ``m`` games (it may extend the
    previous one or play them again); ``widest`` its widest half-width in points, the
    intervals that ``measured`` names.
    """
    games = min(first, limit)
    while True:
        state = play_prefix(games)
        width = widest(state)
        if width <= target or games >= limit:
            return state, Precision(target, width <= target, games, limit, width, measured)
        games = next_round(games, width, target, limit)


def extend_to_precision(play_chunks: Callable[[list[Chunk]], Totals], limit: int, target: float,
                        players: int) -> tuple[Totals, Precision]:
    """One run extended round by round until every seat's interval is within ±``target`` points.

    ``play_chunks(chunks)`` plays chunks of the limit's plan and returns their totals;
    each round plays only the chunks after the games already played.
    """
    totals = Totals()
    size = chunk_size(limit)

    def play_prefix(games: int) -> Totals:
        played = int(totals["games"][0]) if "games" in totals else 0
        totals.merge(play_chunks([chunk(limit, index) for index in range(played // size, -(-games // size))]))
        return totals

    return play_to_precision(target, limit, first_round(target, limit, players), play_prefix,
                             lambda state: seat_half_points(state["wins"], int(state["games"][0])))
