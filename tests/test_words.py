"""One word and one unit per thing in every command's text (issue 23): points for win-rate
differences, "95% interval", matches where the game plays matches, totals that say what they total."""

import analyzer
from analyzer.experiments.metrics import describe_metric
from analyzer.runspec import resolve


def test_the_first_player_advantage_is_in_points_everywhere():
    game = resolve(game="skull-island").game
    advantage = describe_metric("first_player_advantage", game)
    assert advantage.show(0.0377) == "+3.77 pts"
    assert advantage.show_difference(-0.012) == "-1.20 pts"
    assert advantage.show_interval((0.0368, 0.0386)) == "+3.68 to +3.86 pts"
    sweep = analyzer.sweep("target_score=4000,6000", game="skull-island", n=500, seed=1).render("table")
    line = next(line for line in sweep.splitlines() if line.startswith("first-player advantage"))
    assert "pts" in line and "%" not in line


def test_win_rates_stay_in_percent():
    game = resolve(game="skull-island").game
    assert describe_metric("win_rate_seat_1", game).show(0.2877) == "28.77%"


def test_the_captain_table_says_95_percent_interval():
    text = analyzer.simulate(game="dead-mans-chest", n=100, seed=1).render("table")
    assert "95% CI" not in text and "95% interval" in text


def test_doubloons_counts_matches():
    text = analyzer.simulate(game="doubloons", n=100, seed=1).render("table")
    assert text.splitlines()[0].startswith("Doubloons: 100 matches,")


def test_tune_says_what_its_totals_total():
    text = analyzer.tune(game="skull-island", strategy="threshold", params=["stop_at=300:1500"], n=2000, seed=1,
                         candidates=4).render("table")
    assert "games in all" in text and "games over all its rounds" in text
    markdown = analyzer.tune(game="skull-island", strategy="threshold", params=["stop_at=300:1500"], n=2000,
                             seed=1, candidates=4).render("markdown")
    assert "points of win rate (95% interval" in markdown and "games in all rounds" in markdown
