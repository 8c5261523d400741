"""The kernel inputs of a Doubloons run (read only), and those of a searching pirate's playouts."""

from typing import NamedTuple

import numpy as np

from analyzer.engine.jit import njit


class Inputs(NamedTuple):
    """The kernel inputs of a run: rule values, the deck, the seats' strategies."""

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


@njit(cache=True)
def with_seats(inputs, strategy_ids, params):
    """The run's inputs with other seats: those of a searching pirate's playouts."""
    return Inputs(inputs.apply_revealed_specials, inputs.freed_parrot_moves, inputs.final_turns, inputs.rotate_start,
                  inputs.rounds_to_win, inputs.max_turns_per_round, inputs.deck_size, inputs.composition,
                  strategy_ids, params, inputs.audit)
