"""Pig's play function: one game from its random stream, for the engine's chunk template."""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.quality import MEASURING, note_standings
from analyzer.engine.rng import randint

#: mechanics (``Pig.mechanics``), the index of ``outcome.triggered``
BUST = 0
DOUBLE_DIGIT_TURN = 1


class Inputs(NamedTuple):
    target: int  # points that win
    die_faces: int
    max_turns: int  # the cap: a game still running after this many turns ends without a winner
    hold_at: np.ndarray  # [players] each seat holds once its turn total reaches this


class Scratch(NamedTuple):
    totals: np.ndarray  # [players] banked points


class Tally(NamedTuple):
    rolls: np.ndarray  # [1] dice rolled
    busts: np.ndarray  # [players] turns lost to a 1


@njit(cache=True, nogil=True)
def play_game(inputs, state, key, scratch, tally, outcome, game_records, row):
    players = scratch.totals.shape[0]
    scratch.totals[:] = 0
    busts = 0
    turns = 0
    seat = 0
    while turns < inputs.max_turns:
        turns += 1
        turn_total = 0
        while turn_total < inputs.hold_at[seat] and scratch.totals[seat] + turn_total < inputs.target:
            face = 1 + randint(state, inputs.die_faces)
            tally.rolls[0] += 1
            if face == 1:
                turn_total = 0
                if MEASURING:  # what only the measures need (see benchmarks/bench_measures.py)
                    outcome.triggered[BUST] = 1
                    outcome.holdings[seat, 0] += 1
                tally.busts[seat] += 1
                busts += 1
                break
            turn_total += face
        scratch.totals[seat] += turn_total
        if MEASURING:
            if turn_total >= 10:
                outcome.triggered[DOUBLE_DIGIT_TURN] = 1
            if turns == 1:
                outcome.holdings[seat, 1] = 1
        if scratch.totals[seat] >= inputs.target:
            outcome.winners[seat] = 1
            note_standings(outcome, scratch.totals)
            break
        seat = seat + 1 if seat + 1 < players else 0
        if seat == 0:
            note_standings(outcome, scratch.totals)
    else:
        outcome.capped[0] = 1
    for other in range(players):
        outcome.scores[other] = scratch.totals[other]
    outcome.lengths[0] = turns
    outcome.lengths[1] = (turns + players - 1) // players
    if game_records.shape[0] > 0:
        game_records[row, 0] = busts
