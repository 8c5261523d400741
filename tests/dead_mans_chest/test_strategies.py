"""The strategies' parameters and the decisions issue 16 fixed: no dearer ship on equal
combat, no raid that swaps a ship down to the Black Pearl; noise; the search player
``lookahead`` (bad input, a hand-checked search, invariants, determinism).

Ships of the rules tests' board (fee, combat): Sloop 500/0, Cutter 700/0, Schooner 900/1,
Edinburgh Trader 1100/1, Brigantine 1300/1, Interceptor 1600/2, Frigate 2000/2, Black
Pearl 2500/2, Galleon (Man of War) 3000/3.
"""

import numpy as np
import pytest

from analyzer.engine.runner import run
from analyzer.errors import AnalyzerError
from analyzer.games.dead_mans_chest import GAME
from analyzer.games.dead_mans_chest.actions import visit_shipyard
from analyzer.games.dead_mans_chest.layout import RETIRED, SHIP
from analyzer.games.dead_mans_chest.lookahead import search_step
from analyzer.games.dead_mans_chest.ship_choices import choose_raid_target, choose_ship
from analyzer.games.dead_mans_chest.turns import TURN_STEP
from analyzer.runspec import parse_strategy

from .rigged_game import RiggedGame, choice, prepared


@pytest.mark.parametrize("strategy", ["sensible", "aggressive", "thrifty"])
def test_equal_combat_buys_the_cheaper_ship(strategy):
    # Frigate and Black Pearl both fight at 2: the Pearl costs $500 more and makes its
    # owner the target of a swap (aggressive bought it before issue 16)
    game = RiggedGame(players=3, strategies=(strategy,))
    game.set_cash(0, 3000)
    game.only_ships_in_deck("Frigate", "Black Pearl", holder=2)
    assert visit_shipyard(game.m, 0)
    assert game.scratch.players[0, SHIP] == game.ship("Frigate")


@pytest.mark.parametrize("mine,expected", [("Galleon", 2), ("Sloop", 1), ("Frigate", 1)])
def test_aggressive_raids_the_leader_unless_it_swaps_down(mine, expected):
    # player 1 leads (rich) and sails the Black Pearl; player 2 is poor. A Galleon that
    # beats the Pearl must swap down to it (combat 3 -> 2, $3000 -> $2500): aggressive
    # raids player 2 instead; a Sloop or a Frigate gains by the swap and raids the leader.
    game = RiggedGame(players=3, strategies=("aggressive",))
    game.give_ship(0, mine)
    game.give_ship(1, "Black Pearl")
    game.give_ship(2, "Sloop")
    game.set_cash(1, 9000)
    game.set_cash(2, 100)
    game.scratch.cand[0], game.scratch.cand[1] = 1, 2
    assert game.scratch.cand[choose_raid_target(game.m, 0, 2)] == expected


def test_aggressive_raids_the_pearl_when_nobody_else_sails():
    game = RiggedGame(players=3, strategies=("aggressive",))
    game.give_ship(0, "Galleon")
    game.give_ship(1, "Black Pearl")
    game.scratch.cand[0] = 1
    assert game.scratch.cand[choose_raid_target(game.m, 0, 1)] == 1


def test_noise_zero_draws_no_random_number():
    # noise 0 (the default) leaves the generator alone; any noise draws to decide
    for noise, draws in ((0.0, False), (0.5, True)):
        game = RiggedGame(players=3, strategies=(choice("sensible", noise=noise), "sensible", "sensible"))
        game.set_cash(0, 5000)
        game.scratch.cand[0], game.scratch.cand[1] = game.ship("Frigate"), game.ship("Galleon")
        game.scratch.cost[0], game.scratch.cost[1] = 2000, 3000
        before = game.scratch.rng.copy()
        choose_ship(game.m, 0, 2, True)
        assert (not np.array_equal(before, game.scratch.rng)) == draws, noise


def test_noise_one_plays_every_decision_at_random():
    # a fully noisy sensible is as weak as random (4 players, sensible seats 2-4)
    noisy = run(GAME, prepared(4, (choice("sensible", noise=1.0), "sensible", "sensible", "sensible")), 4000, seed=3,
                workers=2)
    rand = run(GAME, prepared(4, ("random", "sensible", "sensible", "sensible")), 4000, seed=3, workers=2)
    assert abs(int(noisy["wins"][0]) - int(rand["wins"][0])) < 4 * (4000 * 0.2) ** 0.5


@pytest.mark.parametrize("spec,message", [
    ("sensible:noise=1.5", "noise"),
    ("random:noise=-0.1", "noise"),
    ("lookahead:rollouts=0", "rollouts"),
    ("lookahead:base=nobody", "base"),
    ("lookahead:base=lookahead", "base"),
    ("lookahead:objective=money", "objective"),
])
def test_bad_parameters(spec, message):
    with pytest.raises(AnalyzerError, match=message):
        parse_strategy(GAME, spec)


def test_labels_name_noise_and_search_parameters():
    assert parse_strategy(GAME, "sensible:noise=0").label == "sensible"
    assert parse_strategy(GAME, "sensible:noise=0.1").label == "sensible:noise=0.1"
    assert parse_strategy(GAME, "lookahead:rollouts=8,base=thrifty").label == "lookahead:base=thrifty,rollouts=8"
    assert not GAME.strategy("lookahead").in_skill_ladder


def test_lookahead_keeps_the_best_isla_cruces_tile_where_its_base_picks_at_random():
    # seat 0 sails one space short of Isla Cruces: any spin retires it, and it looks at the
    # three tiles there. Its base (random) would pick any; the playouts' mean says the $3000
    # (margin 0: the best mean; a playout in which the other player takes the tile gains less).
    searcher = choice("lookahead", base="random", objective="score", rollouts=4, margin=0.0)
    for seed in range(3):
        game = RiggedGame(players=2, strategies=(searcher, "sensible"), seed=seed)
        best, small, smaller = game.tile(3000), game.tile(500), game.tile(1000)
        game.set_isla(small, best, smaller)
        game.place(0, "main", len([s for s in game.components.spaces if s.segment == "main"]) - 2)
        search_step(game.m, TURN_STEP, 0)
        assert game.scratch.players[0, RETIRED] == 1
        assert game.tiles_of(0) == [best], seed


@pytest.mark.parametrize("players,seats", [
    (2, ("lookahead:rollouts=2", "sensible")),
    (3, ("lookahead:rollouts=2,objective=score,base=aggressive", "lookahead:rollouts=1,noise=0.2", "random")),
])
def test_lookahead_games_keep_the_invariants_and_repeat(players, seats):
    prep = prepared(players, tuple(parse_strategy(GAME, s) for s in seats), check=True)
    totals = run(GAME, prep, 40, seed=21, workers=2)
    assert not totals["invariant_violations"].any() and totals["games"][0] == 40
    assert totals["capped"][0] == 0
    assert run(GAME, prep, 40, seed=21, workers=1).equals(totals)
