"""Every page of every report, looked at from matplotlib's own layout (issue 24): each game's default
report, a two-scenario comparison and a sweep. A page added later is looked at without being listed.

The reports are built once per session at small game counts; their figures are inspected as
they are written (``write_pdf`` is replaced by an inspection that keeps each page's words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import matplotlib.pyplot as plt
import pytest
from matplotlib.text import Text

from analyzer import experiments
from analyzer.games.registry import available_ids, get_game
from analyzer.report import document, report
from analyzer.report.inspection import page_flaws
from analyzer.report.pages import sweep_pages

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "skull-island"
N = 2048


@dataclass
class Looked:
    """One page as inspected: its name, its layout's flaws and every word it shows."""

    name: str
    flaws: list[str]
    texts: list[str]


def _look(page) -> Looked:
    texts = [text.get_text() for text in page.figure.findobj(Text) if text.get_visible() and text.get_text().strip()]
    texts += [*(str(paragraph) for paragraph in page.paragraphs), *page.headers,
              *(str(cell) for row in page.rows for cell in row)]
    looked = Looked(page.name, page_flaws(page.figure), texts)
    plt.close(page.figure)
    return looked


def _report_pages(skill_n: int | None = 1024, **arguments) -> list[Looked]:
    looked: list[Looked] = []

    def inspect(pages, path, title, subject=""):
        looked.extend(_look(page) for page in pages)
        return len(looked)

    with mock.patch.object(document, "write_pdf", inspect):
        report(n=N, seed=1, out="unused.pdf", skill_n=skill_n, balance_n=None, workers=1, **arguments)
    return looked


REPORTS = [*(f"game:{game}" for game in available_ids()), "comparison", "sweep"]


@pytest.fixture(scope="session")
def looked_reports():
    """report name -> its pages as looked at; each built on first use."""
    built: dict[str, list[Looked]] = {}

    def pages_of(name: str) -> list[Looked]:
        if name not in built:
            if name.startswith("game:"):
                built[name] = _report_pages(game=name[5:])
            elif name == "comparison":
                built[name] = _report_pages(scenarios=[SCENARIOS / "standard.toml", SCENARIOS / "target-8000.toml"],
                                            skill_n=None)  # the ladder's pages are looked at in each game's report
            else:
                sweep = experiments.sweep("target_score=6000,8000", game="skull-island", n=N, seed=1)
                built[name] = [_look(page) for page in sweep_pages(sweep)]
        return built[name]

    return pages_of


@pytest.mark.parametrize("name", REPORTS)
def test_every_page_is_laid_out_cleanly(looked_reports, name):
    pages = looked_reports(name)
    assert pages
    flaws = [f"{page.name}: {flaw}" for page in pages for flaw in page.flaws]
    assert not flaws, "\n".join(flaws)


#: a command the reader may copy: its words are the program's, ids and keys included
COMMAND = re.compile(r"analyze [a-z-]+(?: --?[a-z-]+(?:[ =][^\s,;:]+)?| [A-Za-z0-9_.:=/-]+)*")


def _game_ids(game_id: str) -> set[str]:
    """The ids of the game that differ from their display names: a reader must never see them."""
    return {key for key, name in get_game(game_id).display_names().items() if key != name}


def _option_names(game_id: str) -> set[str]:
    """The rule options: the names a reader writes in a scenario or after --set, so they may be shown."""
    return {option.name for option in get_game(game_id).options}


@pytest.mark.parametrize("name", [name for name in REPORTS if name.startswith("game:")])
def test_pages_name_things_by_their_display_names(looked_reports, name):
    hidden, options = _game_ids(name[5:]), _option_names(name[5:])
    shown = []
    for page in looked_reports(name):
        for text in page.texts:
            words = COMMAND.sub(" ", text)
            keys = [word for word in re.findall(r"[A-Za-z0-9_.-]+", words)
                    if re.search(r"[a-z]_[a-z]", word) and word.strip(".") not in options]
            ids = [word for word in hidden if words.strip() == word or ("-" in word and re.search(
                rf"(?<![\w-]){re.escape(word)}(?![\w-])", words))]
            shown += [f"{page.name}: {word!r} in {text[:80]!r}" for word in keys + ids]
    assert not shown, "\n".join(sorted(set(shown)))


def test_an_interval_is_never_shown_as_plus_or_minus_zero(looked_reports):
    for name in REPORTS:
        for page in looked_reports(name):
            for text in page.texts:
                assert not re.search(r"±\s*0(\.0+)?(?![.\d])", text), (name, page.name, text)


# -- the inspection finds each flaw it names (hand-made pages) ----------------------------------------

def _chart():
    from analyzer.report.style import plot_page

    figure, (ax,) = plot_page("A page")
    return figure, ax


def _flaws(figure) -> str:
    flaws = "\n".join(page_flaws(figure))
    plt.close(figure)
    return flaws


def test_the_inspection_finds_every_flaw_it_names():
    from analyzer.report.style import percent_axis

    figure, ax = _chart()
    ax.bar([0, 1], [0.3, 0.4])
    assert _flaws(figure) == ""  # a clean chart
    figure, ax = _chart()
    ax.bar([0, 1], [0.3, 0.4])
    figure.text(0.99, 0.5, "runs off the page's edge")
    assert "outside the page" in _flaws(figure)
    figure, ax = _chart()
    ax.bar([0, 1], [0.3, 0.4])
    figure.text(0.3, 0.5, "one text")
    figure.text(0.31, 0.5, "another text")
    assert "texts over each other" in _flaws(figure)
    figure, ax = _chart()
    ax.bar([0, 1], [0.3, 0.4], color="#333333")
    ax.text(1, 0.2, "40%", ha="center")  # black on a dark bar
    assert "does not stand out" in _flaws(figure)
    figure, ax = _chart()
    ax.plot([0, 1], [0.5, 0.5], label="a line through the middle")
    ax.set_ylim(0, 1)
    ax.legend(loc="center")
    assert "legend lies over the data" in _flaws(figure)
    figure, ax = _chart()
    ax.plot([0, 1], [0.001, 0.021])
    ax.yaxis.set_major_formatter(lambda value, _: f"{value * 100:.0f}%")  # 0.5% and 1% read alike
    assert "twice" in _flaws(figure)
    figure, ax = _chart()
    ax.plot([0, 1], [0.001, 0.021])
    percent_axis(ax)  # as many decimals as the ticks need
    assert "twice" not in _flaws(figure)
    figure, ax = _chart()
    ax.bar([0, 1], [3000, 10_000])
    ax.set_ylim(0, 16_000)
    assert "runs 38% past its data" in _flaws(figure)
    figure, ax = _chart()
    ax.bar([0, 1], [0, 0])
    assert "every value is zero" in _flaws(figure)


def test_ticks_and_intervals_keep_the_finding():
    from analyzer.formatting import interval_decimals
    from analyzer.report.style import NumberFormatter, PercentFormatter

    assert PercentFormatter().format_ticks([0, 0.005, 0.01, 0.015]) == ["0.0%", "0.5%", "1.0%", "1.5%"]
    assert PercentFormatter().format_ticks([0, 0.1, 0.2]) == ["0%", "10%", "20%"]
    assert NumberFormatter().format_ticks([0, 52_500, 105_000]) == ["0", "52,500", "105,000"]
    assert NumberFormatter().format_ticks([0, 0.25, 0.5]) == ["0", "0.25", "0.50"]
    # Lucky Pirates' mean treasures 3.052, 2.963, 2.851, 2.774 with half-widths of 0.022: three decimals
    assert interval_decimals(0.022) == 3 and f"{3.052:.{interval_decimals(0.022)}f}" == "3.052"
    assert interval_decimals(50.3) == 0 and interval_decimals(4.4) == 1 and interval_decimals(0.0) == 0
