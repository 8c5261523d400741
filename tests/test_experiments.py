"""Comparisons with common random numbers, strategy match-ups, sweeps and the fairness tuner (issue 6).

Runs are small (a few chunks of 2048 games, seeded); statistical checks use the
intervals the code reports, or margins of several standard errors.
"""

import json
import math

import numpy as np
import pytest

from analyzer import experiments
from analyzer.engine.chunks import chunk_count, iter_chunks
from analyzer.engine.seeding import derived_seed
from analyzer.errors import AnalyzerError
from analyzer.games.options import Option
from analyzer.runspec import resolve
from tests.cli_checks import assert_one_line_error, run_cli

GAME = "skull-island"
N = 16_384  # eight chunks of 2048 games: eight batches


def _scenario(tmp_path, name, text):
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- building blocks -------------------------------------------------------------------------

def test_t_quantiles():
    assert experiments.t_quantile_95(1) == pytest.approx(12.7062, abs=1e-4)
    assert experiments.t_quantile_95(9) == pytest.approx(2.2622, abs=1e-4)
    assert experiments.t_quantile_95(31) == pytest.approx(2.0395, abs=1e-3)
    assert experiments.t_quantile_95(120) == pytest.approx(1.9799, abs=1e-3)
    assert experiments.t_quantile_95(0) == math.inf


@pytest.mark.parametrize("n", [1, 2048, 5000, 100_000, 10**6, 10**9])
def test_chunk_bins_are_contiguous_and_cover_the_plan(n):
    bins = experiments.ChunkBins(n, 32, keys=("games",))
    assert bins.expected.sum() == n
    assert bins.count == min(32, chunk_count(n))
    if n <= 10**6:
        last = -1
        for chunk in iter_chunks(n):
            bins.add(chunk, {"games": np.array([chunk.n_games])})
            b = chunk.index * bins.count // bins.chunks
            assert b >= last  # bins follow the chunk order
            last = b
        assert bins.all_seen and bins.complete() == list(range(bins.count))
        assert [int(t["games"][0]) for t in bins.totals] == bins.expected.tolist()


def test_batch_variance_matches_the_variance_of_a_mean():
    rng = np.random.default_rng(3)
    batches = 400
    sizes = np.full(batches, 1000)
    values = rng.normal(5.0, 2.0 / math.sqrt(1000), size=batches)  # batch means of games with sd 2
    # the estimate has relative standard error sqrt(2 / (batches - 1)) = 0.07: allow four of them
    assert experiments.batch_variance(values, sizes) == pytest.approx(4.0, rel=4 * math.sqrt(2 / (batches - 1)))
    assert experiments.batch_variance(values[:1], sizes[:1]) is None


def test_rotations_and_derived_seeds():
    assert experiments.rotations(["a", "b", "a", "b"]) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert len(experiments.rotations(["a", "b", "c"])) == 3
    assert derived_seed(1, "table", 0) == derived_seed(1, "table", 0)
    assert len({derived_seed(1, "table", r) for r in range(4)}) == 4
    assert 0 <= derived_seed(2**64 - 1, "x") < 2**64


def test_one_execution_carries_seed_workers_and_checkpoint():
    execution = experiments.Execution.create(seed="1_000", workers=2, checkpoint="runs/sweep.ckpt")
    assert (execution.seed, execution.workers, execution.progress) == (1000, 2, False)
    assert execution.for_run(3).checkpoint == "runs/sweep.3.ckpt"
    assert execution.derived("table", 1).seed == derived_seed(1000, "table", 1)
    assert execution.derived("table", 1).workers == 2
    assert experiments.Execution.create(scheduler="tcp://host:8786").backend_name == "dask"
    assert experiments.Execution.create().progress_bar(10) is None  # progress=False: no bar
    for bad in ({"workers": 0}, {"workers": True}, {"seed": -1}, {"seed": "x"}):
        with pytest.raises(AnalyzerError):
            experiments.Execution.create(**bad)


def test_a_variant_is_resolved_as_the_command_line_resolves_it():
    base = resolve(game=GAME, players=3, sets=["target_score=5000"])
    variant = base.with_rules({"seat_bonus": 100})
    assert variant.rules == resolve(game=GAME, players=3, rules={"seat_bonus": 100}, sets=["target_score=5000"]).rules
    assert base.rules["seat_bonus"] == 0 and base.set_options == {"target_score"}
    with pytest.raises(AnalyzerError, match="seat_bonus"):
        base.with_rules({"seat_bonus": 10**9})
    assert [s.label for s in base.with_seats(["random", "threshold", "random"]).seats] == [
        "random", "threshold", "random"]
    with pytest.raises(AnalyzerError, match="2 strategies for 3 players"):
        base.with_seats(["random", "threshold"])


# -- comparing variants ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def standard_vs_short():
    specs = [resolve(game=GAME), resolve(game=GAME, rules={"target_score": 3000})]
    return experiments.compare_specs(specs, N, experiments.Execution.create(seed=11))


def test_compare_finds_a_real_difference(standard_vs_short):
    comparison = standard_vs_short
    length = comparison.differences[("mean_length_rounds", 1)]
    assert comparison.significant[("mean_length_rounds", 1)] and length.interval[1] < 0  # first to 3000 ends sooner
    score = comparison.differences[("mean_score_seat_1", 1)]
    assert comparison.significant[("mean_score_seat_1", 1)] and score.value < -1000 and score.p_value < 1e-6
    # the values are those of the simulate JSON
    d = comparison.runs[1].result.to_dict()
    assert comparison.runs[1].values["win_rate_seat_2"] == d["seats"][1]["win_rate"]
    assert comparison.runs[1].values["mean_length_turns"] == pytest.approx(d["lengths"]["turns"]["mean"])
    assert comparison.runs[1].values["first_player_advantage"] == pytest.approx(
        d["first_player_advantage"]["estimate"])


def test_compare_json_rows(standard_vs_short):
    data = json.loads(standard_vs_short.render("json"))
    assert data["schema"] == "pirate-analyzer/compare/1" and data["seed"] == 11 and data["n"] == N
    assert data["batches"] == 8
    metrics = {row["metric"] for row in data["rows"]}
    assert {"win_rate_seat_1", "mean_score_seat_4", "first_player_advantage", "tie_rate", "mean_length_rounds",
            "balance", "game_stats.dice_per_game"} <= metrics
    for row in data["rows"]:
        assert set(row) == {"metric", "scenario", "value", "difference", "difference_ci", "significant",
                            "significant_unadjusted", "p_value"}
        assert isinstance(row["significant"], bool) and isinstance(row["significant_unadjusted"], bool)
        if row["scenario"] == "standard":
            assert row["difference"] is None and not row["significant"] and row["p_value"] is None
        else:
            low, high = row["difference_ci"]
            assert low <= row["difference"] <= high
            assert row["significant_unadjusted"] == (not low <= 0 <= high) == (row["p_value"] < 0.05)
            assert row["significant_unadjusted"] or not row["significant"]  # the control only removes marks
    assert [s["name"] for s in data["scenarios"]] == ["standard", "standard (2)"]


def test_compare_formats(standard_vs_short):
    table = standard_vs_short.render("table")
    assert "mean length (rounds)" in table and "*" in table and "seed 11" in table
    markdown = standard_vs_short.render("markdown")
    assert markdown.count("\n| ") > 10 and "\n|:---" in markdown and "---:|" in markdown
    lines = standard_vs_short.render("csv").splitlines()
    assert lines[0] == ("metric,scenario,value,difference,difference_low,difference_high,significant,"
                        "significant_unadjusted,p_value")
    assert len(lines) == 1 + 2 * len(standard_vs_short.metrics)
    # every format is rendered from the same DataFrames
    frame = standard_vs_short.frame()
    assert list(frame.columns) == lines[0].split(",") and len(frame) == len(lines) - 1
    assert standard_vs_short.display_frame().shape == (len(standard_vs_short.metrics), 6)


def test_a_variant_against_itself_differs_in_nothing():
    spec = resolve(game=GAME)
    comparison = experiments.compare_specs([spec, spec], 4096 + 2048, experiments.Execution.create(seed=5))
    for row in comparison.rows():
        if row["difference"] is not None:
            assert row["difference"] == 0 and not row["significant"]


def test_common_random_numbers_reduce_variance_on_a_known_case():
    """Every skull-island score is a multiple of 100, so a seat bonus of 10 changes nothing but who
    wins a tie: with the same seed both variants play the same games (under a strategy that does not
    read the scores), and the paired difference of a win rate varies far less than that of two
    independent runs."""
    specs = [resolve(game=GAME, strategies=["threshold"]),
             resolve(game=GAME, strategies=["threshold"], rules={"seat_bonus": 10})]
    comparison = experiments.compare_specs(specs, 32_768, experiments.Execution.create(seed=3))
    assert comparison.typical_reduction(1) > 5
    for seat in range(1, 5):
        d = comparison.differences[(f"win_rate_seat_{seat}", 1)]
        assert d.variance_reduction > 1
    bonus = comparison.differences[("mean_score_seat_2", 1)]
    assert bonus.value == pytest.approx(10) and bonus.interval == pytest.approx((10, 10))


def test_compare_cli_and_its_errors(tmp_path):
    standard = _scenario(tmp_path, "a", 'game = "skull-island"\nname = "A"\n')
    short = _scenario(tmp_path, "b", 'game = "skull-island"\nname = "B"\n[rules]\ntarget_score = 3000\n')
    result = run_cli(["compare", standard, short, "--n", "4096", "--seed", "1", "--quiet", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {row["scenario"] for row in data["rows"]} == {"A", "B"}
    other = _scenario(tmp_path, "c", 'game = "lucky-pirates"\n')
    assert_one_line_error(run_cli(["compare", standard, other, "--n", "2048", "--quiet"]), "lucky-pirates",
                             "same game")
    assert_one_line_error(run_cli(["compare", standard, "--n", "2048", "--quiet"]), "two or more")
    assert_one_line_error(run_cli(["compare", standard, short, "-o", tmp_path / "x.pdf"]), "extension")


# -- strategy match-ups ------------------------------------------------------------------------------

def test_matchup_rotates_the_seating_and_ranks_strategies():
    matchup = experiments.matchup(["threshold", "random"], game=GAME, players=4, n=8192, seed=2)
    assert len(matchup.table.runs) == 2  # threshold, random, threshold, random has two rotations
    for run in matchup.table.runs:
        assert run.info.n == 4096
    # every strategy held every seat equally often
    seats = {label: [0] * 4 for label in matchup.labels}
    for run in matchup.table.runs:
        for seat, choice in enumerate(run.spec.seats):
            seats[choice.label][seat] += run.info.n
    assert seats == {"threshold": [4096] * 4, "random": [4096] * 4}
    threshold, random = matchup.strategies
    assert threshold.seat_games == random.seat_games == 2 * 8192
    assert threshold.to_dict()["win_rate_ci"][0] > random.to_dict()["win_rate_ci"][1]
    data = json.loads(matchup.render("json"))
    assert data["schema"] == "pirate-analyzer/matchup/1" and data["rotations"] == 2 and data["n"] == 8192
    cells = {(c["strategy"], c["opponent"]): c for c in data["head_to_head"]}
    assert cells[("threshold", "random")]["win_rate"] == threshold.win_rate  # two strategies: the table itself
    assert "Head to head" in matchup.render("table")


def test_matchup_of_three_strategies_plays_every_pair():
    matchup = experiments.matchup(["threshold", "random", "first-roll"], game=GAME, players=3, n=2048, seed=4)
    assert len(matchup.table.runs) == 3
    assert len(matchup.pairs) == 3
    cells = matchup.head_to_head()
    assert len(cells) == 6
    assert {(c["strategy"], c["opponent"]) for c in cells} == {
        (a, b) for a in matchup.labels for b in matchup.labels if a != b}
    assert matchup.render("csv").startswith("strategy,opponent,games,win_rate")


def test_matchup_errors():
    with pytest.raises(AnalyzerError, match="two different strategies"):
        experiments.matchup(["threshold", "threshold"], game=GAME, n=2048)
    with pytest.raises(AnalyzerError, match="at most 2"):
        experiments.matchup(["threshold", "random", "first-roll"], game=GAME, players=2, n=2048)
    assert_one_line_error(run_cli(["compare", "--game", GAME, "--strategy", "threshold", "--strategy", "nonsense",
                                   "--n", "2048"]), "nonsense")


# -- sweeps -------------------------------------------------------------------------------------

class _StubGame:
    """Just enough of a game for parsing --param."""

    id = "stub"

    def __init__(self):
        self.options = {o.name: o for o in (
            Option("count", "int", 5, "a whole number", low=0, high=100),
            Option("chance", "float", 0.5, "a probability", low=0, high=1),
            Option("mode", "choice", "a", "a choice", choices=("a", "b", "c")),
            Option("values", "int_list", (1, 2), "a list", min_len=2, max_len=2),
        )}

    def option(self, name):
        if name not in self.options:
            raise AnalyzerError(f"stub has no rule option {name!r}")
        return self.options[name]


def test_sweep_parameter_forms():
    game = _StubGame()
    assert experiments.parse_sweep_param(game, "count=0:10:5")[1] == [0, 5, 10]  # stop included when reached
    assert experiments.parse_sweep_param(game, "count=0:9:5")[1] == [0, 5]
    assert experiments.parse_sweep_param(game, "count=10:0:-5")[1] == [10, 5, 0]
    assert experiments.parse_sweep_param(game, "chance=0.1:0.3:0.1")[1] == [0.1, 0.2, 0.3]  # no 0.30000000000000004
    assert experiments.parse_sweep_param(game, "mode=a,c")[1] == ["a", "c"]
    assert experiments.parse_sweep_param(game, "count=1e1,20")[1] == [10, 20]
    assert experiments.parse_search_param(game, "chance=0:0.5")[1:] == (0.0, 0.5)


@pytest.mark.parametrize("text, words", [
    ("count=0:10:0", ["step is zero"]),
    ("count=10:0:1", ["no values"]),
    ("count=0:1:0.5", ["whole number"]),
    ("count=0:100000:1", ["at most 200"]),
    ("mode=0:2:1", ["numeric", "mode"]),
    ("values=1,2", ["single values"]),
    ("count=5", ["at least two"]),
    ("count=1,1", ["twice"]),
    ("nothing=1,2", ["nothing"]),
    ("count", ["NAME="]),
    ("count=0:x:1", ["not a number"]),
    ("count=0:200:50", ["count"]),
])
def test_sweep_parameter_errors(text, words):
    with pytest.raises(AnalyzerError) as error:
        experiments.parse_sweep_param(_StubGame(), text)
    for word in words:
        assert word.lower() in str(error.value).lower()
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("text, words", [
    ("mode=a:b", ["numeric"]),
    ("count=5:5", ["no values"]),
    ("count=0:5:1", ["LOW:HIGH"]),
])
def test_search_parameter_errors(text, words):
    with pytest.raises(AnalyzerError) as error:
        experiments.parse_search_param(_StubGame(), text)
    for word in words:
        assert word.lower() in str(error.value).lower()


def test_sweep_on_a_small_grid():
    sweep = experiments.sweep("target_score=3000:5000:1000", game=GAME, n=8192, seed=6)
    assert sweep.values == [3000, 4000, 5000]
    lengths = [run.values["mean_length_rounds"] for run in sweep.runs]
    intervals = [run.interval("mean_length_rounds") for run in sweep.runs]
    assert intervals[0][1] < intervals[1][0] and intervals[1][1] < intervals[2][0]  # longer with a higher target
    assert lengths == sorted(lengths)
    data = json.loads(sweep.render("json"))
    assert data["option"] == "target_score" and len(data["rows"]) == 3 * len(sweep.metrics)
    assert {"metric", "option_value", "value", "ci"} == set(data["rows"][0])
    assert sweep.render("csv").splitlines()[0] == "metric,target_score,value,ci_low,ci_high"
    assert "target_score = 4000" in sweep.render("table")


def test_sweep_cli_errors(tmp_path):
    base = ["sweep", "--game", GAME, "--n", "2048", "--quiet"]
    assert_one_line_error(run_cli([*base, "--param", "target_score=1000:2000:0"]), "step is zero")
    assert_one_line_error(run_cli([*base, "--param", "target_score=3000:1000:500"]), "no values")
    assert_one_line_error(run_cli([*base, "--param", "tie_rule=1:3:1"]), "numeric")
    assert_one_line_error(run_cli([*base, "--param", "target_score=1000,2000", "--set", "target_score=5"]),
                             "only in --param")
    assert_one_line_error(run_cli([*base, "--param", "target_score=1000,2000", "-o", tmp_path / "x.png"]),
                             "extension")
    assert_one_line_error(run_cli([*base, "--param", "target_score=1000,2000", "-o", tmp_path / "no" / "x.pdf"]),
                             "does not exist")


# -- the fairness tuner ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_player_bonus():
    # 2**16 games per value: the jackknife interval is then about 40 to 60 wide
    return experiments.balance("seat_bonus=0:400", game=GAME, players=2, n=65_536, interval_width=80, seed=8)


def test_balance_finds_the_fair_seat_bonus(two_player_bonus):
    search = two_player_bonus
    low, high = search.interval
    assert 0 <= low <= search.fitted <= high <= 400
    # the recommendation is on the grid (steps of 100) next to the fitted value
    assert search.step == 100 and abs(search.recommended - search.fitted) <= 100
    assert search.interval_width_reached and high - low < 80
    standard = next(e for e in search.evaluations if e.value == 0)
    assert standard.win_rates[0] > standard.win_rates[1]  # the first player's edge is what the bonus repays
    assert search.recommended > 0
    assert search.fitted_gap < standard.largest_gap
    assert search.measured.value == search.recommended and search.measured.largest_gap < standard.largest_gap
    # independent runs: the recommended bonus removes most of the first player's edge. (Every
    # score is a multiple of 100, so the bonus acts in steps of 100 and no value but 200, where
    # ties split the difference, makes the seats exactly even.)
    gaps = []
    for bonus in (0, search.recommended):
        rates = experiments.play_variant(experiments.Execution.create(seed=99),
                                         resolve(game=GAME, players=2, rules={"seat_bonus": bonus}), 131_072).values
        gaps.append(abs(rates["win_rate_seat_1"] - rates["win_rate_seat_2"]))
    se = math.sqrt(1 / 131_072)  # of a difference of two win rates that sum to about 1
    assert gaps[1] + 3 * se < gaps[0] / 2, gaps


def test_balance_output(two_player_bonus):
    data = json.loads(two_player_bonus.render("json"))
    assert data["schema"] == "pirate-analyzer/balance/1" and data["option"] == "seat_bonus"
    assert data["recommended"] == two_player_bonus.recommended and isinstance(data["recommended"], int)
    assert len(data["evaluations"]) == len(two_player_bonus.evaluations) <= 6 * 5 + 1  # and the recommendation
    for row in data["evaluations"]:
        assert row["balance"] == pytest.approx(1 - row["largest_gap"])
    table = two_player_bonus.render("table")
    assert "Recommended seat_bonus" in table and "95% interval" in table and "measured" in table
    assert data["measured_balance"] == pytest.approx(1 - two_player_bonus.measured.largest_gap)


def test_balance_errors():
    base = ["balance", "--game", GAME, "--n", "2048", "--quiet"]
    assert_one_line_error(run_cli([*base, "--param", "tie_rule=0:1"]), "numeric")
    assert_one_line_error(run_cli([*base, "--param", "seat_bonus=500:100"]), "no values")
    assert_one_line_error(run_cli([*base, "--param", "seat_bonus=0:100", "--precision", "-1"]), "precision")
    assert_one_line_error(run_cli([*base, "--param", "skull_island=0:1"]), "numeric")
