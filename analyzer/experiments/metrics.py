"""The metrics every run of a game yields (seats, ties, lengths, the game's own numbers) and how to show them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from analyzer.engine.aggregate import Totals
from analyzer.formatting import format_number
from analyzer.games.base import Game
from analyzer.stats import histogram_summary


@dataclass(frozen=True)
class Metric:
    """One number every run of a game yields, with how to show it.

    ``kind``: ``rate`` (a proportion, shown in %; differences in percentage points),
    ``index`` (a number from 0 to 1) or ``amount`` (in ``unit``).
    """

    key: str
    label: str
    kind: str
    unit: str = ""
    #: a rate that is a difference of win rates (the first-player advantage): in points, not %
    in_points: bool = False

    def show(self, value: float | None, signed: bool = False) -> str:
        if value is None or not math.isfinite(value):
            return "–"
        if self.kind == "rate":
            if self.in_points:
                return f"{value * 100:+.2f} pts"
            return f"{value * 100:+.2f}" if signed else f"{value * 100:.2f}%"
        if self.kind == "index":
            return f"{value:+.4f}" if signed else f"{value:.4f}"
        return format_number(value, signed)

    def show_difference(self, value: float | None) -> str:
        text = self.show(value, signed=True)
        return text + " pts" if self.kind == "rate" and text != "–" and not self.in_points else text

    def show_interval(self, interval, signed: bool = False) -> str:
        if interval is None:
            return "–"
        if self.in_points:
            return f"{interval[0] * 100:+.2f} to {interval[1] * 100:+.2f} pts"
        low, high = (self.show(v, signed=signed) for v in interval)
        return f"{low} to {high}"


def describe_metric(key: str, game: Game) -> Metric:
    """The label and kind of a metric key made by :func:`metric_values`."""
    if key.startswith("win_rate_seat_"):
        return Metric(key, f"win rate, seat {key.rsplit('_', 1)[1]}", "rate")
    if key.startswith("mean_score_seat_"):
        return Metric(key, f"mean {game.score_unit}, seat {key.rsplit('_', 1)[1]}", "amount", game.score_unit)
    if key.startswith("mean_length_"):
        unit = key[len("mean_length_"):]
        return Metric(key, f"mean length ({unit})", "amount", unit)
    fixed = {
        "first_player_advantage": Metric(key, "first-player advantage", "rate", in_points=True),
        "balance": Metric(key, "balance (1 − largest gap)", "index"),
        "tie_rate": Metric(key, "tie rate", "rate"),
        "capped_rate": Metric(key, "capped games", "rate"),
    }
    if key in fixed:
        return fixed[key]
    path = key.split(".")[1:]
    label = ": ".join(part.replace("_", " ") for part in path)
    leaf = path[-1]
    kind = "rate" if leaf.endswith("rate") or "share" in key else "amount"
    return Metric(key, label, kind)


def metric_values(game: Game, prepared, totals: Totals) -> dict[str, float]:
    """Every metric of a run (or of one batch of it): seats, ties, lengths, the game's scalars."""
    n = int(totals["games"][0])
    players = prepared.players
    rates = [int(w) / n for w in totals["wins"]]
    values: dict[str, float] = {}
    for seat in range(players):
        values[f"win_rate_seat_{seat + 1}"] = rates[seat]
    for seat in range(players):
        values[f"mean_score_seat_{seat + 1}"] = float(totals["score_sum"][seat]) / n
    values["first_player_advantage"] = rates[0] - 1 / players
    values["balance"] = 1 - (max(rates) - min(rates))
    values["tie_rate"] = int(totals["tie_games"][0]) / n
    values["capped_rate"] = int(totals["capped"][0]) / n
    for unit in game.length_units:
        values[f"mean_length_{unit}"] = histogram_summary(totals[f"length_{unit}"])["mean"]
    values.update(_stat_scalars(game.game_stats(totals, prepared)))
    return values


def _stat_scalars(stats: dict, prefix: str = "game_stats", depth: int = 0):
    """The game's own per-game quantities: float leaves up to two levels deep.

    Whole numbers are counts that grow with ``n`` and intervals/standard errors are
    not quantities of their own, so both are left out.
    """
    for key, value in stats.items():
        if key.endswith(("_ci", "_se")):
            continue
        path = f"{prefix}.{key}"
        if isinstance(value, float) and math.isfinite(value):
            yield path, value
        elif isinstance(value, dict) and depth == 0:
            yield from _stat_scalars(value, path, depth + 1)
