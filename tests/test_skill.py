"""analyze skill: the skill ladder against the game's default strategy (issue 16)."""

import json

import pytest

from analyzer.experiments.skill import ladder_strategies, skill, skill_verdict
from analyzer.games.registry import available_ids, get_game
from tests.cli_checks import assert_one_line_error, run_cli

N = 3000


@pytest.fixture(scope="module")
def skull_ladder():
    return skill(game="skull-island", n=N, seed=5)


def test_the_ladder_ranks_strategies_by_their_win_rate_against_the_default(skull_ladder):
    d = skull_ladder.to_dict()
    assert d["schema"] == "pirate-analyzer/skill/1" and d["players"] == 2 and d["n"] == N
    assert d["reference"] == get_game("skull-island").default_strategy
    ladder = d["ladder"]
    assert [row["win_rate"] for row in ladder] == sorted((row["win_rate"] for row in ladder), reverse=True)
    for row in ladder:
        assert set(row) >= {"strategy", "win_rate", "win_rate_ci", "first_player_advantage",
                            "first_player_advantage_ci", "length_mean", "tie_rate"}
        low, high = row["win_rate_ci"]
        assert low <= row["win_rate"] <= high
        low, high = row["first_player_advantage_ci"]
        assert low <= row["first_player_advantage"] <= high
    # the solved turn policy (the reference, with and without its final-round play) tops the ladder and
    # random play ends it, far outside each other's interval
    assert {ladder[0]["strategy"], ladder[1]["strategy"]} == {"optimal-ev", "solved"}
    assert ladder[-1]["strategy"] == "random" and ladder[-1]["win_rate_ci"][1] < 0.1
    assert ladder[1]["win_rate_ci"][0] > 0.4 and ladder[2]["win_rate_ci"][1] < 0.3
    # optimal-ev ends a game in fewer rounds than threshold (about 9 against 19)
    length = {row["strategy"]: row["length_mean"] for row in ladder}
    assert length["optimal-ev"] < 0.6 * length["threshold"]
    # the reference against itself: a fair share less its ties, within the interval
    reference = next(row for row in ladder if row["strategy"] == d["reference"])
    assert reference["win_rate_ci"][0] < 0.5 < reference["win_rate_ci"][1] + 0.01


def test_skill_is_the_strongest_against_random(skull_ladder):
    skill_part = skull_ladder.to_dict()["skill"]
    assert skill_part["strongest"] in ("optimal-ev", "solved")
    low, high = skill_part["versus_random_ci"]
    assert 0.9 < low <= skill_part["versus_random"] <= high
    text = skull_ladder.render("table")
    assert "skill decides" in text and "first-player advantage ranges" in text  # beats random in over 90% of seats
    assert max(len(line) for line in text.splitlines()) <= 130


def test_the_ladder_repeats_exactly_and_every_strategy_meets_the_same_games():
    first = skill(game="pig", n=500, seed=9, strategies=["hold-at:hold_at=10"]).to_dict()
    again = skill(game="pig", n=500, seed=9, strategies=["hold-at:hold_at=10"]).to_dict()
    assert first == again
    assert [row["strategy"] for row in first["ladder"]] == ["hold-at:hold_at=10"]  # replaced, not added
    assert first["skill"]["versus_random"] is None  # pig has no random strategy


def test_default_ladder_leaves_out_what_is_marked_and_strategies_add_or_replace():
    game = get_game("skull-island")
    default = ladder_strategies(game, [])
    assert default == [s.name for s in game.strategies if s.in_skill_ladder]
    chosen = ladder_strategies(game, ["threshold:stop_at=600"])
    assert "threshold:stop_at=600" in chosen and "threshold" not in chosen and len(chosen) == len(default)


@pytest.mark.parametrize("game_id", [g for g in available_ids() if not get_game(g).has_decisions])
def test_a_game_without_decisions_has_no_ladder(game_id):
    assert_one_line_error(run_cli(["skill", "--game", game_id, "--n", "100", "--quiet"]), "no decisions")


def test_skill_cli(tmp_path):
    out = tmp_path / "ladder.json"
    result = run_cli(["skill", "--game", "skull-island", "--strategy", "threshold", "--strategy", "random",
                      "--n", "400", "--seed", "2", "--quiet", "-o", out])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["schema"] == "pirate-analyzer/skill/1" and len(data["ladder"]) >= 2
    assert_one_line_error(run_cli(["skill", "--game", "skull-island", "--strategy", "nope", "--quiet"]), "nope")
    assert_one_line_error(run_cli(["skill", "--game", "skull-island", "--n", "0", "--quiet"]), "--n")


def test_skill_verdict_words():
    """Graded on the edge as a share of the room between a fair share and always winning (README, "Verdicts")."""
    assert "does not" in skill_verdict(0.51, 0.49, 0.5)
    assert "luck dominates" in skill_verdict(0.53, 0.51, 0.5)
    assert skill_verdict(0.60, 0.58, 0.5).startswith("skill matters:")
    assert "a lot" in skill_verdict(0.811, 0.80, 0.5)  # Doubloons' default report
    assert skill_verdict(0.984, 0.98, 0.5).startswith("skill decides")  # Skull Island's
    assert skill_verdict(0.70, 0.68, 0.25).startswith("skill matters a lot")  # e = 0.6 at 4 players
