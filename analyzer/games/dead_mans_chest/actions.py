"""What the spaces and LIFE cards do: ships, mascots, raids, tiles, Isla Cruces.

One small jitted function per mechanic; ``land_on`` dispatches a space, ``play_life_card``
a LIFE card.
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.rng import randint
from analyzer.games.dead_mans_chest.decisions import (
    DECLINE,
    DRAW_FROM_DECK,
    choose_isla_tile,
    choose_mascot,
    choose_victim,
)
from analyzer.games.dead_mans_chest.layout import (
    ACQUIRE_VESSEL,
    CARD_ACTION,
    CARD_AMOUNT,
    CARD_COLLECT,
    CARD_COLLECT_FROM_EACH,
    CARD_PAY,
    CARD_PAY_EACH,
    CARD_SPIN_COLLECT,
    CARD_SPIN_PAY,
    CARD_TAKE_TILES,
    CARD_TILES,
    CASH,
    CHOOSE_ANOTHER_MASCOT,
    COLLECT,
    DAVY_JONES,
    DISCARD_COUNT,
    DRAW_COUNT,
    ISLA_COUNT,
    LIFE,
    MASCOT_VALUE,
    MET_CARDS,
    NO_SHIP,
    OWNER_FREE,
    PAY,
    PILE_RAN_DRY,
    RAID,
    RAID_WINS,
    RAIDS,
    RETIRED,
    RETIRED_COUNT,
    SHIP,
    SHIP_FEE,
    SHIP_PEARL,
    SHIPYARD_LOANS,
    SHIPYARD_WAITS,
    SP_AMOUNT,
    SP_KIND,
    TAKEN_THIS_TURN,
    TILE_CHOSEN,
    TILES,
    TILES_TAKEN,
    TREASURY,
    WAITS,
)
from analyzer.games.dead_mans_chest.money import pay_debt, settle_loans, take_loan, transfer
from analyzer.games.dead_mans_chest.movement import spin
from analyzer.games.dead_mans_chest.ship_choices import choose_raid_target, choose_ship, choose_vessel_source
from analyzer.games.dead_mans_chest.ships import is_upgrade, ship_combat, ship_fee
from analyzer.games.dead_mans_chest.tiles import (
    best_tile_of,
    draw_from_pile,
    gain_mascot,
    nth_tile_of,
    set_tile_owner,
    take_from_isla,
)


# -- drawing cards from the ship and mascot decks -------------------------------------------
@njit(cache=True, nogil=True)
def draw_two(m, owners):
    """Draw up to two cards at random from a deck (``owners[c] == OWNER_FREE`` means card
    ``c`` is in it) into ``m.drawn``; the cards stay in the deck until bought. Returns
    how many were drawn (fewer than two only when the deck is that short)."""
    cand = m.cand
    free = np.int64(0)
    for c in range(owners.shape[0]):
        if owners[c] == OWNER_FREE:
            cand[free] = c
            free += 1
    if free == 0:
        return 0
    first = randint(m.rng, free)
    m.drawn[0] = cand[first]
    if free == 1:
        return 1
    second = randint(m.rng, free - 1)
    if second >= first:
        second += 1
    m.drawn[1] = cand[second]
    return 2


@njit(cache=True, nogil=True)
def hand_over_ship(m, p, ship):
    """``p`` now shows ``ship`` (``NO_SHIP``: none); the caller settles the old one."""
    m.players[p, SHIP] = ship
    if ship != NO_SHIP:
        m.ship_owner[ship] = p


@njit(cache=True, nogil=True)
def swap_ships(m, p, q):
    mine = m.players[p, SHIP]
    hand_over_ship(m, p, m.players[q, SHIP])
    hand_over_ship(m, q, mine)


@njit(cache=True, nogil=True)
def buy_ship_from_deck(m, p, ship):
    """Buy ``ship`` from the deck, trading the old ship in at face value (a stronger but
    cheaper ship pays the player the difference)."""
    old = m.players[p, SHIP]
    price = m.ships[ship, SHIP_FEE] - ship_fee(m, old)
    if price >= 0:
        transfer(m, p, TREASURY, price)
    else:
        transfer(m, TREASURY, p, -price)
    if old != NO_SHIP:
        m.ship_owner[old] = OWNER_FREE
    hand_over_ship(m, p, ship)


# -- the Shipyard ------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def visit_shipyard(m, p):
    """Draw two ships and buy one; if neither is affordable, wait (``False``) until
    ``shipyard_max_waits`` waits have passed, then borrow for the cheaper one (without
    loans: sail on without a ship). ``True``: the player spins and moves on."""
    pl = m.players
    drawn = draw_two(m, m.ship_owner)
    n = np.int64(0)
    for i in range(drawn):
        fee = m.ships[m.drawn[i], SHIP_FEE]
        if fee <= pl[p, CASH]:
            m.cand[n] = m.drawn[i]
            m.cost[n] = fee
            n += 1
    if n > 0:
        buy_ship_from_deck(m, p, m.cand[choose_ship(m, p, n, True)])
        pl[p, WAITS] = 0
        return True
    if pl[p, WAITS] < m.shipyard_max_waits and drawn > 0:
        pl[p, WAITS] += 1
        m.counters[SHIPYARD_WAITS] += 1
        return False
    pl[p, WAITS] = 0
    if drawn == 0 or not m.loans:
        return True
    cheaper = m.drawn[0]
    if drawn == 2 and m.ships[m.drawn[1], SHIP_FEE] < m.ships[cheaper, SHIP_FEE]:
        cheaper = m.drawn[1]
    while pl[p, CASH] < m.ships[cheaper, SHIP_FEE]:
        take_loan(m, p)
    m.counters[SHIPYARD_LOANS] += 1
    buy_ship_from_deck(m, p, cheaper)
    return True


# -- Acquire Vessel ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def acquire_vessel(m, p):
    """Upgrade (:func:`is_upgrade`): take a stronger, dearer ship from a player still
    sailing, giving them yours and the difference (so only a player with a ship can), or
    draw two ship cards and trade up to one, the old ship traded in at face value.
    Upgrades the player cannot pay for are not offered."""
    pl = m.players
    current = pl[p, SHIP]
    mine = ship_fee(m, current)
    n = np.int64(0)
    for q in range(pl.shape[0]):
        theirs = pl[q, SHIP]
        if q == p or pl[q, RETIRED] or theirs == NO_SHIP or current == NO_SHIP:
            continue
        price = m.ships[theirs, SHIP_FEE] - mine
        if 0 < price <= pl[p, CASH] and is_upgrade(m, theirs, current):
            m.cand[n] = theirs
            m.cost[n] = price
            n += 1
    source = choose_vessel_source(m, p, n)
    if source == DECLINE:
        return
    if source != DRAW_FROM_DECK:
        owner = m.ship_owner[m.cand[source]]
        transfer(m, p, owner, m.cost[source])
        swap_ships(m, p, owner)
        return
    drawn = draw_two(m, m.ship_owner)
    n = np.int64(0)
    for i in range(drawn):
        price = m.ships[m.drawn[i], SHIP_FEE] - mine
        if price <= pl[p, CASH] and is_upgrade(m, m.drawn[i], current):
            m.cand[n] = m.drawn[i]
            m.cost[n] = price
            n += 1
    if n > 0:
        choice = choose_ship(m, p, n, False)
        if choice != DECLINE:
            buy_ship_from_deck(m, p, m.cand[choice])


# -- mascots -----------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def offer_mascots(m, p, mandatory):
    """Draw two mascots and buy one the player can afford (``mandatory``: Choose a Mascot;
    otherwise Choose Another Mascot, where buying is optional)."""
    pl = m.players
    drawn = draw_two(m, m.mascot_owner)
    n = np.int64(0)
    for i in range(drawn):
        if m.mascot_fee[m.drawn[i]] <= pl[p, CASH]:
            m.cand[n] = m.drawn[i]
            n += 1
    if n == 0:
        return
    choice = choose_mascot(m, p, n, mandatory)
    if choice == DECLINE:
        return
    mascot = m.cand[choice]
    fee = m.mascot_fee[mascot]
    transfer(m, p, TREASURY, fee)
    gain_mascot(m, p, mascot)
    pl[p, MASCOT_VALUE] += fee


# -- raids ---------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def battle(m, attacker, defender):
    """Both spin (the defender first) and add their combat; ties are spun again. True if the attacker wins."""
    attack = ship_combat(m, m.players[attacker, SHIP])
    defence = ship_combat(m, m.players[defender, SHIP])
    while True:
        d = spin(m) + defence
        a = spin(m) + attack
        if a != d:
            return a > d


@njit(cache=True, nogil=True)
def raid(m, p):
    """Attack a player with a ship who is still sailing; a winner takes spin x raid_per_spin
    and swaps ships with a beaten Black Pearl (a shipless winner has none to swap)."""
    if not m.raids:
        return
    pl = m.players
    n = np.int64(0)
    for q in range(pl.shape[0]):
        if q != p and not pl[q, RETIRED] and pl[q, SHIP] != NO_SHIP:
            m.cand[n] = q
            n += 1
    if n == 0:
        return
    defender = m.cand[choose_raid_target(m, p, n)]
    m.counters[RAIDS] += 1
    if not battle(m, p, defender):
        return
    m.counters[RAID_WINS] += 1
    pay_debt(m, defender, p, spin(m) * m.raid_per_spin)
    if pl[p, SHIP] != NO_SHIP and m.ships[pl[defender, SHIP], SHIP_PEARL]:
        swap_ships(m, p, defender)


# -- LIFE tiles --------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def take_tile_from_player(m, p):
    """Take one tile from another player of ``p``'s choice (at most ``retired_take_limit``
    a turn from each retired player). False if nobody has a tile to take."""
    pl = m.players
    n = np.int64(0)
    for q in range(pl.shape[0]):
        if q == p or pl[q, TILES] == 0:
            continue
        if pl[q, RETIRED] and pl[q, TAKEN_THIS_TURN] >= m.retired_take_limit:
            continue
        m.cand[n] = q
        n += 1
    if n == 0:
        return False
    victim = m.cand[choose_victim(m, p, n)]
    if m.tile_from_player == TILE_CHOSEN:
        tile = best_tile_of(m, victim, p)
    else:
        tile = nth_tile_of(m, victim, randint(m.rng, pl[victim, TILES]))
    set_tile_owner(m, tile, p)
    pl[victim, TAKEN_THIS_TURN] += 1
    m.counters[TILES_TAKEN] += 1
    return True


@njit(cache=True, nogil=True)
def collect_tiles(m, p, count):
    """Collect ``count`` tiles from the pile; when it is empty, from other players."""
    for _ in range(count):
        tile = draw_from_pile(m)
        if tile >= 0:
            set_tile_owner(m, tile, p)
            continue
        m.counters[PILE_RAN_DRY] = 1
        if not take_tile_from_player(m, p):
            return


# -- LIFE cards ----------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def draw_life_card(m):
    """The top LIFE card (a random one of the draw pile); an empty draw pile is refilled
    with the shuffled discards."""
    counters = m.counters
    life_draw = m.life_draw
    if counters[DRAW_COUNT] == 0:
        life_discard = m.life_discard
        for i in range(counters[DISCARD_COUNT]):
            life_draw[i] = life_discard[i]
        counters[DRAW_COUNT] = counters[DISCARD_COUNT]
        counters[DISCARD_COUNT] = 0
    count = counters[DRAW_COUNT]
    i = randint(m.rng, count)
    card = life_draw[i]
    life_draw[i] = life_draw[count - 1]
    counters[DRAW_COUNT] = count - 1
    return card


@njit(cache=True, nogil=True)
def play_life_card(m, p):
    """Land on a LIFE space: draw a card, do what it says, discard it."""
    pl = m.players
    card = draw_life_card(m)
    cards = m.cards
    action = cards[card, CARD_ACTION]
    pl[p, MET_CARDS + action] += 1
    amount = cards[card, CARD_AMOUNT]
    if action == CARD_COLLECT:
        transfer(m, TREASURY, p, amount)
    elif action == CARD_PAY:
        pay_debt(m, p, TREASURY, amount)
    elif action == CARD_COLLECT_FROM_EACH:
        for q in range(pl.shape[0]):
            if q != p and not pl[q, RETIRED]:
                pay_debt(m, q, p, amount)
    elif action == CARD_PAY_EACH:
        for q in range(pl.shape[0]):
            if q != p:
                pay_debt(m, p, q, amount)
    elif action == CARD_TILES:
        collect_tiles(m, p, amount)
    elif action == CARD_TAKE_TILES:
        for _ in range(amount):
            take_tile_from_player(m, p)
    elif action == CARD_SPIN_COLLECT:
        transfer(m, TREASURY, p, spin(m) * amount)
    elif action == CARD_SPIN_PAY:
        pay_debt(m, p, TREASURY, spin(m) * amount)
    counters = m.counters
    m.life_discard[counters[DISCARD_COUNT]] = card
    counters[DISCARD_COUNT] += 1


# -- Isla Cruces ---------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def retire(m, p):
    """Reach Isla Cruces: pick one of the hidden tiles left there, repay the loans, retire."""
    if m.counters[ISLA_COUNT] > 0:
        take_from_isla(m, choose_isla_tile(m, p), p)
    settle_loans(m, p)
    m.players[p, RETIRED] = 1
    m.counters[RETIRED_COUNT] += 1


@njit(cache=True, nogil=True)
def retired_turn(m, p):
    """A retired player spins; a high enough spin (a 10) takes a LIFE tile."""
    if spin(m) >= m.retired_tile_spin:
        collect_tiles(m, p, 1)


# -- the spaces ------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def land_on(m, p, space):
    """Follow the directions of a (non-stop) space the player ended the move on."""
    spaces = m.spaces
    kind = spaces[space, SP_KIND]
    if kind == LIFE:
        play_life_card(m, p)
    elif kind == COLLECT:
        transfer(m, TREASURY, p, spaces[space, SP_AMOUNT])
    elif kind == PAY:
        pay_debt(m, p, TREASURY, spaces[space, SP_AMOUNT])
    elif kind == RAID:
        raid(m, p)
    elif kind == DAVY_JONES:
        pay_debt(m, p, TREASURY, spin(m) * m.davy_jones_per_spin)
    elif kind == ACQUIRE_VESSEL:
        acquire_vessel(m, p)
    elif kind == CHOOSE_ANOTHER_MASCOT:
        offer_mascots(m, p, False)
    # Share the Loot paid on entering the space; a start space is never landed on
