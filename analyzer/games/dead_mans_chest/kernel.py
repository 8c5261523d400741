"""Whole games in one jitted call: set-up and captain draft, turns, the final count, and
what each game adds to the tally; :func:`play_game` is the play function of the chunk
template (:mod:`analyzer.engine.template`).

Every mechanic is a small jitted function ``f(m, player, ...)`` where ``m`` is a
:class:`Match`: one reference to every field of the run's :class:`Inputs` and of the
game state in :class:`Scratch`, so a mechanic reads ``m.players``, ``m.spaces``,
``m.loan_amount``... (Passing the two NamedTuples instead, some 40 arrays by value to
every mechanic, makes games ten times slower.)
"""

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core import types
from numba.experimental import structref

from analyzer.engine.rng import randint
from analyzer.games.dead_mans_chest.actions import land_on, offer_mascots, retire, retired_turn, visit_shipyard
from analyzer.games.dead_mans_chest.decisions import choose_captain, ship_fee
from analyzer.games.dead_mans_chest.invariants import check_state
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    CAPTAIN_ROUTE,
    CASH,
    CHOOSE_A_MASCOT,
    DRAFT_FIRST_PLAYER,
    DRAFT_LAST_PLAYER,
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
    # the seats (see strategies.seat_arrays)
    strategy: np.ndarray  # [players] strategy id
    cash_reserve: np.ndarray  # [players]
    future_tiles: np.ndarray  # [players] float
    #: count violations of the game's invariants (see :mod:`invariants`) in ``Tally.invariant_violations``
    check_invariants: bool


class Scratch(NamedTuple):
    """The state of the game being played (the arrays serve game after game of a chunk),
    and the mechanics' :class:`Match` over it and the inputs."""

    players: np.ndarray  # [players, N_PLAYER_FIELDS] (columns POS, CASH, ...)
    tile_loc: np.ndarray  # [tiles] where each tile is: a seat, IN_PILE or ON_ISLA_CRUCES
    pile: np.ndarray  # [tiles] the face-down pile, pile[:PILE_COUNT]
    isla: np.ndarray  # [tiles] the tiles on Isla Cruces, isla[:ISLA_COUNT]
    life_draw: np.ndarray  # [cards] the LIFE draw pile, life_draw[:DRAW_COUNT]
    life_discard: np.ndarray  # [cards] the LIFE discard pile, life_discard[:DISCARD_COUNT]
    ship_owner: np.ndarray  # [ships] a seat, or OWNER_FREE
    mascot_owner: np.ndarray  # [mascots] a seat, or OWNER_FREE
    captain_free: np.ndarray  # [captains] 1: not drafted yet
    cand: np.ndarray  # candidates of a choice (see decisions)
    cost: np.ndarray  # their costs
    drawn: np.ndarray  # [2] the cards drawn from a ship or mascot deck
    seen: np.ndarray  # the invariant checks' counts
    counters: np.ndarray  # [N_COUNTERS] the game's counters (PILE_COUNT, ..., the events)
    violations: np.ndarray  # [invariants] violations counted since the last game's end
    rng: np.ndarray  # [4] uint64: the game's generator state (the template's, copied in)
    parts: np.ndarray  # [players, N_VALUE_PARTS] the final count's parts
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


def make_match(inputs: Inputs, state: dict[str, np.ndarray]) -> Match:
    """The :class:`Match` over ``inputs`` and the arrays of ``state`` (keys: ``STATE_FIELDS``)."""
    return Match(*inputs, *(state[name] for name in STATE_FIELDS))


@njit(cache=True, nogil=True)
def draft_captain(m, p):
    """Leaving port: draw two of the captains not drafted yet, keep one, return the other."""
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
def first_drafter(m):
    """The seat that starts the captain draft (``draft_start``): seat 1, the last seat, or
    a seat drawn from the game's own stream."""
    players = m.players.shape[0]
    if m.draft_start == DRAFT_FIRST_PLAYER:
        return 0
    if m.draft_start == DRAFT_LAST_PLAYER:
        return players - 1
    return randint(m.rng, players)


@njit(cache=True, nogil=True)
def setup_game(m):
    """A new game: money, tiles (three hidden on Isla Cruces), decks, then the captain
    draft, clockwise (in seat order) from :func:`first_drafter`."""
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
    players = pl.shape[0]
    first = first_drafter(m)
    for k in range(players):
        draft_captain(m, (first + k) % players)


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
def play_turns(m):
    """Play a set-up game, seat 1 first, to the end (everyone retired) or the turn cap.
    Returns (turns, capped); every round but the last has one turn per player."""
    players = m.players.shape[0]
    counters = m.counters
    turns = 0
    while True:
        for p in range(players):
            if turns == m.max_turns:
                return turns, True
            turns += 1
            play_turn(m, p)
            if m.check_invariants:
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
    setup_game(m)
    turns, capped = play_turns(m)
    players = m.players.shape[0]
    scores = outcome.scores
    final_values(m, m.parts, scores)
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
