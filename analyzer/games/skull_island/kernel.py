"""The jitted Skull Island kernel: plays one whole game for the engine's chunk template.

``play_game`` plays a game from its stream (see :mod:`analyzer.engine.template`):
the fortune deck is shuffled from the game's own stream, and each turn's dice (and a
random strategy's choices) come from the turn's sub-stream. Nothing here allocates.
Dice are packed integers (:mod:`dice`) and a turn's random stream is one integer too,
so the turn works on plain values; its only array is the stack of per-state tables:
the score of every alive end of a turn, and the decisions of the strategies that do
not decide live (see :mod:`decisions`, :mod:`turn_states`).
"""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.quality import MEASURING, NO_NOTES, note_round, save_notes, top_scorers
from analyzer.engine.rng import randint, shuffle, substream
from analyzer.games.skull_island.components import CHEST, DICE, PEACE, SKULL, SORCERESS, STORM, SWORD
from analyzer.games.skull_island.coverage import (
    DECK_RESHUFFLED,
    FLOOR_AT_ZERO,
    N_MECHANICS,
    NEGATIVE_TOTAL,
    PEACE_SPARES,
    SEA_BATTLE_BLOCKS_ISLAND,
    SKULL_ISLAND,
    SKULL_ISLAND_OFF,
    SORCERESS_SKULL,
    THREE_SKULLS,
)
from analyzer.games.skull_island.decisions import chance, decide, random_decision
from analyzer.games.skull_island.dice import NON_SKULL, count, roll, total_dice
from analyzer.games.skull_island.rules import EXTRA_ROUNDS, TurnRules
from analyzer.games.skull_island.scoring import card_skulls, island_allowed, score_turn
from analyzer.games.skull_island.steps import follow_trigger, game_mechanics, leaders_in_play, new_game
from analyzer.games.skull_island.strategies import OPTIMAL_EV, OPTIMAL_WIN, P_FINAL_ROUND, P_NOISE, RANDOM
from analyzer.games.skull_island.turn_states import (
    ALIVE,
    ALIVE_EVENTS,
    ALIVE_SCORE_SHIFT,
    death_events,
    final_round_table,
    state_index,
    table_decision,
)
from analyzer.games.skull_island.win_solver.values import win_table


class Inputs(NamedTuple):
    """The kernel inputs of a run (read only).

    ``tables`` stacks the table of the turns that end alive (``tables[ALIVE]``, their scores and
    mechanics, from :func:`turn_states.alive_tables`) and the policy tables the seats play by: seat s
    reads ``seat_tables[s]`` (-1: it decides live), and an optimal-ev seat with final_round,
    in its last turn, the final-round table for the points it needs (from ``first_round_table``
    on, chosen by ``thresholds``; see :mod:`turn_solver.solve`). An optimal-win seat plays, every turn, the
    final-round table that ``win_choices`` (see :func:`win_solver.values.win_table`) names.
    """

    strategies: np.ndarray  # [players] each seat's index in strategies.STRATEGIES
    params: np.ndarray  # [players, parameter slot] (strategies.PARAM_SLOTS)
    #: the rules as a turn reads them: the scoring, the strategies and the solvers share them
    turn_rules: TurnRules
    deck: np.ndarray  # the fortune deck's card ids
    independent_draw: bool  # each turn's card drawn from the whole deck (card_draw = "independent")
    seat_bonus: int  # seat s starts with s times this
    target: int  # the total that calls the final round
    floor_at_zero: bool  # totals never fall below zero
    tie_extra: bool  # a tie for the lead goes to play-off rounds (tie_rule = "extra-round")
    max_rounds: int  # the cap of a game's rounds (before any play-off)
    tables: np.ndarray  # [table, card, state]
    seat_tables: np.ndarray  # [players]
    thresholds: np.ndarray  # the needed points at which the final-round tables change
    first_round_table: int  # the first final-round table in ``tables`` (-1: none)
    win_choices: np.ndarray  # [phase, own total, leader's total, card] (win_solver.solve.win_policy; unused: zeros)
    win_low: int  # the lowest total (in hundreds) of ``win_choices``


class Scratch(NamedTuple):
    """Working arrays of one chunk."""

    deck: np.ndarray  # the game's deck: the inputs' deck, shuffled
    totals: np.ndarray  # [players] the game's running totals
    in_play: np.ndarray  # [players] bool: who is still in the game (ties: the play-off)


class Tally(NamedTuple):
    """Skull Island's own aggregates: per fortune card and seat, then plain counters."""

    card_turns: np.ndarray  # [card, seat]
    card_score_sum: np.ndarray  # [card, seat] the seat's own total change in those turns
    card_score_sq: np.ndarray  # [card, seat]
    card_deaths: np.ndarray  # [card, seat]
    card_island: np.ndarray  # [card, seat] turns that went to Skull Island
    dice_rolled: np.ndarray  # [1]
    illegal_decisions: np.ndarray  # [1]
    triggers_cancelled: np.ndarray  # [1] final rounds called off (the trigger fell below the target)
    extra_rounds: np.ndarray  # [1] play-off rounds played


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
def play_turn(card, strategy, params, turn_rules, own_total, leader_total, final_turn, stream, tables, table):
    """Play one turn; return (own change, opponents' change, events, dice rolled, illegal moves).

    ``events`` are the turn's mechanics as bits ``1 << m`` (see :mod:`coverage`): three
    skulls, Skull Island, a sea battle won or lost...

    Every die and random choice comes from the turn's sub-stream ``stream`` (see
    :func:`analyzer.engine.rng.substream`). The player decides by policy table
    ``tables[table]`` (see :mod:`turn_states`) when ``table >= 0``, else live; a turn
    that ends alive takes its score and its mechanics from ``tables[ALIVE]``.
    """
    free, stream = roll(stream, DICE)
    dice_rolled = DICE
    start_skulls = card_skulls(card)
    skulls = count(free, SKULL) + start_skulls
    if skulls >= 4 and island_allowed(card, turn_rules):
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
        own, opponents = score_turn(card, free, 0, True, sword_seen, turn_rules)
        events = (1 << SKULL_ISLAND) | (np.int64((card == PEACE) & sword_seen) << PEACE_SPARES)
        return own, opponents, events, dice_rolled, 0

    # the mechanics without a branch on the card or the dice (see turn_states.death_events)
    events = np.int64(skulls >= 4) << (SKULL_ISLAND_OFF if turn_rules.skull_island == 0 else SEA_BATTLE_BLOCKS_ISLAND)
    chest = 0
    illegal = 0
    sorceress = card == SORCERESS
    rerolls_left = 1 if card == STORM else DICE * 1000
    target = turn_rules.target_score
    while skulls < 3 and rerolls_left > 0:
        casual = False
        if params[P_NOISE] > 0.0 and strategy != RANDOM:
            casual, stream = chance(stream, params[P_NOISE])
        if strategy == RANDOM or casual:
            go, new_chest, reroll, stream = random_decision(card, free, chest, sorceress, stream)
        elif table >= 0:
            go, new_chest, reroll = table_decision(tables, table, card, free, chest, sorceress)
        else:
            go, new_chest, reroll = decide(strategy, params, card, free, chest, skulls, sorceress, turn_rules,
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
            events |= 1 << SORCERESS_SKULL
        n = total_dice(reroll)
        rolled, stream = roll(stream, n)
        free += rolled
        dice_rolled += n
        rerolls_left -= 1
        skulls = count(free, SKULL) + start_skulls
    if skulls < 3:
        state = state_index(free + chest, False)
        alive = tables[ALIVE, card, state]
        return alive >> ALIVE_SCORE_SHIFT, 0, events | (alive & ALIVE_EVENTS), dice_rolled, illegal
    own, opponents = score_turn(card, free + chest, chest, False, False, turn_rules)
    return own, opponents, events | death_events(card, count(free + chest, SWORD), own), dice_rolled, illegal


@njit(cache=True, nogil=True, inline="always")
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Play one game for the chunk template (see :func:`analyzer.engine.template.play_game`).

    The deck is shuffled from the inputs' order at the start of the game and reshuffled
    whenever it runs out, from the game's stream ``state``, so a game is the same in any
    chunk (with ``card_draw = "independent"``, each turn's card is drawn from the whole
    deck instead, from the same stream). Each turn's dice (and a random strategy's
    choices) come from the turn's own sub-stream (seed, game, turn), so two rule variants
    roll the same dice turn by turn: common random numbers stay in step after the
    variants' decisions differ. Scores are the final totals; lengths are (rounds, turns);
    a game stopped at max_rounds is capped and decided on the totals as they stand.
    The standings are noted after every round; the mechanics seen are kept as bits.

    Inlined into the template, as ``play_turn`` and the steps of :mod:`steps` are here: a call per
    game would cost about 5% of the run (measured with four threshold players).
    """
    turn_rules = inputs.turn_rules
    strategies = inputs.strategies
    params = inputs.params
    deck = scratch.deck
    totals = scratch.totals
    in_play = scratch.in_play
    players = totals.shape[0]
    target = inputs.target
    deck_size = deck.shape[0]
    independent = inputs.independent_draw

    seen = new_game(state, deck, inputs.deck, totals, in_play, independent, inputs.seat_bonus)
    signs = 0  # every total after a turn, or-ed together: negative if one went below zero (a mechanic)
    deck_pos = 0
    trigger = -1
    last_turns_left = 0
    rounds = 0
    turns = 0
    extra = 0
    playoff = False
    finished = False
    n_tied = 0
    notes = NO_NOTES  # in local variables: see note_round
    while not finished:
        if not playoff and rounds >= inputs.max_rounds:
            break
        rounds += 1
        for seat in range(players):
            if not in_play[seat]:
                continue
            # -- the card
            if independent:
                card = deck[randint(state, deck_size)]
            else:
                if deck_pos == deck_size:
                    shuffle(state, deck, deck_size)
                    deck_pos = 0
                    seen |= 1 << DECK_RESHUFFLED
                card = deck[deck_pos]
                deck_pos += 1
            # -- the policy table the seat plays by, and its turn
            leader = -(1 << 62)
            for other in range(players):
                if other != seat and totals[other] > leader:
                    leader = totals[other]
            final_turn = trigger >= 0 and seat != trigger
            table = inputs.seat_tables[seat]
            if final_turn and strategies[seat] == OPTIMAL_EV and params[seat, P_FINAL_ROUND] != 0:
                table = final_round_table(inputs.thresholds, inputs.first_round_table, leader - totals[seat] + 1)
            elif strategies[seat] == OPTIMAL_WIN:
                table = win_table(inputs.win_choices, inputs.win_low, inputs.first_round_table, final_turn,
                                  totals[seat], leader, card)
            seat_params = (params[seat, 0], params[seat, 1], params[seat, 2], params[seat, 3], params[seat, 4],
                           params[seat, 5], params[seat, 6])
            own, opponents, events, dice_rolled, illegal = play_turn(
                card, strategies[seat], seat_params, turn_rules, totals[seat], leader, final_turn,
                substream(key, turns), inputs.tables, table)
            # -- the totals, the per-card statistics, the mechanics and the card met
            before = totals[seat]
            for other in range(players):  # without a branch on the totals, which a mechanic noted would need
                total = totals[other] + (own if other == seat else opponents)
                signs |= total
                totals[other] = max(total, 0) if inputs.floor_at_zero else total
            change = totals[seat] - before
            tally.dice_rolled[0] += dice_rolled
            tally.illegal_decisions[0] += illegal
            tally.card_turns[card, seat] += 1
            tally.card_score_sum[card, seat] += change
            tally.card_score_sq[card, seat] += change * change
            if events & (1 << THREE_SKULLS):
                tally.card_deaths[card, seat] += 1
            elif events & (1 << SKULL_ISLAND):
                tally.card_island[card, seat] += 1
            seen |= events | (1 << (card - 1))  # mechanic card - 1: the card drawn (see coverage)
            if MEASURING:
                outcome.holdings[np.uint64(seat), np.uint64(card - 1)] += 1  # unsigned: no test for a negative index
            turns += 1
            if playoff:
                continue
            # -- the final round
            # (totals[trigger] with no trigger, -1, reads the last seat's: follow_trigger ignores it)
            trigger, last_turns_left, finished, cancelled, trigger_seen = follow_trigger(
                trigger, last_turns_left, totals[trigger], totals[seat], seat, target, players)
            seen |= trigger_seen
            if cancelled:
                tally.triggers_cancelled[0] += 1
            if finished:
                break
        notes = note_round(outcome.standings, totals, notes)
        if playoff:
            extra += 1
        if finished or playoff:
            # who leads among those still in play; a tie goes to a play-off round
            n_tied = leaders_in_play(totals, in_play)
            playoff = n_tied > 1 and inputs.tie_extra and extra < EXTRA_ROUNDS
            finished = not playoff

    save_notes(outcome.steps, notes)
    capped = n_tied == 0
    if capped:  # decided on the totals as they stand
        outcome.capped[0] = 1
        leaders = top_scorers(totals)
        for seat in range(players):
            in_play[seat] = (leaders >> seat) & 1
    tally.extra_rounds[0] += extra
    for seat in range(players):
        outcome.winners[seat] = 1 if in_play[seat] else 0
        outcome.scores[seat] = totals[seat]
    if MEASURING:
        seen |= np.int64(signs < 0) << (FLOOR_AT_ZERO if inputs.floor_at_zero else NEGATIVE_TOTAL)
        seen = game_mechanics(seen, in_play, capped, extra)
        triggered = outcome.triggered  # the template clears it after each game
        for mechanic in range(N_MECHANICS):
            triggered[mechanic] = (seen >> mechanic) & 1
    outcome.lengths[0] = rounds
    outcome.lengths[1] = turns
