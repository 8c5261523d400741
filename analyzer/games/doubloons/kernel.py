"""Doubloons played in jitted code: a round and a match, the engine's one game.

:func:`play_game` plays one match (best of ``rounds_to_win``) for the engine's chunk
template. Everything it reads is in :class:`inputs.Inputs`; it plays in the chunk's
:class:`Scratch` (the play area of :mod:`play_area` and this match's ``events``) and
adds to the :class:`Tally`. The turns are played by :mod:`turns`; the decisions of a
pirate who searches (``lookahead``) are made between them, by :mod:`lookahead`. With
``inputs.audit`` set, the play area is audited after the deal and after every turn
(:func:`audit.audit`), the searchers' playouts included: card conservation and the
bookkeeping invariants; the violations found are counted in ``tally.audit_violations``.

Numba recompiles and re-optimises everything a function calls, so the functions above
:func:`turns.continue_round` (the round's turn loop, compiled once and shared with the
tests and the playouts) are inlined into :func:`play_game` rather than stacked as
separately compiled levels; this keeps a cold compile short.
"""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.quality import MEASURING, note_standings
from analyzer.games.doubloons.audit import audit
from analyzer.games.doubloons.cards import CHESTS
from analyzer.games.doubloons.coverage import note_match, note_round, note_round_start
from analyzer.games.doubloons.lookahead import choose
from analyzer.games.doubloons.play_area import (
    F_CHESTS,
    F_PARROT,
    F_ROUND_WON,
    F_WINS,
    V_REDEALS,
    V_REFILLS,
    V_TURNS,
    WON_IN_FINAL_TURNS,
    deal_round,
)
from analyzer.games.doubloons.turns import (
    DECIDE,
    E_DISCARD_TAKES,
    E_LOST_TURNS,
    E_PARROT_MOVES,
    E_PASSES,
    E_REFILLS,
    E_SPECIALS,
    E_TURNS,
    FROM_CHEST,
    FROM_DECK,
    FROM_DISCARD,
    N_SPECIALS,
    ROUND_CAPPED,
    USED,
    begin_round,
    continue_round,
    resolve,
)

#: the game's own ``--save-games`` columns, in the order play_game writes them
RECORD_COLUMNS = ("first_round_winner", "deck_refills", "lost_turns")


class Scratch(NamedTuple):
    """Working arrays of one chunk."""

    pirates: np.ndarray  # [players, ROW] the play area, per pirate (see play_area)
    shared: np.ndarray  # the play area's shared part and piles (see play_area)
    events: np.ndarray  # [players, N_EVENTS] this match's counts per seat, see turns.E_*


class Tally(NamedTuple):
    """Doubloons' own aggregates; per-round figures count finished rounds (not a capped one)."""

    round_turns: np.ndarray  # [longest round + 1] histogram of turns per round
    round_wins: np.ndarray  # [players] rounds won by each seat
    round_wins_by_order: np.ndarray  # [players] rounds won by the pirate k seats after the round's starter
    specials_drawn: np.ndarray  # [players, N_SPECIALS] special cards drawn from the deck
    specials_taken: np.ndarray  # [players, N_SPECIALS] ... taken from the discard pile
    specials_uncovered: np.ndarray  # [players, N_SPECIALS] ... found in one's own chest
    specials_used: np.ndarray  # [players, N_SPECIALS] ... that acted
    seat_turns: np.ndarray  # [players] turns played
    seat_discard_takes: np.ndarray  # [players] turns that took the discard pile's top card
    seat_deck_refills: np.ndarray  # [players] deck refills at the start of the seat's turn
    seat_lost_turns: np.ndarray  # [players] turns lost to a kraken
    seat_passes: np.ndarray  # [players] turns with nothing to draw
    seat_parrot_moves: np.ndarray  # [players] parrots freed by their number that moved on
    rounds: np.ndarray  # [1]
    shared_rounds: np.ndarray  # [1] rounds with two or more winners
    final_turn_wins: np.ndarray  # [1] round wins in the final turns
    rounds_parrot_left: np.ndarray  # [1] rounds ending with a parrot still on a chest
    parrots_left: np.ndarray  # [1] parrots left on chests at the end of rounds
    rounds_refilled: np.ndarray  # [1] rounds with a deck refill
    redeals: np.ndarray  # [1] deals redone for want of a number to start the discard pile
    audit_violations: np.ndarray  # [1] broken invariants found (0 unless inputs.audit)


# -- a round and a match ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def play_round(pirates, shared, inputs, events, start, rng):
    """Deal and play one round from seat ``start`` (see :func:`turns.continue_round`); the
    searching pirates' decisions are made by :func:`lookahead.choose`.

    Returns (turns played, capped, audit violations).
    """
    deal_round(pirates, shared, inputs, rng)
    violations = audit(pirates, shared, inputs.composition) if inputs.audit else 0
    begin_round(shared, start)
    while True:
        outcome, found = continue_round(pirates, shared, inputs, events, rng)
        violations += found
        if outcome != DECIDE:
            return shared[V_TURNS], outcome == ROUND_CAPPED, violations
        choice, found = choose(pirates, shared, inputs, rng)
        violations += found
        resolve(pirates, shared, events, choice)


@njit(cache=True, inline="always")
def _record_round(pirates, shared, tally, start, turns):
    """Round statistics of a finished round; adds its wins. Returns its winner count."""
    players = pirates.shape[0]
    tally.rounds[0] += 1
    tally.redeals[0] += shared[V_REDEALS]
    tally.round_turns[min(turns, tally.round_turns.shape[0] - 1)] += 1
    winners = 0
    parrots = 0
    for q in range(players):
        if pirates[q, F_ROUND_WON]:
            winners += 1
            pirates[q, F_WINS] += 1
            tally.round_wins[q] += 1
            tally.round_wins_by_order[(q - start + players) % players] += 1
            if pirates[q, F_ROUND_WON] == WON_IN_FINAL_TURNS:
                tally.final_turn_wins[0] += 1
        if pirates[q, F_PARROT]:
            parrots += 1
    if winners > 1:
        tally.shared_rounds[0] += 1
    if parrots:
        tally.rounds_parrot_left[0] += 1
        tally.parrots_left[0] += parrots
    if shared[V_REFILLS]:
        tally.rounds_refilled[0] += 1
    return winners


@njit(cache=True, inline="always")
def _note_standings(pirates, outcome):
    """The match score (round wins) after a round, for the engine's game-quality measures."""
    for q in range(pirates.shape[0]):
        outcome.scores[q] = pirates[q, F_WINS]
    note_standings(outcome, outcome.scores)


@njit(cache=True, inline="always")
def play_match(pirates, shared, inputs, events, tally, outcome, rng):
    """Rounds until a pirate has ``rounds_to_win`` round wins (or a round hits the cap).

    Leaves the round wins in ``F_WINS``; notes the standings after every round and the
    mechanics seen on the play area (:mod:`coverage`). Returns (turns, rounds, capped, the
    seat that won the first round alone (-1: shared or none), audit violations, parrots
    left on a chest at the end of a round).
    """
    players = pirates.shape[0]
    pirates[:, F_WINS] = 0
    start = np.int64(0)  # typed int64 from the start: a literal 0 would compile begin_round twice
    turns = 0
    rounds = 0
    first_winner = -1
    violations = 0
    parrots_left = 0
    while True:
        if MEASURING:
            note_round_start(pirates, outcome)
        for q in range(players):
            pirates[q, F_CHESTS] = CHESTS - pirates[q, F_WINS]
        round_turns, capped, found = play_round(pirates, shared, inputs, events, start, rng)
        turns += round_turns
        rounds += 1
        violations += found
        if MEASURING:
            parrots_left += note_round(pirates, shared, outcome, capped)
        if capped:
            _note_standings(pirates, outcome)
            return turns, rounds, True, first_winner, violations, parrots_left
        if _record_round(pirates, shared, tally, start, round_turns) == 1 and rounds == 1:
            for q in range(players):
                if pirates[q, F_ROUND_WON]:
                    first_winner = q
        _note_standings(pirates, outcome)
        if pirates[:, F_WINS].max() >= inputs.rounds_to_win:
            return turns, rounds, False, first_winner, violations, parrots_left
        if inputs.rotate_start:
            start = (start + 1) % players


@njit(cache=True, inline="always")
def _add_events(events, tally):
    """Add one match's per-seat ``events`` to the tally's per-seat aggregates."""
    for q in range(events.shape[0]):
        for kind in range(N_SPECIALS):
            tally.specials_drawn[q, kind] += events[q, E_SPECIALS + FROM_DECK * N_SPECIALS + kind]
            tally.specials_taken[q, kind] += events[q, E_SPECIALS + FROM_DISCARD * N_SPECIALS + kind]
            tally.specials_uncovered[q, kind] += events[q, E_SPECIALS + FROM_CHEST * N_SPECIALS + kind]
            tally.specials_used[q, kind] += events[q, E_SPECIALS + USED * N_SPECIALS + kind]
        tally.seat_turns[q] += events[q, E_TURNS]
        tally.seat_discard_takes[q] += events[q, E_DISCARD_TAKES]
        tally.seat_deck_refills[q] += events[q, E_REFILLS]
        tally.seat_lost_turns[q] += events[q, E_LOST_TURNS]
        tally.seat_passes[q] += events[q, E_PASSES]
        tally.seat_parrot_moves[q] += events[q, E_PARROT_MOVES]


@njit(cache=True, nogil=True)
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one match for the chunk template (see :func:`analyzer.engine.template.play_game`).

    Scores are round wins; lengths are (turns, rounds). The pirates with the most round
    wins win the match (two or more: a tie); a capped match has no winner. The game's
    own columns are ``RECORD_COLUMNS``. The standings are the round wins after every
    round; the mechanics and components are those of :mod:`coverage`.
    """
    pirates = scratch.pirates
    shared = scratch.shared
    events = scratch.events
    events[:, :] = 0
    turns, rounds, capped, first_winner, violations, parrots_left = play_match(
        pirates, shared, inputs, events, tally, outcome, state)
    tally.audit_violations[0] += violations
    _add_events(events, tally)
    if MEASURING:
        note_match(events, parrots_left, outcome)
    # outcome.scores already holds the round wins: play_match noted them as the last standings
    players = pirates.shape[0]
    outcome.lengths[0] = turns
    outcome.lengths[1] = rounds
    if capped:
        outcome.capped[0] = 1
    else:
        best = pirates[:, F_WINS].max()
        for q in range(players):
            if pirates[q, F_WINS] == best:
                outcome.winners[q] = 1
    if game_records.shape[0] > 0:
        game_records[row, 0] = first_winner + 1
        game_records[row, 1] = events[:, E_REFILLS].sum()
        game_records[row, 2] = events[:, E_LOST_TURNS].sum()
