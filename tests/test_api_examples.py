"""The README's Python API: every experiment of the command line is a function of the package,
and every example of the section runs as written (issue 23)."""

import os
import re
from pathlib import Path

import pytest

import analyzer

ROOT = Path(__file__).resolve().parent.parent
#: the experiments the README's commands run, each a function of the package
EXPERIMENTS = ("simulate", "compare", "matchup", "sweep", "balance", "skill", "tune", "players", "report",
               "solve", "game_command")


def _api_examples() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_every_experiment_is_exported_and_documented():
    examples = "\n".join(_api_examples())
    for name in EXPERIMENTS:
        assert name in analyzer.__all__
        assert callable(getattr(analyzer, name))
        assert f"analyzer.{name}(" in examples, f"the README shows no example of analyzer.{name}"


@pytest.mark.parametrize("example", [block for block in _api_examples() if "1_000_000" not in block],
                         ids=lambda block: re.search(r"analyzer\.(\w+)\(", block).group(1))
def test_each_readme_example_runs(example, tmp_path, monkeypatch):
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    (tmp_path / "reports").mkdir()
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "README.md", "exec"), {})
    assert os.getcwd() == str(tmp_path)


def test_a_game_command_takes_only_its_own_options():
    with pytest.raises(analyzer.AnalyzerError, match="takes no 'cardz'.*closest first: cards"):
        analyzer.solve(game="skull-island", cardz=["coin"])
    with pytest.raises(analyzer.AnalyzerError, match="offers no 'solve'"):
        analyzer.solve(game="lucky-pirates")
