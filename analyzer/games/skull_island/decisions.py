"""The strategies' decisions, jitted: after each roll, stop or reroll which dice.

``decide`` returns ``(reroll?, new_chest, reroll)``: the dice on the treasure chest card
afterwards and the dice to reroll from those not on it (a skull only with the
sorceress), both packed (see :mod:`dice`). The kernel checks every decision against
the rules.

A strategy whose decisions depend on the turn's dice alone (``strategies.TABULATED``)
is played from a table: :func:`tabulate` asks ``decide`` once for every state of the
turn, and the kernel looks the decision up after each roll, as it does the solver's.
"""

import numpy as np

from analyzer.engine.arrays import copy_into
from analyzer.engine.jit import njit
from analyzer.engine.rng import split_next
from analyzer.games.skull_island.components import (
    CHEST,
    COIN,
    DIAMOND,
    MONKEY,
    MONKEY_BUSINESS,
    N_CARDS,
    PARROT,
    PEACE,
    SKULL,
    STORM,
    SWORD,
)
from analyzer.games.skull_island.dice import NON_SKULL, count, of, total_dice
from analyzer.games.skull_island.scoring import card_skulls, sabres_needed, score_turn
from analyzer.games.skull_island.strategies import (
    ENDGAME,
    FIRST_ROLL,
    P_BEHIND_STOP_AT,
    P_CHASE_FULL_CHEST,
    P_DANGER_ZONE,
    P_MAX_SKULLS,
    P_STOP_AT,
    THRESHOLD,
)
from analyzer.games.skull_island.turn_states import (
    N_RANKS,
    N_STATES,
    encode,
    is_live,
    sorceress_flags,
    state_dice,
)

STOP = (False, 0, 0)


@njit(cache=True, inline="always")
def _coin_flip(stream):
    """A fair coin from the sub-stream: ``(heads?, stream)``."""
    value, stream = split_next(stream)
    return (value >> np.uint64(63)) == np.uint64(1), stream


@njit(cache=True, inline="always")
def chance(stream, probability):
    """True with ``probability`` (a uniform draw from the sub-stream): ``(happened?, stream)``."""
    value, stream = split_next(stream)
    return (value >> np.uint64(11)) * (1.0 / 9007199254740992.0) < probability, stream


@njit(cache=True, inline="always")
def _binomial_half(stream, n):
    """The number of heads in ``n`` <= 63 fair coin flips: ``(heads, stream)``."""
    if n == 0:
        return 0, stream
    value, stream = split_next(stream)
    bits = value >> np.uint64(64 - n)
    heads = 0
    while bits:
        heads += 1
        bits &= bits - np.uint64(1)
    return heads, stream


@njit(cache=True, inline="always")
def _keep_all(dice, face):
    return of(face, count(dice, face))


@njit(cache=True, inline="always")
def _largest_set_face(card, total):
    """The non-coin face (monkey, parrot or sword) with the most dice; first on ties.

    Under monkey business monkeys and parrots are one set, reported as MONKEY.
    """
    if card == MONKEY_BUSINESS:
        return MONKEY if count(total, MONKEY) + count(total, PARROT) >= count(total, SWORD) else SWORD
    best = MONKEY
    if count(total, PARROT) > count(total, best):
        best = PARROT
    if count(total, SWORD) > count(total, best):
        best = SWORD
    return best


@njit(cache=True, inline="always")
def _keep_set(card, total, face):
    """All dice of the set ``face`` (both animals under monkey business)."""
    keep = _keep_all(total, face)
    if card == MONKEY_BUSINESS and face == MONKEY:
        keep += _keep_all(total, PARROT)
    return keep


@njit(cache=True)
def _threshold_keep(card, total):
    """Coins, diamonds and the largest set."""
    return _keep_all(total, COIN) + _keep_all(total, DIAMOND) + _keep_set(card, total, _largest_set_face(card, total))


@njit(cache=True)
def _chaser_keep(card, total, sabres):
    """What the set-chaser keeps: everything that scores, plus the card's target set."""
    keep = _keep_all(total, COIN) + _keep_all(total, DIAMOND)
    if card == STORM:
        return keep
    monkeys = count(total, MONKEY)
    parrots = count(total, PARROT)
    swords = count(total, SWORD)
    if card == MONKEY_BUSINESS:
        keep += of(MONKEY, monkeys) + of(PARROT, parrots)
        return keep + (of(SWORD, swords) if swords >= 3 else 0)
    if card == PEACE:
        # sabres cost 1000 each: never keep them
        best = MONKEY if monkeys >= parrots else PARROT
        keep += _keep_all(total, best)
        other = PARROT if best == MONKEY else MONKEY
        return keep + (_keep_all(total, other) if count(total, other) >= 3 else 0)
    if sabres > 0:
        keep += of(SWORD, swords)
        if swords < sabres:
            return keep
    best = _largest_set_face(card, total)
    if sabres > 0 and best == SWORD:
        best = MONKEY if monkeys >= parrots else PARROT
    keep += _keep_all(total, best)
    for face in (MONKEY, PARROT, SWORD):
        if face != best and count(total, face) >= 3 and count(keep, face) == 0:
            keep += _keep_all(total, face)
    return keep


@njit(cache=True)
def _release_for_reroll(keep, total, protect):
    """Free kept dice (never of face ``protect``) until at least 2 are left to reroll."""
    loose = total_dice((total - keep) & NON_SKULL)
    for face in (MONKEY, PARROT, COIN, DIAMOND, SWORD):
        while face != protect and count(keep, face) > 0 and loose < 2:
            keep -= of(face, 1)
            loose += 1
    return keep


@njit(cache=True)
def _plan_from_keep(card, total, keep, use_sorceress):
    """Put the kept dice on the chest (chest card) and reroll every other non-skull die."""
    reroll = ((total - keep) & NON_SKULL) + (of(SKULL, 1) if use_sorceress else 0)
    if total_dice(reroll) < 2:
        return STOP
    return True, (keep if card == CHEST else 0), reroll


@njit(cache=True)
def random_decision(card, free, chest, sorceress, stream):
    """The random strategy's decision, uniformly random legal choices drawn from the
    turn's sub-stream: ``(reroll?, new_chest, reroll, stream)``."""
    total = free + chest
    new_chest = 0
    if card == CHEST:
        for face in range(5):
            heads, stream = _binomial_half(stream, count(total, face))
            new_chest += of(face, heads)
    use_sorceress = False
    if sorceress and count(free, SKULL) > 0:
        use_sorceress, stream = _coin_flip(stream)
    movable = (total - new_chest) & NON_SKULL
    if total_dice(movable) + (1 if use_sorceress else 0) < 2:
        return False, 0, 0, stream
    stop, stream = _coin_flip(stream)
    if stop:
        return False, 0, 0, stream
    while True:
        reroll = of(SKULL, 1) if use_sorceress else 0
        for face in range(5):
            heads, stream = _binomial_half(stream, count(movable, face))
            reroll += of(face, heads)
        if total_dice(reroll) >= 2:
            return True, new_chest, reroll, stream


@njit(cache=True)
def decide(strategy, params, card, free, chest, skulls, sorceress, turn_rules, own_total, leader_total,
           final_turn, target):
    """One decision of a deterministic strategy after a roll (see the module docstring).

    ``params`` is the seat's parameter tuple (positions ``P_*``); ``skulls`` counts card
    skulls too. (``random_decision`` decides for ``random``: only it draws numbers.)
    """
    if strategy == FIRST_ROLL:
        return STOP

    total = free + chest
    current, _ = score_turn(card, total, chest, False, False, turn_rules)
    stop_at = params[P_STOP_AT]
    max_skulls = params[P_MAX_SKULLS]
    use_sorceress = sorceress and count(free, SKULL) > 0
    if strategy == THRESHOLD:
        if current >= stop_at or skulls >= max_skulls:
            return STOP
        return _plan_from_keep(card, total, _threshold_keep(card, total), use_sorceress)

    # set-chaser and endgame
    sabres = sabres_needed(card)
    keep = _chaser_keep(card, total, sabres)
    swords = count(total, SWORD)
    must_continue = (sabres > 0 and swords < sabres) or (card == PEACE and swords > 0)
    if must_continue:
        keep = _release_for_reroll(keep, total, SWORD if sabres > 0 else -1)
    dice_in_roll = total_dice((total - keep) & NON_SKULL) + (1 if use_sorceress else 0)
    if dice_in_roll < 2:
        return STOP
    if strategy == ENDGAME:
        if final_turn:
            # the last turn: only beating the leader matters
            if own_total + current > leader_total:
                return STOP
            return _plan_from_keep(card, total, keep, use_sorceress)
        if leader_total > own_total and leader_total >= target - params[P_DANGER_ZONE]:
            stop_at = params[P_BEHIND_STOP_AT]
    cannot_die = skulls - (1 if use_sorceress else 0) + dice_in_roll < 3
    go_on = must_continue or (current < stop_at and skulls < max_skulls)
    if not go_on and card == CHEST:
        go_on = True  # the scoring dice lie on the chest: a death costs nothing more
    if not go_on and cannot_die and card != PEACE and params[P_CHASE_FULL_CHEST] != 0:
        go_on = True
    if not go_on:
        return STOP
    return _plan_from_keep(card, total, keep, use_sorceress)



@njit(cache=True)
def decision_row(strategy, params, card, turn_rules):
    """``decide``'s decision in every state of a turn of ``card``, as a row of a policy
    table in the solver's format (see :mod:`turn_states`); 0 (stop) where the turn is over.

    Only for strategies that read nothing but the dice (``strategies.TABULATED``): the
    totals, the final round and the target are not passed.
    """
    row = np.zeros(N_STATES, dtype=np.int64)
    for flag in range(sorceress_flags(card)):
        for rk in range(N_RANKS):
            if is_live(rk, card):
                dice = state_dice(rk)
                skulls = count(dice, SKULL) + card_skulls(card)
                go, new_chest, reroll = decide(strategy, params, card, dice, 0, skulls, flag == 1, turn_rules, 0, 0,
                                               False, 0)
                if go:
                    row[flag * N_RANKS + rk] = encode(reroll, new_chest)
    if sorceress_flags(card) == 1:
        copy_into(row[:N_RANKS], row[N_RANKS:])
    return row


@njit(cache=True)
def tabulate(strategy, params, turn_rules):
    """The policy table ``[card, state]`` of a strategy in ``strategies.TABULATED``."""
    table = np.zeros((N_CARDS, N_STATES), dtype=np.int64)
    for card in range(N_CARDS):
        copy_into(decision_row(strategy, params, card, turn_rules), table[card])
    return table
