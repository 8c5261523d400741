"""The strategies' decisions, jitted.

Each decision gets the legal candidates already in ``g[CAND:CAND + count]`` (written by
the legal-move functions of :mod:`table`) and returns the chosen one, so a strategy
can only make legal moves. ``random`` chooses uniformly; ``greedy`` and ``saboteur``
score every candidate (lower is better) and choose uniformly among the best. Their
notion of "likely to come" is :func:`table.unseen`: copies of a number neither open
on a chest nor (with ``count_discards``) in the discard pile.
"""

from numba import njit

from analyzer.engine.rng import randint
from analyzer.games.doubloons.cards import CHESTS, KEY, PARROT
from analyzer.games.doubloons.rules import R_ROUNDS_TO_WIN, STRATEGY
from analyzer.games.doubloons.strategies import (
    P_COUNT_DISCARDS,
    P_KRAKEN_HUNT_AT,
    P_MATCH_POINT_BONUS,
    P_TAKE_PARROT,
    RANDOM,
    SABOTEUR,
)
from analyzer.games.doubloons.table import (
    CAND,
    CAND_SCORE,
    F_UNOPENED,
    F_WINS,
    HOLDS_PARROT,
    SLOT_STRIDE,
    STATE,
    V_DIRECTION,
    can_place,
    discard_top,
    key_targets,
    parrot_slots,
    unseen,
)

#: added to the score of a candidate that does not hit the saboteur's rival
OFF_TARGET = 1000


@njit(cache=True)
def pick_lowest(g, count, rng):
    """The candidate with the lowest score; uniformly among ties."""
    best = g[CAND_SCORE]
    ties = 1
    for i in range(1, count):
        score = g[CAND_SCORE + i]
        if score < best:
            best = score
            ties = 1
        elif score == best:
            ties += 1
    nth = randint(rng, ties) if ties > 1 else 0
    for i in range(count):
        if g[CAND_SCORE + i] == best:
            if nth == 0:
                return g[CAND + i]
            nth -= 1
    return g[CAND]


@njit(cache=True)
def rival(tab, g, setup, params, p):
    """The opponent closest to winning: fewest chests still to open, less
    ``match_point_bonus`` for one a round win from the match; ties go to the first
    after p in the direction of play."""
    players = tab.shape[0]
    direction = g[V_DIRECTION]
    bonus = params[p, P_MATCH_POINT_BONUS]
    match_point = setup[R_ROUNDS_TO_WIN] - 1
    best = -1
    best_threat = 0.0
    q = p
    for _ in range(players - 1):
        q = (q + direction + players) % players
        threat = tab[q, F_UNOPENED] - (bonus if tab[q, F_WINS] >= match_point else 0.0)
        if best < 0 or threat < best_threat:
            best = q
            best_threat = threat
    return best


@njit(cache=True)
def choose_source(tab, g, setup, params, p, rng):
    """True: take the discard pile's top card; False: draw from the deck (both legal)."""
    strategy = setup[STRATEGY + p]
    if strategy == RANDOM:
        return randint(rng, 2) == 1
    if strategy == SABOTEUR and params[p, P_KRAKEN_HUNT_AT] > 0:
        players = tab.shape[0]
        target = rival(tab, g, setup, params, p)
        next_player = (p + g[V_DIRECTION] + players) % players
        if target == next_player and tab[target, F_UNOPENED] <= params[p, P_KRAKEN_HUNT_AT]:
            return False
    top = discard_top(g)
    if top <= CHESTS:
        return can_place(tab, p, top)
    if top == PARROT:
        return params[p, P_TAKE_PARROT] != 0 and parrot_slots(tab, g, p) > 0
    if top == KEY:
        return key_targets(tab, g, p) > 0
    return False


@njit(cache=True)
def choose_parrot_slot(tab, g, setup, params, p, count, rng):
    """Where the parrot goes: greedy picks the number least likely to come."""
    if setup[STRATEGY + p] == RANDOM:
        return g[CAND + randint(rng, count)]
    remember = params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        g[CAND_SCORE + i] = unseen(g, setup, g[CAND + i], remember)
    return pick_lowest(g, count, rng)


@njit(cache=True)
def _aim(tab, g, setup, params, p, count):
    """The saboteur's aim: push candidates not hitting its rival behind the others."""
    if setup[STRATEGY + p] != SABOTEUR:
        return
    target = rival(tab, g, setup, params, p)
    for i in range(count):
        if g[CAND + i] // SLOT_STRIDE != target:
            g[CAND_SCORE + i] += OFF_TARGET


@njit(cache=True)
def choose_swap(tab, g, setup, params, p, count, rng):
    """The pirate's swap: greedy gives its own parrot away if it can, else takes the
    number least likely to come."""
    if setup[STRATEGY + p] == RANDOM:
        return g[CAND + randint(rng, count)]
    remember = params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        slot = g[CAND + i] % SLOT_STRIDE
        g[CAND_SCORE + i] = -1 if tab[p, STATE + slot] == HOLDS_PARROT else unseen(g, setup, slot, remember)
    _aim(tab, g, setup, params, p, count)
    return pick_lowest(g, count, rng)


@njit(cache=True)
def choose_chain(tab, g, setup, params, p, count, rng):
    """A chain's target (an opponent's parrot or closed chest): greedy chains the one
    whose number is most likely to come."""
    if setup[STRATEGY + p] == RANDOM:
        return g[CAND + randint(rng, count)]
    remember = params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        g[CAND_SCORE + i] = -unseen(g, setup, g[CAND + i] % SLOT_STRIDE, remember)
    _aim(tab, g, setup, params, p, count)
    return pick_lowest(g, count, rng)


@njit(cache=True)
def choose_key(tab, g, setup, params, p, count, rng):
    """What the key unlocks: greedy frees the slot whose number is most likely to come."""
    if setup[STRATEGY + p] == RANDOM:
        return g[CAND + randint(rng, count)]
    remember = params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        g[CAND_SCORE + i] = -unseen(g, setup, g[CAND + i], remember)
    return pick_lowest(g, count, rng)

