"""The issue's invariants over many games, in the kernel's checking mode: money (cash =
start money + received - paid, every payment between two accounts, never below zero),
tiles (each of the 25 in the pile, on Isla Cruces or with one player), cards (each of
the 35 LIFE cards in the draw or the discard pile), movement (forward only, never past a
stop space), decks (each ship and mascot card in its deck or with the player showing it).
"""

import numpy as np
import pytest

from analyzer.engine.runner import run
from analyzer.games.dead_mans_chest import GAME
from analyzer.games.dead_mans_chest.invariants import check_state
from analyzer.games.dead_mans_chest.kernel import tally_game
from analyzer.games.dead_mans_chest.layout import (
    CASH,
    DRAW_COUNT,
    INVARIANTS,
    PILE_COUNT,
    RECEIVED,
    SHIP,
    TILE_WORTH,
    TREASURY,
    V_CARDS,
    V_DECKS,
    V_MONEY,
    V_TILES,
)
from analyzer.games.dead_mans_chest.money import transfer

from .rigged_game import RiggedGame, prepared

STRATEGIES = ("random", "sensible", "aggressive", "thrifty")
VARIANTS = [
    {},
    {"loans": False},
    {"raids": False, "unpaid_loan": "cash_in_tiles"},
    {"start_money": 0, "shipyard_max_waits": 0},            # loans everywhere
    {"start_money": 300, "loans": False},                   # shipless players
    {"tile_from_player": "choose", "retired_take_limit": 3, "retired_tile_spin": 1, "isla_cruces_tiles": 0},
    {"start_route": "pirate", "loot_multiplier": 0.0, "unpaid_loan": "forgive"},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_violation_over_many_games(players):
    for index, rules in enumerate(VARIANTS):
        seats = [STRATEGIES[(seat + index) % 4] for seat in range(players)]
        prep = prepared(players, seats, rules, check=True)
        totals = run(GAME, prep, 3000, seed=100 + index, workers=1)  # a violation: RuntimeError
        assert list(totals["invariant_violations"]) == [0] * len(INVARIANTS), (players, rules)
        assert totals["capped"][0] == 0
        assert totals["games"][0] == 3000


def test_variants_reach_the_rare_paths():
    """The variants above really exercise loans, shipless players and a dry tile pile."""
    def stats(players, strategy, rules):
        prep = prepared(players, [strategy], rules, check=True)
        return GAME.game_stats(run(GAME, prep, 500, seed=1, workers=1), prep)

    assert stats(6, "sensible", VARIANTS[3])["loans"]["per_game"] > 1
    assert stats(6, "random", VARIANTS[5])["tile_pile_ran_dry"]["rate"] > 0.2
    assert stats(4, "aggressive", VARIANTS[4])["ships"]["no ship"]["held_at_end"] > 0.05


def test_the_checks_catch_broken_states():
    """Each invariant check fails on a state that breaks it (the checks are not vacuous)."""
    game = RiggedGame(players=3)
    violations = game.scratch.violations
    check_state(game.m)
    assert list(violations) == [0] * len(INVARIANTS)
    transfer(game.m, TREASURY, 0, 250)               # a proper payment from the treasury
    check_state(game.m)
    assert violations[V_MONEY] == 0
    game.scratch.players[0, CASH] += 1                    # money from nowhere
    check_state(game.m)
    assert violations[V_MONEY] == 1
    game.scratch.players[0, RECEIVED] += 1                # ledgered, but nobody paid it
    check_state(game.m)
    assert violations[V_MONEY] == 2
    game.scratch.counters[PILE_COUNT] -= 1                # a tile vanished from the pile
    check_state(game.m)
    assert violations[V_TILES] == 1
    game.scratch.counters[PILE_COUNT] += 1
    game.give_tile(2, game.tile(3000))
    check_state(game.m)
    assert violations[V_TILES] == 1                       # a tile handed over keeps its worth
    game.scratch.players[2, TILE_WORTH] += 500            # a worth its tiles do not make
    check_state(game.m)
    assert violations[V_TILES] == 2
    game.scratch.counters[DRAW_COUNT] -= 1                # a LIFE card vanished
    check_state(game.m)
    assert violations[V_CARDS] == 1
    game.scratch.players[1, SHIP] = 4                     # shows a ship still in the deck
    check_state(game.m)
    assert violations[V_DECKS] == 1


def test_violations_reach_the_tally_and_refuse_the_chunk():
    """The kernel hands each game's violations to the tally, and a chunk that counted any is refused."""
    game = RiggedGame(players=3)
    game.prep.inputs = game.prep.inputs._replace(check_invariants=True)
    shapes = GAME.tally_shapes(game.prep)
    tally = GAME.tally_type(**{name: np.zeros(shape, np.int64) for name, shape in shapes.items()})
    game.scratch.violations[V_TILES] = 2
    game.scratch.violations[V_DECKS] = 1
    tally_game(game.m, tally, np.zeros(3, np.int64), np.ones(3, np.int64))
    assert list(tally.invariant_violations) == [0, 2, 0, 0, 1]
    assert list(game.scratch.violations) == [0] * len(INVARIANTS)
    with pytest.raises(RuntimeError, match="tiles 2, decks 1 violations"):
        GAME.check_chunk(game.prep, tally._asdict())


def test_no_checks_no_violation_columns():
    prep = prepared(3)
    assert GAME.tally_shapes(prep)["invariant_violations"] == (0,)
    GAME.check_chunk(prep, {"invariant_violations": np.zeros(0, np.int64)})
