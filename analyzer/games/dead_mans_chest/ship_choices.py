"""The decisions about ships (jitted): which to buy at the Shipyard, what to acquire, whom to
raid. The conventions are those of :mod:`decisions`.
"""

from analyzer.engine.jit import njit
from analyzer.games.dead_mans_chest.decisions import (
    DECLINE,
    DRAW_FROM_DECK,
    NOT_FORCED,
    leader,
    overriding_option,
    profile_of,
    public_worth,
)
from analyzer.games.dead_mans_chest.layout import (
    AGGRESSIVE,
    CASH,
    NO_SHIP,
    SHIP,
    SHIP_COMBAT,
    SHIP_FEE,
    SHIP_PEARL,
    SPINNER,
    THRIFTY,
)
from analyzer.games.dead_mans_chest.search_state import note_policy_option
from analyzer.games.dead_mans_chest.ships import attack_win_probability, is_upgrade, ship_combat, ship_fee


@njit(cache=True, nogil=True)
def _stronger(m, a, b):
    """Is ship ``a`` preferable to ship ``b``: more combat, on a tie the cheaper? (The
    dearer of two equals buys nothing in a fight, costs more, and, the Black Pearl, makes
    its owner the target of a swap.)"""
    ships = m.ships
    if ships[a, SHIP_COMBAT] != ships[b, SHIP_COMBAT]:
        return ships[a, SHIP_COMBAT] > ships[b, SHIP_COMBAT]
    return ships[a, SHIP_FEE] < ships[b, SHIP_FEE]


@njit(cache=True, nogil=True)
def _cheapest(m, n):
    cand = m.cand
    ships = m.ships
    best = 0
    for i in range(1, n):
        a = cand[i]
        b = cand[best]
        if ships[a, SHIP_FEE] < ships[b, SHIP_FEE] or (
                ships[a, SHIP_FEE] == ships[b, SHIP_FEE] and ships[a, SHIP_COMBAT] > ships[b, SHIP_COMBAT]):
            best = i
    return best


@njit(cache=True, nogil=True)
def choose_ship(m, p, n, mandatory):
    """Pick a ship among ``m.cand[:n]`` costing ``m.cost[:n]`` (all affordable).

    ``mandatory`` (the Shipyard): one must be bought. Otherwise (upgrades) the answer may
    be ``DECLINE``.
    """
    row = profile_of(m, p)
    strategy = m.strategy[row]
    forced = overriding_option(m, p, row, strategy, n if mandatory else n + 1, False)
    if forced != NOT_FORCED:
        return forced if forced < n else DECLINE
    best = _ship_policy(m, p, row, strategy, n, mandatory)
    note_policy_option(m, p, n if best == DECLINE else best)
    return best


@njit(cache=True, nogil=True)
def _ship_policy(m, p, row, strategy, n, mandatory):
    """:func:`choose_ship` by the policy of ``p``'s profile ``row``."""
    if strategy == THRIFTY:
        return _cheapest(m, n) if mandatory else DECLINE
    cand = m.cand
    cost = m.cost
    ships = m.ships
    spendable = m.players[p, CASH] - m.cash_reserve[row]
    current = NO_SHIP if mandatory else m.players[p, SHIP]
    best = DECLINE
    for i in range(n):
        ship = cand[i]
        if cost[i] > spendable:
            continue
        if current != NO_SHIP and ships[ship, SHIP_COMBAT] <= ships[current, SHIP_COMBAT]:
            continue
        if best == DECLINE or _stronger(m, ship, cand[best]):
            best = i
    if best == DECLINE and mandatory:
        if strategy == AGGRESSIVE:
            best = 0
            for i in range(1, n):
                if _stronger(m, cand[i], cand[best]):
                    best = i
        else:
            best = _cheapest(m, n)
    return best


@njit(cache=True, nogil=True)
def choose_vessel_source(m, p, n):
    """Acquire Vessel: take a player's ship (index into ``m.cand[:n]``, ships with their
    owners' price in ``m.cost``), ``DRAW_FROM_DECK`` or ``DECLINE``."""
    row = profile_of(m, p)
    strategy = m.strategy[row]
    forced = overriding_option(m, p, row, strategy, n + 2, False)
    if forced != NOT_FORCED:
        if forced == n:
            return DRAW_FROM_DECK
        return DECLINE if forced == n + 1 else forced
    if strategy == THRIFTY:
        note_policy_option(m, p, n + 1)
        return DECLINE
    i = _ship_policy(m, p, row, strategy, n, False)
    note_policy_option(m, p, n if i == DECLINE else i)
    return DRAW_FROM_DECK if i == DECLINE else i


@njit(cache=True, nogil=True)
def raid_value(m, p, q):
    """Expected dollars ``p`` gains by raiding ``q``: the take, and a Black Pearl swap
    (only for a raider with a ship to swap)."""
    mine = m.players[p, SHIP]
    theirs = m.players[q, SHIP]
    gain = (SPINNER + 1) / 2 * m.raid_per_spin
    if mine != NO_SHIP and m.ships[theirs, SHIP_PEARL] != 0:
        gain += m.ships[theirs, SHIP_FEE] - ship_fee(m, mine)
    return attack_win_probability(ship_combat(m, mine) - ship_combat(m, theirs)) * gain


@njit(cache=True, nogil=True)
def swaps_down(m, p, q):
    """Would ``p`` beating ``q`` in a raid swap ``p``'s ship for a weaker Black Pearl?"""
    mine = m.players[p, SHIP]
    theirs = m.players[q, SHIP]
    return mine != NO_SHIP and m.ships[theirs, SHIP_PEARL] != 0 and is_upgrade(m, mine, theirs)


@njit(cache=True, nogil=True)
def _leader_not_swapping_down(m, p, n):
    """Index of the leader (:func:`public_worth`) among the targets ``m.cand[:n]`` whose
    defeat would not swap ``p``'s ship for a weaker Black Pearl; the leader of all if none."""
    cand = m.cand
    best = -1
    best_worth = 0.0
    for i in range(n):
        if swaps_down(m, p, cand[i]):
            continue
        worth = public_worth(m, cand[i])
        if best == -1 or worth > best_worth:
            best = i
            best_worth = worth
    return leader(m, n) if best == -1 else best


@njit(cache=True, nogil=True)
def choose_raid_target(m, p, n):
    """Whom to attack among ``m.cand[:n]`` (players with a ship, still sailing)."""
    row = profile_of(m, p)
    strategy = m.strategy[row]
    forced = overriding_option(m, p, row, strategy, n, False)
    if forced != NOT_FORCED:
        return forced
    best = _leader_not_swapping_down(m, p, n) if strategy == AGGRESSIVE else _best_expected_take(m, p, n)
    note_policy_option(m, p, best)
    return best


@njit(cache=True, nogil=True)
def _best_expected_take(m, p, n):
    """Index of the target with the best :func:`raid_value` (ties: the leader)."""
    cand = m.cand
    best = 0
    best_value = raid_value(m, p, cand[0])
    for i in range(1, n):
        q = cand[i]
        value = raid_value(m, p, q)
        if value > best_value or (value == best_value and public_worth(m, q) > public_worth(m, cand[best])):
            best = i
            best_value = value
    return best
