"""The jitted simulation: one call plays a whole chunk of games and only accumulates."""

import numpy as np
from numba import njit

from analyzer.engine.rng import randint, seed_game
from analyzer.games.lucky_pirates.mechanics import (
    EV_DUEL_THROWS,
    N_EVENTS,
    NO_DUEL,
    duel_order,
    fight_duel,
    settle_arrival,
)


@njit(cache=True, nogil=True)
def play_game(state, circle, die_faces, two_ships_probability, treasures_to_win, treasure_supply,
              duel_replaces_card, steal_when_empty, max_turns,
              positions, treasures, order, events, duel_sizes):
    """Play one game from the start (every pirate on the ship, no treasures).

    Fills ``treasures`` (final holdings) and ``events`` (this game's counts) and adds
    each duel's size to ``duel_sizes``. Returns ``(winner seat or -1 when capped,
    turns played, whether the winning treasure came from a duel)``.
    """
    players = positions.shape[0]
    cards = circle.shape[0]
    positions[:] = 0
    treasures[:] = 0
    events[:] = 0
    provisions = treasure_supply
    mover = 0
    for turn in range(1, max_turns + 1):
        card = positions[mover] + 1 + randint(state, die_faces)
        while card >= cards:  # round the circle (cheaper than an integer modulo)
            card -= cards
        positions[mover] = card
        duellists = duel_order(positions, mover, order)
        duel_winner = NO_DUEL
        throws = 0
        if duellists > 1:
            duel_winner, throws = fight_duel(state, order, duellists, two_ships_probability)
        provisions, winner, fought = settle_arrival(
            treasures, provisions, mover, circle[card], duel_winner, treasures_to_win,
            duel_replaces_card, steal_when_empty, events)
        if fought:
            events[EV_DUEL_THROWS] += throws
            duel_sizes[duellists] += 1
        if winner >= 0:
            return winner, turn, fought
        mover += 1
        if mover == players:
            mover = 0
    return -1, max_turns, False


@njit(cache=True, nogil=True)
def play_chunk(seed, first_game, n_games, players, circle, die_faces, two_ships_probability,
               treasures_to_win, treasure_supply, duel_replaces_card, steal_when_empty, max_turns,
               wins, capped, score_sum, score_sq, score_hist, length_turns, length_rounds,
               event_totals, event_games, duel_sizes, won_in_duel,
               record, rec_winner, rec_scores, rec_turns, rec_rounds, rec_capped, rec_events):
    """Play games ``first_game ..`` of run ``seed`` and add them to the aggregates.

    With ``record`` the ``rec_*`` arrays (one row per game) are filled too.
    """
    state = np.zeros(4, np.uint64)
    positions = np.zeros(players, np.int64)
    treasures = np.zeros(players, np.int64)
    order = np.zeros(players, np.int64)
    events = np.zeros(N_EVENTS, np.int64)
    for g in range(n_games):
        seed_game(seed, first_game + g, state)
        winner, turns, by_duel = play_game(
            state, circle, die_faces, two_ships_probability, treasures_to_win, treasure_supply,
            duel_replaces_card, steal_when_empty, max_turns,
            positions, treasures, order, events, duel_sizes)
        rounds = (turns + players - 1) // players
        if winner >= 0:
            wins[winner] += 1
            if by_duel:
                won_in_duel[0] += 1
        else:
            capped[0] += 1
        for seat in range(players):
            score = treasures[seat]
            score_sum[seat] += score
            score_sq[seat] += score * score
            score_hist[seat, score] += 1
        length_turns[turns] += 1
        length_rounds[rounds] += 1
        for e in range(N_EVENTS):
            event_totals[e] += events[e]
            if events[e] > 0:
                event_games[e] += 1
        if record:
            rec_winner[g] = winner + 1
            rec_turns[g] = turns
            rec_rounds[g] = rounds
            rec_capped[g] = winner < 0
            for seat in range(players):
                rec_scores[g, seat] = treasures[seat]
            for e in range(N_EVENTS):
                rec_events[g, e] = events[e]
