"""Spinning and sailing: forward along the board, loot on the way, stops, occupied spaces."""

from analyzer.engine.jit import njit
from analyzer.engine.rng import randint
from analyzer.games.dead_mans_chest.invariants import check_move
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    CAPTAIN_LOOT,
    POS,
    SHARE_THE_LOOT,
    SP_KIND,
    SP_NEXT,
    SP_SHARED,
    SP_STOP,
    SPINNER,
    TREASURY,
)
from analyzer.games.dead_mans_chest.money import transfer


@njit(cache=True, nogil=True)
def spin(m):
    """The spinner: 1..10 (a spin between numbers is simply spun again)."""
    return randint(m.rng, SPINNER) + 1


@njit(cache=True, nogil=True)
def occupied(m, p, space):
    """Is another ship on ``space``?"""
    pl = m.players
    for q in range(pl.shape[0]):
        if q != p and pl[q, POS] == space:
            return True
    return False


@njit(cache=True, nogil=True)
def collect_loot(m, p):
    """Land on or pass a Share the Loot space: the captain's loot from the treasury."""
    transfer(m, TREASURY, p, m.captains[m.players[p, CAPTAIN], CAPTAIN_LOOT])


@njit(cache=True, nogil=True)
def move(m, p, steps):
    """Sail ``steps`` spaces forward, collecting the loot of every Share the Loot space
    passed or landed on. A stop space ends the move at once; a ship landing on an occupied
    space sails on to the next free one. Returns the space reached."""
    spaces = m.spaces
    pl = m.players
    start = pl[p, POS]
    space = start
    while True:
        space = spaces[space, SP_NEXT]
        steps -= 1
        if spaces[space, SP_KIND] == SHARE_THE_LOOT:
            collect_loot(m, p)
        if spaces[space, SP_STOP]:
            break
        if steps <= 0 and (spaces[space, SP_SHARED] or not occupied(m, p, space)):
            break
    pl[p, POS] = space
    if m.check_invariants:
        check_move(m, start, space)
    return space
