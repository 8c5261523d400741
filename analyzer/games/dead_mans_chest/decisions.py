"""Every choice a player makes, for each strategy (jitted).

Callers put the legal options in ``m.cand[:n]`` (with their costs in ``m.cost[:n]``
where a choice costs money) and get back an index into that list, or ``DECLINE`` where
the choice is optional. Strategies only see legal options, so they only make legal
moves. Public information only, except a player's own tiles: other players' tiles lie
face down, so "the leader" is judged by :func:`public_worth`.

A seat plays its profile ``row = profile_of(m, p)`` (strategy ``m.strategy[row]`` and its
parameters). Each decision numbers its options (``m.cand[:n]``, then ``DRAW_FROM_DECK``
and ``DECLINE`` where they are allowed) and first asks :func:`overriding_option`: the
random strategy, noise or the search (:mod:`search_state`) may take one of them.
"""

from analyzer.engine.jit import njit
from analyzer.engine.rng import randint, random01
from analyzer.games.dead_mans_chest.layout import (
    AGGRESSIVE,
    CAPTAIN_LOOT,
    CAPTAIN_ROUTE_LOOT,
    CASH,
    ISLA_COUNT,
    LOANS,
    MASCOT_VALUE,
    RANDOM,
    SHIP,
    THRIFTY,
    TILE_CHOSEN,
    TILE_MASCOT,
    TILE_VALUE,
    TILES,
    UNPAID,
    UNPAID_FORGIVE,
)
from analyzer.games.dead_mans_chest.search_state import NOT_FORCED, note_policy_option, searched_option
from analyzer.games.dead_mans_chest.ships import ship_fee
from analyzer.games.dead_mans_chest.tiles import best_tile_of, effective_value, nth_tile_of, rank_of_tile

DECLINE = -1
DRAW_FROM_DECK = -2  # acquire vessel: draw two ship cards instead of taking a player's ship


@njit(cache=True, nogil=True, inline="always")
def profile_of(m, p):
    """The profile seat ``p`` plays now (see ``Inputs.strategy``): its own, except in a
    search's rollouts (the profile array is read only in games with a search player).
    Inlined, as are :func:`overriding_option` and ``search_state.note_policy_option``: a
    game without noise or search then makes no call at a decision (each call of a jitted
    function with ``m`` costs reference counts)."""
    return m.profile[p] if m.searching else p


@njit(cache=True, nogil=True, inline="always")
def overriding_option(m, p, row, strategy, options, sees_isla):
    """An option (0 .. options - 1) taken whatever the policy of seat ``p``'s profile
    ``row`` (strategy ``strategy``) says: with probability ``noise`` one uniformly at
    random (a noise of 0 draws no random number); else the search's
    (:func:`searched_option`); else, for the random strategy, one uniformly at random;
    else ``NOT_FORCED``. (``noisy`` and ``searching`` spare the plain games the checks.)"""
    if not (m.noisy or m.searching or strategy == RANDOM):
        return NOT_FORCED
    return _overriding_option(m, p, row, strategy, options, sees_isla)


@njit(cache=True, nogil=True)
def _overriding_option(m, p, row, strategy, options, sees_isla):
    """:func:`overriding_option` for a noisy or random profile or a game with a search player."""
    if m.noisy:
        noise = m.noise[row]
        if noise > 0 and random01(m.rng) < noise:
            return randint(m.rng, options)
    if m.searching:
        forced = searched_option(m, p, options, sees_isla)
        if forced != NOT_FORCED:
            return forced
    if strategy == RANDOM:
        return randint(m.rng, options)
    return NOT_FORCED


@njit(cache=True, nogil=True)
def public_worth(m, q):
    """Player ``q``'s value as the other players see it (face-down tiles at the mean tile value)."""
    pl = m.players
    debt = pl[q, LOANS] * (m.loan_amount + m.loan_interest)
    if m.unpaid_loan != UNPAID_FORGIVE:
        debt += pl[q, UNPAID]
    return (pl[q, CASH] + ship_fee(m, pl[q, SHIP]) + pl[q, MASCOT_VALUE] - debt
            + pl[q, TILES] * m.mean_tile_value)


@njit(cache=True, nogil=True)
def leader(m, n):
    """Index of the candidate player (``m.cand[:n]``) with the highest public worth."""
    cand = m.cand
    best = 0
    best_worth = public_worth(m, cand[0])
    for i in range(1, n):
        worth = public_worth(m, cand[i])
        if worth > best_worth:
            best = i
            best_worth = worth
    return best


@njit(cache=True, nogil=True)
def choose_captain(m, p, first, second):
    """Keep one of the two captains drawn in the draft."""
    row = profile_of(m, p)
    strategy = m.strategy[row]
    forced = overriding_option(m, p, row, strategy, 2, False)
    if forced != NOT_FORCED:
        return first if forced == 0 else second
    column = CAPTAIN_LOOT if strategy == AGGRESSIVE else CAPTAIN_ROUTE_LOOT
    keep_second = m.captains[second, column] > m.captains[first, column]
    note_policy_option(m, p, 1 if keep_second else 0)
    return second if keep_second else first


@njit(cache=True, nogil=True)
def mascot_score(m, p, mascot, future_tiles):
    """Expected doubling bonus of ``mascot`` for ``p``: tiles in hand carrying it, plus
    ``future_tiles`` draws from the tiles ``p`` does not hold."""
    tiles = m.tiles
    tile_loc = m.tile_loc
    held = 0.0
    elsewhere = 0.0
    n_tiles = tile_loc.shape[0]
    for t in range(n_tiles):
        if tiles[t, TILE_MASCOT] == mascot:
            if tile_loc[t] == p:
                held += tiles[t, TILE_VALUE]
            else:
                elsewhere += tiles[t, TILE_VALUE]
    others = n_tiles - m.players[p, TILES]
    if others > 0:
        held += future_tiles * elsewhere / others
    return held


@njit(cache=True, nogil=True)
def choose_mascot(m, p, n, mandatory):
    """Pick a mascot among ``m.cand[:n]`` (all affordable); optional buys may ``DECLINE``."""
    row = profile_of(m, p)
    strategy = m.strategy[row]
    forced = overriding_option(m, p, row, strategy, n if mandatory else n + 1, False)
    if forced != NOT_FORCED:
        return forced if forced < n else DECLINE
    best = _mascot_policy(m, p, row, strategy, n, mandatory)
    note_policy_option(m, p, n if best == DECLINE else best)
    return best


@njit(cache=True, nogil=True)
def _mascot_policy(m, p, row, strategy, n, mandatory):
    """:func:`choose_mascot` by the policy of ``p``'s profile ``row``."""
    cand = m.cand
    fees = m.mascot_fee
    thrifty = strategy == THRIFTY
    future = 0.0 if thrifty else m.future_tiles[row]
    spendable = m.players[p, CASH] - m.cash_reserve[row]
    best = DECLINE
    best_score = 0.0
    for i in range(n):
        mascot = cand[i]
        fee = fees[mascot]
        score = mascot_score(m, p, mascot, future)
        if mandatory:
            if best == DECLINE:
                better = True
            elif thrifty:
                better = fee < fees[cand[best]]
            else:
                better = score > best_score or (score == best_score and fee < fees[cand[best]])
        else:
            better = score > best_score and fee <= spendable
        if better:
            best = i
            best_score = score
    return best


@njit(cache=True, nogil=True)
def choose_victim(m, p, n):
    """Whose tile to take among ``m.cand[:n]``: with face-down tiles the leader's;
    when tiles are chosen (``tile_from_player = choose``), the best tile on offer."""
    row = profile_of(m, p)
    strategy = m.strategy[row]
    forced = overriding_option(m, p, row, strategy, n, False)
    if forced != NOT_FORCED:
        return forced
    best = _victim_policy(m, p, strategy, n)
    note_policy_option(m, p, best)
    return best


@njit(cache=True, nogil=True)
def _victim_policy(m, p, strategy, n):
    """:func:`choose_victim` by ``strategy``."""
    if strategy == AGGRESSIVE or m.tile_from_player != TILE_CHOSEN:
        return leader(m, n)
    cand = m.cand
    best = 0
    best_value = effective_value(m, p, best_tile_of(m, cand[0], p))
    for i in range(1, n):
        value = effective_value(m, p, best_tile_of(m, cand[i], p))
        if value > best_value:
            best = i
            best_value = value
    return best


@njit(cache=True, nogil=True)
def choose_isla_tile(m, p):
    """Which of the tiles on Isla Cruces to keep (index into ``m.isla``); the player looks."""
    count = m.counters[ISLA_COUNT]
    row = profile_of(m, p)
    forced = overriding_option(m, p, row, m.strategy[row], count, True)
    if forced != NOT_FORCED:
        return forced
    isla = m.isla
    best = 0
    for i in range(1, count):
        if effective_value(m, p, isla[i]) > effective_value(m, p, isla[best]):
            best = i
    note_policy_option(m, p, best)
    return best


@njit(cache=True, nogil=True)
def choose_tile_to_cash(m, p, need):
    """Which tile to trade in for its face value when ``need`` dollars are missing: first
    tiles that lose nothing (not doubled), the smallest that covers ``need``, else the
    largest."""
    row = profile_of(m, p)
    forced = overriding_option(m, p, row, m.strategy[row], m.players[p, TILES], False)
    if forced != NOT_FORCED:
        return nth_tile_of(m, p, forced)
    tile = _tile_to_cash_policy(m, p, need)
    note_policy_option(m, p, rank_of_tile(m, p, tile))
    return tile


@njit(cache=True, nogil=True)
def _tile_to_cash_policy(m, p, need):
    """:func:`choose_tile_to_cash` by the policy every strategy but random shares."""
    tile_loc = m.tile_loc
    best = -1
    best_loss = 0
    best_face = 0
    for t in range(tile_loc.shape[0]):
        if tile_loc[t] != p:
            continue
        face = m.tiles[t, TILE_VALUE]
        loss = effective_value(m, p, t) - face
        if best == -1 or loss < best_loss:
            better = True
        elif loss > best_loss:
            better = False
        elif face >= need:
            better = best_face < need or face < best_face
        else:
            better = best_face < need and face > best_face
        if better:
            best = t
            best_loss = loss
            best_face = face
    return best
