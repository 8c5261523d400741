"""The ``lookahead`` strategy: a search by playouts, in the kernel.

When a searching pirate must decide, the round loop stops (:func:`turns.continue_round`
returns ``DECIDE``) and :func:`choose` decides: every legal candidate is tried with
``rollouts`` playouts to the end of the round, every pirate playing the searcher's base
strategy at its default parameters. The candidate with the best mean outcome is
promising if it beats the base strategy's own choice by more than ``SCREENING``
standard errors of the paired difference; it is played only if ``CONFIRMATION`` times as
many fresh playouts of the two alone show it better by more than ``evidence`` standard
errors (else the base strategy's choice is played). With few playouts the best mean is
mostly luck, and chasing it loses; the fresh playouts judge the one candidate picked
without the luck that picked it. Winning the round
is all a decision can change: the next round is dealt afresh. Deck or discard with a
number on the discard pile is not searched while the deck and the chests are one deal
(:func:`worth_searching`): the answer is known.

A playout sees only what the searcher could know: the cards it cannot see, the deck
and every face-down chest (its own included), are dealt anew at random among those
places (determinization); after a refill the deck's cards are known (they were the
discard pile) and only shuffled within the deck. Playout r of every candidate starts
from the same deal and the same random numbers (common random numbers); they come from
a sub-stream keyed by a hash of the game's generator, which the search leaves as it
was: a seed gives the same games in any chunk or thread, and a search that keeps its
base strategy's choices plays exactly the base strategy's games.

What a playout is worth (``objective``): ``win``, 1 when the searcher wins the round
(1/k when k pirates share it), else 0; ``score``, the chests it is ahead at the end of
the round: the fewest an opponent still has to open, less its own.
"""

import numpy as np

from analyzer.engine.arrays import copy_into
from analyzer.engine.jit import njit
from analyzer.engine.rng import randint, shuffle, split_next, substream
from analyzer.games.doubloons.cards import CHESTS, KEY, PARROT, PIRATE
from analyzer.games.doubloons.decisions import (
    choose_chain,
    choose_key,
    choose_parrot_slot,
    choose_source,
    choose_swap,
    plays_randomly,
)
from analyzer.games.doubloons.inputs import with_seats
from analyzer.games.doubloons.play_area import (
    CAND,
    CARD,
    CLOSED,
    DECK,
    F_CHESTS,
    F_ROUND_WON,
    F_UNOPENED,
    STATE,
    V_CARD,
    V_CHOICES,
    V_DECK_N,
    V_PLAYER,
    V_REFILLS,
    V_TURNS,
    can_place,
    discard_top,
)
from analyzer.games.doubloons.strategies import P_BASE, P_EVIDENCE, P_NOISE, P_OBJECTIVE, P_ROLLOUTS, SCORE
from analyzer.games.doubloons.turns import N_EVENTS, ROUND_CAPPED, TAKE_DISCARD, continue_round, resolve

#: the screening: a candidate whose playouts beat the base strategy's choice by this many
#: standard errors is promising ...
SCREENING = 1.0
#: ... and is played only if CONFIRMATION times as many fresh playouts confirm it (by ``evidence``)
CONFIRMATION = 4


@njit(cache=True)
def deal_unseen(pirates, shared, rng, hidden):
    """Deal the cards nobody can see anew: the deck's and every closed chest's.

    Before the round's first refill the deck and the closed chests are one random deal,
    so their cards are dealt anew among all those places. A refill makes the deck out of
    the discard pile, which every pirate has seen: from then on the deck's cards are
    known (not their order), so they are shuffled within the deck and the chests' cards
    among the chests.

    (Element by element rather than by slices, which compile slower.)"""
    deck = shared[V_DECK_N]
    for i in range(deck):
        hidden[i] = shared[DECK + i]
    n = deck
    for q in range(pirates.shape[0]):
        for slot in range(1, pirates[q, F_CHESTS] + 1):
            if pirates[q, STATE + slot] == CLOSED:
                hidden[n] = pirates[q, CARD + slot]
                n += 1
    if shared[V_REFILLS] == 0:
        shuffle(rng, hidden, n)
    else:
        shuffle(rng, hidden, deck)
        shuffle(rng, hidden[deck:], n - deck)
    for i in range(deck):
        shared[DECK + i] = hidden[i]
    n = deck
    for q in range(pirates.shape[0]):
        for slot in range(1, pirates[q, F_CHESTS] + 1):
            if pirates[q, STATE + slot] == CLOSED:
                pirates[q, CARD + slot] = hidden[n]
                n += 1


@njit(cache=True)
def copy_play_area(pirates, shared, to_pirates, to_shared):
    """Copy the play area into a playout's."""
    for q in range(pirates.shape[0]):
        for i in range(pirates.shape[1]):
            to_pirates[q, i] = pirates[q, i]
    copy_into(shared, to_shared)


@njit(cache=True)
def decision_key(shared, rng):
    """The key of this decision's playouts: a hash of the game's generator and of where
    the round stands, which leaves the generator as it was, so a search that keeps its
    base strategy's choice leaves the game exactly as the base strategy plays it."""
    return substream(rng[0] ^ rng[2], shared[V_TURNS] * 64 + shared[V_CARD])


@njit(cache=True)
def seed_playout(state, key, playout):
    """Seed the generator ``state`` for playout ``playout`` of the decision keyed ``key``."""
    stream = substream(key, playout)
    for k in range(4):
        state[k], stream = split_next(stream)


@njit(cache=True)
def worth(pirates, p, outcome, by_score):
    """What the finished playout is worth to pirate p (see the module's docstring)."""
    if by_score:
        fewest = -1
        for q in range(pirates.shape[0]):
            if q != p and (fewest < 0 or pirates[q, F_UNOPENED] < fewest):
                fewest = pirates[q, F_UNOPENED]
        return float(fewest - pirates[p, F_UNOPENED])
    if outcome == ROUND_CAPPED or pirates[p, F_ROUND_WON] == 0:
        return 0.0
    winners = 0
    for q in range(pirates.shape[0]):
        if pirates[q, F_ROUND_WON]:
            winners += 1
    return 1.0 / winners


@njit(cache=True)
def base_choice(pirates, shared, playout, p, rng):
    """The candidate the base strategy (the seats of ``playout``) would choose."""
    card = shared[V_CARD]
    count = shared[V_CHOICES]
    if card == 0:
        return TAKE_DISCARD if choose_source(pirates, shared, playout, p, rng) else 0
    if card == PARROT:
        return choose_parrot_slot(pirates, shared, playout, p, count, rng)
    if card == PIRATE:
        return choose_swap(pirates, shared, playout, p, count, rng)
    if card == KEY:
        return choose_key(pirates, shared, playout, p, count, rng)
    return choose_chain(pirates, shared, playout, p, count, rng)


@njit(cache=True)
def playout_worth(pirates, shared, playout, p, candidate, key, r, by_score, area, area_shared, events, state,
                  hidden):
    """What playout r of ``candidate`` is worth to p, and the audit violations found in it."""
    copy_play_area(pirates, shared, area, area_shared)
    seed_playout(state, key, r)
    deal_unseen(area, area_shared, state, hidden)
    resolve(area, area_shared, events, candidate)
    outcome, found = continue_round(area, area_shared, playout, events, state)
    return worth(area, p, outcome, by_score), found


@njit(cache=True)
def beats(gain_sum, square_sum, n, evidence):
    """Do n paired differences summing to ``gain_sum`` (squares: ``square_sum``) put their
    mean more than ``evidence`` standard errors above 0?"""
    mean = gain_sum / n
    spread = square_sum / n - mean * mean  # the paired difference's variance
    return mean > 0 and mean * mean * n > evidence * evidence * spread


@njit(cache=True)
def worth_searching(pirates, shared, p):
    """Can the decision at hand go either way? Not deck or discard with a number on the
    discard pile while the deck and the closed chests are one random deal: a number that
    opens a chest opens it and plays on with a card dealt like the deck's (taking it is
    better than drawing), and one that does not would only be discarded again, ending the
    turn (drawing is never worse). After a refill the deck holds other cards than the
    chests, and that choice is searched too."""
    if shared[V_CARD] != 0:
        return True
    top = discard_top(shared)
    if top > CHESTS:
        return True
    return shared[V_REFILLS] > 0 and can_place(pirates, p, top)


@njit(cache=True)
def choose(pirates, shared, inputs, rng):
    """The searching pirate's choice for the decision the round stopped for, and the audit
    violations found in its playouts.

    The working arrays are made per decision: a decision's playouts cost far more, and
    a run without searching pirates then carries none of them in its scratch.
    """
    p = shared[V_PLAYER]
    count = shared[V_CHOICES]
    if plays_randomly(inputs, p, rng):
        return shared[CAND + randint(rng, count)], 0
    if not worth_searching(pirates, shared, p):
        return (TAKE_DISCARD if can_place(pirates, p, discard_top(shared)) else 0), 0
    players = pirates.shape[0]
    # the playouts' seats: every pirate plays the base strategy at its defaults (in p's row, see param_row)
    params = np.empty_like(inputs.params)
    strategy_ids = np.empty_like(inputs.strategy_ids)
    for q in range(players):
        strategy_ids[q] = np.int64(inputs.params[p, P_BASE])
        for k in range(params.shape[1]):
            params[q, k] = 0.0 if k == P_NOISE else inputs.params[p, k]
    playout = with_seats(inputs, strategy_ids, params)
    candidates = np.empty(count, np.int64)  # the base strategy's choice may write over shared[CAND:]
    for c in range(count):
        candidates[c] = shared[CAND + c]
    favourite = 0
    choice = base_choice(pirates, shared, playout, p, rng)
    for c in range(count):
        if candidates[c] == choice:
            favourite = c
    by_score = inputs.params[p, P_OBJECTIVE] == SCORE
    worths = np.empty(count)  # what each candidate's latest playout was worth
    gains = np.zeros(count)  # summed over the playouts, its worth less the base choice's ...
    squares = np.zeros(count)  # ... and the squares of that difference
    area, area_shared = pirates.copy(), shared.copy()  # the playout's play area
    events = np.zeros((players, N_EVENTS), np.int64)  # the playouts' events, not counted anywhere
    state = np.empty(4, np.uint64)  # the playout's generator
    hidden = np.empty(inputs.deck_size, np.int64)
    key = decision_key(shared, rng)
    violations = 0
    rollouts = np.int64(inputs.params[p, P_ROLLOUTS])
    for r in range(rollouts):
        for c in range(count):
            worths[c], found = playout_worth(pirates, shared, playout, p, candidates[c], key, r, by_score,
                                             area, area_shared, events, state, hidden)
            violations += found
        for c in range(count):
            gain = worths[c] - worths[favourite]
            gains[c] += gain
            squares[c] += gain * gain
    best = -1  # the candidate the screening found most promising
    best_mean = 0.0
    for c in range(count):
        mean = gains[c] / rollouts
        if mean > best_mean and beats(gains[c], squares[c], rollouts, SCREENING):
            best = c
            best_mean = mean
    if best < 0:
        return choice, violations
    # the confirmation: fresh playouts of the promising candidate against the base's choice
    gain_sum = 0.0
    square_sum = 0.0
    confirmations = CONFIRMATION * rollouts
    for r in range(rollouts, rollouts + confirmations):
        challenger, found = playout_worth(pirates, shared, playout, p, candidates[best], key, r, by_score,
                                          area, area_shared, events, state, hidden)
        violations += found
        incumbent, found = playout_worth(pirates, shared, playout, p, choice, key, r, by_score,
                                         area, area_shared, events, state, hidden)
        violations += found
        gain_sum += challenger - incumbent
        square_sum += (challenger - incumbent) ** 2
    if gain_sum > 0 and beats(gain_sum, square_sum, confirmations, inputs.params[p, P_EVIDENCE]):
        return candidates[best], violations
    return choice, violations
