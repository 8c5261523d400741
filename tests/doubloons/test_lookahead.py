"""The lookahead strategy: its parameters, a decision worked out by hand, and legal,
repeatable games (small runs: a searching seat plays a few hundred matches a second)."""

import pytest

from analyzer.engine.chunks import Chunk
from analyzer.engine.runner import run_chunks
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.lookahead import choose
from analyzer.games.doubloons.turns import DECIDE, TAKE_DISCARD, begin_round, continue_round
from tests.cli_checks import assert_one_line_error, run_cli
from tests.doubloons.play_areas import PlayArea, prepared


@pytest.mark.parametrize("spec, words", [
    ("lookahead:rollouts=0", ("rollouts",)),
    ("lookahead:base=clairvoyant", ("base", "greedy")),
    ("lookahead:base=lookahead", ("base",)),
    ("lookahead:objective=money", ("objective", "win", "score")),
    ("lookahead:noise=2", ("noise",)),
])
def test_bad_parameters_are_refused_in_one_line(spec, words):
    result = run_cli(["simulate", "--game", "doubloons", "--players", "2", "--n", "10", "--strategy", spec])
    assert_one_line_error(result, *words)


def test_it_finds_the_winning_discard_that_its_random_base_would_miss_half_the_time():
    # pirate 1 has one chest left, slot 5, and the 5 lies on the discard pile: taking it wins
    # the round, drawing almost never does. Its base strategy (random) takes it half the time;
    # the playouts show the win, so it takes it every time.
    for attempt in range(12):
        t = PlayArea(players=2, strategies=("lookahead:base=random", "greedy"))
        t.rng[:] = (attempt + 1, 2, 3, 4)
        t.lay(0, {5: 9})
        t.lay(1, {1: 2, 2: 3, 3: 4})
        t.piles(deck=[1, 2, 3, 4, 6, 7, 8, 9, 10, 1, 2, 3, 4], discard=[5])
        begin_round(t.shared, 0)
        outcome, _ = continue_round(t.pirates, t.shared, t.inputs, t.events, t.rng)
        assert outcome == DECIDE
        choice, violations = choose(t.pirates, t.shared, t.inputs, t.rng)
        assert (choice, violations) == (TAKE_DISCARD, 0)


@pytest.fixture(scope="module")
def searching_run():
    return prepared(players=2, strategies=("lookahead:rollouts=4", "greedy:noise=0.2"))


def test_searching_pirates_play_legal_games(searching_run):
    # card conservation and bookkeeping audited after every turn, the playouts' turns included
    assert GAME.audit_games(searching_run, 5, 40) == 0


def test_the_same_seed_gives_the_same_games_in_any_chunking(searching_run):
    whole = run_chunks(GAME, searching_run, 9, [Chunk(0, 0, 40)], workers=1)
    parts = run_chunks(GAME, searching_run, 9, [Chunk(1, 20, 20), Chunk(0, 0, 20)], workers=2)
    assert int(whole["games"][0]) == 40
    assert whole.equals(parts)
