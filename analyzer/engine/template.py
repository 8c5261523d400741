"""The chunk template: the one loop that plays a chunk of games, for every game.

:func:`play_chunk` seeds game ``i`` from ``(seed, i)``, hands it to the game's own play
function, and adds the outcome to the aggregates every game shares (wins, ties,
scores, lengths) and, when recording, to the per-game rows. A game supplies only its
play function; :func:`chunk_player` compiles the template with that function in the
place of the stub :func:`play_game`, so each game runs the template at full speed, with
its own disk cache.

The argument style is the same for every game: NamedTuples of arrays and numbers.

- ``inputs``: the game's kernel inputs (read only), made by ``Game.prepare``;
- ``scratch``: the game's private working arrays for one chunk;
- ``tally``: the game's own aggregates (int64 arrays), which it adds each game to;
- ``common``: :class:`Common`, the aggregates the template fills;
- ``measures``: the block of :func:`~analyzer.engine.quality.measures_block`, the quality,
  mechanics and component aggregates the template fills from what the game notes in ``outcome``;
- ``outcome``: :class:`Outcome`, what the game reports of each game it plays;
- ``records``: :class:`Records`, the common per-game rows (length 0: not recording),
  and ``game_records``, the game's own columns of those rows;
- ``state``: the random state of the game being played.

A game's play function is inlined into the template or called by it, and the template is
compiled without reference counts: a play function inlined into it must not allocate
(Numba refuses to compile one that does), and one that is called gets borrowed views.
"""

from __future__ import annotations

import functools
import pickle
import threading
import types
from typing import NamedTuple

import numpy as np

from analyzer.engine.borrow import borrowed
from analyzer.engine.jit import njit, sources_stamp
from analyzer.engine.quality import MEASURING, fold_held_counts, tally_measures
from analyzer.engine.rng import game_key, seed_game


class Common(NamedTuple):
    """The aggregates every game has (see :mod:`analyzer.engine.aggregate`)."""

    games: np.ndarray  # [1]
    wins: np.ndarray  # [players]
    ties: np.ndarray  # [players]
    tie_games: np.ndarray  # [1]
    capped: np.ndarray  # [1]
    score_sum: np.ndarray  # [players]
    score_sq: np.ndarray  # [players]
    score_hist: np.ndarray  # [players, bins]
    length_hist: np.ndarray  # [units, longest cap + 1]; row u holds length_<unit u>


class Outcome(NamedTuple):
    """What a game's play function reports of the game it played (it sets every field)."""

    scores: np.ndarray  # [players] final scores
    winners: np.ndarray  # [players] 1 for each seat that won; two or more: a shared win; none: no winner
    lengths: np.ndarray  # [units] the game's length in each length unit
    capped: np.ndarray  # [1] 1 when the game was stopped by its cap
    standings: np.ndarray  # [rounds] the top scorers after each round (see engine.quality.note_standings)
    steps: np.ndarray  # [N_STEPS] the notes of the standings: rounds noted, last sole leader... (engine.quality)
    triggered: np.ndarray  # [mechanics] 1 for each mechanic that happened (the game sets them; Game.mechanics_tally)
    holdings: np.ndarray  # [players, components] times each seat got or met each component (the game adds)


class Records(NamedTuple):
    """The common columns of per-game rows; 0 rows when the chunk is not recorded."""

    winner: np.ndarray  # [rows] 0: shared or none, else the winning seat (from 1)
    scores: np.ndarray  # [rows, players]
    lengths: np.ndarray  # [rows, units]
    capped: np.ndarray  # [rows]


def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one whole game: the stub that :func:`chunk_player` replaces by a game's play function.

    ``state`` is the game's xoshiro256** state, already seeded from (seed, game);
    ``key`` is ``rng.game_key(seed, game)``, the root of the game's sub-streams. The
    game fills ``outcome``, adds to its ``tally``, and, when ``game_records`` has rows,
    writes its own columns of row ``row``. It must not allocate per game, and a play
    function inlined into the template must not allocate at all (see the module's docstring).
    """
    raise NotImplementedError("play_game is replaced by a game's play function (see chunk_player)")


def play_chunk(seed, first_game, n_games, score_low, score_width, inputs, scratch, tally, common, measures, outcome,
               records, game_records, state):
    """Play games ``first_game .. first_game + n_games - 1`` of run ``seed``.

    Final scores go to histogram bins ``score_width`` wide from ``score_low``.
    Game ``g`` draws only from the streams of ``(seed, g)``, so it comes out the same
    in any chunk, thread, process or machine. Scores outside the histogram and lengths
    beyond their cap are counted in the nearest bin. ``state`` holds each game's random
    state in turn (4 words): the caller's, as every array here, so that the template
    allocates nothing and is compiled without reference counts (see :mod:`analyzer.engine.jit`).
    """
    # borrowed views: the caller holds every argument for the whole call (see engine.borrow)
    inputs = borrowed(inputs)
    scratch = borrowed(scratch)
    tally = borrowed(tally)
    common = borrowed(common)
    measures = borrowed(measures)
    outcome = borrowed(outcome)
    records = borrowed(records)
    game_records = borrowed(game_records)
    state = borrowed(state)  # the games' random state, seeded again for each game
    players = outcome.scores.shape[0]
    units = outcome.lengths.shape[0]
    n_bins = common.score_hist.shape[1]
    longest = common.length_hist.shape[1] - 1
    recording = records.winner.shape[0] > 0
    for g in range(n_games):
        game = first_game + g
        seed_game(seed, game, state)
        for seat in range(players):
            outcome.winners[seat] = 0
        outcome.capped[0] = 0
        play_game(inputs, state, game_key(seed, game), scratch, tally, outcome, game_records, g)

        common.games[0] += 1
        if outcome.capped[0] != 0:
            common.capped[0] += 1
        n_winners = 0
        winner = 0
        for seat in range(players):
            if outcome.winners[seat] != 0:
                n_winners += 1
                winner = seat + 1
        if n_winners == 1:
            common.wins[winner - 1] += 1
        elif n_winners > 1:
            winner = 0
            common.tie_games[0] += 1
            for seat in range(players):
                if outcome.winners[seat] != 0:
                    common.ties[seat] += 1
        if MEASURING:
            tally_measures(measures, n_bins, outcome.scores, outcome.standings, outcome.steps, outcome.triggered,
                           outcome.holdings, winner - 1, score_width)
        for seat in range(players):
            score = outcome.scores[seat]
            common.score_sum[seat] += score
            common.score_sq[seat] += score * score
            common.score_hist[seat, min(max((score - score_low) // score_width, 0), n_bins - 1)] += 1
        for unit in range(units):
            common.length_hist[unit, min(max(outcome.lengths[unit], 0), longest)] += 1
        if recording:
            records.winner[g] = winner
            records.capped[g] = outcome.capped[0]
            for seat in range(players):
                records.scores[g, seat] = outcome.scores[seat]
            for unit in range(units):
                records.lengths[g, unit] = outcome.lengths[unit]
    fold_held_counts(measures, n_bins, outcome.triggered.shape[0], outcome.holdings.shape[1])


def _load_index_or_nothing(load_index):
    """The cache index, or none when it names a class the game no longer has.

    Numba unpickles an index before it compares the stamp, so an index written before a
    game renamed one of its kernel NamedTuples would fail instead of recompiling.
    """
    try:
        return load_index()
    except (AttributeError, ImportError, pickle.UnpicklingError):
        return {}


_players: dict = {}
_compiling = threading.Lock()


def chunk_player(play):
    """:func:`play_chunk` compiled with the jitted ``play`` as its ``play_game``.

    One copy per game: its globals name the game's play function, and its disk cache
    is its own (named after the game's kernel module) and stamped with the game's
    sources as well as the engine's, since Numba stamps a cache with the function's own
    file only. ``play`` must be compiled with ``nogil=True``, and allocate nothing if it is
    inlined.
    """
    with _compiling:
        if play not in _players:
            namespace = dict(play_chunk.__globals__, play_game=play)
            function = types.FunctionType(play_chunk.__code__, namespace, play_chunk.__name__)
            function.__qualname__ = "play_chunk_for_" + play.py_func.__module__.replace(".", "_")
            function.__doc__ = play_chunk.__doc__
            player = njit(cache=True, nogil=True, refcounts=False)(function)
            cache_file = player._cache._cache_file
            cache_file._source_stamp = sources_stamp(play.py_func)
            cache_file._load_index = functools.partial(_load_index_or_nothing, cache_file._load_index)
            _players[play] = player
        return _players[play]
