"""What the games recorded in a checkpoint could have produced: every tally's least and most.

A checkpoint's totals pass its checksum even when someone recomputed it after an edit, so
a resumed run checks each aggregate against what its games could produce
(:func:`beyond_limits`), besides the wins, histograms and score sums
(:func:`analyzer.engine.aggregate.inconsistency`):

- **limits**: each element of a tally changes by ``low`` to ``high`` per game (``None``:
  no bound), so it lies within those times the games played: no negative count, no count
  above its most possible (a mechanic happens in at most every game);
- **at most**: one tally never exceeds another (comebacks <= games that could have one);
- **moments**: a sum and its sum of squares over ``count`` terms: the squares are never
  negative and the sum squared is at most ``count`` times the squares (Cauchy-Schwarz).

The engine declares these for the aggregates every game has (:func:`common_rules`); a game
declares its own tally's with :meth:`analyzer.games.base.Game.tally_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.engine.quality import DECISIVE_SCALE


@dataclass
class TallyRules:
    """The limits, orderings and moments of a set of aggregates (see the module's docstring)."""

    limits: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    at_most: list[tuple[str, str]] = field(default_factory=list)
    moments: list[tuple[str, str, str]] = field(default_factory=list)

    def merged(self, other: TallyRules) -> TallyRules:
        return TallyRules({**self.limits, **other.limits}, [*self.at_most, *other.at_most],
                          [*self.moments, *other.moments])


#: a count that grows by at most one per game
ONCE = (0, 1)
#: a sum of squares: never negative
SQUARES = (0, None)
#: a signed sum (its moments bound it)
SIGNED = (None, None)


def common_rules(players: int, length_caps: dict[str, int], length_units: tuple[str, ...]) -> TallyRules:
    """The rules of the aggregates every game has (:func:`analyzer.engine.play.aggregate_shapes`)."""
    longest = max(length_caps.values())
    limits = {
        "games": (1, 1), "wins": ONCE, "ties": ONCE, "tie_games": ONCE, "capped": ONCE, "score_hist": ONCE,
        "score_sum": SIGNED, "score_sq": SQUARES,
        **{f"length_{unit}": ONCE for unit in length_units},
        "quality_games": ONCE, "lead_changes_sum": (0, longest), "lead_changes_sq": (0, longest * longest),
        "comeback_games": ONCE, "comebacks": ONCE, "decisive_games": ONCE,
        "decisive_sum": (0, DECISIVE_SCALE), "decisive_sq": (0, DECISIVE_SCALE ** 2),
        "margin_sum": (0, None), "margin_sq": SQUARES, "margin_hist": ONCE, "mechanic_games": ONCE,
        "component_holders": (0, players), "component_holder_wins": ONCE,
        "component_holder_score_sum": SIGNED, "component_holder_score_sq": SQUARES,
        "component_draws": (0, None), "component_draws_sq": SQUARES, "component_draw_wins": (0, None),
        "component_draw_score_sum": SIGNED, "component_draw_score_sq": SQUARES,
    }
    at_most = [("comebacks", "comeback_games"), ("comeback_games", "quality_games"),
               ("decisive_games", "quality_games"), ("component_holder_wins", "component_holders"),
               ("component_holders", "component_draws"), ("component_draws", "component_draws_sq"),
               ("component_draw_wins", "component_draws"), ("margin_sum", "margin_sq")]
    moments = [("lead_changes_sum", "lead_changes_sq", "quality_games"),
               ("decisive_sum", "decisive_sq", "decisive_games"), ("margin_sum", "margin_sq", "games"),
               ("component_holder_score_sum", "component_holder_score_sq", "component_holders"),
               ("component_draws", "component_draws_sq", "component_holders"),
               ("component_draw_score_sum", "component_draw_score_sq", "component_draws")]
    return TallyRules(limits, at_most, moments)


def beyond_limits(totals, rules: TallyRules) -> str | None:
    """What in ``totals`` its games could not have produced under ``rules``, in words (None: nothing)."""
    games = int(totals["games"][0])
    for key, (low, high) in rules.limits.items():
        values = np.asarray(totals[key], dtype=object)
        if low is not None and low >= 0 and any(v < 0 for v in values.ravel()):
            return f"tally {key} holds a negative count"
        if low is not None and any(v < low * games for v in values.ravel()):
            return f"tally {key} is below the least {games:,} games can give"
        if high is not None and any(v > high * games for v in values.ravel()):
            return f"tally {key} is above the most {games:,} games can give"
    for smaller, larger in rules.at_most:
        if np.any(np.asarray(totals[smaller], dtype=object) > np.asarray(totals[larger], dtype=object)):
            return f"tally {smaller} exceeds {larger}, which counts at least as much"
    for total, squares, count in rules.moments:
        sums = np.asarray(totals[total], dtype=object).ravel()
        sq = np.asarray(totals[squares], dtype=object).ravel()
        counts = np.broadcast_to(np.asarray(totals[count], dtype=object).ravel(), sums.shape) \
            if np.asarray(totals[count]).size in (1, sums.size) else None
        if counts is None:
            continue
        if any(q < 0 for q in sq) or any(s * s > n * q for s, n, q in zip(sums, counts, sq, strict=True)):
            return f"tallies {total} and {squares} are beyond what {count} terms can sum to"
    return None
