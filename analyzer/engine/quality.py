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

import math
from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

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
#: yet) and the lead changes so far (counted as the rounds are noted, not in a pass over them)
ROUNDS_NOTED, LAST_LEADER, LEAD_CHANGES = range(3)
#: the notes of a game before its first round: ``(rounds noted, last sole leader, lead changes)``
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
    :func:`join_top_scorers`) as it worked out each seat's score, without storing the scores."""
    rounds, last, changes = notes
    if not MEASURING or rounds >= standings.shape[0]:
        return notes
    standings[np.uint64(rounds)] = top  # unsigned: no test for a negative index
    sole = (top & (top - 1)) == 0  # one bit set: a sole leader (some seat always has the top score)
    changes += sole & (last != 0) & (top != last)
    return rounds + 1, top if sole else last, changes


@njit(cache=True, nogil=True, inline="always")
def save_notes(outcome, notes):
    """Store a game's ``notes`` (kept by :func:`note_round`) in ``outcome.steps``, for the tally."""
    if MEASURING:
        outcome.steps[ROUNDS_NOTED], outcome.steps[LAST_LEADER], outcome.steps[LEAD_CHANGES] = notes


@njit(cache=True, nogil=True, inline="always")
def note_standings(outcome, scores):
    """Record the standings after a round (see :func:`note_round`), the notes kept in ``outcome.steps``:
    the form for a game that notes its rounds from several functions."""
    steps = outcome.steps
    save_notes(outcome, note_round(outcome.standings, scores,
                                   (steps[ROUNDS_NOTED], steps[LAST_LEADER], steps[LEAD_CHANGES])))


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
    the chunk's held-times counts and sums (see :func:`tally_measures`), and the :class:`Measures`
    views into it: the kernel gets the block (one array to pass), Python the views."""
    shapes = measure_shapes(players, bins, mechanics, components)
    size = sum(math.prod(shape) for shape in shapes.values())
    views = chunk_zeros({"block": (size + components * (HELD_COUNTS + HELD_SUMS),)})["block"]
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
#: the component arrays, in order, each [components] long
N_COMPONENT_MEASURES = 9
#: a seat-game that got a component up to this many times is counted in the block's tail,
#: by (component, times, won): holders, the sum of their scores and of its square
MOST_TIMES_COUNTED = 8
#: the words of the block's tail between the counts of one time held and the next (3 for each of won and
#: not won), and between one component's counts and the next's (from 0 times: see tally_measures)
HELD_TIMES_STRIDE = 2 * 3
HELD_COUNTS = (MOST_TIMES_COUNTED + 1) * HELD_TIMES_STRIDE
#: a game with more components than this skips those a seat never held (most of them, as a rule)
SKIP_UNHELD_ABOVE = 16
#: one that got it more often is summed after those, by (component, won): holders, then the sums of
#: score, score squared, times, times squared, times x score and times x score squared
HELD_SUM_WORDS = 7
HELD_SUMS = 2 * HELD_SUM_WORDS


@njit(cache=True, nogil=True, inline="always")
def _component_offsets(bins, mechanics, components):
    """Where the block's component measures start, then its held-times counts, then its held sums."""
    at = MARGIN_HIST + bins + mechanics
    counts_at = at + N_COMPONENT_MEASURES * components
    return at, counts_at, counts_at + HELD_COUNTS * components


@njit(cache=True, nogil=True, refcounts=False)
def tally_measures(block, bins, scores, standings, steps, triggered, holdings, winner, score_width):
    """Add the game just played to the measures in ``block`` (see :func:`measures_block`; ``bins``:
    the margin histogram's length) and clear its standings, triggers and holdings.

    ``winner`` is the single winning seat (from 0), or -1 for a shared win or none. The
    measures come as one block, so that a measure is found by its offset (the constants
    above), and the outcome as its arrays.

    A seat-game that held a component up to :data:`MOST_TIMES_COUNTED` times is only counted
    (3 adds, see :func:`fold_held_counts`, which the chunk calls at its end), and one that held
    it more often summed (7 adds, next to each other, by :func:`_add_held_sums`), instead of adding to the 9 component
    measures: a game of drawn cards holds dozens a game. The indexes into the block are unsigned:
    a signed index costs a test for a negative one at each add.

    It branches on no outcome of the game where it can help it: a mispredicted branch costs as
    much as some 50 instructions, and a game's outcome is as hard to predict as the game. A
    component a seat never held is counted too, 0 times (a count never folded), rather than
    skipped, unless the game has more than :data:`SKIP_UNHELD_ABOVE` components: then only the
    held ones are counted, found without a branch on each (:func:`_tally_held_only`).

    Compiled without reference counts: it allocates nothing, and its caller holds every array.
    """
    players = scores.shape[0]
    played = steps[ROUNDS_NOTED]
    if played > 0:
        block[QUALITY_GAMES] += 1
        changes = steps[LEAD_CHANGES]
        block[LEAD_CHANGES_SUM] += changes
        block[LEAD_CHANGES_SQ] += changes * changes
        if winner >= 0:
            if played >= 2:
                block[COMEBACK_GAMES] += 1
                block[COMEBACKS] += 1 - ((standings[played // 2 - 1] >> winner) & 1)  # not a top scorer
            settled = played
            while settled > 0 and standings[settled - 1] == 1 << winner:
                settled -= 1
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
            score = scores[seat]
            second = max(second, min(first, score))
            first = max(first, score)
        margin = first - second
        block[MARGIN_SUM] += margin
        block[MARGIN_SQ] += margin * margin
        width = margin if score_width == 1 else margin // score_width  # no division for a unit width
        block[MARGIN_HIST + min(width, bins - 1)] += 1
    mechanics_at = np.uint64(MARGIN_HIST + bins)
    for mechanic in range(triggered.shape[0]):
        block[mechanics_at + np.uint64(mechanic)] += triggered[mechanic]
        triggered[mechanic] = 0
    components = holdings.shape[1]
    at, counts_at, sums_at = _component_offsets(bins, triggered.shape[0], components)
    for seat in range(players):
        won = 1 if seat == winner else 0
        score = scores[seat]
        square = score * score
        if components > SKIP_UNHELD_ABOVE:
            _tally_held_only(block, holdings, seat, counts_at, sums_at, won, score, square)
            continue
        for component in range(components):
            times = holdings[seat, component]
            holdings[seat, component] = 0
            _tally_held(block, counts_at, sums_at, component, times, won, score, square)
    steps[ROUNDS_NOTED] = steps[LAST_LEADER] = steps[LEAD_CHANGES] = 0


@njit(cache=True, nogil=True, inline="always")
def _tally_held(block, counts_at, sums_at, component, times, won, score, square):
    """Count a seat-game that held ``component`` ``times`` times (0 included), won or not, with its score
    and its square: its 3 counts, or its 7 sums when it held it more than MOST_TIMES_COUNTED times."""
    if times > MOST_TIMES_COUNTED:
        _add_held_sums(block, np.uint64(_held_sums_at(sums_at, component, won)), times, score, square)
    else:
        count = np.uint64(_held_count_at(counts_at, component, times, won))
        block[count] += 1
        block[count + ONE] += score
        block[count + TWO] += square


@njit(cache=True, nogil=True, inline="always")
def _tally_held_only(block, holdings, seat, counts_at, sums_at, won, score, square):
    """:func:`_tally_held` for each component ``seat`` held at least once, and its holdings cleared: for a game
    of many components, most of them never held. The held ones are found without a branch on each, as the
    bits of a word per 64 components, then taken one set bit at a time: a branch on each component
    mispredicted as often as a game's holdings vary (with Dead Man's Chest's mechanics and components
    also noted without branches, 73 fewer mispredicted branches a game of its 46 components)."""
    components = holdings.shape[1]
    for first in range(0, components, 64):
        held = np.uint64(0)
        for component in range(first, min(first + 64, components)):
            held |= np.uint64(holdings[seat, component] != 0) << np.uint64(component - first)
        while held != 0:
            component = first + np.int64(trailing_zeros(held))
            held &= held - np.uint64(1)
            _tally_held(block, counts_at, sums_at, component, holdings[seat, component], won, score, square)
            holdings[seat, component] = 0


@njit(cache=True, nogil=True, inline="always")
def _held_count_at(counts_at, component, times, won):
    """Where the block's tail (from ``counts_at``) counts the seat-games that held ``component``
    ``times`` times (0 .. MOST_TIMES_COUNTED) and won (1) or not (0): holders, score sum, score square."""
    return counts_at + component * HELD_COUNTS + times * HELD_TIMES_STRIDE + won * 3


#: unsigned offsets, for the unsigned indexes of tally_measures
ONE, TWO, THREE, FOUR, FIVE, SIX = (np.uint64(offset) for offset in range(1, 7))


@njit(cache=True, nogil=True, refcounts=False)
def _add_held_sums(block, held, times, score, square):
    """Add a seat-game that held a component more than MOST_TIMES_COUNTED times to its 7 sums at ``held``
    (a call, not inlined: it is rare, and its code would crowd the tally's loop)."""
    block[held] += 1
    block[held + ONE] += score
    block[held + TWO] += square
    block[held + THREE] += times
    block[held + FOUR] += times * times
    block[held + FIVE] += times * score
    block[held + SIX] += times * square


@njit(cache=True, nogil=True, inline="always")
def _held_sums_at(sums_at, component, won):
    """Where the block's tail (from ``sums_at``) sums the seat-games that held ``component`` more than
    MOST_TIMES_COUNTED times and won (1) or not (0): the 7 sums of :data:`HELD_SUMS`."""
    return sums_at + (component * 2 + won) * HELD_SUM_WORDS


@njit(cache=True, nogil=True, inline="always")
def _add_holdings(block, c, components, won, seat_games, score_sum, score_sq, times_sum, times_sq, times_score,
                  times_score_sq):
    """Add ``seat_games`` seat-games that held component ``c - at`` and won (``won`` 1) or not (0), with
    the sums of their scores, of the times they held it, and of the products, to the component measures."""
    block[c] += seat_games  # component_holders
    block[c + components] += won * seat_games  # component_holder_wins
    block[c + 2 * components] += score_sum  # component_holder_score_sum
    block[c + 3 * components] += score_sq  # component_holder_score_sq
    block[c + 4 * components] += times_sum  # component_draws
    block[c + 5 * components] += times_sq  # component_draws_sq
    block[c + 6 * components] += won * times_sum  # component_draw_wins
    block[c + 7 * components] += times_score  # component_draw_score_sum
    block[c + 8 * components] += times_score_sq  # component_draw_score_sq


@njit(cache=True, nogil=True, refcounts=False)
def fold_held_counts(block, bins, mechanics, components):
    """Add the held-times counts and sums of :func:`tally_measures` to the component measures and
    clear them: the chunk template calls this once, after its last game."""
    at, counts_at, sums_at = _component_offsets(bins, mechanics, components)
    for component in range(components):
        for won in range(2):
            never = _held_count_at(counts_at, component, 0, won)  # held 0 times: not folded
            block[never] = block[never + 1] = block[never + 2] = 0
            for times in range(1, MOST_TIMES_COUNTED + 1):
                held = _held_count_at(counts_at, component, times, won)
                seat_games, score_sum, score_sq = block[held], block[held + 1], block[held + 2]
                if seat_games != 0:
                    _add_holdings(block, at + component, components, won, seat_games, score_sum, score_sq,
                                  times * seat_games, times * times * seat_games, times * score_sum,
                                  times * score_sq)
                    block[held] = block[held + 1] = block[held + 2] = 0
            held = _held_sums_at(sums_at, component, won)
            if block[held] != 0:
                _add_holdings(block, at + component, components, won, block[held], block[held + 1],
                              block[held + 2], block[held + 3], block[held + 4], block[held + 5], block[held + 6])
                for offset in range(HELD_SUM_WORDS):
                    block[held + offset] = 0
