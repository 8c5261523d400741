"""Doubloons played in jitted code: a turn, a round, a match, a chunk of matches.

One call of :func:`play_chunk` plays a whole chunk and only adds into the ``Tally``
arrays (allocated once per chunk by the game's ``run_chunk``). The per-turn functions
take plain arrays: the table's ``tab`` and ``g``, the integer ``setup`` vector, the
per-seat strategy ``params``, the per-seat ``events`` counters and the generator
state. With ``check`` set, the table is audited after the deal and after every turn
(:func:`audit`): card conservation and the bookkeeping invariants; the chunk returns
the number of violations found.

Numba recompiles and re-optimises everything a function calls, so the functions above
:func:`play_out_round` (the round's turn loop, compiled once and shared with the tests)
are inlined into :func:`play_chunk` rather than stacked as separately compiled levels;
this keeps a cold compile short.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.engine.rng import seed_game
from analyzer.games.doubloons.cards import (
    CHAINED_CHEST,
    CHAINED_PARROT,
    CHESTS,
    DRUNK_PIRATE,
    FIRST_SPECIAL,
    KRAKEN,
    N_CODES,
    PARROT,
    PIRATE,
    SPECIALS,
)
from analyzer.games.doubloons.policies import (
    choose_chain,
    choose_key,
    choose_parrot_slot,
    choose_source,
    choose_swap,
)
from analyzer.games.doubloons.rules import (
    COMPOSITION,
    R_APPLY_REVEALED,
    R_DECK_SIZE,
    R_FINAL_TURNS,
    R_FREED_PARROT_MOVES,
    R_MAX_TURNS,
    R_ROTATE_START,
    R_ROUNDS_TO_WIN,
)
from analyzer.games.doubloons.table import (
    CARD,
    CHAINED,
    CLOSED,
    DISCARD_COUNT,
    F_CHESTS,
    F_PARROT,
    F_ROUND_WON,
    F_UNOPENED,
    F_WINS,
    HOLDS_PARROT,
    OPEN,
    OPEN_COUNT,
    ORDER,
    SLOT_STRIDE,
    STATE,
    UNUSED,
    V_DECK_N,
    V_DIRECTION,
    V_DISCARD_AT,
    V_DISCARD_N,
    V_REDEALS,
    V_REFILLS,
    V_SKIP,
    WON_IN_FINAL_TURNS,
    WON_ROUND,
    can_place,
    can_take_discard,
    chained_chest_targets,
    chained_parrot_targets,
    count_cards,
    deal_round,
    discard_top,
    key_targets,
    new_table,
    parrot_slots,
    pirate_swaps,
    place_number,
    pop_deck,
    pop_discard,
    push_discard,
    put_parrot,
    refill_deck,
    swap_chests,
    unlock,
)

N_SPECIALS = len(SPECIALS)

Tally = namedtuple("Tally", (
    # the engine's common aggregates (analyzer.engine.aggregate)
    "games", "wins", "ties", "tie_games", "capped", "score_sum", "score_sq", "score_hist",
    "length_turns", "length_rounds",
    # Doubloons' own
    "round_turns",             # [cap + 1] histogram of turns per finished round
    "round_wins",              # [P] rounds won by each seat
    "round_wins_by_order",     # [P] rounds won by the pirate k seats after the round's starter
    "events",                  # [P, N_EVENTS] per seat, see E_*
    "counters",                # [N_COUNTERS] see C_*
))

# how a special card reached a pirate, and USED: it acted (events[p, E_SPECIALS + origin * 7 + kind])
FROM_DECK, FROM_DISCARD, FROM_CHEST, USED = range(4)
N_ORIGINS = 4
E_SPECIALS = 0
(E_TURNS, E_DISCARD_TAKES, E_REFILLS, E_LOST_TURNS, E_PASSES, E_PARROT_MOVES) = range(
    N_ORIGINS * N_SPECIALS, N_ORIGINS * N_SPECIALS + 6)
N_EVENTS = N_ORIGINS * N_SPECIALS + 6
EVENT_NAMES = ("turns", "discard_takes", "deck_refills", "lost_turns", "passes", "parrot_moves")

(C_ROUNDS, C_SHARED_ROUNDS, C_FINAL_TURN_WINS, C_ROUNDS_PARROT_LEFT, C_PARROTS_LEFT,
 C_ROUNDS_REFILLED, C_REDEALS) = range(7)
N_COUNTERS = 7
COUNTER_NAMES = ("rounds", "shared_rounds", "final_turn_wins", "rounds_parrot_left", "parrots_left",
                 "rounds_refilled", "redeals")

# per-game record columns after winner and score_1..score_P
(ROW_TURNS, ROW_ROUNDS, ROW_CAPPED, ROW_FIRST_ROUND_WINNER, ROW_REFILLS, ROW_LOST_TURNS) = range(6)
N_ROW_EXTRA = 6


# -- one turn ---------------------------------------------------------------------------------
@njit(cache=True)
def apply_special(tab, g, setup, params, p, card, rng):
    """Apply a special card other than the parrot; returns True if it acted.

    The card goes to the discard pile, except a chain card that found a target (it lies
    on it) and a key that unlocked something (it follows the chain card it freed).
    """
    if card == DRUNK_PIRATE:
        g[V_DIRECTION] = -g[V_DIRECTION]
        push_discard(g, card)
        return True
    if card == KRAKEN:
        g[V_SKIP] = 1
        push_discard(g, card)
        return True
    if card == PIRATE:
        count = pirate_swaps(tab, g, p)
        if count > 0:
            choice = choose_swap(tab, g, setup, params, p, count, rng)
            swap_chests(tab, p, choice // SLOT_STRIDE, choice % SLOT_STRIDE)
        push_discard(g, card)
        return count > 0
    if card == CHAINED_PARROT or card == CHAINED_CHEST:
        if card == CHAINED_PARROT:
            count = chained_parrot_targets(tab, g, p)
        else:
            count = chained_chest_targets(tab, g, p)
        if count == 0:
            push_discard(g, card)
            return False
        choice = choose_chain(tab, g, setup, params, p, count, rng)
        tab[choice // SLOT_STRIDE, CHAINED + choice % SLOT_STRIDE] = 1
        return True
    # the key
    count = key_targets(tab, g, p)
    if count == 0:
        push_discard(g, card)
        return False
    unlock(tab, g, p, choose_key(tab, g, setup, params, p, count, rng))
    return True


@njit(cache=True)
def next_player(tab, g, events, p):
    """The seat after p in the direction of play, passing over one who loses the turn."""
    players = tab.shape[0]
    direction = g[V_DIRECTION]
    skip = g[V_SKIP]
    g[V_SKIP] = 0
    q = (p + direction + players) % players
    events[q, E_LOST_TURNS] += skip
    if skip:
        q = (q + direction + players) % players
    return q


# -- a round and a match ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def play_round(tab, g, setup, params, events, start, rng, check):
    """Deal and play one round from seat ``start``; see :func:`play_out_round`."""
    deal_round(tab, g, setup, rng)
    violations = audit(tab, g, setup) if check else 0
    turns, capped, found = play_out_round(tab, g, setup, params, events, start, rng, check)
    return turns, capped, violations + found


@njit(cache=True)
def play_out_round(tab, g, setup, params, events, start, rng, check):
    """Play the dealt round from seat ``start``; marks its winners in ``F_ROUND_WON``.

    A turn: the pirate draws from the deck or takes the discard pile's top card, then
    plays it: a number opens its chest and the chain goes on with the card found there,
    until a card cannot be placed (discarded) or a special ends the turn.

    With ``final_turns``, once a pirate has opened every chest each other pirate plays
    one more turn, in the order of play at that moment (a kraken still costs the next
    of them the turn; a drunk pirate changes that order no more). The turn cap is
    checked after each turn, before the next player is known (so a cap of 1 plays
    exactly one turn).

    The whole turn is written out here rather than in helper functions: every jitted
    call (inlined or not) takes and releases a reference to each array it is passed,
    which would cost more than the turn itself.

    Returns (turns played, capped, audit violations).
    """
    players = tab.shape[0]
    violations = 0
    p = start
    turns = 0
    final = -1  # before the round is won: -1; then the number of final turns handed out
    while True:
        # -- the draw
        events[p, E_TURNS] += 1
        if g[V_DECK_N] == 0 and g[V_DISCARD_N] > 1:
            refill_deck(g, rng)
            events[p, E_REFILLS] += 1
        can_deck = g[V_DECK_N] > 0
        can_discard = can_take_discard(tab, p, discard_top(g))
        card = 0
        origin = FROM_DECK
        if can_deck and can_discard:
            take_discard = choose_source(tab, g, setup, params, p, rng)
        else:
            take_discard = can_discard
        if not can_deck and not can_discard:
            events[p, E_PASSES] += 1
        elif take_discard:
            events[p, E_DISCARD_TAKES] += 1
            card = pop_discard(g)
            origin = FROM_DISCARD
        else:
            card = pop_deck(g)
        # -- the card drawn and the chain of openings it starts
        while card:
            if card <= CHESTS:
                if not can_place(tab, p, card):
                    push_discard(g, card)
                    break
                freed_parrot = tab[p, STATE + card] == HOLDS_PARROT
                under = place_number(tab, g, p, card)
                if freed_parrot:
                    # the number freed p's parrot: it moves on, or is discarded
                    count = parrot_slots(tab, g, p) if setup[R_FREED_PARROT_MOVES] else 0
                    if count == 0:
                        push_discard(g, PARROT)
                        break
                    events[p, E_PARROT_MOVES] += 1
                    under = put_parrot(tab, p, choose_parrot_slot(tab, g, setup, params, p, count, rng))
                card = under
                origin = FROM_CHEST
                continue
            kind = card - FIRST_SPECIAL
            events[p, E_SPECIALS + origin * N_SPECIALS + kind] += 1
            if origin == FROM_CHEST and not setup[R_APPLY_REVEALED]:
                push_discard(g, card)
                break
            if card == PARROT:
                count = parrot_slots(tab, g, p) if tab[p, F_PARROT] == 0 else 0
                if count == 0:
                    push_discard(g, card)
                    break
                events[p, E_SPECIALS + USED * N_SPECIALS + kind] += 1
                card = put_parrot(tab, p, choose_parrot_slot(tab, g, setup, params, p, count, rng))
                origin = FROM_CHEST
                continue
            if apply_special(tab, g, setup, params, p, card, rng):
                events[p, E_SPECIALS + USED * N_SPECIALS + kind] += 1
            break
        # -- after the turn
        turns += 1
        if check:
            violations += audit(tab, g, setup)
        if tab[p, F_UNOPENED] == 0 and tab[p, F_ROUND_WON] == 0:
            tab[p, F_ROUND_WON] = WON_ROUND if final < 0 else WON_IN_FINAL_TURNS
            if final < 0:
                if not setup[R_FINAL_TURNS]:
                    return turns, False, violations
                q = p
                for i in range(players - 1):
                    q = (q + g[V_DIRECTION] + players) % players
                    g[ORDER + i] = q
                final = 0
        if final < 0:
            if turns >= setup[R_MAX_TURNS]:
                return turns, True, violations
            p = next_player(tab, g, events, p)
            continue
        p = -1
        while final < players - 1 and p < 0:
            q = g[ORDER + final]
            final += 1
            if g[V_SKIP]:
                g[V_SKIP] = 0
                events[q, E_LOST_TURNS] += 1
            else:
                p = q
        if p < 0:
            return turns, False, violations


@njit(cache=True, inline="always")
def _record_round(tab, g, tally, start, turns):
    """Round statistics of a finished round; adds its wins. Returns its winner count."""
    players = tab.shape[0]
    counters = tally.counters
    counters[C_ROUNDS] += 1
    counters[C_REDEALS] += g[V_REDEALS]
    tally.round_turns[min(turns, tally.round_turns.shape[0] - 1)] += 1
    winners = 0
    parrots = 0
    for q in range(players):
        if tab[q, F_ROUND_WON]:
            winners += 1
            tab[q, F_WINS] += 1
            tally.round_wins[q] += 1
            tally.round_wins_by_order[(q - start + players) % players] += 1
            if tab[q, F_ROUND_WON] == WON_IN_FINAL_TURNS:
                counters[C_FINAL_TURN_WINS] += 1
        if tab[q, F_PARROT]:
            parrots += 1
    if winners > 1:
        counters[C_SHARED_ROUNDS] += 1
    if parrots:
        counters[C_ROUNDS_PARROT_LEFT] += 1
        counters[C_PARROTS_LEFT] += parrots
    if g[V_REFILLS]:
        counters[C_ROUNDS_REFILLED] += 1
    return winners


@njit(cache=True, inline="always")
def play_match(tab, g, setup, params, tally, rng, check):
    """Rounds until a pirate has ``rounds_to_win`` round wins (or a round hits the cap).

    Leaves the round wins in ``F_WINS``. Returns (turns, rounds, capped, the seat that won
    the first round alone (-1: shared or none), audit violations).
    """
    players = tab.shape[0]
    events = tally.events
    tab[:, F_WINS] = 0
    start = np.int64(0)  # typed int64 from the start: a literal 0 would compile play_out_round twice
    turns = 0
    rounds = 0
    first_winner = -1
    violations = 0
    while True:
        for q in range(players):
            tab[q, F_CHESTS] = CHESTS - tab[q, F_WINS]
        round_turns, capped, found = play_round(tab, g, setup, params, events, start, rng, check)
        turns += round_turns
        rounds += 1
        violations += found
        if capped:
            return turns, rounds, True, first_winner, violations
        if _record_round(tab, g, tally, start, round_turns) == 1 and rounds == 1:
            for q in range(players):
                if tab[q, F_ROUND_WON]:
                    first_winner = q
        if tab[:, F_WINS].max() >= setup[R_ROUNDS_TO_WIN]:
            return turns, rounds, False, first_winner, violations
        if setup[R_ROTATE_START]:
            start = (start + 1) % players


@njit(cache=True, inline="always")
def _record_match(tab, tally, turns, rounds, capped):
    """The engine's common aggregates of one match. Returns the winning seat (-1: none)."""
    players = tab.shape[0]
    tally.games[0] += 1
    for q in range(players):
        score = tab[q, F_WINS]
        tally.score_sum[q] += score
        tally.score_sq[q] += score * score
        tally.score_hist[q, min(score, tally.score_hist.shape[1] - 1)] += 1
    tally.length_turns[min(turns, tally.length_turns.shape[0] - 1)] += 1
    tally.length_rounds[min(rounds, tally.length_rounds.shape[0] - 1)] += 1
    if capped:
        tally.capped[0] += 1
        return -1
    best = tab[:, F_WINS].max()
    leaders = 0
    winner = -1
    for q in range(players):
        if tab[q, F_WINS] == best:
            leaders += 1
            winner = q
    if leaders == 1:
        tally.wins[winner] += 1
        return winner
    tally.tie_games[0] += 1
    for q in range(players):
        if tab[q, F_WINS] == best:
            tally.ties[q] += 1
    return -1


@njit(cache=True, nogil=True)
def play_chunk(seed, first_game, n_games, setup, params, tally, rows, check):
    """Play matches ``first_game .. first_game + n_games - 1`` into ``tally``.

    ``rows`` (``n_games`` rows, or none) receives one row per match: winner seat (0:
    none), score per seat, then the ``ROW_*`` columns. Returns the audit violations
    (always 0 unless ``check``).
    """
    players = params.shape[0]
    tab, g = new_table(players, setup[R_DECK_SIZE])
    rng = np.zeros(4, np.uint64)
    record = rows.shape[0] > 0
    violations = 0
    refills = tally.events[:, E_REFILLS]
    lost_turns = tally.events[:, E_LOST_TURNS]
    for game in range(n_games):
        seed_game(seed, first_game + game, rng)
        if record:
            refills_before = refills.sum()
            lost_before = lost_turns.sum()
        turns, rounds, capped, first_winner, found = play_match(tab, g, setup, params, tally, rng, check)
        violations += found
        winner = _record_match(tab, tally, turns, rounds, capped)
        if record:
            rows[game, 0] = winner + 1
            for q in range(players):
                rows[game, 1 + q] = tab[q, F_WINS]
            extra = 1 + players
            rows[game, extra + ROW_TURNS] = turns
            rows[game, extra + ROW_ROUNDS] = rounds
            rows[game, extra + ROW_CAPPED] = capped
            rows[game, extra + ROW_FIRST_ROUND_WINNER] = first_winner + 1
            rows[game, extra + ROW_REFILLS] = refills.sum() - refills_before
            rows[game, extra + ROW_LOST_TURNS] = lost_turns.sum() - lost_before
    return violations


# -- the audit ------------------------------------------------------------------------------------
@njit(cache=True)
def audit(tab, g, setup):
    """Count broken invariants of the table: every card dealt is in exactly one place
    (deck, discard pile, a slot, or a chain card lying on a slot); each pirate has one
    chest fewer per round won; and the bookkeeping (open/unopened counts, parrots,
    chains, pile counts) matches the slots."""
    violations = 0
    counts = np.zeros(N_CODES, np.int64)
    count_cards(tab, g, counts)
    for code in range(N_CODES):
        if counts[code] != setup[COMPOSITION + code]:
            violations += 1
    open_count = np.zeros(CHESTS + 1, np.int64)
    for p in range(tab.shape[0]):
        chests = tab[p, F_CHESTS]
        if chests != CHESTS - tab[p, F_WINS]:
            violations += 1
        unopened = 0
        parrots = 0
        for slot in range(1, CHESTS + 1):
            state = tab[p, STATE + slot]
            card = tab[p, CARD + slot]
            if (state == UNUSED) != (slot > chests):
                violations += 1
            if state == OPEN:
                open_count[slot] += 1
                if card != slot:
                    violations += 1
            elif state == CLOSED or state == HOLDS_PARROT:
                unopened += 1
            if state == HOLDS_PARROT:
                parrots += 1
                if card != PARROT or tab[p, F_PARROT] != slot:
                    violations += 1
            if tab[p, CHAINED + slot] and state != CLOSED and state != HOLDS_PARROT:
                violations += 1
        if unopened != tab[p, F_UNOPENED] or parrots > 1:
            violations += 1
        if parrots == 0 and tab[p, F_PARROT] != 0:
            violations += 1
    discard_count = np.zeros(CHESTS + 1, np.int64)
    base = g[V_DISCARD_AT]
    for i in range(g[V_DISCARD_N]):
        card = g[base + i]
        if card <= CHESTS:
            discard_count[card] += 1
    for number in range(1, CHESTS + 1):
        if open_count[number] != g[OPEN_COUNT + number] or discard_count[number] != g[DISCARD_COUNT + number]:
            violations += 1
    if g[V_DECK_N] < 0 or g[V_DISCARD_N] < 0:
        violations += 1
    return violations
