"""Duel, a toy contract game for the tuner's tests: its best parameter is known exactly.

It lives in a module of its own (imported as ``tests.duel_game``, not from a test file)
because the engine's compiled chunk template records the kernel-input types it has
played, and every process that loads that record must be able to import them.
"""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.rng import random01
from analyzer.games.base import Game, Prepared, Strategy
from analyzer.games.options import Option


class DuelInputs(NamedTuple):
    aim: np.ndarray  # [players] each seat's aim


class DuelTally(NamedTuple):
    duels: np.ndarray  # [1]


@njit(nogil=True)
def play_duel(inputs, state, key, scratch, tally, outcome, game_records, row):
    """Each seat draws a uniform number in seat order; the highest after the aim's penalty wins."""
    best = -2.0
    winner = 0
    for seat in range(inputs.aim.shape[0]):
        score = random01(state) - abs(inputs.aim[seat] - 0.6)
        outcome.scores[seat] = 0
        if score > best:
            best = score
            winner = seat
    outcome.winners[winner] = 1
    outcome.scores[winner] = 1
    outcome.lengths[0] = 1
    tally.duels[0] += 1


class DuelGame(Game):
    """Each seat draws a uniform number and subtracts how far its ``aim`` is from 0.6; the
    highest wins. Game i's draws depend only on (seed, i), so with common random numbers
    an aim nearer 0.6 wins every game a farther one wins: the search must find 0.6."""

    id = "duel"
    title = "Duel"
    description = "a toy game"
    min_players = 2
    max_players = 4
    default_players = 3
    score_unit = "points"
    length_units = ("turns",)
    options = ()
    strategies = (Strategy("aim", "aims", (Option("aim", "float", 0.5, "the aim", low=0, high=1),
                                          Option("loud", "bool", False, "no effect"))),)
    default_strategy = "aim"
    tally_type = DuelTally

    def prepare(self, rules, players, seats):
        return Prepared(players, rules, seats, (0, 1, 2), {"turns": 1},
                        inputs=DuelInputs(np.array([s.params["aim"] for s in seats], np.float64)))

    def play_function(self):
        return play_duel

    def tally_shapes(self, prepared):
        return {"duels": (1,)}

    def game_stats(self, totals, prepared):
        return {}
