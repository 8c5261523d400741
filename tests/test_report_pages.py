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
    texts += [*page.paragraphs, *page.headers, *(str(cell) for row in page.rows for cell in row)]
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
