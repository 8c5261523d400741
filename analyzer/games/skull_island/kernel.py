"""The jitted Skull Island kernel: plays whole games and accumulates aggregates.

``play_chunk`` plays games ``first_game .. first_game + n_games - 1``; game ``g``
draws every random number from the stream of ``(seed, g)``. Nothing here allocates
per game and nothing returns to Python before the chunk is done. Dice are packed
integers (:mod:`dice`) and a turn's random stream is one integer too, so the turn
works on plain values; its only array is the stack of per-state tables: the score of
every alive end of a turn, and the decisions of the strategies that do not decide
live (see :mod:`policies`, :mod:`solver_space`).
"""

import numpy as np
from numba import njit

from analyzer.engine.memory import private_zeros
from analyzer.engine.rng import game_key, seed_game, shuffle, substream
from analyzer.games.skull_island.components import CHEST, DICE, SKULL, SORCERESS, STORM, SWORD
from analyzer.games.skull_island.dice import NON_SKULL, count, roll, total_dice
from analyzer.games.skull_island.policies import decide, random_decision
from analyzer.games.skull_island.rules import (
    C_FLOOR,
    C_MAX_ROUNDS,
    C_SEAT_BONUS,
    C_TARGET,
    C_TIE_EXTRA,
)
from analyzer.games.skull_island.scoring import card_skulls, island_allowed, score_turn
from analyzer.games.skull_island.solver_space import SCORES, final_round_table, state_index, table_decision
from analyzer.games.skull_island.strategies import OPTIMAL_EV, P_FINAL_ROUND, RANDOM

EXTRA_ROUNDS = 10
# a turn's outcome, as the per-card statistics see it
ENDED_ALIVE, DIED, ON_ISLAND = 0, 1, 2
# rows of the per-card statistics array
CARD_TURNS, CARD_SCORE_SUM, CARD_SCORE_SQ, CARD_DEATHS, CARD_ISLAND = range(5)
# slots of the counters array
DICE_ROLLED, ILLEGAL_DECISIONS, TRIGGERS_CANCELLED, EXTRA_ROUNDS_PLAYED = range(4)


@njit(cache=True, inline="always")
def _fits(part, whole):
    """Is every face count of ``part`` at most that of ``whole``?"""
    for face in range(6):
        if count(part, face) > count(whole, face):
            return False
    return True


@njit(cache=True)
def is_legal(card, free, chest, new_chest, reroll, sorceress):
    """Is (new chest content, reroll) a legal move from (free, chest)?

    Skulls never go on the chest and are rerolled only with the sorceress (one);
    the chest holds only dice the player has; a reroll moves at least 2 dice.
    """
    if new_chest != 0 and card != CHEST:
        return False
    if count(new_chest, SKULL) != 0 or not _fits(new_chest, (free + chest) & NON_SKULL):
        return False
    if count(reroll, SKULL) > (1 if sorceress else 0):
        return False
    movable = free + chest - new_chest
    return _fits(reroll, movable) and total_dice(reroll) >= 2


@njit(cache=True, inline="always")
def play_turn(card, strategy, params, cfg, own_total, leader_total, final_turn, stream, tables, table):
    """Play one turn; return (own change, opponents' change, outcome, dice rolled, illegal moves).

    Every die and random choice comes from the turn's sub-stream ``stream`` (see
    :func:`analyzer.engine.rng.substream`). The player decides by policy table
    ``tables[table]`` (see :mod:`solver_space`) when ``table >= 0``, else live; a turn
    that ends alive is scored by ``tables[SCORES]``.
    """
    free, stream = roll(stream, DICE)
    dice_rolled = DICE
    start_skulls = card_skulls(card)
    skulls = count(free, SKULL) + start_skulls
    if skulls >= 4 and island_allowed(card, cfg):
        sword_seen = count(free, SWORD) > 0
        rolls_left = 1 if card == STORM else DICE
        while rolls_left > 0:
            remaining = DICE - count(free, SKULL)
            if remaining < 2:
                break
            skulls_before = count(free, SKULL)
            rolled, stream = roll(stream, remaining)
            free = (free - (free & NON_SKULL)) + rolled
            dice_rolled += remaining
            rolls_left -= 1
            sword_seen = sword_seen or count(free, SWORD) > 0
            if count(free, SKULL) == skulls_before:
                break
        own, opponents = score_turn(card, free, 0, True, sword_seen, cfg)
        return own, opponents, ON_ISLAND, dice_rolled, 0

    chest = 0
    illegal = 0
    sorceress = card == SORCERESS
    rerolls_left = 1 if card == STORM else DICE * 1000
    target = cfg[C_TARGET]
    while skulls < 3 and rerolls_left > 0:
        if strategy == RANDOM:
            go, new_chest, reroll, stream = random_decision(card, free, chest, sorceress, stream)
        elif table >= 0:
            go, new_chest, reroll = table_decision(tables, table, card, free, chest, sorceress)
        else:
            go, new_chest, reroll = decide(strategy, params, card, free, chest, skulls, sorceress, cfg,
                                           own_total, leader_total, final_turn, target)
        if not go:
            break
        if not is_legal(card, free, chest, new_chest, reroll, sorceress):
            illegal += 1
            break
        free = free + chest - new_chest - reroll
        chest = new_chest
        if count(reroll, SKULL) > 0:
            sorceress = False
        n = total_dice(reroll)
        rolled, stream = roll(stream, n)
        free += rolled
        dice_rolled += n
        rerolls_left -= 1
        skulls = count(free, SKULL) + start_skulls
    if skulls < 3:
        return tables[SCORES, card, state_index(free + chest, False)], 0, ENDED_ALIVE, dice_rolled, illegal
    own, opponents = score_turn(card, free + chest, chest, False, False, cfg)
    return own, opponents, DIED, dice_rolled, illegal


@njit(cache=True, nogil=True)
def play_chunk(seed, first_game, n_games, players, strategies, params, cfg, deck, tables, seat_tables, thresholds,
               first_round_table, score_low, score_width,
               wins, ties, tie_games, capped, games, score_sum, score_sq, score_hist, length_rounds, length_turns,
               card_stats, counters, record_winner, record_scores, record_rounds, record_turns, record_capped):
    """Play a chunk of games; ``record_*`` arrays of length 0 switch per-game rows off.

    ``cfg`` is the rules' config tuple, ``params`` one row of strategy parameters per seat.
    ``tables`` stacks the score table (``tables[SCORES]``, see :func:`solver_space.alive_scores`)
    and the policy tables the seats play by: seat s reads ``seat_tables[s]``
    (-1: it decides live), and an optimal-ev seat with final_round, in its last turn, the
    final-round table for the points it needs (from ``first_round_table`` on, chosen by
    ``thresholds``; see :mod:`solver`).
    ``deck`` is the fortune deck (card ids); it is shuffled at the start of every game
    and reshuffled whenever it runs out, from the game's stream. Each turn's dice (and a
    random strategy's choices) come from the turn's own sub-stream (seed, game, turn), so
    two rule variants roll the same dice turn by turn: common random numbers stay in
    step after the variants' decisions differ.
    """
    state = private_zeros(4, np.uint64)  # the game's stream: the deck
    totals = private_zeros(players, np.int64)
    in_play = private_zeros(players, np.bool_)  # who is still in the game (ties: the play-off)
    target = cfg[C_TARGET]
    max_rounds = cfg[C_MAX_ROUNDS]
    floor_at_zero = cfg[C_FLOOR] != 0
    tie_extra = cfg[C_TIE_EXTRA] != 0
    recording = record_winner.shape[0] > 0
    n_bins = score_hist.shape[1]
    deck_size = deck.shape[0]

    for g in range(n_games):
        seed_game(seed, first_game + g, state)
        key = game_key(seed, first_game + g)  # of the turns' sub-streams: dice and random choices
        shuffle(state, deck, deck_size)
        deck_pos = 0
        for seat in range(players):
            totals[seat] = seat * cfg[C_SEAT_BONUS]
            in_play[seat] = True
        trigger = -1
        last_turns_left = 0
        rounds = 0
        turns = 0
        extra = 0
        playoff = False
        finished = False
        n_tied = 0
        while not finished:
            if not playoff and rounds >= max_rounds:
                break
            rounds += 1
            for seat in range(players):
                if not in_play[seat]:
                    continue
                if deck_pos == deck_size:
                    shuffle(state, deck, deck_size)
                    deck_pos = 0
                card = deck[deck_pos]
                deck_pos += 1
                leader = -(1 << 62)
                for other in range(players):
                    if other != seat and totals[other] > leader:
                        leader = totals[other]
                final_turn = trigger >= 0 and seat != trigger
                table = seat_tables[seat]
                if final_turn and strategies[seat] == OPTIMAL_EV and params[seat, P_FINAL_ROUND] != 0:
                    table = final_round_table(thresholds, first_round_table, leader - totals[seat] + 1)
                seat_params = (params[seat, 0], params[seat, 1], params[seat, 2], params[seat, 3], params[seat, 4],
                               params[seat, 5])
                own, opponents, outcome, dice_rolled, illegal = play_turn(
                    card, strategies[seat], seat_params, cfg, totals[seat], leader, final_turn, substream(key, turns),
                    tables, table)
                counters[DICE_ROLLED] += dice_rolled
                counters[ILLEGAL_DECISIONS] += illegal
                before = totals[seat]
                for other in range(players):
                    totals[other] += own if other == seat else opponents
                    if floor_at_zero and totals[other] < 0:
                        totals[other] = 0
                change = totals[seat] - before
                card_stats[CARD_TURNS, card, seat] += 1
                card_stats[CARD_SCORE_SUM, card, seat] += change
                card_stats[CARD_SCORE_SQ, card, seat] += change * change
                if outcome == DIED:
                    card_stats[CARD_DEATHS, card, seat] += 1
                elif outcome == ON_ISLAND:
                    card_stats[CARD_ISLAND, card, seat] += 1
                turns += 1
                if playoff:
                    continue
                if trigger >= 0 and totals[trigger] < target:
                    trigger = -1  # the trigger dropped below the target: play on normally
                    counters[TRIGGERS_CANCELLED] += 1
                elif trigger >= 0:
                    last_turns_left -= 1
                    if last_turns_left == 0:
                        finished = True
                        break
                if trigger < 0 and totals[seat] >= target:
                    trigger = seat
                    last_turns_left = players - 1
            if playoff:
                extra += 1
            if finished or playoff:
                # who leads among those still in play; a tie goes to a play-off round
                best = -(1 << 62)
                for seat in range(players):
                    if in_play[seat] and totals[seat] > best:
                        best = totals[seat]
                n_tied = 0
                for seat in range(players):
                    in_play[seat] = in_play[seat] and totals[seat] == best
                    n_tied += in_play[seat]
                playoff = n_tied > 1 and tie_extra and extra < EXTRA_ROUNDS
                finished = not playoff

        if n_tied == 0:
            # capped: decided on the totals as they stand
            capped[0] += 1
            best = totals.max()
            for seat in range(players):
                in_play[seat] = totals[seat] == best
                n_tied += in_play[seat]
        counters[EXTRA_ROUNDS_PLAYED] += extra
        games[0] += 1
        winner = -1
        if n_tied == 1:
            for seat in range(players):
                if in_play[seat]:
                    wins[seat] += 1
                    winner = seat
        else:
            tie_games[0] += 1
            for seat in range(players):
                if in_play[seat]:
                    ties[seat] += 1
        for seat in range(players):
            score = totals[seat]
            score_sum[seat] += score
            score_sq[seat] += score * score
            b = (score - score_low) // score_width
            score_hist[seat, min(max(b, 0), n_bins - 1)] += 1
        length_rounds[min(rounds, length_rounds.shape[0] - 1)] += 1
        length_turns[min(turns, length_turns.shape[0] - 1)] += 1
        if recording:
            record_winner[g] = winner + 1
            record_rounds[g] = rounds
            record_turns[g] = turns
            record_capped[g] = 0 if finished else 1
            for seat in range(players):
                record_scores[g, seat] = totals[seat]
