"""Skull Island's default strategy (the solved turn policy with its final-round play) and
the casual player's ``noise`` (issue 16)."""

import numpy as np
import pytest

from analyzer.api import simulate
from analyzer.games.registry import get_game
from tests.cli_checks import assert_one_line_error, run_cli

GAME = "skull-island"


def _seats(strategy, n=4000, seed=8, players=2):
    d = simulate(game=GAME, players=players, strategies=[strategy], n=n, seed=seed).to_dict()
    return [(s["wins"], s["ties"], s["mean_score"]) for s in d["seats"]], d


def _rounds(strategy, n, seed=8):
    """Mean and standard deviation of the length in rounds (4 players)."""
    counts = simulate(game=GAME, players=4, strategies=[strategy], n=n, seed=seed).totals["length_rounds"]
    rounds = np.arange(counts.size)
    mean = (counts * rounds).sum() / n
    return mean, ((counts * (rounds - mean) ** 2).sum() / n) ** 0.5


def test_the_default_is_the_solved_turn_policy_with_its_final_round_play():
    assert get_game(GAME).default_strategy == "solved"
    solved, d = _seats("solved")
    same, _ = _seats("optimal-ev:final_round=true")
    assert solved == same
    assert d["seats"][0]["strategy"] == "solved"
    assert _seats("solved:final_round=false")[0] == _seats("optimal-ev")[0]


def test_noise_zero_draws_no_random_number():
    for strategy in ("threshold", "set-chaser", "endgame", "first-roll", "optimal-ev"):
        assert _seats(f"{strategy}:noise=0", n=1000)[0] == _seats(strategy, n=1000)[0]


def test_noise_one_plays_at_random_and_noise_weakens_play():
    n = 6000
    casual, casual_sd = _rounds("threshold:noise=1", n)
    random, random_sd = _rounds("random", n)
    # lengths differ only by chance: means within 4 standard errors of their difference
    se = ((casual_sd ** 2 + random_sd ** 2) / n) ** 0.5
    assert abs(casual - random) < 4 * se
    careful, _ = _rounds("threshold", n)
    assert careful < casual - 4 * se  # random play makes games longer
    d = simulate(game=GAME, players=2, strategies=["threshold", "threshold:noise=0.5"], n=n, seed=3).to_dict()
    assert d["seats"][1]["strategy"] == "threshold:noise=0.5"
    assert d["seats"][0]["win_rate_ci"][0] > d["seats"][1]["win_rate_ci"][1]


@pytest.mark.parametrize("spec", ["threshold:noise=1.5", "solved:noise=-0.1", "random:noise=x"])
def test_noise_out_of_range_is_one_line(spec):
    assert_one_line_error(run_cli(["simulate", "--game", GAME, "--strategy", spec, "--n", "10", "--quiet"]), "noise")


def test_the_solvers_refuse_noisy_play():
    assert_one_line_error(run_cli(["solve", "--strategy", "threshold:noise=0.1", "--quiet"]), "noise")
