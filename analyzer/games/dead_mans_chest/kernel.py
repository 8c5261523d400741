"""Whole games in one jitted call: set-up, the steps (captain draft and turns, see
:mod:`turns`; a lookahead seat's chosen by search, see :mod:`lookahead`), the final count,
and what each game adds to the tally; :func:`play_game` is the play function of the chunk
template (:mod:`analyzer.engine.template`).

Every mechanic is a small jitted function ``f(m, player, ...)`` where ``m`` is a
:class:`Match`: one reference to every field of the run's :class:`Inputs` and of the
game state in :class:`Scratch`, so a mechanic reads ``m.players``, ``m.spaces``,
``m.loan_amount``... (Passing the two NamedTuples instead, some 40 arrays by value to
every mechanic, makes games ten times slower.) The Match's arrays are borrowed views
(see :func:`make_match` and :mod:`analyzer.engine.borrow`), so reading one costs no
reference count.
"""

from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.experimental import structref

from analyzer.engine.borrow import borrowed
from analyzer.engine.jit import njit
from analyzer.engine.quality import MEASURING, note_round, save_notes
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    EVENT_COUNTERS,
    MASCOTS,
    MET,
    N_EVENTS,
    N_MET,
    N_VALUE_PARTS,
    NO_SHIP,
    RETIRED_COUNT,
    ROUTE,
    SHIP,
    TURNS_PLAYED,
)
from analyzer.games.dead_mans_chest.lookahead import new_search, play_steps
from analyzer.games.dead_mans_chest.turns import final_values, setup_game

#: mechanics beyond the events (``layout.EVENTS``, indices 0 .. N_EVENTS - 1): see ``game.MECHANICS``
MECHANIC_MASCOT = N_EVENTS
MECHANIC_CAPPED = N_EVENTS + 1
#: then one mechanic per column of ``m.met`` but START
MECHANIC_MET = N_EVENTS + 2


class Inputs(NamedTuple):
    """The kernel inputs of a run (read only): the board, the rules as numbers, the seats."""

    # the component data (see the column constants of layout and components.board_arrays)
    spaces: np.ndarray  # [spaces, SP_*]
    route_start: np.ndarray  # [start routes] the start space of each
    captains: np.ndarray  # [captains, CAPTAIN_*]
    ships: np.ndarray  # [ships, SHIP_*]
    mascot_fee: np.ndarray  # [mascots]
    tiles: np.ndarray  # [LIFE tiles, TILE_*]
    cards: np.ndarray  # [LIFE cards, CARD_*]
    # the rule options (see rules.kernel_rules)
    draft_start: int  # DRAFT_AT_RANDOM, DRAFT_FIRST_PLAYER or DRAFT_LAST_PLAYER
    captain_draft: int  # CAPTAINS_DRAFTED or CAPTAINS_DEALT
    start_money: int
    loans: bool
    loan_amount: int
    loan_interest: int
    unpaid_loan: int  # UNPAID_* code
    shipyard_max_waits: int
    raids: bool
    raid_per_spin: int
    davy_jones_per_spin: int
    isla_cruces_tiles: int
    retired_tile_spin: int
    retired_take_limit: int
    tile_from_player: int  # TILE_AT_RANDOM or TILE_CHOSEN
    max_turns: int
    mean_tile_value: float
    # the strategies (see strategies.seat_arrays): per profile (the seats, then each base at its defaults)
    strategy: np.ndarray  # [profiles] strategy id (a lookahead seat's: its base)
    cash_reserve: np.ndarray  # [profiles]
    future_tiles: np.ndarray  # [profiles] float
    noise: np.ndarray  # [profiles] float: the probability of a uniformly random decision
    # per seat: the search (see lookahead)
    rollouts: np.ndarray  # [players] playouts per option; 0: the seat does not search
    objective: np.ndarray  # [players] OBJECTIVE_* code
    margin: np.ndarray  # [players] float: standard errors an option must gain over the base's to replace it
    base_profile: np.ndarray  # [players] the profile every seat plays in the seat's rollouts
    noisy: bool  # some profile has noise
    searching: bool  # some seat searches
    #: count violations of the game's invariants (see :mod:`invariants`) in ``Tally.invariant_violations``
    check_invariants: bool


class Scratch(NamedTuple):
    """The game being played (the arrays serve game after game of a chunk), and the
    mechanics' :class:`Match` over it and the inputs."""

    # the game state: views into one block, ``game_state``, so a search saves and restores it whole
    players: np.ndarray  # [players, N_PLAYER_FIELDS] (columns POS, CASH, ...)
    tile_loc: np.ndarray  # [tiles] where each tile is: a seat, IN_PILE or ON_ISLA_CRUCES
    pile: np.ndarray  # [tiles] the face-down pile, pile[:PILE_COUNT]
    isla: np.ndarray  # [tiles] the tiles on Isla Cruces, isla[:ISLA_COUNT]
    life_draw: np.ndarray  # [cards] the LIFE draw pile, life_draw[:DRAW_COUNT]
    life_discard: np.ndarray  # [cards] the LIFE discard pile, life_discard[:DISCARD_COUNT]
    ship_owner: np.ndarray  # [ships] a seat, or OWNER_FREE
    mascot_owner: np.ndarray  # [mascots] a seat, or OWNER_FREE
    captain_free: np.ndarray  # [captains] 1: not drafted yet
    counters: np.ndarray  # [N_COUNTERS] the game's counters (PILE_COUNT, ..., the events)
    profile: np.ndarray  # [players] the profile (see Inputs.strategy) each seat plays now
    rng: np.ndarray  # [4] uint64: the game's generator state (the template's, copied in)
    game_state: np.ndarray  # the block holding the arrays above
    saved_state: np.ndarray  # a copy of game_state: the position a search returns to
    # working arrays
    cand: np.ndarray  # candidates of a choice (see decisions)
    cost: np.ndarray  # their costs
    drawn: np.ndarray  # [2] the cards drawn from a ship or mascot deck
    seen: np.ndarray  # the invariant checks' counts
    violations: np.ndarray  # [invariants] violations counted since the last game's end
    parts: np.ndarray  # [players, N_VALUE_PARTS] the final count's parts
    # the search (see search_state and lookahead)
    search: np.ndarray  # [N_SEARCH_FIELDS] where the search stands (S_* columns)
    search_key: np.ndarray  # [N_SEARCH_KEYS] uint64: the roots of the rollouts' streams
    fixed: np.ndarray  # the options already chosen at the searched step's decisions
    option_values: np.ndarray  # float: each option's total gain over the base's option in the rollouts
    option_squares: np.ndarray  # float: the sum of those gains' squares
    deal: np.ndarray  # [tiles] the tiles a rollout deals again
    rollout_scores: np.ndarray  # [players] a rollout's final values
    match: "Match"


class Tally(NamedTuple):
    """Dead Man's Chest's own aggregates."""

    value_parts_sum: np.ndarray  # [players, N_VALUE_PARTS]
    captain_games: np.ndarray  # [captains] (a player's game with that captain)
    captain_wins: np.ndarray
    captain_ties: np.ndarray
    captain_value_sum: np.ndarray
    captain_value_sq: np.ndarray
    route_games: np.ndarray  # [start routes]
    route_wins: np.ndarray
    route_ties: np.ndarray
    route_value_sum: np.ndarray
    route_value_sq: np.ndarray
    ship_games: np.ndarray  # [ships + 1] the last: no ship
    ship_wins: np.ndarray
    mascot_games: np.ndarray  # [mascots]
    mascot_wins: np.ndarray
    events_sum: np.ndarray  # [N_EVENTS]
    events_sq: np.ndarray
    invariant_violations: np.ndarray  # [invariants] when checking them, else [0]


@structref.register
class MatchType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Match(structref.StructRefProxy):
    """The mechanics' view of one game: every field of an :class:`Inputs` and of the state
    arrays of a :class:`Scratch` (shared, not copied). Build it with :func:`make_match`."""

    def __new__(cls, *fields):
        return structref.StructRefProxy.__new__(cls, *fields)


#: the game state arrays of a Scratch
STATE_FIELDS = Scratch._fields[:-1]
structref.define_proxy(Match, MatchType, [*Inputs._fields, *STATE_FIELDS])


@njit(cache=True)
def _new_match(*fields):
    return Match(*borrowed(fields))


def make_match(inputs: Inputs, state: dict[str, np.ndarray]) -> Match:
    """The :class:`Match` over ``inputs`` and the arrays of ``state`` (keys: ``STATE_FIELDS``).

    Its arrays are borrowed views (:func:`analyzer.engine.borrow.borrowed`): the Match itself
    keeps their owners alive, in ``owners``. Built by a cached jitted function: the proxy's own
    constructor is compiled anew in every process (most of a second, before the first game)."""
    match = _new_match(*inputs, *(state[name] for name in STATE_FIELDS))
    match.owners = (inputs, state)
    return match


@njit(cache=True, nogil=True, inline="always")
def tally_game(m, tally, scores, winners):
    """Add a finished game to the tally: value parts, and per captain, start route, ship
    and mascot held the games, wins (outright) and ties (shared wins) of its players.

    Inlined into :func:`play_game`: a call would pass the tally's 18 arrays by value
    (about 1% of a game's time).
    """
    pl = m.players
    players = pl.shape[0]
    parts = m.parts
    n_winners = 0
    for p in range(players):
        n_winners += winners[p]
    for p in range(players):
        score = scores[p]
        won = winners[p] != 0 and n_winners == 1
        tied = winners[p] != 0 and n_winners > 1
        for part in range(N_VALUE_PARTS):
            tally.value_parts_sum[p, part] += parts[p, part]
        captain = pl[p, CAPTAIN]
        tally.captain_games[captain] += 1
        tally.captain_wins[captain] += won
        tally.captain_ties[captain] += tied
        tally.captain_value_sum[captain] += score
        tally.captain_value_sq[captain] += score * score
        route = pl[p, ROUTE]
        tally.route_games[route] += 1
        tally.route_wins[route] += won
        tally.route_ties[route] += tied
        tally.route_value_sum[route] += score
        tally.route_value_sq[route] += score * score
        ship = pl[p, SHIP]
        if ship == NO_SHIP:
            ship = tally.ship_games.shape[0] - 1
        tally.ship_games[ship] += 1
        tally.ship_wins[ship] += won
        for k in range(tally.mascot_games.shape[0]):
            if (pl[p, MASCOTS] >> k) & 1:
                tally.mascot_games[k] += 1
                tally.mascot_wins[k] += won
    for e in range(N_EVENTS):
        count = m.counters[EVENT_COUNTERS[e]]
        tally.events_sum[e] += count
        tally.events_sq[e] += count * count
    for v in range(tally.invariant_violations.shape[0]):  # no columns unless checking
        tally.invariant_violations[v] += m.violations[v]
        m.violations[v] = 0


@njit(cache=True, nogil=True, inline="always")
def note_measures(m, outcome, capped):
    """The game's mechanics (its events, a mascot bought, the turn cap reached: ``MECHANIC_*``,
    each space kind landed on and LIFE card action drawn) and the components of each player:
    captain, start route, ship and mascots at the end, spaces and LIFE cards per time met (the
    order of ``game.components``).

    Written without a branch on what happened: the template clears ``triggered`` and ``holdings``
    after each game, so writing a 0 where nothing happened is the same as skipping it, and the
    events, spaces and mascots of a game are as hard to predict as the game.
    """
    triggered = outcome.triggered
    for e in range(N_EVENTS):
        triggered[e] = m.counters[EVENT_COUNTERS[e]] > 0
    triggered[MECHANIC_CAPPED] = capped
    pl = m.players
    routes_at = m.captains.shape[0]
    ships_at = routes_at + m.route_start.shape[0]
    mascots_at = ships_at + m.ships.shape[0]
    met_at = mascots_at + m.mascot_fee.shape[0]
    for p in range(pl.shape[0]):
        for kind in range(1, N_MET):
            times = pl[p, MET + kind]
            outcome.holdings[p, met_at + kind - 1] = times
            triggered[MECHANIC_MET + kind - 1] |= times > 0
        outcome.holdings[p, pl[p, CAPTAIN]] = 1
        outcome.holdings[p, routes_at + pl[p, ROUTE]] = 1
        if pl[p, SHIP] != NO_SHIP:
            outcome.holdings[p, ships_at + pl[p, SHIP]] = 1
        for k in range(m.mascot_fee.shape[0]):
            bought = (pl[p, MASCOTS] >> k) & 1
            outcome.holdings[p, mascots_at + k] = bought
            triggered[MECHANIC_MASCOT] |= bought


@njit(cache=True, nogil=True)
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one game for the chunk template (see :func:`analyzer.engine.template.play_game`).

    Scores are final values; every player with the highest wins (two or more: a shared
    win, also in a capped game); lengths are (rounds, turns). The game's own columns are
    its event counts.
    """
    m = scratch.match
    for word in range(4):
        m.rng[word] = state[word]
    new_search(m, key)
    setup_game(m)
    notes = play_steps(m, outcome)
    players = m.players.shape[0]
    turns = m.counters[TURNS_PLAYED]
    capped = m.counters[RETIRED_COUNT] < players
    scores = outcome.scores
    final_values(m, m.parts, scores)
    save_notes(outcome.steps, note_round(outcome.standings, scores, notes))  # the last round's: the final count
    if MEASURING:
        note_measures(m, outcome, capped)
    best = scores[0]
    for p in range(1, players):
        best = max(best, scores[p])
    for p in range(players):
        if scores[p] == best:
            outcome.winners[p] = 1
    outcome.lengths[0] = (turns + players - 1) // players
    outcome.lengths[1] = turns
    outcome.capped[0] = capped
    tally_game(m, tally, scores, outcome.winners)
    if game_records.shape[0] > 0:
        for e in range(N_EVENTS):
            game_records[row, e] = m.counters[EVENT_COUNTERS[e]]
