"""A game as a sequence of steps: set-up, then each player's captain draft, then turns
until everyone has retired (or the turn cap), then the final count.

:func:`next_step` says whose step comes next; the game's counters hold where it is
(``DRAFTED``, ``TURNS_PLAYED``), so a game can be played on from any position: the real
game step by step and a lookahead's rollouts to the end (see :mod:`lookahead`).
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.quality import NO_TOP_SCORE, join_top_scorers
from analyzer.engine.rng import randint
from analyzer.games.dead_mans_chest.actions import land_on, offer_mascots, retire, retired_turn, visit_shipyard
from analyzer.games.dead_mans_chest.decisions import choose_captain
from analyzer.games.dead_mans_chest.invariants import check_state
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    CAPTAIN_ROUTE,
    CAPTAINS_DEALT,
    CASH,
    CHOOSE_A_MASCOT,
    DRAFT_FIRST_PLAYER,
    DRAFT_LAST_PLAYER,
    DRAFTED,
    DRAW_COUNT,
    ISLA_CRUCES,
    LOANS,
    MASCOT_VALUE,
    MET,
    N_PLAYER_FIELDS,
    NEXT_DRAFTER,
    NEXT_SEAT,
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
    SHIP_FEE,
    SHIPYARD,
    SP_KIND,
    TAKEN_THIS_TURN,
    TILE_WORTH,
    TURNS_PLAYED,
    UNPAID,
    UNPAID_FORGIVE,
)
from analyzer.games.dead_mans_chest.money import settle_loans
from analyzer.games.dead_mans_chest.movement import move, spin
from analyzer.games.dead_mans_chest.ships import ship_fee
from analyzer.games.dead_mans_chest.tiles import deal_tiles, tile_totals

# the kinds of step (see next_step)
DRAFT_STEP, TURN_STEP, GAME_OVER = range(3)


@njit(cache=True, nogil=True)
def draft_captain(m, p):
    """Leaving port: draw two of the captains not drafted yet, keep one, return the other; with
    ``captain_draft = random`` the first drawn is kept, no choice (the same draws as the draft,
    so both rules play the rest of a game from the same random numbers)."""
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
    if m.captain_draft == CAPTAINS_DEALT:
        captain = cand[first]
    else:
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
    """A new game: money, tiles (three hidden on Isla Cruces), decks, each seat playing its
    own profile, and who starts the captain draft (:func:`first_drafter`); the draft goes
    clockwise (in seat order) from there, a step per player (:func:`next_step`)."""
    pl = m.players
    profile = m.profile
    m.counters[:] = 0
    for p in range(pl.shape[0]):
        for f in range(N_PLAYER_FIELDS):
            pl[p, f] = 0
        pl[p, CASH] = m.start_money
        pl[p, SHIP] = NO_SHIP
        profile[p] = p
    deal_tiles(m, m.isla_cruces_tiles)
    life_draw = m.life_draw
    for c in range(life_draw.shape[0]):
        life_draw[c] = c
    m.counters[DRAW_COUNT] = life_draw.shape[0]
    m.ship_owner[:] = OWNER_FREE
    m.mascot_owner[:] = OWNER_FREE
    m.captain_free[:] = 1
    m.counters[NEXT_DRAFTER] = first_drafter(m)


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
        pl[p, MET + kind] += 1
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


@njit(cache=True, nogil=True, inline="always")
def next_step(counters, players, max_turns):
    """(kind, seat) of the next step of a game with these ``counters`` (``m.counters``),
    counted as taken: ``DRAFT_STEP`` for each player in draft order, then ``TURN_STEP``
    from seat 1 on (every round one turn per player), or ``GAME_OVER`` (seat -1) once
    everyone has retired or the turn cap is reached. (Callers read ``m``'s fields once,
    not once a step.)"""
    if counters[DRAFTED] < players:
        return DRAFT_STEP, _take_seat(counters, NEXT_DRAFTER, DRAFTED, players)
    if counters[RETIRED_COUNT] == players or counters[TURNS_PLAYED] == max_turns:
        return GAME_OVER, -1
    return TURN_STEP, _take_seat(counters, NEXT_SEAT, TURNS_PLAYED, players)


@njit(cache=True, nogil=True, inline="always")
def _take_seat(counters, seat_column, count_column, players):
    """The seat in ``counters[seat_column]``; the next one (clockwise) goes there and the
    count in ``count_column`` goes up."""
    seat = counters[seat_column]
    counters[seat_column] = seat + 1 if seat + 1 < players else 0
    counters[count_column] += 1
    return seat


@njit(cache=True, nogil=True, inline="always")
def play_step(m, step, p):
    """Seat ``p``'s draft or turn (a step of :func:`next_step`); in checking mode the
    invariants are checked after every turn."""
    if step == DRAFT_STEP:
        draft_captain(m, p)
        return
    play_turn(m, p)
    if m.check_invariants:
        check_state(m)


@njit(cache=True, nogil=True, inline="always")
def standing_value(m, p):
    """Player ``p``'s worth during the game, for the standings after a round: the final count's
    parts as they stand (tiles with their mascot bonus, cash, ship, mascots) minus the loans not
    yet repaid and, unless forgiven, unpaid debt. Changes nothing.

    The tiles' worth is the one ``tiles`` keeps as they change hands (``TILE_WORTH``): going
    through the 25 tiles here each round cost some 600 instructions a round (callgrind)."""
    pl = m.players
    ship = pl[p, SHIP]
    fee = 0 if ship == NO_SHIP else m.ships[ship, SHIP_FEE]  # as ships.ship_fee
    unpaid = 0 if m.unpaid_loan == UNPAID_FORGIVE else pl[p, UNPAID]
    return pl[p, TILE_WORTH] + pl[p, CASH] + fee + pl[p, MASCOT_VALUE] - pl[p, LOANS] * m.loan_amount - unpaid


@njit(cache=True, nogil=True, inline="always")
def standing_leaders(m):
    """The players of the top worth (:func:`standing_value`) after a round, as a bit mask (see
    :func:`analyzer.engine.quality.note_leaders`), found as each worth is worked out: no worth is
    stored (stored in the outcome's scores and read back, a game took 126 more instructions and 16
    more mispredicted branches, callgrind). Inlined into its one caller: as a call, a game took 361
    more instructions and 21 more mispredicted branches."""
    top, leaders = NO_TOP_SCORE, 0
    for p in range(m.players.shape[0]):
        top, leaders = join_top_scorers(top, leaders, p, standing_value(m, p))
    return leaders


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
