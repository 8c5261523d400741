"""What every game reports beyond its outcome: standings, mechanics that triggered, components held.

A game's play function fills three parts of the template's :class:`~analyzer.engine.template.Outcome`
while it plays, and the chunk template turns them into the aggregates of :class:`Measures`
after each game (the game never tallies them itself):

- **standings**: the game calls :func:`note_standings` with the current scores after every
  round (after every player has had a turn), the last, possibly partial, round included.
  From them come the game-quality measures: lead changes, comebacks, the decisive point.
- **triggered** ``[mechanics]``: the game sets ``outcome.triggered[m] = 1`` when mechanic
  ``m`` (the index of ``Game.mechanics(prepared)``) happens; the share of games in which
  each happened is its coverage.
- **holdings** ``[players, components]``: the game adds 1 to ``outcome.holdings[seat, c]``
  each time ``seat`` gets or meets component ``c`` (the index of ``Game.components(prepared)``):
  a captain or ship held (once), a card drawn (per draw).

Definitions (the README repeats them): the *leader* after a round is the seat with the
highest score, alone; a tie at the top has no leader. A *lead change* is a round after
which the leader is another seat than the last leader. A *comeback* is a game whose
single winner was not among the top scorers after half its rounds (games of two or more
rounds). The *decisive point* is the share of the game's rounds after which the winner
leads alone to the end (1 when the winner does not lead alone after the last round).
The *margin* is the final score of the top scorer minus that of the second.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

#: the decisive point is summed in units of 1/DECISIVE_SCALE of a game
DECISIVE_SCALE = 10_000


class Measures(NamedTuple):
    """The aggregates of game quality, mechanics coverage and component balance (int64)."""

    quality_games: np.ndarray  # [1] games with at least one standing noted
    lead_changes_sum: np.ndarray  # [1]
    lead_changes_sq: np.ndarray  # [1]
    comeback_games: np.ndarray  # [1] games with a single winner and two or more rounds
    comebacks: np.ndarray  # [1]
    decisive_games: np.ndarray  # [1] games with a single winner and a standing noted
    decisive_sum: np.ndarray  # [1] in 1/DECISIVE_SCALE of a game
    decisive_sq: np.ndarray  # [1]
    margin_sum: np.ndarray  # [1]
    margin_sq: np.ndarray  # [1]
    margin_hist: np.ndarray  # [score bins] the margin in the score histogram's bin width
    mechanic_games: np.ndarray  # [mechanics] games in which each mechanic happened
    component_holders: np.ndarray  # [components] seat-games in which the seat got it at least once
    component_holder_wins: np.ndarray  # [components] of those, outright wins
    component_holder_score_sum: np.ndarray  # [components]
    component_holder_score_sq: np.ndarray  # [components]
    component_draws: np.ndarray  # [components] times got or met, over every seat-game
    component_draws_sq: np.ndarray  # [components] sum over seat-games of (times)^2
    component_draw_wins: np.ndarray  # [components] sum of times x outright win
    component_draw_score_sum: np.ndarray  # [components] sum of times x final score
    component_draw_score_sq: np.ndarray  # [components] sum of times x final score^2


def measure_shapes(players: int, bins: int, mechanics: int, components: int) -> dict[str, tuple[int, ...]]:
    shapes = {name: (1,) for name in Measures._fields}
    shapes["margin_hist"] = (bins,)
    shapes["mechanic_games"] = (mechanics,)
    for name in Measures._fields:
        if name.startswith("component_"):
            shapes[name] = (components,)
    return shapes


@njit(cache=True, nogil=True, inline="always")
def note_standings(outcome, scores):
    """Record the standings after a round: the seats with the top score, as a bit mask.

    Rounds beyond the outcome's capacity (the longest length cap) are not recorded.
    Inlined into the caller: called once a round, a call would cost a short game several
    percent of its time.
    """
    step = outcome.steps[0]
    if step >= outcome.standings.shape[0]:
        return
    top = scores[0]
    for seat in range(1, scores.shape[0]):
        if scores[seat] > top:
            top = scores[seat]
    mask = 0
    for seat in range(scores.shape[0]):
        if scores[seat] == top:
            mask |= 1 << seat
    outcome.standings[step] = mask
    outcome.steps[0] = step + 1


@njit(cache=True, nogil=True)
def _sole_leader(mask):
    """The seat whose bit is the only one set in ``mask``, or -1."""
    if mask == 0 or (mask & (mask - 1)) != 0:
        return -1
    seat = 0
    while (mask >> seat) != 1:
        seat += 1
    return seat


@njit(cache=True, nogil=True, inline="always")
def tally_measures(measures, outcome, winner, score_width):
    """Add the game just played to ``measures`` and clear its standings, triggers and holdings.

    ``winner`` is the single winning seat (from 0), or -1 for a shared win or none. Inlined
    into the chunk template, and the holdings read row by row (a seat's components lie
    side by side): it runs once a game, and a short game takes a few microseconds.
    """
    players = outcome.scores.shape[0]
    steps = outcome.steps[0]
    if steps > 0:
        measures.quality_games[0] += 1
        changes = 0
        last = -1
        for step in range(steps):
            leader = _sole_leader(outcome.standings[step])
            if leader >= 0:
                if last >= 0 and leader != last:
                    changes += 1
                last = leader
        measures.lead_changes_sum[0] += changes
        measures.lead_changes_sq[0] += changes * changes
        if winner >= 0:
            if steps >= 2:
                measures.comeback_games[0] += 1
                if (outcome.standings[steps // 2 - 1] >> winner) & 1 == 0:
                    measures.comebacks[0] += 1
            settled = steps
            while settled > 0 and _sole_leader(outcome.standings[settled - 1]) == winner:
                settled -= 1
            # the winner leads alone after rounds settled+1 .. steps: decided after round settled+1
            decided = min(settled + 1, steps)
            point = decided * DECISIVE_SCALE // steps
            measures.decisive_games[0] += 1
            measures.decisive_sum[0] += point
            measures.decisive_sq[0] += point * point
    if players >= 2:
        first = outcome.scores[0]
        second = outcome.scores[1]
        if second > first:
            first, second = second, first
        for seat in range(2, players):
            score = outcome.scores[seat]
            if score > first:
                second = first
                first = score
            elif score > second:
                second = score
        margin = first - second
        measures.margin_sum[0] += margin
        measures.margin_sq[0] += margin * margin
        bins = measures.margin_hist.shape[0]
        measures.margin_hist[min(margin // score_width, bins - 1)] += 1
    for mechanic in range(outcome.triggered.shape[0]):
        if outcome.triggered[mechanic] != 0:
            measures.mechanic_games[mechanic] += 1
            outcome.triggered[mechanic] = 0
    components = outcome.holdings.shape[1]
    for seat in range(players):
        won = 1 if seat == winner else 0
        score = outcome.scores[seat]
        for component in range(components):
            times = outcome.holdings[seat, component]
            if times == 0:
                continue
            outcome.holdings[seat, component] = 0
            measures.component_holders[component] += 1
            measures.component_holder_wins[component] += won
            measures.component_holder_score_sum[component] += score
            measures.component_holder_score_sq[component] += score * score
            measures.component_draws[component] += times
            measures.component_draws_sq[component] += times * times
            measures.component_draw_wins[component] += times * won
            measures.component_draw_score_sum[component] += times * score
            measures.component_draw_score_sq[component] += times * score * score
    outcome.steps[0] = 0
