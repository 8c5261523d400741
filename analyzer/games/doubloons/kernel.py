"""Doubloons played in jitted code: a turn, a round, and a match, the engine's one game.

:func:`play_game` plays one match (best of ``rounds_to_win``) for the engine's chunk
template. Everything it reads is in :class:`Inputs`; it plays in the chunk's
:class:`Scratch` (the play area of :mod:`play_area` and this match's ``events``) and
adds to the :class:`Tally`. The per-turn functions take the play area's ``pirates``
and ``shared`` arrays, the ``inputs``, the per-seat ``events`` counters and the
generator state. With ``inputs.audit`` set, the play area is audited after the deal
and after every turn (:func:`audit.audit`): card conservation and the bookkeeping
invariants; the violations found are counted in ``tally.audit_violations``.

Numba recompiles and re-optimises everything a function calls, so the functions above
:func:`play_out_round` (the round's turn loop, compiled once and shared with the tests)
are inlined into :func:`play_game` rather than stacked as separately compiled levels;
this keeps a cold compile short.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from analyzer.games.doubloons.audit import audit
from analyzer.games.doubloons.cards import CHESTS, FIRST_SPECIAL, PARROT, SPECIALS
from analyzer.games.doubloons.decisions import choose_parrot_slot, choose_source
from analyzer.games.doubloons.play_area import (
    F_CHESTS,
    F_PARROT,
    F_ROUND_WON,
    F_UNOPENED,
    F_WINS,
    HOLDS_PARROT,
    ORDER,
    STATE,
    V_DECK_N,
    V_DIRECTION,
    V_DISCARD_N,
    V_REDEALS,
    V_REFILLS,
    V_SKIP,
    WON_IN_FINAL_TURNS,
    WON_ROUND,
    can_place,
    can_take_discard,
    deal_round,
    discard_top,
    parrot_slots,
    place_number,
    pop_deck,
    pop_discard,
    push_discard,
    put_parrot,
    refill_deck,
)
from analyzer.games.doubloons.specials import apply_special

N_SPECIALS = len(SPECIALS)

# how a special card reached a pirate, and USED: it acted (events[p, E_SPECIALS + origin * 7 + kind])
FROM_DECK, FROM_DISCARD, FROM_CHEST, USED = range(4)
N_ORIGINS = 4
E_SPECIALS = 0
(E_TURNS, E_DISCARD_TAKES, E_REFILLS, E_LOST_TURNS, E_PASSES, E_PARROT_MOVES) = range(
    N_ORIGINS * N_SPECIALS, N_ORIGINS * N_SPECIALS + 6)
N_EVENTS = N_ORIGINS * N_SPECIALS + 6

#: the game's own ``--save-games`` columns, in the order play_game writes them
RECORD_COLUMNS = ("first_round_winner", "deck_refills", "lost_turns")


class Inputs(NamedTuple):
    """The kernel inputs of a run (read only): rule values, the deck, the seats' strategies."""

    apply_revealed_specials: bool  # a special uncovered in one's own chest acts as if drawn
    freed_parrot_moves: bool  # a parrot replaced by its number moves on (else: discarded)
    final_turns: bool  # once a pirate has finished, each other pirate plays one more turn
    rotate_start: bool  # each round starts with the next seat
    rounds_to_win: int
    max_turns_per_round: int
    deck_size: int
    composition: np.ndarray  # [N_CODES] cards of each code in the deck
    strategy_ids: np.ndarray  # [players] each seat's index in strategies.STRATEGIES
    params: np.ndarray  # [players, len(PARAM_SLOTS)] float: each seat's parameters (strategies.param_row)
    audit: bool  # audit the play area after the deal and every turn (Doubloons.audit_games)


class Scratch(NamedTuple):
    """Working arrays of one chunk."""

    pirates: np.ndarray  # [players, ROW] the play area, per pirate (see play_area)
    shared: np.ndarray  # the play area's shared part and piles (see play_area)
    events: np.ndarray  # [players, N_EVENTS] this match's counts per seat, see E_*


class Tally(NamedTuple):
    """Doubloons' own aggregates; per-round figures count finished rounds (not a capped one)."""

    round_turns: np.ndarray  # [longest round + 1] histogram of turns per round
    round_wins: np.ndarray  # [players] rounds won by each seat
    round_wins_by_order: np.ndarray  # [players] rounds won by the pirate k seats after the round's starter
    specials_drawn: np.ndarray  # [players, N_SPECIALS] special cards drawn from the deck
    specials_taken: np.ndarray  # [players, N_SPECIALS] ... taken from the discard pile
    specials_uncovered: np.ndarray  # [players, N_SPECIALS] ... found in one's own chest
    specials_used: np.ndarray  # [players, N_SPECIALS] ... that acted
    seat_turns: np.ndarray  # [players] turns played
    seat_discard_takes: np.ndarray  # [players] turns that took the discard pile's top card
    seat_deck_refills: np.ndarray  # [players] deck refills at the start of the seat's turn
    seat_lost_turns: np.ndarray  # [players] turns lost to a kraken
    seat_passes: np.ndarray  # [players] turns with nothing to draw
    seat_parrot_moves: np.ndarray  # [players] parrots freed by their number that moved on
    rounds: np.ndarray  # [1]
    shared_rounds: np.ndarray  # [1] rounds with two or more winners
    final_turn_wins: np.ndarray  # [1] round wins in the final turns
    rounds_parrot_left: np.ndarray  # [1] rounds ending with a parrot still on a chest
    parrots_left: np.ndarray  # [1] parrots left on chests at the end of rounds
    rounds_refilled: np.ndarray  # [1] rounds with a deck refill
    redeals: np.ndarray  # [1] deals redone for want of a number to start the discard pile
    audit_violations: np.ndarray  # [1] broken invariants found (0 unless inputs.audit)


# -- one turn ---------------------------------------------------------------------------------
@njit(cache=True)
def next_player(pirates, shared, events, p):
    """The seat after p in the direction of play, passing over one who loses the turn."""
    players = pirates.shape[0]
    direction = shared[V_DIRECTION]
    skip = shared[V_SKIP]
    shared[V_SKIP] = 0
    q = (p + direction + players) % players
    events[q, E_LOST_TURNS] += skip
    if skip:
        q = (q + direction + players) % players
    return q


# -- a round and a match ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def play_round(pirates, shared, inputs, events, start, rng):
    """Deal and play one round from seat ``start``; see :func:`play_out_round`."""
    deal_round(pirates, shared, inputs, rng)
    violations = audit(pirates, shared, inputs.composition) if inputs.audit else 0
    turns, capped, found = play_out_round(pirates, shared, inputs, events, start, rng)
    return turns, capped, violations + found


@njit(cache=True)
def play_out_round(pirates, shared, inputs, events, start, rng):
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
    call takes and releases a reference to each array it is passed (each array of
    ``inputs`` included), which would cost more than the turn itself. For the same
    reason the calls made on most turns, :func:`decisions.choose_source` and
    :func:`specials.apply_special`, are inlined here (without that, matches ran 13% slower).

    Returns (turns played, capped, audit violations (``inputs.audit``; else 0)).
    """
    players = pirates.shape[0]
    check = inputs.audit
    violations = 0
    p = start
    turns = 0
    final = -1  # before the round is won: -1; then the number of final turns handed out
    while True:
        # -- the draw
        events[p, E_TURNS] += 1
        if shared[V_DECK_N] == 0 and shared[V_DISCARD_N] > 1:
            refill_deck(shared, rng)
            events[p, E_REFILLS] += 1
        can_deck = shared[V_DECK_N] > 0
        can_discard = can_take_discard(pirates, p, discard_top(shared))
        card = 0
        origin = FROM_DECK
        if can_deck and can_discard:
            take_discard = choose_source(pirates, shared, inputs, p, rng)
        else:
            take_discard = can_discard
        if not can_deck and not can_discard:
            events[p, E_PASSES] += 1
        elif take_discard:
            events[p, E_DISCARD_TAKES] += 1
            card = pop_discard(shared)
            origin = FROM_DISCARD
        else:
            card = pop_deck(shared)
        # -- the card drawn and the chain of openings it starts
        while card:
            if card <= CHESTS:
                if not can_place(pirates, p, card):
                    push_discard(shared, card)
                    break
                freed_parrot = pirates[p, STATE + card] == HOLDS_PARROT
                under = place_number(pirates, shared, p, card)
                if freed_parrot:
                    # the number freed p's parrot: it moves on, or is discarded
                    count = parrot_slots(pirates, shared, p) if inputs.freed_parrot_moves else 0
                    if count == 0:
                        push_discard(shared, PARROT)
                        break
                    events[p, E_PARROT_MOVES] += 1
                    under = put_parrot(pirates, p, choose_parrot_slot(pirates, shared, inputs, p, count, rng))
                card = under
                origin = FROM_CHEST
                continue
            kind = card - FIRST_SPECIAL
            events[p, E_SPECIALS + origin * N_SPECIALS + kind] += 1
            if origin == FROM_CHEST and not inputs.apply_revealed_specials:
                push_discard(shared, card)
                break
            if card == PARROT:
                count = parrot_slots(pirates, shared, p) if pirates[p, F_PARROT] == 0 else 0
                if count == 0:
                    push_discard(shared, card)
                    break
                events[p, E_SPECIALS + USED * N_SPECIALS + kind] += 1
                card = put_parrot(pirates, p, choose_parrot_slot(pirates, shared, inputs, p, count, rng))
                origin = FROM_CHEST
                continue
            if apply_special(pirates, shared, inputs, p, card, rng):
                events[p, E_SPECIALS + USED * N_SPECIALS + kind] += 1
            break
        # -- after the turn
        turns += 1
        if check:
            violations += audit(pirates, shared, inputs.composition)
        if pirates[p, F_UNOPENED] == 0 and pirates[p, F_ROUND_WON] == 0:
            pirates[p, F_ROUND_WON] = WON_ROUND if final < 0 else WON_IN_FINAL_TURNS
            if final < 0:
                if not inputs.final_turns:
                    return turns, False, violations
                q = p
                for i in range(players - 1):
                    q = (q + shared[V_DIRECTION] + players) % players
                    shared[ORDER + i] = q
                final = 0
        if final < 0:
            if turns >= inputs.max_turns_per_round:
                return turns, True, violations
            p = next_player(pirates, shared, events, p)
            continue
        p = -1
        while final < players - 1 and p < 0:
            q = shared[ORDER + final]
            final += 1
            if shared[V_SKIP]:
                shared[V_SKIP] = 0
                events[q, E_LOST_TURNS] += 1
            else:
                p = q
        if p < 0:
            return turns, False, violations


@njit(cache=True, inline="always")
def _record_round(pirates, shared, tally, start, turns):
    """Round statistics of a finished round; adds its wins. Returns its winner count."""
    players = pirates.shape[0]
    tally.rounds[0] += 1
    tally.redeals[0] += shared[V_REDEALS]
    tally.round_turns[min(turns, tally.round_turns.shape[0] - 1)] += 1
    winners = 0
    parrots = 0
    for q in range(players):
        if pirates[q, F_ROUND_WON]:
            winners += 1
            pirates[q, F_WINS] += 1
            tally.round_wins[q] += 1
            tally.round_wins_by_order[(q - start + players) % players] += 1
            if pirates[q, F_ROUND_WON] == WON_IN_FINAL_TURNS:
                tally.final_turn_wins[0] += 1
        if pirates[q, F_PARROT]:
            parrots += 1
    if winners > 1:
        tally.shared_rounds[0] += 1
    if parrots:
        tally.rounds_parrot_left[0] += 1
        tally.parrots_left[0] += parrots
    if shared[V_REFILLS]:
        tally.rounds_refilled[0] += 1
    return winners


@njit(cache=True, inline="always")
def play_match(pirates, shared, inputs, events, tally, rng):
    """Rounds until a pirate has ``rounds_to_win`` round wins (or a round hits the cap).

    Leaves the round wins in ``F_WINS``. Returns (turns, rounds, capped, the seat that won
    the first round alone (-1: shared or none), audit violations).
    """
    players = pirates.shape[0]
    pirates[:, F_WINS] = 0
    start = np.int64(0)  # typed int64 from the start: a literal 0 would compile play_out_round twice
    turns = 0
    rounds = 0
    first_winner = -1
    violations = 0
    while True:
        for q in range(players):
            pirates[q, F_CHESTS] = CHESTS - pirates[q, F_WINS]
        round_turns, capped, found = play_round(pirates, shared, inputs, events, start, rng)
        turns += round_turns
        rounds += 1
        violations += found
        if capped:
            return turns, rounds, True, first_winner, violations
        if _record_round(pirates, shared, tally, start, round_turns) == 1 and rounds == 1:
            for q in range(players):
                if pirates[q, F_ROUND_WON]:
                    first_winner = q
        if pirates[:, F_WINS].max() >= inputs.rounds_to_win:
            return turns, rounds, False, first_winner, violations
        if inputs.rotate_start:
            start = (start + 1) % players


@njit(cache=True, inline="always")
def _add_events(events, tally):
    """Add one match's per-seat ``events`` to the tally's per-seat aggregates."""
    for q in range(events.shape[0]):
        for kind in range(N_SPECIALS):
            tally.specials_drawn[q, kind] += events[q, E_SPECIALS + FROM_DECK * N_SPECIALS + kind]
            tally.specials_taken[q, kind] += events[q, E_SPECIALS + FROM_DISCARD * N_SPECIALS + kind]
            tally.specials_uncovered[q, kind] += events[q, E_SPECIALS + FROM_CHEST * N_SPECIALS + kind]
            tally.specials_used[q, kind] += events[q, E_SPECIALS + USED * N_SPECIALS + kind]
        tally.seat_turns[q] += events[q, E_TURNS]
        tally.seat_discard_takes[q] += events[q, E_DISCARD_TAKES]
        tally.seat_deck_refills[q] += events[q, E_REFILLS]
        tally.seat_lost_turns[q] += events[q, E_LOST_TURNS]
        tally.seat_passes[q] += events[q, E_PASSES]
        tally.seat_parrot_moves[q] += events[q, E_PARROT_MOVES]


@njit(cache=True, nogil=True)
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one match for the chunk template (see :func:`analyzer.engine.template.play_game`).

    Scores are round wins; lengths are (turns, rounds). The pirates with the most round
    wins win the match (two or more: a tie); a capped match has no winner. The game's
    own columns are ``RECORD_COLUMNS``.
    """
    pirates = scratch.pirates
    shared = scratch.shared
    events = scratch.events
    events[:, :] = 0
    turns, rounds, capped, first_winner, violations = play_match(pirates, shared, inputs, events, tally, state)
    tally.audit_violations[0] += violations
    _add_events(events, tally)
    players = pirates.shape[0]
    for q in range(players):
        outcome.scores[q] = pirates[q, F_WINS]
    outcome.lengths[0] = turns
    outcome.lengths[1] = rounds
    if capped:
        outcome.capped[0] = 1
    else:
        best = pirates[:, F_WINS].max()
        for q in range(players):
            if pirates[q, F_WINS] == best:
                outcome.winners[q] = 1
    if game_records.shape[0] > 0:
        game_records[row, 0] = first_winner + 1
        game_records[row, 1] = events[:, E_REFILLS].sum()
        game_records[row, 2] = events[:, E_LOST_TURNS].sum()
