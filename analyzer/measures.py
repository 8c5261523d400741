"""Game quality, mechanics coverage and component balance from the merged aggregates.

The kernels note standings, triggered mechanics and components held (see
:mod:`analyzer.engine.quality` for the definitions); this module turns the merged
totals into the ``quality``, ``mechanics`` and ``components`` blocks of the JSON, each
number with its 95% interval.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyzer.engine.quality import DECISIVE_SCALE
from analyzer.games.base import PER_DRAW
from analyzer.stats import Z95, mean_interval, wilson_interval

MARGIN_PERCENTILES = (("p5", 0.05), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p95", 0.95))


def _number(totals, key: str) -> float:
    return float(totals[key][0])


def _mean_block(total: float, total_sq: float, n: float, scale: float = 1.0) -> dict[str, Any]:
    if n <= 0:
        return {"value": None, "ci": None}
    mean, _, half = mean_interval(total, total_sq, n)
    return {"value": mean / scale, "ci": [(mean - half) / scale, (mean + half) / scale]}


def _percentiles(counts: np.ndarray, width: int) -> dict[str, float]:
    """Nearest-rank percentiles of a histogram whose bin ``i`` holds ``i * width`` and more."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    if total == 0:
        return {name: None for name, _ in MARGIN_PERCENTILES}
    cumulative = np.cumsum(counts)
    return {name: int(np.searchsorted(cumulative, q * total - 1e-9 * total, side="left")) * width
            for name, q in MARGIN_PERCENTILES}


def quality(totals, score_unit: str, score_width: int) -> dict[str, Any]:
    """Lead changes, comeback rate, decisive point and final margin, with 95% intervals."""
    games = _number(totals, "quality_games")
    comeback_games = int(totals["comeback_games"][0])
    comebacks = int(totals["comebacks"][0])
    decisive_games = _number(totals, "decisive_games")
    played = float(totals["games"][0])
    margin = {"unit": score_unit,
              **_mean_block(_number(totals, "margin_sum"), _number(totals, "margin_sq"), played)}
    margin["mean"] = margin["value"]
    margin.update(_percentiles(totals["margin_hist"], score_width))
    if score_width > 1:
        margin["percentile_resolution"] = score_width
    return {
        "games": int(games),
        "lead_changes": _mean_block(_number(totals, "lead_changes_sum"), _number(totals, "lead_changes_sq"), games),
        "comeback_rate": {"value": comebacks / comeback_games if comeback_games else None,
                          "ci": list(wilson_interval(comebacks, comeback_games)) if comeback_games else None,
                          "games": comeback_games},
        "decisive_point": {**_mean_block(_number(totals, "decisive_sum"), _number(totals, "decisive_sq"),
                                         decisive_games, DECISIVE_SCALE),
                           "games": int(decisive_games)},
        "margin": margin,
    }


def mechanics(totals, declared) -> dict[str, float]:
    """Name -> share of games in which the mechanic happened."""
    games = float(totals["games"][0])
    counts = totals["mechanic_games"]
    return {mechanic.name: (int(counts[index]) / games if games else 0.0) for index, mechanic in enumerate(declared)}


def _interval(value: float, se: float) -> list[float]:
    return [value - Z95 * se, value + Z95 * se]


def _presence(totals, index: int, seat_games: float, wins: float, score_sum: float, score_sq: float):
    """Holders against every other seat-game: win rate, effects on win rate and score."""
    held = float(totals["component_holders"][index])
    held_wins = float(totals["component_holder_wins"][index])
    others = seat_games - held
    record: dict[str, Any] = {"seat_games": int(held), "times": int(totals["component_draws"][index])}
    if held == 0:
        return record | {"win_rate": None, "win_rate_ci": None, "win_rate_effect": None, "win_rate_effect_ci": None,
                         "mean_score": None, "score_effect": None, "score_effect_ci": None}
    rate = held_wins / held
    record |= {"win_rate": rate, "win_rate_ci": list(wilson_interval(held_wins, held))}
    held_sum = float(totals["component_holder_score_sum"][index])
    held_mean, held_sd, _ = mean_interval(held_sum, float(totals["component_holder_score_sq"][index]), held)
    record["mean_score"] = held_mean
    if others <= 0:
        return record | {"win_rate_effect": None, "win_rate_effect_ci": None, "score_effect": None,
                         "score_effect_ci": None}
    other_rate = (wins - held_wins) / others
    effect = rate - other_rate
    se = math.sqrt(rate * (1 - rate) / held + other_rate * (1 - other_rate) / others)
    other_mean, other_sd, _ = mean_interval(score_sum - held_sum,
                                            score_sq - float(totals["component_holder_score_sq"][index]), others)
    score_effect = held_mean - other_mean
    score_ci = (_interval(score_effect, math.sqrt(held_sd ** 2 / held + other_sd ** 2 / others))
                if held > 1 and others > 1 else None)
    return record | {"win_rate_effect": effect, "win_rate_effect_ci": _interval(effect, se),
                     "score_effect": score_effect, "score_effect_ci": score_ci}


def _per_draw(totals, index: int, seat_games: float, wins: float, score_sum: float, score_sq: float):
    """Per time met: the win rate and score of the seat that met it, weighted by times met,
    against the average seat. Times met by one seat in one game share its outcome, so the
    variance is inflated by the mean cluster size (sum of times squared / sum of times)."""
    times = float(totals["component_draws"][index])
    record: dict[str, Any] = {"seat_games": int(totals["component_holders"][index]), "times": int(times)}
    if times == 0:
        return record | {"win_rate": None, "win_rate_ci": None, "win_rate_effect": None, "win_rate_effect_ci": None,
                         "mean_score": None, "score_effect": None, "score_effect_ci": None}
    cluster = float(totals["component_draws_sq"][index]) / times
    rate = float(totals["component_draw_wins"][index]) / times
    rate_se = math.sqrt(cluster * rate * (1 - rate) / times)
    base_rate = wins / seat_games
    effect_se = math.sqrt(rate_se ** 2 + base_rate * (1 - base_rate) / seat_games)
    mean = float(totals["component_draw_score_sum"][index]) / times
    variance = max(float(totals["component_draw_score_sq"][index]) / times - mean * mean, 0.0)
    base_mean, base_sd, _ = mean_interval(score_sum, score_sq, seat_games)
    score_se = math.sqrt(cluster * variance / times + base_sd ** 2 / seat_games)
    return record | {"win_rate": rate, "win_rate_ci": _interval(rate, rate_se),
                     "win_rate_effect": rate - base_rate, "win_rate_effect_ci": _interval(rate - base_rate, effect_se),
                     "mean_score": mean, "score_effect": mean - base_mean,
                     "score_effect_ci": _interval(mean - base_mean, score_se)}


def components(totals, declared, players: int) -> list[dict[str, Any]]:
    """One record per component, ranked by the size of its effect on the win rate (unmeasured last)."""
    seat_games = float(totals["games"][0]) * players
    if seat_games == 0:
        return []
    wins = float(sum(int(w) for w in totals["wins"]))
    score_sum = float(sum(totals["score_sum"]))
    score_sq = float(sum(totals["score_sq"]))
    records = []
    for index, component in enumerate(declared):
        measure = _per_draw if component.measure == PER_DRAW else _presence
        records.append({**component.describe(), **measure(totals, index, seat_games, wins, score_sum, score_sq)})
    return sorted(records, key=lambda r: -abs(r["win_rate_effect"]) if r["win_rate_effect"] is not None else 1.0)
