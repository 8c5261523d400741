"""The jitted simulation: the race of one game, and its play function for the chunk template."""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.quality import MEASURING, NO_NOTES, note_round, save_notes
from analyzer.engine.rng import randint
from analyzer.games.lucky_pirates.mechanics import (
    EV_DUEL_THROWS,
    N_EVENTS,
    N_MECHANICS,
    NO_DUEL,
    duel_order,
    fight_duel,
    settle_arrival,
)


class Inputs(NamedTuple):
    """The kernel inputs of a run (read only): the fields of ``rules.RuleValues`` the kernel reads."""

    circle: np.ndarray  # card kinds round the circle
    die_faces: int
    two_ships_probability: float
    treasures_to_win: int
    treasure_supply: int
    duel_replaces_card: bool
    steal_when_empty: bool
    max_turns: int


class Scratch(NamedTuple):
    """Working arrays of one chunk."""

    positions: np.ndarray  # [players] card each pirate stands on
    treasures: np.ndarray  # [players]
    order: np.ndarray  # [players] duellists in order
    events: np.ndarray  # [N_EVENTS] this game's counts


class Tally(NamedTuple):
    """Lucky Pirates' own aggregates."""

    event_totals: np.ndarray  # [N_EVENTS]
    event_games: np.ndarray  # [N_EVENTS] games in which each event happened
    duel_sizes: np.ndarray  # [players + 1] duels by number of duellists
    won_in_duel: np.ndarray  # [1] games whose winning treasure came from a duel


@njit(cache=True, nogil=True, inline="always")
def play_race(inputs, state, scratch, duel_sizes, outcome):
    """Play one game from the start (every pirate on the ship, no treasures).

    Fills ``scratch.treasures`` (final holdings) and ``scratch.events`` (this game's counts) and adds
    each duel's size to ``duel_sizes``; notes in ``outcome`` the standings after every round and
    each card a pirate lands on, in its holdings (see :mod:`analyzer.engine.quality`).
    Returns ``(winner seat or -1 when capped, turns played, whether the winning treasure came from
    a duel)``.
    """
    circle = inputs.circle
    positions, treasures, order, events = scratch.positions, scratch.treasures, scratch.order, scratch.events
    players = positions.shape[0]
    cards = circle.shape[0]
    positions[:] = 0
    treasures[:] = 0
    events[:] = 0
    provisions = inputs.treasure_supply
    mover = 0
    notes = NO_NOTES  # in local variables: see note_round
    for turn in range(1, inputs.max_turns + 1):
        card = positions[mover] + 1 + randint(state, inputs.die_faces)
        while card >= cards:  # round the circle (cheaper than an integer modulo)
            card -= cards
        positions[mover] = card
        kind = circle[np.uint64(card)]  # unsigned indexes: no test for a negative one
        if MEASURING:
            outcome.holdings[np.uint64(mover), np.uint64(kind)] += 1
        duellists = duel_order(positions, mover, order)
        duel_winner = NO_DUEL
        throws = 0
        if duellists > 1:
            duel_winner, throws = fight_duel(state, order, duellists, inputs.two_ships_probability)
        provisions, winner, fought = settle_arrival(
            treasures, provisions, mover, kind, duel_winner, inputs.treasures_to_win,
            inputs.duel_replaces_card, inputs.steal_when_empty, events)
        if fought:
            events[EV_DUEL_THROWS] += throws
            duel_sizes[duellists] += 1
        if winner >= 0:
            save_notes(outcome, note_round(outcome.standings, treasures, notes))
            return winner, turn, fought
        mover += 1
        if mover == players:
            mover = 0
            notes = note_round(outcome.standings, treasures, notes)
    if mover != 0:
        notes = note_round(outcome.standings, treasures, notes)
    save_notes(outcome, notes)
    return -1, inputs.max_turns, False


@njit(cache=True, nogil=True, inline="always")
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one game for the chunk template (see :func:`analyzer.engine.template.play_game`).

    Scores are final treasure holdings; lengths are (turns, rounds); a capped game has
    no winner. The game's own columns are its event counts.

    Inlined into the template, with :func:`play_race`: a game of Lucky Pirates is short (as calls,
    games took 13% longer, measured single-thread before the template borrowed its arguments).
    """
    winner, turns, by_duel = play_race(inputs, state, scratch, tally.duel_sizes, outcome)
    players = scratch.positions.shape[0]
    if winner >= 0:
        outcome.winners[winner] = 1
        if by_duel:
            tally.won_in_duel[0] += 1
    else:
        outcome.capped[0] = 1
    for seat in range(players):
        outcome.scores[seat] = scratch.treasures[seat]
    outcome.lengths[0] = turns
    outcome.lengths[1] = (turns + players - 1) // players
    for e in range(N_EVENTS):
        tally.event_totals[e] += scratch.events[e]
        if scratch.events[e] > 0:
            tally.event_games[e] += 1
            if MEASURING and e < N_MECHANICS:
                outcome.triggered[e] = 1
    if game_records.shape[0] > 0:
        for e in range(N_EVENTS):
            game_records[row, e] = scratch.events[e]
