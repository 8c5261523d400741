"""The steps of a Skull Island game around its turns, inlined into :func:`kernel.play_game`
(as it is into the engine's chunk template): setting a game up, the final round, the play-off,
the mechanics of the whole game.

A step takes numbers and single arrays, never the kernel's inputs, tally or outcome, so that it
reads as what it changes; the steps that run every turn take only numbers. (Its arrays cost no
reference count: inlined into the chunk template, they are compiled without them, see
:mod:`analyzer.engine.jit`.)
"""

from analyzer.engine.jit import njit
from analyzer.engine.rng import shuffle
from analyzer.games.skull_island.coverage import (
    FINAL_ROUND,
    FINAL_ROUND_CANCELLED,
    ROUND_CAP,
    SEAT_BONUS,
    SHARED_WIN,
    TIE_PLAYOFF,
)


@njit(cache=True, nogil=True, inline="always")
def new_game(state, deck, deck_order, totals, in_play, independent_draw, seat_bonus):
    """Set up a game: the deck in ``deck_order``, shuffled from the game's stream (unless
    each card is drawn from the whole deck), each seat's starting total (its seat bonus),
    every seat in play. Returns the mechanics seen so far, as bits (see :mod:`coverage`)."""
    for card in range(deck.shape[0]):
        deck[card] = deck_order[card]
    if not independent_draw:
        shuffle(state, deck, deck.shape[0])
    players = totals.shape[0]
    for seat in range(players):
        totals[seat] = seat * seat_bonus
        in_play[seat] = True
    return (1 << SEAT_BONUS) if seat_bonus != 0 and players > 1 else 0


@njit(cache=True, nogil=True, inline="always")
def follow_trigger(trigger, last_turns_left, trigger_total, own_total, seat, target, players):
    """The final round after seat ``seat``'s turn: called by the first seat to reach the
    target, called off when the trigger's total (``trigger_total``) falls below it again,
    over when every other seat has had its last turn.

    Returns (trigger, last_turns_left, over, called off, mechanics seen as bits)."""
    seen = 0
    cancelled = False
    if trigger >= 0 and trigger_total < target:
        trigger = -1  # the trigger dropped below the target: play on normally
        cancelled = True
        seen |= 1 << FINAL_ROUND_CANCELLED
    elif trigger >= 0:
        last_turns_left -= 1
        if last_turns_left == 0:
            return trigger, 0, True, False, seen
    if trigger < 0 and own_total >= target:
        trigger = seat
        last_turns_left = players - 1
        seen |= 1 << FINAL_ROUND
    return trigger, last_turns_left, False, cancelled, seen


@njit(cache=True, nogil=True, inline="always")
def leaders_in_play(totals, in_play):
    """Keep in play only the seats with the top total among those in play; returns how many."""
    best = -(1 << 62)
    for seat in range(totals.shape[0]):
        if in_play[seat] and totals[seat] > best:
            best = totals[seat]
    n_tied = 0
    for seat in range(totals.shape[0]):
        in_play[seat] = in_play[seat] and totals[seat] == best
        n_tied += in_play[seat]
    return n_tied


@njit(cache=True, nogil=True, inline="always")
def game_mechanics(seen, in_play, capped, extra_rounds):
    """The mechanics seen in the whole game, as bits: those seen while playing, the round
    cap, a play-off and a shared win (two or more seats still in play at the end)."""
    if capped:
        seen |= 1 << ROUND_CAP
    if extra_rounds > 0:
        seen |= 1 << TIE_PLAYOFF
    winners = 0
    for seat in range(in_play.shape[0]):
        winners += in_play[seat]
    if winners > 1:
        seen |= 1 << SHARED_WIN
    return seen
