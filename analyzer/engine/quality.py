"""What every game reports beyond its outcome: standings, mechanics that triggered, components held.

A game's play function fills three parts of the template's :class:`~analyzer.engine.template.Outcome`
while it plays, and the chunk template turns them into the aggregates of :class:`Measures`
after each game (the game never tallies them itself):

- **standings**: the game calls :func:`note_standings` with the current scores after every
  round (after every player has had a turn), the last, possibly partial, round included.
  From them come the game-quality measures: lead changes, comebacks, the decisive point.
- **triggered** ``[mechanics]``: the game sets ``outcome.triggered[m] = 1`` when mechanic
  ``m`` (the index of ``Game.mechanics(prepared)``) happens; the share of games in which
  each happened is its coverage. (A game that counts those games in its own tally names the
  field in ``Game.mechanics_tally``; its ``triggered`` then has no columns.)
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

import math
from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from analyzer.engine.holdings import fold_holdings, held_tail_words, tally_seat_holdings
from analyzer.engine.jit import njit
from analyzer.engine.memory import chunk_zeros

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


#: what ``Outcome.steps`` holds: the rounds noted in ``standings``, the last sole leader's bit (0: none
#: yet) and the leads taken so far, the times a seat came to lead alone after no one or another seat
#: did (counted as the rounds are noted, not in a pass over them; the first lead is no lead change,
#: which the tally takes off); and, given only by a game that notes its rounds in one pass when it is
#: over, the rounds of new top scorers (:func:`mark_new_top`, :func:`save_new_tops`)
N_STEPS = 4
ROUNDS_NOTED, LAST_LEADER, LEADS_TAKEN, NEW_TOPS = range(N_STEPS)
#: the notes of a game before its first round: ``(rounds noted, last sole leader, leads taken)``
NO_NOTES = (0, 0, 0)
#: the top score before any seat joins it (:func:`join_top_scorers`)
NO_TOP_SCORE = np.iinfo(np.int64).min
#: Whether the kernels note and tally the measures. Always, but in the copy of the project that
#: ``benchmarks/bench_measures.py`` makes with it False, to time each game without its measures (the
#: goal: at most a tenth of its playing time). Numba reads it as a constant when it compiles, so every
#: piece of code under ``if MEASURING`` (here, in the chunk template and in each game's kernel) is
#: compiled away there, and is the whole of what the measures cost.
MEASURING = True


@njit(cache=True, nogil=True, inline="always")
def note_round(standings, scores, notes):
    """Record in ``standings`` the seats with the top score after a round, as a bit mask, and return
    the game's ``notes`` (see :data:`NO_NOTES`) updated: the form for a game's hot loop, which keeps
    its notes in local variables and saves them with :func:`save_notes` when the game ends.

    Rounds beyond the standings' capacity (the longest length cap) are not recorded. Inlined into
    the caller: called once a round, a call would cost a short game several percent of its time.
    It has no branch on the scores (nor has :func:`top_scorers`): a mispredicted branch costs as
    much as some 50 instructions, and who leads is hard to predict. Kept in local variables, the
    notes stay in registers: kept in ``Outcome.steps``, each round loaded and stored them again,
    and a store there may change, for all LLVM can tell, any array the game reads (Skull Island's
    game took 520 more instructions so, counted with callgrind).
    """
    return note_leaders(standings, top_scorers(scores), notes)


@njit(cache=True, nogil=True, inline="always")
def note_leaders(standings, top, notes):
    """:func:`note_round` for a game that found the top scorers itself (``top``, their bit mask, by
    :func:`join_top_scorers`) as it worked out each seat's score, without storing the scores. ``top`` is
    never 0 (some seat always has the top score): a mask of no seat would count as a lead taken."""
    if not MEASURING or notes[ROUNDS_NOTED] >= standings.shape[0]:
        return notes
    return note_leaders_within(standings, top, notes)


@njit(cache=True, nogil=True, inline="always")
def note_leaders_within(standings, top, notes):
    """:func:`note_leaders` for a round within the standings' capacity, without testing it: for a game that
    notes its rounds when it is over, and knows how many fit (Lucky Pirates' game took 0.6% less time).
    A round past the capacity would be written beyond the standings, unchecked."""
    if not MEASURING:
        return notes
    rounds, last, taken = notes
    standings[np.uint64(rounds)] = top  # unsigned: no test for a negative index
    sole = (top & (top - 1)) == 0  # one bit set: a sole leader (some seat always has the top score)
    leader = top if sole else last
    # a lead taken, the first included (so no test for a last leader: fewer instructions in every game)
    taken += leader != last
    return rounds + 1, leader, taken


@njit(cache=True, nogil=True, inline="always")
def save_notes(steps, notes):
    """Store a game's ``notes`` (kept by :func:`note_round`) in ``steps``, its ``Outcome.steps``, for the
    tally."""
    if MEASURING:
        steps[ROUNDS_NOTED], steps[LAST_LEADER], steps[LEADS_TAKEN] = notes


@njit(cache=True, nogil=True, inline="always")
def mark_new_top(new_tops, top, previous):
    """The word ``new_tops`` (unsigned, from 0) after a round whose top scorers are ``top`` (a bit mask), and
    ``previous`` those of the round before (0 before the first): shifted by one, the round in bit 0, set when
    its top scorers are new. The last round whose top scorers were new, of the last 64, is then the word's
    lowest set bit, and the tally finds the decisive point from it (:func:`settled_rounds`), without
    scanning the standings back round by round, a loop whose end the processor mispredicts (Lucky
    Pirates' game took some 1% less time). For a game that notes its rounds in one pass when it is over,
    which then saves the word with :func:`save_new_tops`; a game that notes them as it plays does not keep
    it (two more values kept across Skull Island's round took more time than the scan). The word must
    mark exactly the rounds noted, the last (partial) one included."""
    if not MEASURING:
        return new_tops
    return (new_tops << np.uint64(1)) | np.uint64(top != previous)


@njit(cache=True, nogil=True, inline="always")
def save_new_tops(steps, new_tops, every_round_noted):
    """Store the word of :func:`mark_new_top` in ``steps`` (``Outcome.steps``) for the tally, if it marked
    only noted rounds (``every_round_noted``: none past the standings' capacity), else 0: not given."""
    if MEASURING:
        steps[NEW_TOPS] = np.int64(new_tops) if every_round_noted else 0


@njit(cache=True, nogil=True, inline="always")
def settled_rounds(standings, played, steps, winner):
    """The rounds of the ``played`` noted before the last run of rounds after which ``winner`` led alone
    (``played`` when the winner did not lead alone after the last). From the rounds of new top scorers if
    the game gave them (``steps[NEW_TOPS]``, :func:`mark_new_top`) and one was new in the last 64 rounds,
    else by scanning the standings back."""
    alone = 1 << winner
    new_tops = np.uint64(steps[NEW_TOPS])
    if new_tops != 0:
        last_new = played - 1 - np.int64(trailing_zeros(new_tops))
        return last_new if standings[played - 1] == alone else played
    settled = played
    while settled > 0 and standings[settled - 1] == alone:
        settled -= 1
    return settled


@njit(cache=True, nogil=True, inline="always")
def note_standings(outcome, scores):
    """Record the standings after a round (see :func:`note_round`), the notes kept in ``outcome.steps``:
    the form for a game that notes its rounds from several functions."""
    steps = outcome.steps
    save_notes(steps, note_round(outcome.standings, scores,
                                 (steps[ROUNDS_NOTED], steps[LAST_LEADER], steps[LEADS_TAKEN])))


@njit(cache=True, nogil=True, inline="always")
def top_scorers(scores):
    """The seats with the top score, as a bit mask.

    One pass without a branch: a seat above the top so far clears the mask (an and with 0), a seat
    level with it or above joins it. (Two passes, a maximum then a mask, took 77 more instructions
    a Lucky Pirates game; a pass that branched on each comparison mispredicted 13 more branches.)
    """
    top = scores[0]
    mask = 1
    for seat in range(1, scores.shape[0]):
        top, mask = join_top_scorers(top, mask, seat, scores[seat])
    return mask


@njit(cache=True, nogil=True, inline="always")
def join_top_scorers(top, mask, seat, score):
    """The top score so far and its seats (a bit mask) after ``seat`` with ``score`` joins them: one
    step of :func:`top_scorers`. From ``(NO_TOP_SCORE, 0)``, the first seat joined is the top alone."""
    mask = (mask & -np.int64(score <= top)) | (np.int64(score >= top) << seat)
    return max(top, score), mask


def measures_block(players: int, bins: int, mechanics: int, components: int) -> tuple[np.ndarray, Measures]:
    """One zeroed, padded int64 block holding every measure in :class:`Measures` field order, then
    the chunk's counts of the components held (:func:`~analyzer.engine.holdings.held_tail_words`),
    and the :class:`Measures` views into it: the kernel gets the block (one array to pass), Python the views."""
    shapes = measure_shapes(players, bins, mechanics, components)
    size = sum(math.prod(shape) for shape in shapes.values())
    views = chunk_zeros({"block": (size + held_tail_words(components),)})["block"]
    measures, at = {}, 0
    for name, shape in shapes.items():
        size = math.prod(shape)
        measures[name] = views[at:at + size].reshape(shape)
        at += size
    return views, Measures(**measures)


#: where each scalar measure lies in the block (the order of :class:`Measures`); the arrays follow
(QUALITY_GAMES, LEAD_CHANGES_SUM, LEAD_CHANGES_SQ, COMEBACK_GAMES, COMEBACKS, DECISIVE_GAMES, DECISIVE_SUM,
 DECISIVE_SQ, MARGIN_SUM, MARGIN_SQ) = range(10)
MARGIN_HIST = 10


@njit(cache=True, nogil=True, inline="always")
def _components_at(bins, mechanics):
    """Where the block's component measures start: after the margin histogram and the mechanics."""
    return MARGIN_HIST + bins + mechanics


@njit(cache=True, nogil=True, refcounts=False)
def tally_measures(block, bins, scores, standings, steps, triggered, holdings, winner, score_width):
    """Add the game just played to the measures in ``block`` (see :func:`measures_block`; ``bins``:
    the margin histogram's length) and clear its notes (``steps``), triggers and holdings.

    ``winner`` is the single winning seat (from 0), or -1 for a shared win or none. The
    measures come as one block, so that a measure is found by its offset (the constants
    above), and the outcome as its arrays.

    The holdings are counted in the block's tail by :mod:`analyzer.engine.holdings`, and folded into
    the component measures by :func:`fold_held_counts`, which the chunk calls at its end. It branches
    on no outcome of the game where it can help it: a mispredicted branch costs as much as some 50
    instructions, and a game's outcome is as hard to predict as the game.

    Compiled without reference counts: it allocates nothing, and its caller holds every array.
    """
    players = scores.shape[0]
    played = steps[ROUNDS_NOTED]
    if played > 0:
        block[QUALITY_GAMES] += 1
        changes = steps[LEADS_TAKEN] - (steps[LAST_LEADER] != 0)  # the first lead taken changed no lead
        block[LEAD_CHANGES_SUM] += changes
        block[LEAD_CHANGES_SQ] += changes * changes
        if winner >= 0:
            if played >= 2:
                block[COMEBACK_GAMES] += 1
                block[COMEBACKS] += 1 - ((standings[played // 2 - 1] >> winner) & 1)  # not a top scorer
            settled = settled_rounds(standings, played, steps, winner)
            # the winner leads alone after rounds settled+1 .. played: decided after round settled+1
            decided = min(settled + 1, played)
            point = decided * DECISIVE_SCALE // played
            block[DECISIVE_GAMES] += 1
            block[DECISIVE_SUM] += point
            block[DECISIVE_SQ] += point * point
    if players >= 2:
        first = max(scores[0], scores[1])
        second = min(scores[0], scores[1])
        for seat in range(2, players):
            score = scores[np.uint64(seat)]  # unsigned indexes: no test for a negative one
            second = max(second, min(first, score))
            first = max(first, score)
        margin = first - second
        block[MARGIN_SUM] += margin
        block[MARGIN_SQ] += margin * margin
        width = margin if score_width == 1 else margin // score_width  # no division for a unit width
        block[np.uint64(MARGIN_HIST + min(width, bins - 1))] += 1
    mechanics_at = np.uint64(MARGIN_HIST + bins)
    for mechanic in range(triggered.shape[0]):
        block[mechanics_at + np.uint64(mechanic)] += triggered[mechanic]
        triggered[mechanic] = 0
    components_at = _components_at(bins, triggered.shape[0])
    for seat in range(players):
        score = scores[seat]
        tally_seat_holdings(block, holdings, seat, components_at, 1 if seat == winner else 0, score, score * score)
    steps[ROUNDS_NOTED] = steps[LAST_LEADER] = steps[LEADS_TAKEN] = steps[NEW_TOPS] = 0


@njit(cache=True, nogil=True, refcounts=False)
def fold_held_counts(block, bins, mechanics, components):
    """Fold the holdings counted in the block's tail into the component measures and clear them
    (:func:`~analyzer.engine.holdings.fold_holdings`): the chunk template calls this once, after its
    last game."""
    fold_holdings(block, _components_at(bins, mechanics), components)
