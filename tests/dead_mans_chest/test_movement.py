"""Sailing: forward moves, Share the Loot landed on or passed, stop spaces, occupied
spaces (RULES.md dead-mans-chest: book + decisions). Positions refer to the rules
tests' board (``rules_board.toml``); comments give the spaces passed.

Board (segment: position kind): landlubber 0 start, 1 collect, 2 life, 3 loot, 4 pay,
5 life, 6 loot ...; pirate 0 start, 1 life, 2 loot, 3 collect, 4 pay; harbour 0 loot,
1 life, 2 collect; main 0 shipyard ... 14 life, 15 loot, ... 20 choose a mascot ... 58
loot, 59 collect, 60 Isla Cruces.
"""

import pytest

from analyzer.games.dead_mans_chest.invariants import check_move
from analyzer.games.dead_mans_chest.layout import POS, V_MOVEMENT
from analyzer.games.dead_mans_chest.movement import move

from .rigged_game import RiggedGame

ELIZABETH_LOOT = 300


@pytest.fixture
def game():
    game = RiggedGame(players=3)
    game.set_captain(0, "Elizabeth Swann")
    game.park_others(1, 2)
    game.set_cash(0, 0)
    return game


@pytest.mark.parametrize("start,steps,end,loot_spaces", [
    (("landlubber", 0), 3, ("landlubber", 3), 1),   # lands on the loot at 3
    (("landlubber", 0), 2, ("landlubber", 2), 0),   # collect at 1 is only passed: no effect
    (("landlubber", 0), 6, ("landlubber", 6), 2),   # passes loot 3, lands on loot 6
    (("landlubber", 3), 2, ("landlubber", 5), 0),   # leaving a loot space pays nothing
    (("landlubber", 10), 10, ("main", 0), 1),       # 11, 12, harbour 0 (loot), 1, 2, Shipyard: stop
    (("main", 14), 10, ("main", 20), 1),            # passes loot 15, stops at Choose a Mascot
    (("main", 55), 10, ("main", 60), 1),            # passes loot 58, stops at Isla Cruces
])
def test_move(game, start, steps, end, loot_spaces):
    game.place(0, *start)
    assert move(game.m, 0, steps) == game.space(*end)
    assert game.scratch.players[0, POS] == game.space(*end)
    assert game.cash(0) == loot_spaces * ELIZABETH_LOOT


def test_occupied_space_sails_on_collecting_loot(game):
    game.place(0, "pirate", 0)
    game.place(1, "pirate", 2)   # the loot space the spin of 2 reaches
    assert move(game.m, 0, 2) == game.space("pirate", 3)
    assert game.cash(0) == ELIZABETH_LOOT  # the loot space was landed on, then left


def test_bumped_over_two_ships(game):
    game.place(0, "pirate", 0)
    game.place(1, "pirate", 2)
    game.place(2, "pirate", 3)
    assert move(game.m, 0, 2) == game.space("pirate", 4)


def test_bump_stops_at_a_stop_space(game):
    game.place(0, "harbour", 0)
    game.place(1, "harbour", 2)
    assert move(game.m, 0, 2) == game.space("main", 0)


def test_shipyard_holds_many_ships(game):
    game.place(0, "harbour", 2)
    game.place(1, "main", 0)
    assert move(game.m, 0, 5) == game.space("main", 0)


def test_loot_multiplier():
    game = RiggedGame(players=2, rules={"loot_multiplier": 2.0})
    game.set_captain(0, "Jack Sparrow")
    game.park_others(1)
    game.set_cash(0, 0)
    game.place(0, "pirate", 0)
    move(game.m, 0, 2)
    assert game.cash(0) == 800


def test_movement_check_catches_bad_moves(game):
    """The checking mode's movement invariant is not vacuous: it flags backward moves,
    standing still and sailing through a stop space."""
    m = game.m
    violations = game.scratch.violations
    check_move(m, game.space("main", 3), game.space("main", 9))
    assert violations[V_MOVEMENT] == 0
    check_move(m, game.space("main", 9), game.space("main", 3))
    check_move(m, game.space("main", 9), game.space("main", 9))
    check_move(m, game.space("main", 15), game.space("main", 23))  # through Choose a Mascot
    check_move(m, game.space("pirate", 3), game.space("landlubber", 5))  # onto another route
    assert violations[V_MOVEMENT] == 4
