"""Whole games in one jitted call: set-up and captain draft, turns, the final count, and
the aggregates a chunk accumulates."""

from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.engine.rng import randint, seed_game
from analyzer.games.dead_mans_chest.actions import land_on, offer_mascots, retire, retired_turn, visit_shipyard
from analyzer.games.dead_mans_chest.decisions import choose_captain, ship_fee
from analyzer.games.dead_mans_chest.invariants import check_state
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    CAPTAIN_ROUTE,
    CASH,
    CHOOSE_A_MASCOT,
    DRAW_COUNT,
    EVENT_COUNTERS,
    ISLA_CRUCES,
    LOANS,
    MASCOT_VALUE,
    MASCOTS,
    N_EVENTS,
    N_PLAYER_FIELDS,
    N_VALUE_PARTS,
    NO_SHIP,
    OWNER_FREE,
    PART_BONUS,
    PART_CASH,
    PART_MASCOTS,
    PART_SHIP,
    PART_TILES,
    PART_UNPAID,
    POS,
    RETIRED,
    RETIRED_COUNT,
    ROUTE,
    SHIP,
    SHIPYARD,
    SP_KIND,
    TAKEN_THIS_TURN,
    UNPAID,
    UNPAID_FORGIVE,
)
from analyzer.games.dead_mans_chest.money import settle_loans
from analyzer.games.dead_mans_chest.movement import move, spin
from analyzer.games.dead_mans_chest.tiles import deal_tiles, tile_totals

#: a chunk's aggregates (see DeadMansChest.run_chunk for their shapes)
Aggregates = namedtuple("Aggregates", [
    "games", "wins", "ties", "tie_games", "capped", "score_sum", "score_sq", "score_hist",
    "length_rounds", "length_turns", "value_parts_sum", "captain_games", "captain_wins", "captain_ties",
    "captain_value_sum", "captain_value_sq", "route_games", "route_wins", "route_ties", "route_value_sum",
    "route_value_sq", "ship_games", "ship_wins", "mascot_games", "mascot_wins", "events_sum", "events_sq",
    "invariant_violations",
])

#: per-game rows (length 0 when not recording)
Records = namedtuple("Records", ["winner", "scores", "rounds", "turns", "capped", "events"])


@njit(cache=True, nogil=True)
def draft_captain(m, p):
    """Leaving port: draw two of the captains still on the table, keep one, return the other."""
    free = m.captain_free
    cand = m.cand
    n = np.int64(0)
    for k in range(free.shape[0]):
        if free[k]:
            cand[n] = k
            n += 1
    first = randint(m.rng, n)
    second = randint(m.rng, n - 1)
    if second >= first:
        second += 1
    captain = choose_captain(m, p, cand[first], cand[second])
    free[captain] = 0
    route = m.captains[captain, CAPTAIN_ROUTE]
    m.players[p, CAPTAIN] = captain
    m.players[p, ROUTE] = route
    m.players[p, POS] = m.route_start[route]


@njit(cache=True, nogil=True)
def setup_game(m):
    """A new game: money, tiles (three hidden on Isla Cruces), decks, then the captain
    draft in seat order."""
    pl = m.players
    m.counters[:] = 0
    for p in range(pl.shape[0]):
        for f in range(N_PLAYER_FIELDS):
            pl[p, f] = 0
        pl[p, CASH] = m.start_money
        pl[p, SHIP] = NO_SHIP
    deal_tiles(m, m.isla_cruces_tiles)
    life_draw = m.life_draw
    for c in range(life_draw.shape[0]):
        life_draw[c] = c
    m.counters[DRAW_COUNT] = life_draw.shape[0]
    m.ship_owner[:] = OWNER_FREE
    m.mascot_owner[:] = OWNER_FREE
    m.captain_free[:] = 1
    for p in range(pl.shape[0]):
        draft_captain(m, p)


@njit(cache=True, nogil=True)
def play_turn(m, p):
    """One turn of player ``p``: spin and move, stop spaces (spin and move again after the
    Shipyard and Choose a Mascot), then the space's directions; a retired player only spins."""
    pl = m.players
    for q in range(pl.shape[0]):
        pl[q, TAKEN_THIS_TURN] = 0
    if pl[p, RETIRED]:
        retired_turn(m, p)
        return
    spaces = m.spaces
    if spaces[pl[p, POS], SP_KIND] == SHIPYARD and not visit_shipyard(m, p):
        return  # still waiting for a ship it can afford
    while True:
        space = move(m, p, spin(m))
        kind = spaces[space, SP_KIND]
        if kind == SHIPYARD:
            if not visit_shipyard(m, p):
                return
        elif kind == CHOOSE_A_MASCOT:
            offer_mascots(m, p, True)
        elif kind == ISLA_CRUCES:
            retire(m, p)
            return
        else:
            land_on(m, p, space)
            return


@njit(cache=True, nogil=True)
def play_game(m):
    """Play one game, seat 1 first, to the end (everyone retired) or the turn cap.
    Returns (turns, capped); every round but the last has one turn per player."""
    setup_game(m)
    players = m.players.shape[0]
    counters = m.counters
    turns = 0
    while True:
        for p in range(players):
            if turns == m.max_turns:
                return turns, True
            turns += 1
            play_turn(m, p)
            if m.check:
                check_state(m)
            if counters[RETIRED_COUNT] == players:
                return turns, False


@njit(cache=True, nogil=True)
def final_values(m, parts, scores):
    """The final count: tiles (doubled for their mascot's owner) + cash + ship + mascots,
    minus unpaid loan debt (unless forgiven). Fills ``parts[p, part]`` and ``scores[p]``."""
    pl = m.players
    for p in range(pl.shape[0]):
        if pl[p, LOANS] > 0:  # a capped game: players still at sea settle their loans now
            settle_loans(m, p)
        face, bonus = tile_totals(m, p)
        parts[p, PART_TILES] = face
        parts[p, PART_BONUS] = bonus
        parts[p, PART_CASH] = pl[p, CASH]
        parts[p, PART_SHIP] = ship_fee(m, pl[p, SHIP])
        parts[p, PART_MASCOTS] = pl[p, MASCOT_VALUE]
        parts[p, PART_UNPAID] = 0 if m.unpaid_loan == UNPAID_FORGIVE else pl[p, UNPAID]
        scores[p] = face + bonus + pl[p, CASH] + parts[p, PART_SHIP] + pl[p, MASCOT_VALUE] - parts[p, PART_UNPAID]


@njit(cache=True, nogil=True)
def accumulate(m, agg, scores, parts, rounds, turns, capped, score_low, score_width):
    """Add one finished game to the aggregates; returns the winning seat (-1: shared)."""
    pl = m.players
    players = pl.shape[0]
    best = scores[0]
    for p in range(1, players):
        best = max(best, scores[p])
    n_best = 0
    winner = -1
    for p in range(players):
        if scores[p] == best:
            n_best += 1
            winner = p
    if n_best > 1:
        winner = -1
        agg.tie_games[0] += 1
    agg.games[0] += 1
    agg.capped[0] += capped
    agg.length_rounds[rounds] += 1
    agg.length_turns[turns] += 1
    n_bins = agg.score_hist.shape[1]
    for p in range(players):
        score = scores[p]
        won = winner == p
        tied = winner == -1 and score == best
        agg.wins[p] += won
        agg.ties[p] += tied
        agg.score_sum[p] += score
        agg.score_sq[p] += score * score
        agg.score_hist[p, min(max((score - score_low) // score_width, 0), n_bins - 1)] += 1
        for part in range(N_VALUE_PARTS):
            agg.value_parts_sum[p, part] += parts[p, part]
        captain = pl[p, CAPTAIN]
        agg.captain_games[captain] += 1
        agg.captain_wins[captain] += won
        agg.captain_ties[captain] += tied
        agg.captain_value_sum[captain] += score
        agg.captain_value_sq[captain] += score * score
        route = pl[p, ROUTE]
        agg.route_games[route] += 1
        agg.route_wins[route] += won
        agg.route_ties[route] += tied
        agg.route_value_sum[route] += score
        agg.route_value_sq[route] += score * score
        ship = pl[p, SHIP]
        if ship == NO_SHIP:
            ship = agg.ship_games.shape[0] - 1
        agg.ship_games[ship] += 1
        agg.ship_wins[ship] += won
        for k in range(agg.mascot_games.shape[0]):
            if (pl[p, MASCOTS] >> k) & 1:
                agg.mascot_games[k] += 1
                agg.mascot_wins[k] += won
    for e in range(N_EVENTS):
        count = m.counters[EVENT_COUNTERS[e]]
        agg.events_sum[e] += count
        agg.events_sq[e] += count * count
    return winner


@njit(cache=True, nogil=True)
def play_chunk(m, seed, first_game, n_games, agg, rec, scores, parts, score_low, score_width):
    """Play games ``first_game .. first_game + n_games - 1`` of run ``seed``.

    ``scores`` [players] and ``parts`` [players, parts] are scratch; ``rec`` rows are
    written when its arrays have ``n_games`` rows.
    """
    recording = rec.winner.shape[0] > 0
    for g in range(n_games):
        seed_game(seed, first_game + g, m.rng)
        turns, capped = play_game(m)
        rounds = (turns + scores.shape[0] - 1) // scores.shape[0]
        final_values(m, parts, scores)
        winner = accumulate(m, agg, scores, parts, rounds, turns, capped, score_low, score_width)
        if recording:
            rec.winner[g] = winner + 1
            rec.rounds[g] = rounds
            rec.turns[g] = turns
            rec.capped[g] = capped
            for p in range(scores.shape[0]):
                rec.scores[g, p] = scores[p]
            for e in range(N_EVENTS):
                rec.events[g, e] = m.counters[EVENT_COUNTERS[e]]
    for v in range(agg.invariant_violations.shape[0]):
        agg.invariant_violations[v] += m.violations[v]
        m.violations[v] = 0
