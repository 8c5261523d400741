"""LIFE tiles: where each tile is, the face-down pile, Isla Cruces, and what a tile is worth.

``m.tile_loc[t]`` is the owner of tile ``t`` (a seat) or ``IN_PILE`` / ``ON_ISLA_CRUCES``;
``m.pile[:PILE_COUNT]`` and ``m.isla[:ISLA_COUNT]`` list the tiles lying there (the
pile is an unordered face-down heap: drawing takes a random one). ``players[p, TILES]``
counts a player's tiles and ``players[p, TILE_WORTH]`` adds up what they are worth to the player
(:func:`effective_value`): every change of owner (:func:`set_tile_owner`) and of mascots
(:func:`gain_mascot`) keeps both, so the standings after each round read the worth without
going through the tiles.
"""

from analyzer.engine.jit import njit
from analyzer.engine.rng import randint
from analyzer.games.dead_mans_chest.layout import (
    IN_PILE,
    ISLA_COUNT,
    MASCOTS,
    ON_ISLA_CRUCES,
    PILE_COUNT,
    TILE_MASCOT,
    TILE_VALUE,
    TILE_WORTH,
    TILES,
)


@njit(cache=True, nogil=True)
def effective_value(m, p, t):
    """What tile ``t`` is worth to player ``p`` at the final count (doubled for its mascot's owner).
    Without a branch: whether a tile is doubled is as hard to predict as the game."""
    mascot = m.tiles[t, TILE_MASCOT]
    doubled = (mascot >= 0) & ((m.players[p, MASCOTS] >> max(mascot, 0)) & 1)
    return m.tiles[t, TILE_VALUE] << doubled


@njit(cache=True, nogil=True)
def set_tile_owner(m, t, owner):
    """Move tile ``t`` from wherever it is to ``owner`` (a seat), keeping the tile counts and worths."""
    tile_loc = m.tile_loc
    pl = m.players
    old = tile_loc[t]
    if old >= 0:
        pl[old, TILES] -= 1
        pl[old, TILE_WORTH] -= effective_value(m, old, t)
    if owner >= 0:
        pl[owner, TILES] += 1
        pl[owner, TILE_WORTH] += effective_value(m, owner, t)
    tile_loc[t] = owner


@njit(cache=True, nogil=True)
def gain_mascot(m, p, mascot):
    """Player ``p`` now owns ``mascot`` (not owned before): the tiles ``p`` holds marked with it
    count double from now on."""
    tile_loc = m.tile_loc
    tiles = m.tiles
    pl = m.players
    doubled = 0
    for t in range(tile_loc.shape[0]):
        doubled += ((tile_loc[t] == p) & (tiles[t, TILE_MASCOT] == mascot)) * tiles[t, TILE_VALUE]
    pl[p, TILE_WORTH] += doubled
    m.mascot_owner[mascot] = p
    pl[p, MASCOTS] |= 1 << mascot


@njit(cache=True, nogil=True)
def count_tile_worths(m):
    """Every player's ``TILE_WORTH`` counted afresh from the tiles they hold, as the final count
    counts them (:func:`tile_totals`), after tiles were dealt again without :func:`set_tile_owner`."""
    pl = m.players
    for p in range(pl.shape[0]):
        face, bonus = tile_totals(m, p)
        pl[p, TILE_WORTH] = face + bonus


@njit(cache=True, nogil=True)
def draw_from_pile(m):
    """A random tile taken off the pile (the caller gives it an owner), or -1 if it is empty."""
    counters = m.counters
    pile = m.pile
    count = counters[PILE_COUNT]
    if count == 0:
        return -1
    i = randint(m.rng, count)
    t = pile[i]
    pile[i] = pile[count - 1]
    counters[PILE_COUNT] = count - 1
    return t


@njit(cache=True, nogil=True)
def return_to_pile(m, t):
    """Put tile ``t`` face down on the pile (a cashed-in tile)."""
    set_tile_owner(m, t, IN_PILE)
    m.pile[m.counters[PILE_COUNT]] = t
    m.counters[PILE_COUNT] += 1


@njit(cache=True, nogil=True)
def deal_tiles(m, isla_cruces_tiles):
    """New game: every tile on the pile, then ``isla_cruces_tiles`` random ones onto Isla Cruces."""
    tile_loc = m.tile_loc
    pile = m.pile
    n = tile_loc.shape[0]
    for t in range(n):
        tile_loc[t] = IN_PILE
        pile[t] = t
    m.counters[PILE_COUNT] = n
    m.counters[ISLA_COUNT] = 0
    for _ in range(isla_cruces_tiles):
        t = draw_from_pile(m)
        m.tile_loc[t] = ON_ISLA_CRUCES
        m.isla[m.counters[ISLA_COUNT]] = t
        m.counters[ISLA_COUNT] += 1


@njit(cache=True, nogil=True)
def take_from_isla(m, i, owner):
    """Give the ``i``-th tile lying on Isla Cruces to ``owner``."""
    count = m.counters[ISLA_COUNT]
    t = m.isla[i]
    m.isla[i] = m.isla[count - 1]
    m.counters[ISLA_COUNT] = count - 1
    set_tile_owner(m, t, owner)
    return t


@njit(cache=True, nogil=True)
def nth_tile_of(m, p, n):
    """The ``n``-th tile (in tile order) held by player ``p``."""
    tile_loc = m.tile_loc
    for t in range(tile_loc.shape[0]):
        if tile_loc[t] == p:
            if n == 0:
                return t
            n -= 1
    return -1


@njit(cache=True, nogil=True)
def rank_of_tile(m, p, t):
    """How many of player ``p``'s tiles come before tile ``t`` (the inverse of :func:`nth_tile_of`)."""
    tile_loc = m.tile_loc
    rank = 0
    for u in range(t):
        rank += tile_loc[u] == p
    return rank


@njit(cache=True, nogil=True)
def best_tile_of(m, owner, for_player):
    """The tile of ``owner`` worth most to ``for_player`` (-1 if ``owner`` has none)."""
    tile_loc = m.tile_loc
    best = -1
    best_value = -1
    for t in range(tile_loc.shape[0]):
        if tile_loc[t] == owner:
            value = effective_value(m, for_player, t)
            if value > best_value:
                best = t
                best_value = value
    return best


@njit(cache=True, nogil=True)
def tile_totals(m, p):
    """(face value, mascot bonus) of the tiles player ``p`` holds."""
    tile_loc = m.tile_loc
    face = 0
    bonus = 0
    for t in range(tile_loc.shape[0]):
        if tile_loc[t] == p:
            value = m.tiles[t, TILE_VALUE]
            face += value
            bonus += effective_value(m, p, t) - value
    return face, bonus
