"""The analyze command end to end: listings, simulate's outputs, files, the API."""

import json
import re
import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main

RUN = ["simulate", "--game", "skull-island", "--n", "3000", "--seed", "11", "--quiet"]


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_games_lists_every_game():
    result = invoke("games", "--json")
    assert result.exit_code == 0
    ids = {row["id"] for row in json.loads(result.stdout)}
    assert "skull-island" in ids and "lucky-pirates" in ids


def test_strategies_and_rules_listings():
    strategies = json.loads(invoke("strategies", "--game", "skull-island", "--json").stdout)
    by_name = {s["name"]: s for s in strategies}
    assert by_name["solved"]["default"] is True and by_name["threshold"]["default"] is False
    assert {p["name"] for p in by_name["threshold"]["params"]} == {"stop_at", "max_skulls", "noise"}
    assert "default" in invoke("strategies", "--game", "skull-island").stdout
    rules = {r["name"]: r for r in json.loads(invoke("rules", "--game", "skull-island", "--json").stdout)}
    assert rules["target_score"]["default"] == 6000
    assert rules["tie_rule"]["allowed"] == "one of shared, extra-round"


def test_simulate_json_follows_the_interface():
    data = json.loads(invoke(*RUN, "--json").stdout)
    assert data["schema"] == "pirate-analyzer/simulate/1"
    assert (data["game"], data["n"], data["seed"], data["players"]) == ("skull-island", 3000, 11, 4)
    assert set(data) >= {"rules", "seats", "score_unit", "first_player_advantage", "length", "lengths", "tie_rate",
                         "capped_games", "game_stats", "run"}
    seat = data["seats"][0]
    assert set(seat) == {"seat", "strategy", "wins", "ties", "win_rate", "win_rate_ci", "mean_score",
                         "mean_score_ci", "sd_score"}
    assert sum(s["win_rate"] for s in data["seats"]) + data["tie_rate"] == pytest.approx(1.0)
    assert data["length"] == data["lengths"]["rounds"]
    assert set(data["length"]) == {"unit", "mean", "median", "p5", "p95", "max"}
    assert set(data["first_player_advantage"]) == {"estimate", "ci"}
    assert set(data["run"]) == {"version", "wall_seconds", "games_per_second", "workers", "backend"}
    card = data["game_stats"]["cards"]["captain"]["solved"]
    assert set(card) >= {"turns", "mean_turn_score", "death_rate", "skull_island_rate"}
    assert data["rules"]["target_score"] == 6000 and data["rules"]["deck"]["captain"] == 4


def test_same_seed_same_numbers_whatever_the_workers():
    one = json.loads(invoke(*RUN, "--json", "--workers", "1").stdout)
    two = json.loads(invoke(*RUN, "--json", "--workers", "2").stdout)
    for data in (one, two):
        data.pop("run")
    assert one == two


def test_strategy_labels_are_canonical():
    data = json.loads(invoke(*RUN, "--json", "--players", "2", "--strategy", "threshold:max_skulls=1,stop_at=400",
                             "--strategy", "set-chaser:stop_at=700").stdout)
    assert [s["strategy"] for s in data["seats"]] == ["threshold:max_skulls=1", "set-chaser:stop_at=700"]


@pytest.mark.parametrize("fmt,check", [
    ("table", lambda text: "First-player advantage" in text and "Per fortune card" in text),
    ("csv", lambda text: text.splitlines()[0].startswith("seat,strategy,wins")),
    ("markdown", lambda text: re.search(r"^\|\s*seat\s*\|\s*strategy\s*\|", text, re.MULTILINE) is not None),
])
def test_formats(fmt, check):
    result = invoke(*RUN, "--format", fmt)
    assert result.exit_code == 0
    assert check(result.stdout)


def test_out_file_is_written_whole(tmp_path):
    target = tmp_path / "run.json"
    result = invoke(*RUN, "-o", str(target))
    assert result.exit_code == 0
    assert json.loads(target.read_text())["n"] == 3000
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # no temporary file left behind
    bad = invoke(*RUN, "-o", str(tmp_path / "run.pdfx"))
    assert bad.exit_code == 2 and "extension" in bad.stderr


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_save_games_writes_one_row_per_game(tmp_path, suffix):
    target = tmp_path / f"games{suffix}"
    result = invoke(*RUN, "--players", "3", "--save-games", str(target), "--json")
    assert result.exit_code == 0, result.output
    table = pd.read_csv(target) if suffix == ".csv" else pd.read_parquet(target)
    assert list(table.columns) == ["game", "winner", "score_1", "score_2", "score_3", "length_rounds",
                                   "length_turns", "capped"]
    assert table["game"].tolist() == list(range(3000))
    data = json.loads(result.stdout)
    # the rows agree with the aggregates
    for seat in data["seats"]:
        assert (table["winner"] == seat["seat"]).sum() == seat["wins"]
        assert table[f"score_{seat['seat']}"].mean() == pytest.approx(seat["mean_score"])
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_save_games_is_refused_for_huge_runs(tmp_path):
    result = invoke("simulate", "--game", "skull-island", "--n", "1e8", "--quiet",
                    "--save-games", str(tmp_path / "g.csv"))
    assert result.exit_code == 2
    assert "10,000,000" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_score_text_and_json():
    args = ["score", "--card", "sea-battle-2", "--dice", "monkey,monkey,monkey,monkey,sword,sword,coin,coin"]
    assert json.loads(invoke(*args, "--json").stdout) == {"score": 1200, "opponents": 0}
    assert "+1200" in invoke(*args).stdout


def test_api_matches_the_command_and_gives_dataframes():
    result = analyzer.simulate(game="skull-island", n=3000, seed=11, workers=1)
    data = result.to_dict()
    command = json.loads(invoke(*RUN, "--json").stdout)
    assert data["seats"] == command["seats"]
    assert list(result.seats.index) == [1, 2, 3, 4]
    assert "win_rate_low" in result.seats.columns
    assert set(result.lengths.index) == {"rounds", "turns"}
    with pytest.raises(analyzer.AnalyzerError, match="target_score"):
        analyzer.simulate(game="skull-island", n=10, rules={"target_score": -1})


def test_version_and_help():
    assert invoke("--version").exit_code == 0
    assert "simulate" in invoke("--help").stdout


def test_a_resumed_run_reports_the_rate_of_the_games_it_played(tmp_path):
    checkpoint = str(tmp_path / "run.ckpt")
    first = json.loads(invoke(*RUN, "--json", "--checkpoint", checkpoint).stdout)
    again = json.loads(invoke(*RUN, "--json", "--checkpoint", checkpoint).stdout)
    assert first["run"]["games_per_second"] > 0
    assert again["run"]["games_per_second"] == 0  # everything came from the checkpoint
    first.pop("run"), again.pop("run")
    assert first == again


#: every built-in game's text and markdown output, in one process, then whether pandas was imported
TEXT_WITHOUT_PANDAS = """
import sys
from analyzer.cli import main
from analyzer.games.registry import available_ids
from analyzer.games.registry import available_ids
for game in available_ids():
    for fmt in ("table", "markdown"):
        try:
            main(["simulate", "--game", game, "--n", "100", "--quiet", "--format", fmt])
        except SystemExit as exit:
            assert not exit.code, (game, fmt, exit.code)
print("pandas" in sys.modules, file=sys.stderr)
"""


def test_the_text_and_markdown_output_of_a_simulation_do_not_import_pandas():
    """Importing pandas took a third of a short run's start-up: ``analyze simulate``'s own tables are
    laid out without it (JSON never needed it; CSV and the experiments' tables still use it)."""
    run = subprocess.run([sys.executable, "-c", TEXT_WITHOUT_PANDAS], capture_output=True, text=True, check=True)
    assert "Verdicts, most important first" in run.stdout and "| strategy " in run.stdout
    assert run.stderr.strip().splitlines()[-1] == "False", run.stderr[-2000:]


#: every built-in game's short run in one process, then how often Numba refreshed its target context
REFRESHES_OF_RUNS = """
import sys
import numba.core.base
refreshes = []
refresh = numba.core.base.BaseContext.refresh
numba.core.base.BaseContext.refresh = lambda context: (refreshes.append(context), refresh(context))[1]
from analyzer.cli import main
from analyzer.games.registry import available_ids
for game in available_ids():
    try:
        main(["simulate", "--game", game, "--n", "100", "--quiet"])
    except SystemExit as exit:
        assert not exit.code, (game, exit.code)
print(len(refreshes), file=sys.stderr)
"""


def test_runs_whose_kernels_are_cached_do_not_refresh_numbas_target_context():
    """The refresh imports and registers every implementation Numba knows, some 0.1 s of a short run's
    start-up, which code loaded from the cache does not need (``engine.jit.LoadWithoutRefresh``)."""
    def refreshes():
        run = subprocess.run([sys.executable, "-c", REFRESHES_OF_RUNS], capture_output=True, text=True, check=True)
        return int(run.stderr.strip().splitlines()[-1])

    refreshes()  # compiles what is not cached yet (each compile refreshes the context)
    assert refreshes() == 0
