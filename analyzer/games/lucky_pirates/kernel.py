"""The jitted simulation: the race of one game, and its play function for the chunk template."""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.quality import (
    MEASURING,
    NO_NOTES,
    mark_new_top,
    note_leaders,
    note_leaders_within,
    save_new_tops,
    save_notes,
)
from analyzer.engine.rng import randint, rotate_left
from analyzer.games.lucky_pirates.mechanics import (
    EV_DUEL_THROWS,
    LANE_BITS,
    MAX_SEATS,
    N_EVENTS,
    NO_DUEL,
    duel_order,
    fight_duel,
    settle_arrival,
    unpack_treasures,
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
    order: np.ndarray  # [players] duellists in order
    events: np.ndarray  # [N_EVENTS] this game's counts
    turn_treasures: np.ndarray  # [turn cap + 1] the word of treasures after each turn (from turn 1)


#: the constants of :func:`top_seats`, unsigned (its arithmetic wraps): the high bit of every lane; the
#: first bit of the top lane; the multiplier that gathers bit 0 of lane i into bit TOP_LANE + i
LANE_HIGH_BITS = np.uint64(sum(1 << (LANE_BITS * seat + LANE_BITS - 1) for seat in range(MAX_SEATS)))
TOP_LANE = LANE_BITS * (MAX_SEATS - 1)
GATHER_LANES = np.uint64(sum(1 << (TOP_LANE - (LANE_BITS - 1) * seat) for seat in range(MAX_SEATS)))
assert MAX_SEATS == 4 and LANE_BITS * MAX_SEATS == 64, "top_seats compares the lanes of a whole word, four"
#: the rotations that bring each other lane level with a lane
ONE_LANE, TWO_LANES, THREE_LANES = (LANE_BITS * lanes for lanes in range(1, MAX_SEATS))


@njit(cache=True, nogil=True, inline="always")
def top_seats(treasures, seats):
    """The seats with the most treasures in the word ``treasures``, as a bit mask, of those in ``seats``
    (a mask: a word's lanes past the players' hold 0, which no seat's count is below).

    Without a branch, and without finding the top count: each lane is compared with each other lane
    at once, by subtracting the word turned by one, two and three lanes from it with each lane's high
    bit set (a count is below 2**15, so no lane borrows from the next, and the high bit stays set
    where the lane is at least the other); the lanes whose high bit stays set in all three hold the
    top count, and a multiplication gathers their verdicts into MAX_SEATS bits. (Finding the top count
    first, as a tree of maxima, then the lanes level with it, and the last round noted in the same loop
    as the others: 56 instructions a round against 49, callgrind on a generic CPU.)
    """
    word = np.uint64(treasures)
    raised = word | LANE_HIGH_BITS
    at_least_all = (raised - rotate_left(word, ONE_LANE)) & (raised - rotate_left(word, TWO_LANES)) & (
        raised - rotate_left(word, THREE_LANES)) & LANE_HIGH_BITS
    gathered = ((at_least_all >> np.uint64(LANE_BITS - 1)) * GATHER_LANES) >> np.uint64(TOP_LANE)
    return np.int64(gathered) & seats


@njit(cache=True, nogil=True, refcounts=False)
def note_standings_from_log(standings, steps, turn_treasures, turns, players):
    """Note in ``standings`` the top seats after each round of a game of ``turns`` turns (at least one;
    the last round's may be partial) from ``turn_treasures``, and save the notes in ``steps`` (see
    :mod:`analyzer.engine.quality`), with the rounds of new top seats (``quality.mark_new_top``).

    After the game, from the log of every turn, rather than at each round's end: the game's loop
    then has no branch on a round's end (see :mod:`.mechanics`). A call, not inlined into the game
    (0.99 times the game's time, 10 pairs): it allocates nothing, and compiles without reference counts."""
    notes = NO_NOTES
    seats = (1 << players) - 1
    new_tops = np.uint64(0)
    previous = 0
    stride = np.uint64(players)  # unsigned: a division without signs to fix, an index without a test
    rounds_before_last = np.uint64(turns - 1) // stride  # whole rounds (turns is at least 1: max_turns is)
    capacity = np.uint64(standings.shape[0])
    last_turn = np.uint64(0)
    for _ in range(min(rounds_before_last, capacity)):  # every whole round the standings hold, untested
        last_turn += stride
        top = top_seats(turn_treasures[last_turn], seats)
        notes = note_leaders_within(standings, top, notes)
        new_tops = mark_new_top(new_tops, top, previous)
        previous = top
    top = top_seats(turn_treasures[np.uint64(turns)], seats)
    save_notes(steps, note_leaders(standings, top, notes))
    save_new_tops(steps, mark_new_top(new_tops, top, previous), rounds_before_last < capacity)  # every round noted


class Tally(NamedTuple):
    """Lucky Pirates' own aggregates."""

    event_totals: np.ndarray  # [N_EVENTS]
    event_games: np.ndarray  # [N_EVENTS] games in which each event happened
    duel_sizes: np.ndarray  # [players + 1] duels by number of duellists
    won_in_duel: np.ndarray  # [1] games whose winning treasure came from a duel


@njit(cache=True, nogil=True, inline="always")
def play_race(inputs, state, scratch, duel_sizes, outcome):
    """Play one game from the start (every pirate on the ship, no treasures).

    Fills ``scratch.events`` (this game's counts) and adds each duel's size to ``duel_sizes``;
    logs the word of treasures after each turn in ``scratch.turn_treasures`` (for
    :func:`note_standings_from_log`) and notes in ``outcome`` each card a pirate lands on, in its
    holdings (see :mod:`analyzer.engine.quality`). Returns ``(winner seat or -1 when capped, turns
    played, whether the winning treasure came from a duel, the final word of treasures)``.
    """
    circle = inputs.circle
    positions, order, events = scratch.positions, scratch.order, scratch.events
    players = positions.shape[0]
    cards = circle.shape[0]
    positions[:] = 0
    treasures = np.int64(0)  # every seat's, a word (see mechanics)
    events[:] = 0
    provisions = inputs.treasure_supply
    mover = 0
    turn_treasures = scratch.turn_treasures
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
        treasures, provisions, winner, fought = settle_arrival(
            treasures, provisions, mover, players, kind, duel_winner, inputs.treasures_to_win,
            inputs.duel_replaces_card, inputs.steal_when_empty, events)
        if fought:
            events[EV_DUEL_THROWS] += throws
            duel_sizes[duellists] += 1
        if MEASURING:
            turn_treasures[np.uint64(turn)] = treasures
        if winner >= 0:
            return winner, turn, fought, treasures
        mover += 1
        if mover == players:
            mover = 0
    return -1, inputs.max_turns, False, treasures


@njit(cache=True, nogil=True, inline="always")
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one game for the chunk template (see :func:`analyzer.engine.template.play_game`).

    Scores are final treasure holdings; lengths are (turns, rounds); a capped game has
    no winner. The game's own columns are its event counts.

    Inlined into the template, with :func:`play_race`: a game of Lucky Pirates is short (as calls,
    games took 13% longer, measured single-thread before the template borrowed its arguments).
    """
    winner, turns, by_duel, treasures = play_race(inputs, state, scratch, tally.duel_sizes, outcome)
    players = scratch.positions.shape[0]
    if MEASURING:
        note_standings_from_log(outcome.standings, outcome.steps, scratch.turn_treasures, turns, players)
    if winner >= 0:
        outcome.winners[winner] = 1
        if by_duel:
            tally.won_in_duel[0] += 1
    else:
        outcome.capped[0] = 1
    unpack_treasures(treasures, outcome.scores)
    outcome.lengths[0] = turns
    outcome.lengths[1] = (turns + players - 1) // players
    for e in range(N_EVENTS):
        tally.event_totals[e] += scratch.events[e]
        if scratch.events[e] > 0:
            tally.event_games[e] += 1  # its first N_MECHANICS: the mechanics' games (Game.mechanics_tally)
    if game_records.shape[0] > 0:
        for e in range(N_EVENTS):
            game_records[row, e] = scratch.events[e]
