"""No suggestion that cannot run (issue 21): every command a verdict, a summary or a page of a game's default
report suggests runs, at a small game count, on the same scenario."""

import html
import re
import shlex

import pytest

from analyzer.games.registry import available_ids
from analyzer.report import report
from analyzer.report.pages import summary_paragraphs
from tests.cli_checks import run_cli

#: a suggested command, as the verdicts and summaries mark it
COMMAND = re.compile(r"`(analyze [^`]+)`")
#: a command named outside the mark (it would escape this test)
UNMARKED = re.compile(r"(?<!`)analyze (simulate|compare|balance|sweep|report|skill|tune)\b")
SMALL = "200"


def _small(command: str) -> list[str]:
    """The command's words after ``analyze``, its game count (and the balance search's) made small."""
    words = shlex.split(command)[1:]
    for option in ("--n",):
        if option in words:
            words[words.index(option) + 1] = SMALL
        else:
            words += [option, SMALL]
    return [*words, "--quiet"]


def _texts(outcome) -> list[str]:
    found = [text for verdicts in outcome.verdicts for v in verdicts for text in (v.text, v.action)]
    for run in outcome.runs:
        found += summary_paragraphs(run)
    found.append(html.unescape(outcome.path.read_text(encoding="utf-8")))  # as the browser shows it
    return found


@pytest.mark.parametrize("game, players", [*((game, None) for game in available_ids()), ("skull-island", 2)])
def test_every_suggested_command_runs(tmp_path, game, players):
    outcome = report(game=game, players=players, n=1000, seed=3, out=tmp_path / "report.html", skill_n=300,
                     balance_n=300)
    texts = _texts(outcome)
    commands = sorted({command for text in texts for command in COMMAND.findall(text)})
    for text in texts[:-1]:  # the verdicts and summaries mark every command they name
        assert not UNMARKED.search(text.replace("`analyze", "`")), text
    if sum(strategy.in_skill_ladder for strategy in outcome.runs[0].spec.game.strategies) > 1:
        assert any(command.startswith("analyze compare") for command in commands)  # the summary's match-up
    for command in commands:
        result = run_cli(_small(command))
        assert result.exit_code == 0, f"{command}: {result.output}"
    summary = " ".join(summary_paragraphs(outcome.runs[0]))
    if outcome.runs[0].spec.players == 2:
        assert "Seat gap: seat" in summary and "Fairest seat" not in summary
    if not outcome.runs[0].spec.game.has_decisions:
        assert "--strategy" not in summary and "no decisions" in summary
