"""The lookahead strategy: its parameters, a decision worked out by hand, and legal,
repeatable games (small runs: a searching seat plays a few hundred matches a second)."""

import numpy as np
import pytest

from analyzer.engine.chunks import Chunk
from analyzer.engine.runner import run_chunks
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.lookahead import beats, choose, deal_unseen, worth_searching
from analyzer.games.doubloons.play_area import V_REFILLS
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
    # the round, drawing almost never does. The deck has been refilled, so the choice is
    # searched; its base strategy (random) takes it half the time; the playouts show the
    # win, so it takes it every time.
    for attempt in range(12):
        t = PlayArea(players=2, strategies=("lookahead:base=random", "greedy"))
        t.rng[:] = (attempt + 1, 2, 3, 4)
        t.lay(0, {5: 9})
        t.lay(1, {1: 2, 2: 3, 3: 4})
        t.piles(deck=[1, 2, 3, 4, 6, 7, 8, 9, 10, 1, 2, 3, 4], discard=[5])
        t.shared[V_REFILLS] = 1
        begin_round(t.shared, 0)
        outcome, _ = continue_round(t.pirates, t.shared, t.inputs, t.events, t.rng)
        assert outcome == DECIDE
        assert worth_searching(t.pirates, t.shared, 0)
        choice, violations = choose(t.pirates, t.shared, t.inputs, t.rng)
        assert (choice, violations) == (TAKE_DISCARD, 0)


@pytest.mark.parametrize("gain_sum, square_sum, n, evidence, expected", [
    (4, 4, 64, 2.0, True),  # 4 playouts of 64 won by the choice, none lost: mean 1/16, 2.07 standard errors
    (3, 3, 64, 2.0, False),  # 3 of 64: 1.77 standard errors
    (3, 3, 64, 1.0, True),
    (0, 8, 64, 0.0, False),  # as many won as lost: not better
    (5, 5, 5, 10.0, True),  # won every playout: no spread at all
])
def test_a_choice_beats_the_base_choice_by_standard_errors_of_the_paired_difference(
        gain_sum, square_sum, n, evidence, expected):
    assert beats(gain_sum, square_sum, n, evidence) == expected


@pytest.mark.parametrize("top, opens", [(5, True), (7, False)])
def test_a_number_on_the_discard_pile_is_taken_when_it_opens_a_chest_without_a_search(top, opens):
    # before any refill the deck and the chests are one deal: a number that opens a chest
    # is taken, one that does not is left, whatever the base strategy, and no random
    # number is drawn (no playouts)
    t = PlayArea(players=2, strategies=("lookahead:base=random", "greedy"))
    t.lay(0, {5: 9, 6: 1})
    t.lay(1, {1: 2, 2: 3, 3: 4})
    t.piles(deck=[1, 2, 3, 4, 6, 8, 9, 10], discard=[top])
    begin_round(t.shared, 0)
    outcome, _ = continue_round(t.pirates, t.shared, t.inputs, t.events, t.rng)
    assert outcome == DECIDE
    assert not worth_searching(t.pirates, t.shared, 0)
    rng = t.rng.copy()
    choice, _ = choose(t.pirates, t.shared, t.inputs, t.rng)
    assert choice == (TAKE_DISCARD if opens else 0)
    assert (t.rng == rng).all()


@pytest.mark.parametrize("refilled", [False, True])
def test_the_unseen_cards_are_dealt_anew_within_the_deck_once_it_was_refilled(refilled):
    # after a refill the deck's cards are known (the discard pile): they stay in the deck,
    # and the chests' cards in the chests; before it, both mix
    t = PlayArea(players=2, strategies=("lookahead", "greedy"))
    t.lay(0, {1: 1, 2: 2, 3: 3, 4: 4})
    t.lay(1, {1: 1, 2: 2, 3: 3, 4: 4})
    t.piles(deck=[8, 8, 9, 9, 10, 10, 8, 9], discard=[7])
    t.shared[V_REFILLS] = int(refilled)
    hidden = np.empty(64, np.int64)
    mixed = 0
    for _ in range(20):
        deal_unseen(t.pirates, t.shared, t.rng, hidden)
        chests = sorted(t.card(p, slot) for p in range(2) for slot in t.closed_slots(p))
        assert sorted(t.deck() + chests) == sorted([8, 8, 9, 9, 10, 10, 8, 9] + [1, 2, 3, 4] * 2)
        mixed += sorted(t.deck()) != [8, 8, 8, 9, 9, 9, 10, 10]
    assert (mixed > 0) != refilled


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
