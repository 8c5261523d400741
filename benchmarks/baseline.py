"""Timing the same command in an earlier revision of the project, in turn with this one.

The calibration loop is pure Python; compiled kernels do not follow it from one machine to
another (a kernel timed at 9 times the loop on one machine took 14 times it on another). A
change is therefore judged against the earlier code run on the same machine, in the same
minutes: ``make bench BASELINE=<git revision>`` checks that revision out beside this one
(a detached git worktree in a temporary folder, with this project's virtual environment),
and every simulation figure is timed A, B, A, B, ... against it, with the median of the
pairwise ratios.
"""

import contextlib
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def checkout(revision: str):
    """A detached worktree of ``revision``, removed afterwards; yields its folder. A revision that names
    no commit of this project raises ValueError, with nothing of git's printed."""
    known = subprocess.run(["git", "-C", str(PROJECT), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
                           capture_output=True)
    if known.returncode != 0:
        raise ValueError(f"{revision}: not a git revision of this project")
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as parent:
        folder = Path(parent) / "baseline"
        subprocess.run(["git", "-C", str(PROJECT), "worktree", "add", "--detach", "--quiet", str(folder), revision],
                       check=True)
        # its bytecode, as this checkout has it (with PYTHONDONTWRITEBYTECODE set, every run would compile it)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "analyzer")], check=True)
        try:
            yield folder
        finally:
            subprocess.run(["git", "-C", str(PROJECT), "worktree", "remove", "--force", str(folder)], check=False)


def environment(folder: Path) -> dict:
    """The environment that runs ``analyze`` from ``folder``'s sources (ahead of the installed package)."""
    return {"PYTHONPATH": str(folder)}


def paired(time_this, time_baseline, rounds: int) -> tuple[float, float, float]:
    """Medians of this revision's and the baseline's times over ``rounds`` alternating pairs,
    and the median of the pairwise ratios this / baseline."""
    this, baseline = [], []
    for _ in range(rounds):
        baseline.append(time_baseline())
        this.append(time_this())
    ratios = [a / b for a, b in zip(this, baseline, strict=True)]
    return statistics.median(this), statistics.median(baseline), statistics.median(ratios)
