"""The PDF balance report, its figures and the plots of sweeps and searches (issue 6)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from analyzer import experiments
from analyzer.games.registry import available_ids, get_game
from analyzer.report import report, write_experiment_pdf
from tests.cli_checks import assert_one_line_error, run_cli

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "skull-island"
STANDARD = SCENARIOS / "standard.toml"
NO_SKULL_ISLAND = SCENARIOS / "no-skull-island.toml"
N = 6144  # three chunks


def _texts(path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


@pytest.fixture(scope="module")
def skull_report(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "skull-island.pdf"
    outcome = report(scenarios=[STANDARD], n=N, seed=3, out=path, skill_n=2048)
    return outcome, _texts(path), PdfReader(path)


def test_pdf_has_the_expected_pages(skull_report):
    outcome, texts, reader = skull_report
    assert outcome.pages == len(texts) >= 9
    assert reader.metadata.title == "Skull Island (Piraten Kapern): balance report"
    title = texts[0]
    for words in ("Skull Island", "Balance report", "Scenario Standard", "Rules that differ from the standard: none",
                  "Players: 4", "seat 1 solved", "Games: 6,144", "Seed: 3", "pirate-analyzer version", "Date:",
                  "Simulation wall time"):
        assert words in title, words
    assert texts[1].startswith("Verdicts, most important first")  # right after the title
    summary = next(text for text in texts if "Summary: Standard" in text)  # after the verdict pages
    for words in ("Summary: Standard", "Fairest seat", "Least fair seat", "First-player advantage", "Balance",
                  "A typical game lasts", "rounds", "Every seat plays solved"):
        assert words in summary, words
    everything = "\n".join(texts)
    for words in ("Win rate by seat", "95% interval", "fair share", "Final score distribution by seat",
                  "final score (points", "Game length in rounds", "Game length in turns", "cumulative share",
                  "Convergence", "games played", "Mean own turn score by fortune card", "Death rate by fortune card",
                  "Skull Island rate by fortune card", "dice per game", "Skill ladder", "win rate",
                  "head to head against random"):
        assert words in everything, words
    assert outcome.skill is not None and outcome.skill.players == 4


def test_summary_names_numbers_of_the_run(skull_report):
    outcome, texts, _ = skull_report
    seats = outcome.runs[0].result.to_dict()["seats"]
    for seat in seats:
        assert f"{seat['win_rate'] * 100:.2f}%" in next(text for text in texts if "Summary: Standard" in text)


@pytest.mark.parametrize("game_id", available_ids())
def test_every_game_gets_a_report(tmp_path, game_id):
    path = tmp_path / f"{game_id}.pdf"
    outcome = report(game=game_id, n=4096, seed=1, out=path, skill_n=None)
    texts = _texts(path)
    assert outcome.pages == len(texts) >= 7
    game = get_game(game_id)
    assert game.title in " ".join(texts[0].split())  # a long title wraps
    everything = "\n".join(texts)
    for words in ("Win rate by seat", "Final score distribution", f"Game length in {game.length_units[0]}",
                  "Convergence"):
        assert words in everything, (game_id, words)
    # the game's own pages, from a hook module or drawn from game_stats whatever its shape
    assert "fortune cards" in everything or "the game's own statistics" in everything


def test_comparison_report(tmp_path):
    """The comparison answers first: its verdicts, the comparison, then a short appendix of each scenario
    (its seat table and verdicts), not the single-scenario reports again; at most 14 pages."""
    path = tmp_path / "variants.pdf"
    outcome = report(scenarios=[STANDARD, NO_SKULL_ISLAND], n=4096, seed=2, out=path, skill_n=None)
    texts = _texts(path)
    everything = "\n".join(texts)
    assert "The comparison's verdicts" in texts[1] and "No Skull Island against Standard" in texts[1]
    assert "Skulls (2): death rate" in texts[1] and "What did not change" in everything
    for words in ("Scenario Standard", "Scenario No Skull Island", "skull_island = false", "per scenario",
                  "Every metric side by side", "Win rate by seat and scenario", "Differences to Standard",
                  "Component and per-item changes", "Game length by scenario", "Benjamini",
                  "Appendix: each scenario on its own", "Verdicts, most important first"):
        assert words in everything, words
    for single in ("Summary: Standard", "Final score distribution", "Convergence", "Mechanics coverage",
                   "Gain from common random numbers"):
        assert single not in everything, single
    assert outcome.comparison is not None
    assert outcome.pages == len(texts) <= 14


def test_figures_as_separate_files(tmp_path):
    folder = tmp_path / "figures"
    outcome = report(scenarios=[STANDARD], n=4096, seed=1, out=folder, figures="png", skill_n=None)
    names = {p.name for p in folder.iterdir()}
    assert {"win-rates.png", "score-distribution.png", "game-length.png", "convergence.png",
            "cards-turn-score.png", "cards-risk.png"} <= names
    assert "title.png" not in names and "summary.png" not in names  # text pages are not figures
    assert len(names) == outcome.pages == len(outcome.files)
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in folder.iterdir())
    result = run_cli(["report", "--game", "lucky-pirates", "--n", "2048", "--seed", "1", "--quiet", "--figures",
                      "svg", "-o", tmp_path / "svg"])
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "svg" / "win-rates.svg").read_text()
    assert svg.lstrip().startswith(("<?xml", "<svg")) and "Win rate by seat" in svg


def test_report_cli_errors(tmp_path, monkeypatch):
    base = ["report", "--scenario", STANDARD, "--n", "2048", "--quiet"]
    assert_one_line_error(run_cli([*base, "-o", tmp_path / "x.txt"]), "extension", ".pdf")
    assert_one_line_error(run_cli([*base, "-o", tmp_path / "missing" / "x.pdf"]), "does not exist")
    assert_one_line_error(run_cli([*base, "--figures", "png", "-o", tmp_path / "x.pdf"]), "folder")
    other = tmp_path / "other.toml"
    other.write_text('game = "lucky-pirates"\n', encoding="utf-8")
    assert_one_line_error(run_cli([*base, "--scenario", other, "-o", tmp_path / "x.pdf"]), "same game")
    assert_one_line_error(run_cli([*base, "--skill-n", "0", "-o", tmp_path / "x.pdf"]), "--skill-n")
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)
    assert_one_line_error(run_cli([*base, "-o", tmp_path / "x.pdf"]), "not writable")
    assert_one_line_error(run_cli([*base, "--figures", "png", "-o", tmp_path / "figures"]), "not writable")
    assert list(tmp_path.iterdir()) == [other]


def test_the_pdf_is_written_atomically(tmp_path, monkeypatch):
    from analyzer.report import pages

    def broken(*args, **kwargs):
        raise RuntimeError("a page failed")

    monkeypatch.setattr(pages, "run_pages", broken)
    with pytest.raises(RuntimeError):
        report(scenarios=[STANDARD], n=2048, seed=1, out=tmp_path / "x.pdf", skill_n=None)
    assert list(tmp_path.iterdir()) == []


def test_plot_functions_draw_on_a_given_axes():
    import matplotlib.pyplot as plt

    from analyzer.api import simulate
    from analyzer.report import figures

    result = simulate(game="skull-island", n=2048, seed=1)
    for draw, words in ((figures.plot_win_rates, "win rate"), (figures.plot_score_distribution, "share of games"),
                        (lambda r, ax: figures.plot_lengths(r, ax, unit="turns"), "share of games")):
        figure, ax = plt.subplots()
        draw(result, ax)
        assert ax.get_title() and words in ax.get_ylabel() and ax.get_xlabel() + ax.get_xticklabels()[0].get_text()
        assert ax.get_legend() is not None
        plt.close(figure)


class _FakeResult:
    """A result of a game nobody wrote report code for."""

    class spec:  # noqa: N801 - mimics RunSpec's attributes
        players = 3
        seats = [type("Seat", (), {"label": label}) for label in ("greedy", "careful", "greedy")]
        game = type("Game", (), {"title": "Brand New Game"})

    def to_dict(self):
        return {"game_stats": {
            "duels_per_game": 2.5, "games": 100, "components": "box 1",
            "share_by_seat": [0.3, 0.3, 0.4],
            "outcome_share": {"2": 0.7, "3": 0.3},
            "captains": {"Anne": {"games": 10, "win_rate": 0.4, "win_rate_ci": [0.3, 0.5], "loot": 3},
                         "Mary": {"games": 12, "win_rate": 0.2, "win_rate_ci": [0.1, 0.3], "loot": 2}},
            "by_card": {"coin": {"greedy": {"turns": 5, "mean": 1.5, "mean_se": 0.1},
                                 "careful": {"turns": 4, "mean": 1.2, "mean_se": 0.1}},
                        "skull": {"greedy": {"turns": 3, "mean": -2.0, "mean_se": 0.2}}},
            "composition_by_seat": [{"seat": 1, "cash": 3.0, "ship": 1.0}, {"seat": 2, "cash": 2.0, "ship": 2.0}],
            "raids": {"per_game": 1.5, "per_game_ci": [1.4, 1.6], "success_rate": 0.5},
            "nothing": None, "labels": ["a", "b"],
        }}


def test_game_pages_for_any_shape_of_game_stats():
    from analyzer.report import game_pages
    from analyzer.report.stats_charts import RATE
    from analyzer.report.style import Palette

    walker = game_pages.StatsWalker(_FakeResult(), Palette(strategies=["greedy", "careful"]))
    walker.walk(_FakeResult().to_dict()["game_stats"])
    titles = [chart.title for chart in walker.charts]
    assert titles == ["share by seat", "outcome share", "captains / win rate", "by card / mean",
                      "composition by seat"]
    charts = dict(zip(titles, walker.charts, strict=True))
    assert charts["share by seat"].groups == ["seat 1", "seat 2", "seat 3"] and charts["share by seat"].kind == RATE
    assert charts["captains / win rate"].errors.shape == (2, 1, 2)  # from win_rate_ci; games and loot left out
    assert charts["by card / mean"].series == ["greedy", "careful"]  # grouped bars by strategy
    # the seats' parts of one unit: a group per part, a bar per seat
    assert charts["composition by seat"].groups == ["cash", "ship"]
    assert charts["composition by seat"].series == ["seat 1", "seat 2"]
    rows = {name: value for name, value, _ in walker.rows}
    assert rows == {"duels per game": "2.500", "games": "100", "components": "box 1", "raids / per game": "1.500",
                    "raids / success rate": "50.00%"}
    pages = game_pages.stats_pages(_FakeResult(), Palette())
    assert [page.name for page in pages] == ["game-stats-1", "game-stats-2", "game-stats-table-1"]


def test_game_pages_are_the_game_s_own_else_drawn_from_its_stats():
    from analyzer.report.game_pages import game_pages
    from analyzer.report.style import Palette

    result = _FakeResult()
    result.spec = type("Spec", (_FakeResult.spec,), {"game": type("Game", (), {
        "title": "Brand New Game", "report_pages": lambda self, r, p: None})()})
    assert [page.name for page in game_pages(result, Palette())] == ["game-stats-1", "game-stats-2",
                                                                     "game-stats-table-1"]
    own = ["its own page"]
    result.spec.game.report_pages = lambda r, p: own
    assert game_pages(result, Palette()) is own


def test_sweep_and_balance_pdfs(tmp_path):
    sweep = experiments.sweep("tie_rule=shared,extra-round", game="skull-island", n=2048, seed=1)
    assert write_experiment_pdf(sweep, tmp_path / "sweep.pdf") >= 3  # a title page, then four panels a page
    text = "\n".join(_texts(tmp_path / "sweep.pdf"))
    assert "Zero at every value, so not drawn: capped games" in " ".join(text.split())  # not an empty panel
    assert "sweep of tie_rule" in text and "Metrics against tie_rule" in text and "win rate against tie_rule" in text
    search = experiments.balance("seat_bonus=0:400", game="skull-island", players=2, n=4096, interval_width=400, seed=1)
    assert write_experiment_pdf(search, tmp_path / "balance.pdf") == 2
    text = "\n".join(_texts(tmp_path / "balance.pdf"))
    assert "the fairest seat_bonus" in text and "Recommended seat_bonus" in text
    result = run_cli(["sweep", "--game", "skull-island", "--param", "target_score=3000,4000", "--n", "2048", "--quiet",
                      "-o", tmp_path / "cli.pdf"])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(tmp_path / "cli.pdf").pages) >= 3


def test_matplotlib_is_loaded_only_by_report_code():
    code = ("import sys, analyzer.cli.simulate, analyzer.cli.compare, analyzer.experiments, analyzer.api; "
            "print('matplotlib' in sys.modules)")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "False"
