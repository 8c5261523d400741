"""The component measures of :class:`~analyzer.engine.quality.Measures`: each seat-game's holdings
(``Outcome.holdings``, the times each seat got or met each component) tallied into the tail of the
measures' block after each game, and folded into the nine component measures once a chunk.

The nine measures are sums over seat-games (holders, their wins and scores; times held, and times
by win and by score), but adding to nine sums a component each seat-game is dear for a game of
drawn cards, which holds dozens a game. So :func:`tally_seat_holdings` only counts a seat-game that
held a component up to :data:`MOST_TIMES_COUNTED` times, by (component, times, won): holders, the
sum of their scores and of its square (3 adds), and sums one that held it more often (7 adds, next to
each other, by :func:`_add_held_sums`); :func:`fold_holdings` turns the counts into the measures.
The indexes into the block are unsigned: a signed index costs a test for a negative one at each add.

It branches on no outcome of the game where it can help it: a mispredicted branch costs as much as
some 50 instructions, and a game's outcome is as hard to predict as the game. A component a seat
never held is counted too, 0 times (a count never folded), rather than skipped, unless the game has
more than :data:`SKIP_UNHELD_ABOVE` components: then only the held ones are counted, found without
a branch on each (:func:`_tally_held_only`). A game of at most :data:`KEYED_UP_TO_COMPONENTS`
components counts each seat-game once, by its whole holding (:func:`_tally_holding`), not once a
component.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from analyzer.engine.jit import njit

#: the component arrays, in order, each [components] long
N_COMPONENT_MEASURES = 9
#: a seat-game that got a component up to this many times is counted in the block's tail,
#: by (component, times, won): holders, the sum of their scores and of its square
MOST_TIMES_COUNTED = 8
#: the words of the block's tail between the counts of one time held and the next (3 for each of won and
#: not won), and between one component's counts and the next's (from 0 times: see tally_seat_holdings)
HELD_TIMES_STRIDE = 2 * 3
HELD_COUNTS = (MOST_TIMES_COUNTED + 1) * HELD_TIMES_STRIDE
#: a game with more components than this skips those a seat never held (most of them, as a rule)
SKIP_UNHELD_ABOVE = 16
#: one that got it more often is summed after those, by (component, won): holders, then the sums of
#: score, score squared, times, times squared, times x score and times x score squared
HELD_SUM_WORDS = 7
HELD_SUMS = 2 * HELD_SUM_WORDS
#: a game of at most this many components counts each seat-game by its whole holding, a key of
#: KEY_TIMES_BITS bits a component for the times held (up to KEYED_MOST_TIMES) and one for a win: one
#: count of 3 adds a seat, not one a component (a Lucky Pirates game of 3 cards took 1.5% less time)
KEYED_UP_TO_COMPONENTS = 3  # written out in _tally_holding
KEY_TIMES_BITS = 3
KEYED_MOST_TIMES = (1 << KEY_TIMES_BITS) - 1
assert KEYED_MOST_TIMES <= MOST_TIMES_COUNTED  # a keyed count folds into the held-times counts


@njit(cache=True, nogil=True, inline="always")
def _keyed(components):
    """Whether a game of ``components`` components is tallied by its seat-games' whole holdings (a game
    of none has nothing to key, and nothing to read)."""
    return 0 < components <= KEYED_UP_TO_COMPONENTS


def held_tail_words(components: int) -> int:
    """The words of the block's tail after the measures: the held-times counts and sums, then for a game
    of one to KEYED_UP_TO_COMPONENTS components the keyed counts, 3 words a key (see tally_seat_holdings)."""
    keys = 1 << (KEY_TIMES_BITS * components + 1) if _keyed.py_func(components) else 0  # not compiled
    return components * (HELD_COUNTS + HELD_SUMS) + 3 * keys


@njit(cache=True, nogil=True, inline="always")
def _tail_offsets(components_at, components):
    """Where the block's held-times counts, held sums and keyed counts start, after its component measures
    (from ``components_at``)."""
    counts_at = components_at + N_COMPONENT_MEASURES * components
    sums_at = counts_at + HELD_COUNTS * components
    return counts_at, sums_at, sums_at + HELD_SUMS * components


@njit(cache=True, nogil=True, inline="always")
def tally_seat_holdings(block, holdings, seat, components_at, won, score, square):
    """Count the holdings of ``seat`` in the game just played (its score ``score``, ``square`` its square;
    ``won`` 1 for an outright win) in the tail of ``block``, whose component measures start at
    ``components_at``, and clear them (see the module's docstring)."""
    components = holdings.shape[1]
    counts_at, sums_at, keyed_at = _tail_offsets(components_at, components)
    if components > SKIP_UNHELD_ABOVE:
        _tally_held_only(block, holdings, seat, counts_at, sums_at, won, score, square)
    elif _keyed(components):
        _tally_holding(block, holdings, seat, counts_at, sums_at, keyed_at, won, score, square)
    else:
        for component in range(components):
            times = holdings[seat, component]
            holdings[seat, component] = 0
            _tally_held(block, counts_at, sums_at, component, times, won, score, square)


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
def _tally_holding(block, holdings, seat, counts_at, sums_at, keyed_at, won, score, square):
    """Count a seat-game of a game of at most KEYED_UP_TO_COMPONENTS (3) components by its whole holding
    (the times it held each, if none more than KEYED_MOST_TIMES) and its win, with its score and its
    square (3 adds), or else :func:`_tally_held` for each component; and clear its holdings.
    :func:`fold_holdings` folds the keyed counts into the held-times counts.

    The three components written out, each past the game's count read as 0 (from its last column, without a
    branch): as loops over the game's components, a Lucky Pirates game took 6% longer."""
    components = holdings.shape[1]
    last = np.uint64(components - 1)
    row = np.uint64(seat)  # unsigned indexes: no test for a negative one
    first = holdings[row, ZERO]
    second = holdings[row, min(ONE, last)] * (components > 1)  # a column the game has, read as 0 past its count
    third = holdings[row, min(TWO, last)] * (components > 2)
    if (first | second | third) <= KEYED_MOST_TIMES:  # none more
        key = (first | (second << KEY_TIMES_BITS) | (third << (2 * KEY_TIMES_BITS))
               | (won << (KEY_TIMES_BITS * components)))
        count = np.uint64(keyed_at + 3 * key)
        block[count] += 1
        block[count + ONE] += score
        block[count + TWO] += square
    else:
        for component in range(components):
            _tally_held(block, counts_at, sums_at, component, holdings[seat, component], won, score, square)
    holdings[row, ZERO] = 0
    holdings[row, min(ONE, last)] = 0
    holdings[row, min(TWO, last)] = 0


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


#: unsigned offsets, for the unsigned indexes of the tally
ZERO, ONE, TWO, THREE, FOUR, FIVE, SIX = (np.uint64(offset) for offset in range(7))


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
    """Add ``seat_games`` seat-games that held component ``c - components_at`` and won (``won`` 1) or not (0), with
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
def fold_holdings(block, components_at, components):
    """Add the keyed counts, held-times counts and sums of :func:`tally_seat_holdings` to the component
    measures and clear them: the chunk template calls this once, after its last game (by
    :func:`~analyzer.engine.quality.fold_held_counts`)."""
    counts_at, sums_at, keyed_at = _tail_offsets(components_at, components)
    if _keyed(components):
        _fold_keyed_counts(block, counts_at, keyed_at, components)
    for component in range(components):
        for won in range(2):
            never = _held_count_at(counts_at, component, 0, won)  # held 0 times: not folded
            block[never] = block[never + 1] = block[never + 2] = 0
            for times in range(1, MOST_TIMES_COUNTED + 1):
                held = _held_count_at(counts_at, component, times, won)
                seat_games, score_sum, score_sq = block[held], block[held + 1], block[held + 2]
                if seat_games != 0:
                    _add_holdings(block, components_at + component, components, won, seat_games, score_sum, score_sq,
                                  times * seat_games, times * times * seat_games, times * score_sum,
                                  times * score_sq)
                    block[held] = block[held + 1] = block[held + 2] = 0
            held = _held_sums_at(sums_at, component, won)
            if block[held] != 0:
                _add_holdings(block, components_at + component, components, won, block[held], block[held + 1],
                              block[held + 2], block[held + 3], block[held + 4], block[held + 5], block[held + 6])
                for offset in range(HELD_SUM_WORDS):
                    block[held + offset] = 0


@njit(cache=True, nogil=True, inline="always")
def _fold_keyed_counts(block, counts_at, keyed_at, components):
    """Add the keyed counts of :func:`_tally_holding` to the held-times counts of each component of
    their key, and clear them."""
    won_bit = KEY_TIMES_BITS * components
    for key in range(1 << (won_bit + 1)):
        keyed = keyed_at + 3 * key
        if block[keyed] != 0:
            for component in range(components):
                times = (key >> (KEY_TIMES_BITS * component)) & KEYED_MOST_TIMES
                held = _held_count_at(counts_at, component, times, key >> won_bit)
                for word in range(3):  # holders, score sum, score square
                    block[held + word] += block[keyed + word]
            block[keyed] = block[keyed + 1] = block[keyed + 2] = 0
