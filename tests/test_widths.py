"""Every command's output and help fit 80 columns (or a wider terminal), and no command or path
is broken across lines (issue 23)."""

import re

import pytest

from analyzer.cli import AnalyzeGroup, main
from analyzer.wrapping import output_width, wrap
from tests.cli_checks import run_cli

COLUMNS = 80
COMMAND = ("For a narrower interval: analyze balance --scenario scenarios/skull-island/target-8000.toml "
           "--players 2 --param seat_bonus=0:800 --n 2e5. Then rerun it.")


def _widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


@pytest.mark.parametrize("width", [80, 60, 40])
def test_a_command_is_whole_on_a_line_or_continued_with_backslashes(width):
    lines = wrap(COMMAND, width)
    # a line over the width holds one argument (an option and its value) that cannot be split
    assert all(len(line) <= width or len(line.strip().rstrip(" \\").split()) <= 2 for line in lines)
    assert not any(line.rstrip().endswith(("skull-", "--param", "--players")) for line in lines)
    command = [line for line in lines if "analyze" in line or line.startswith("    ")]
    joined = " ".join(line.rstrip(" \\").strip() for line in command)
    assert "analyze balance --scenario scenarios/skull-island/target-8000.toml --players 2 " \
           "--param seat_bonus=0:800 --n 2e5." in joined
    starts = [i for i, line in enumerate(lines) if "analyze balance" in line]
    if len(" ".join(COMMAND.split("analyze", 1)[1].split(". Then")[0].split())) + 8 > width:
        # too long for one line: on its own lines, each but the last ending in a backslash
        first = starts[0]
        assert lines[first].lstrip().startswith("analyze")
        continued = lines[first:]
        end = next(i for i, line in enumerate(continued) if not line.endswith(" \\"))
        assert end >= 1 and all(line.startswith("    ") for line in continued[1:end + 1])


def test_a_path_or_a_hyphenated_name_is_never_split():
    text = "see scenarios/skull-island/target-8000.toml and dead-mans-chest " * 6
    for line in wrap(text, 30):
        assert not line.endswith("-") and not line.startswith("island")


def test_the_width_is_80_or_a_wider_terminal(monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=None: type("T", (), {"columns": 120})())
    assert output_width() == 120
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=None: type("T", (), {"columns": 60})())
    assert output_width() == COLUMNS


@pytest.mark.parametrize("command", [None, *AnalyzeGroup.list_commands(main, None)])
def test_every_help_fits_80_columns_and_breaks_no_word(command):
    result = run_cli([command, "--help"] if command else ["--help"])
    assert result.exit_code == 0, result.output
    assert _widest(result.output) <= COLUMNS, [line for line in result.output.splitlines() if len(line) > 80]
    assert not re.search(r"[a-z]-\n", result.output), "a word broken at its hyphen"


@pytest.mark.parametrize("args", [
    ["games"], ["rules", "--game", "skull-island"], ["rules", "--game", "dead-mans-chest"],
    ["strategies", "--game", "doubloons"], ["strategies", "--game", "dead-mans-chest"],
    ["simulate", "--game", "skull-island", "--n", "300", "--seed", "1", "--quiet"],
    ["simulate", "--game", "lucky-pirates", "--n", "300", "--seed", "1", "--quiet"],
    ["sweep", "--game", "skull-island", "--param", "target_score=4000:6000:1000", "--n", "300", "--seed", "1",
     "--quiet"],
])
def test_every_output_fits_80_columns(args):
    result = run_cli(args)
    assert result.exit_code == 0, result.output
    assert _widest(result.stdout) <= COLUMNS, [line for line in result.stdout.splitlines() if len(line) > 80]


def test_a_table_too_wide_wraps_its_columns_led_by_the_first():
    import pandas as pd

    from analyzer.output import frame_text

    frame = pd.DataFrame([[f"metric {i}", *(f"{i * j:,}.00 ± 1.5" for j in range(8))] for i in range(3)],
                         columns=["metric", *(f"target_score = {1000 * j}" for j in range(8))])
    text = frame_text(frame, "table", width=80)
    assert _widest(text) <= 80
    blocks = text.split("\n\n")
    assert len(blocks) > 1 and all(block.startswith("metric") for block in blocks)


def test_a_wrapped_table_shows_each_column_once_even_when_two_share_a_name():
    """The skill ladder has two columns named "95% interval" (the win rate's and the first-player
    advantage's): wrapped, each shows once, after its own estimate."""
    from analyzer.output import TextTable, frame_text

    columns = ["rank", "win rate", "95% interval", "first-player adv.", "95% interval",
               *(f"wide {j}" for j in range(6))]
    table = TextTable(columns, [[1, "50.00%", "46.91–53.09%", "+1.20", "-3.17 to +5.56",
                                 *("x" * 12 for _ in range(6))]])
    text = frame_text(table, "table", width=80)
    assert len(text.split("\n\n")) > 1
    assert text.count("46.91–53.09%") == 1 and text.count("-3.17 to +5.56") == 1
    assert text.index("+1.20") < text.index("-3.17 to +5.56")
