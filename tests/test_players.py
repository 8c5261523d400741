"""What goes on the box (issue 25): player counts side by side, playing time, an expert at a casual table."""

import json
import math

import pytest

from analyzer import simulate
from analyzer.errors import AnalyzerError
from analyzer.experiments.mixed_tables import CASUAL_NOISES, mixed_verdict
from analyzer.experiments.player_verdicts import box_verdict, fairness_verdict, left_off
from analyzer.experiments.players import players, split_players_option
from analyzer.experiments.skill import skill
from tests.cli_checks import assert_one_line_error, run_cli

N = 2000


def _scenario(tmp_path, body: str, game: str = "lucky-pirates"):
    path = tmp_path / "timed.toml"
    path.write_text(f'game = "{game}"\n{body}', encoding="utf-8")
    return path


# -- playing time ------------------------------------------------------------------------------------

def test_minutes_are_the_turns_scaled_and_absent_without_a_time_table(tmp_path):
    plain = simulate(game="lucky-pirates", n=N, seed=3).to_dict()
    assert "minutes" not in plain
    timed = simulate(scenario=_scenario(tmp_path, "[time]\nseconds_per_turn = 30\n"), n=N, seed=3).to_dict()
    assert timed["seats"] == plain["seats"]  # the table changes no number of the run
    turns = plain["lengths"]["turns"]
    minutes = timed["minutes"]
    assert minutes["median"] == pytest.approx(turns["median"] * 30 / 60)
    assert minutes["mean"] == pytest.approx(turns["mean"] * 30 / 60)
    assert minutes["p10"] <= minutes["median"] <= minutes["p90"]
    from_set = simulate(game="lucky-pirates", sets=["time.seconds_per_turn=30"], n=N, seed=3).to_dict()
    assert from_set["minutes"] == minutes


def test_seconds_per_die_add_the_run_s_dice_per_turn(tmp_path):
    scenario = _scenario(tmp_path, "[time]\nseconds_per_turn = 20\nseconds_per_die = 2\n", "skull-island")
    d = simulate(scenario=scenario, strategies=["threshold"], players=2, n=500, seed=1).to_dict()
    turns = d["lengths"]["turns"]
    dice_per_turn = d["minutes"]["actions_per_turn"]["die"]
    assert dice_per_turn >= 8  # every turn rolls the eight dice at least once
    assert d["minutes"]["median"] == pytest.approx(turns["median"] * (20 + 2 * dice_per_turn) / 60)


@pytest.mark.parametrize("value", ["-1", "0", "x", "nan", "inf", "1e9"])
def test_a_bad_seconds_per_turn_is_one_line(value):
    assert_one_line_error(run_cli(["simulate", "--game", "lucky-pirates", "--n", 10, "--set",
                                   f"time.seconds_per_turn={value}"]), "seconds_per_turn")


@pytest.mark.parametrize("body,word", [("[time]\nseconds_per_turn = nan\n", "seconds_per_turn"),
                                       ("[time]\nseconds_per_turn = \"fast\"\n", "seconds_per_turn"),
                                       ("[time]\nseconds_per_turn = -3\n", "seconds_per_turn"),
                                       ("[time]\nseconds_per_die = 2\n", "seconds_per_die"),
                                       ("[time]\nseconds_per_card = 2\nseconds_per_turn = 3\n", "seconds_per_card"),
                                       ("time = 3\n", "[time]")])
def test_a_bad_time_table_is_one_line(tmp_path, body, word):
    assert_one_line_error(run_cli(["simulate", "--scenario", _scenario(tmp_path, body), "--n", 10]), word)


# -- player counts ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def doubloon_counts():
    return players(game="doubloons", counts="2,3", n=N, seed=11)


def test_each_count_is_simulate_s_run_at_that_count_from_the_same_seed(doubloon_counts):
    d = doubloon_counts.to_dict()
    assert d["schema"] == "pirate-analyzer/players/1" and d["player_counts"] == [2, 3]
    for entry in d["counts"]:
        alone = simulate(game="doubloons", players=entry["players"], n=N, seed=11).to_dict()
        for key in ("seats", "first_player_advantage", "tie_rate", "quality"):
            assert entry[key] == alone[key], key
        assert entry["n"] == N
        assert entry["length"]["median"] == alone["length"]["median"]
        assert entry["length"]["p10"] <= entry["length"]["median"] <= entry["length"]["p90"]
        low, high = entry["seat_gap"]["ci"]
        assert low <= entry["seat_gap"]["estimate"] <= high


def test_skill_at_each_count_is_the_strongest_alone_against_random(doubloon_counts):
    d = doubloon_counts.to_dict()
    assert d["strongest"]["ranked_at_players"] == 2 and d["strongest"]["games_per_strategy"] == 1000
    for entry in d["counts"]:
        skill_entry = entry["skill"]
        assert skill_entry["strongest"] == d["strongest"]["strategy"] and skill_entry["games"] >= N
        assert skill_entry["fair_share"] == pytest.approx(1 / entry["players"])
        # the strongest strategy beats random players clearly, at every count
        assert skill_entry["versus_random_ci"][0] > skill_entry["fair_share"]


def test_players_states_its_counts_and_verdicts(doubloon_counts):
    text = doubloon_counts.to_table()
    assert "2,000 games at each count (2, 3 players)" in text.replace("\n", " ")
    assert "On the box" in text and "Fairest at" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert [v["kind"] for v in doubloon_counts.to_dict()["verdicts"]] == ["player-count"] * 3
    assert doubloon_counts.to_csv().splitlines()[0].startswith("players,games,seat_gap")


def _entry(players, gap, half=0.01):
    return {"players": players, "seat_gap": {"estimate": gap, "ci": [gap - half, gap + half]},
            "length": {"p10": 5, "p90": 9}}


def test_a_count_whose_seat_gap_stands_out_is_left_off_the_box():
    entries = [_entry(2, 0.02), _entry(3, 0.025), _entry(4, 0.03), _entry(5, 0.12)]
    assert left_off(entries) == [5]
    verdict = box_verdict(entries, "rounds")
    assert verdict.title == "Leave 5 players off the box" and verdict.text.startswith("2–4 players, 5–9 rounds")
    # three times the others but an interval that reaches them: kept
    assert left_off([_entry(2, 0.02), _entry(3, 0.02), _entry(4, 0.07, half=0.06)]) == []
    assert fairness_verdict(entries).title == "Fairest at 2 players"


def test_bad_player_counts_are_one_line():
    assert_one_line_error(run_cli(["players", "--game", "lucky-pirates", "--players", "2,9", "--n", 10]), "2 to 4")
    assert_one_line_error(run_cli(["players", "--game", "lucky-pirates", "--players", "x", "--n", 10]), "--players")
    assert_one_line_error(run_cli(["players", "--game", "doubloons", "--strategy", "nosuch", "--n", 10]), "nosuch")
    with pytest.raises(AnalyzerError):
        split_players_option("two")
    assert split_players_option("3") == (3, None) and split_players_option("all") == (None, "all")


def test_players_cli_json_with_minutes(tmp_path):
    out = tmp_path / "counts.json"
    result = run_cli(["players", "--game", "lucky-pirates", "--players", "2,4", "--n", 500, "--seed", 4, "--quiet",
                      "--set", "time.seconds_per_turn=40", "-o", out])
    assert result.exit_code == 0, result.output
    d = json.loads(out.read_text())
    assert [e["players"] for e in d["counts"]] == [2, 4] and all("minutes" in e for e in d["counts"])
    assert d["strongest"] is None and all(e["skill"] is None for e in d["counts"])  # a game of pure chance
    assert "min" in next(v for v in d["verdicts"] if v["title"] == "On the box")["text"]


# -- mixed tables -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mixed_ladder():
    return skill(game="dead-mans-chest", players=3, n=600, seed=8)


def test_mixed_tables_hold_every_noise_both_ways_with_their_counts(mixed_ladder):
    tables = mixed_ladder.to_dict()["skill"]["mixed_tables"]
    assert [(t["lone"], t["casual_noise"]) for t in tables] == \
        [("expert", x) for x in CASUAL_NOISES] + [("casual", x) for x in CASUAL_NOISES]
    for table in tables:
        assert table["fair_share"] == pytest.approx(1 / 3) and table["players"] == 3
        assert table["games"] >= 600 and table["expert_noise"] == 0.0
        low, high = table["win_rate_ci"]
        assert 0 <= low <= table["win_rate"] <= high <= 1
    text = mixed_ladder.to_table()
    assert "Mixed tables, 3 players, 600 games each" in text.replace("\n", " ")
    assert "An expert at a casual table" in text


def test_two_player_mixed_tables_share_their_games():
    ladder = skill(game="doubloons", players=2, n=300, seed=2, strategies=["greedy"])
    tables = {(t["lone"], t["casual_noise"]): t for t in ladder.to_dict()["skill"]["mixed_tables"]}
    for noise in CASUAL_NOISES:
        expert, casual = tables[("expert", noise)], tables[("casual", noise)]
        assert expert["games"] == casual["games"]
        assert expert["win_rate"] + casual["win_rate"] <= 1 + 1e-12


def _table(lone, rate, players=4, half=0.02):
    return {"lone": lone, "casual_noise": 0.3, "players": players, "fair_share": 1 / players, "win_rate": rate,
            "win_rate_ci": [rate - half, rate + half]}


def test_mixed_verdict_words():
    shows = mixed_verdict([_table("expert", 0.41), _table("casual", 0.20)], "solved", "solved:noise=0.3")
    assert "wins 41%" in shows.text and "25% being fair: skill shows" in shows.text
    assert "family-friendly" in shows.text
    harsh = mixed_verdict([_table("expert", 0.6), _table("casual", 0.05)], "solved", "solved:noise=0.3")
    assert "rarely win" in harsh.text and "handicap" in harsh.action
    assert mixed_verdict([_table("expert", 0.26, half=0.05), _table("casual", 0.24)], "a", "b").text.count(
        "no measurable edge") == 1
    assert mixed_verdict([], "a", "b") is None and math.isclose(_table("casual", 0.2)["fair_share"], 0.25)


def test_the_report_gains_a_page_of_the_player_counts(tmp_path):
    from analyzer.report import report

    outcome = report(game="lucky-pirates", n=300, seed=6, out=tmp_path / "r.html", balance_n=None,
                     player_counts="all")
    assert [e["players"] for e in outcome.player_counts.to_dict()["counts"]] == [2, 3, 4]
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Player counts: standard" in html and "seat gap (points)" in html
    plain = report(game="lucky-pirates", n=300, seed=6, out=tmp_path / "p.html", balance_n=None)
    assert plain.player_counts is None
