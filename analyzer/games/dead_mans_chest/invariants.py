"""Checking mode: the game's invariants, verified independently of the code that moves
things. Violations are counted in ``m.violations`` (by kind, see ``layout.INVARIANTS``);
a correct kernel never counts one. Switched on by ``Inputs.check_invariants``.
"""

from analyzer.engine.jit import njit
from analyzer.games.dead_mans_chest.layout import (
    CASH,
    DISCARD_COUNT,
    DRAW_COUNT,
    IN_PILE,
    ISLA_COUNT,
    MASCOTS,
    ON_ISLA_CRUCES,
    OWNER_FREE,
    PAID,
    PILE_COUNT,
    RECEIVED,
    SHIP,
    SP_NEXT,
    SP_STOP,
    TILE_WORTH,
    TILES,
    TREASURY_PAID,
    TREASURY_RECEIVED,
    V_CARDS,
    V_DECKS,
    V_MONEY,
    V_MOVEMENT,
    V_TILES,
)
from analyzer.games.dead_mans_chest.tiles import tile_totals


@njit(cache=True, nogil=True)
def check_move(m, start, end):
    """Movement: ``end`` lies forward of ``start`` and no stop space lies strictly between."""
    spaces = m.spaces
    space = start
    ok = start != end
    while ok and space != end:
        space = spaces[space, SP_NEXT]
        if space < 0 or (space != end and spaces[space, SP_STOP]):
            ok = False
    if not ok:
        m.violations[V_MOVEMENT] += 1


@njit(cache=True, nogil=True)
def _check_money(m):
    pl = m.players
    received = m.counters[TREASURY_RECEIVED]
    paid = m.counters[TREASURY_PAID]
    for p in range(pl.shape[0]):
        if pl[p, CASH] < 0 or pl[p, CASH] != m.start_money + pl[p, RECEIVED] - pl[p, PAID]:
            return False
        received += pl[p, RECEIVED]
        paid += pl[p, PAID]
    return received == paid


@njit(cache=True, nogil=True)
def _check_tiles(m):
    """Every tile is in the pile, on Isla Cruces or with a player, exactly once, and each player's
    tile count and worth (kept as tiles change hands) are those of the tiles they hold."""
    n = m.tile_loc.shape[0]
    seen = m.seen
    seen[:n] = 0
    for i in range(m.counters[PILE_COUNT]):
        t = m.pile[i]
        if m.tile_loc[t] != IN_PILE:
            return False
        seen[t] += 1
    for i in range(m.counters[ISLA_COUNT]):
        t = m.isla[i]
        if m.tile_loc[t] != ON_ISLA_CRUCES:
            return False
        seen[t] += 1
    pl = m.players
    held = 0
    for t in range(n):
        owner = m.tile_loc[t]
        if owner >= 0:
            if owner >= pl.shape[0]:
                return False
            seen[t] += 1
            held += 1
        if seen[t] != 1:
            return False
    counted = 0
    for p in range(pl.shape[0]):
        counted += pl[p, TILES]
        face, bonus = tile_totals(m, p)
        if pl[p, TILE_WORTH] != face + bonus:
            return False
    return counted == held


@njit(cache=True, nogil=True)
def _check_cards(m):
    """Every LIFE card is in the draw pile or the discard pile, exactly once."""
    n = m.life_draw.shape[0]
    seen = m.seen
    seen[:n] = 0
    for i in range(m.counters[DRAW_COUNT]):
        seen[m.life_draw[i]] += 1
    for i in range(m.counters[DISCARD_COUNT]):
        seen[m.life_discard[i]] += 1
    for c in range(n):
        if seen[c] != 1:
            return False
    return True


@njit(cache=True, nogil=True)
def _check_decks(m):
    """Each ship and mascot card is in its deck or with exactly the player who shows it."""
    pl = m.players
    for s in range(m.ship_owner.shape[0]):
        owner = m.ship_owner[s]
        if owner != OWNER_FREE and (owner < 0 or owner >= pl.shape[0] or pl[owner, SHIP] != s):
            return False
    for p in range(pl.shape[0]):
        if pl[p, SHIP] >= 0 and m.ship_owner[pl[p, SHIP]] != p:
            return False
        for k in range(m.mascot_owner.shape[0]):
            if ((pl[p, MASCOTS] >> k) & 1) != (m.mascot_owner[k] == p):
                return False
    return True


@njit(cache=True, nogil=True)
def check_state(m):
    """Count a violation of each kind the current state breaks."""
    v = m.violations
    if not _check_money(m):
        v[V_MONEY] += 1
    if not _check_tiles(m):
        v[V_TILES] += 1
    if not _check_cards(m):
        v[V_CARDS] += 1
    if not _check_decks(m):
        v[V_DECKS] += 1
