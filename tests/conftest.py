"""Test-wide setup: the example game joins the registry like any built-in game, the solver
caches into a folder of the run's own, and under pytest-xdist every game's kernel is compiled
once for the whole run.

``make test`` runs the suite on every core (``pytest -n auto``). Each worker is a process
of its own, and Numba compiles a kernel on its first use in a process unless its disk
cache (``__pycache__``) already holds it; on a fresh clone every worker would compile
every kernel (about 9 s of CPU a game) and solve Skull Island's standard turn policy and
final-round tables (about a minute of CPU). So before its first test each worker plays
one game of every registered game under its default strategy, and then solves each game's
exact solution where it has one (Lucky Pirates': its Markov chain is compiled code too, used
by the exact, report and Ctrl-C tests). A lock file per step makes the first worker to
reach it the one that compiles (and solves), while the other goes on to the next step and
then waits for that one to be done: its first use then loads from the disk caches. Every
worker takes the steps in one order, the largest game package (by its source) first, as a
list scheduler takes the longest job first: a kernel's compile time grows with its code, and
two workers that each start on a large game finish their steps at about the same time.
Numba and the solver write a cache file whole (to a temporary name, then renamed), so a
reader never sees a half-written one. A run without workers compiles on first use.

After the warm-up a worker holds some 400,000 to 700,000 objects that live as long as it does (every kernel's
dispatcher, types and code library): ``gc.freeze()`` takes them out of the garbage collector's walks,
and the warm-up runs with the collector's oldest generation held back, as the package's compiles do
(:mod:`analyzer.engine.garbage`). Each collection of that generation walked every object, some 0.4 s:
in a fresh run, 55 such collections took 24 s of CPU over the two workers, and the collector 31 s in
all; after, 75 collections of fewer objects took 9 s, and the collector 14 s.
"""

from __future__ import annotations

import fcntl
import gc
import importlib.util
import os
from pathlib import Path

import pytest

from analyzer.engine.garbage import oldest_generation_held
from analyzer.games.registry import GAMES, available_ids, register

register("pig", "tests.example_game")


def _play_one_game(game_id: str) -> None:
    from analyzer.api import simulate

    simulate(game=game_id, n=1, seed=1, workers=1)


def _solve_exactly(game_id: str) -> None:
    """The game's exact solution at its default rules and players, where it has one."""
    from analyzer.runspec import resolve

    spec = resolve(game=game_id)
    spec.game.exact_seat_win_rates(spec.rules, spec.players)


def _source_size(game_id: str) -> int:
    """The bytes of Python source in a game's package."""
    package = Path(importlib.util.find_spec(GAMES[game_id]).origin).parent
    return sum(path.stat().st_size for path in package.rglob("*.py"))


def _warm_up(folder: Path) -> None:
    """Play one game of every game, then solve each exactly, each step once over all workers (see the
    module's docstring)."""
    games = sorted(available_ids(), key=_source_size, reverse=True)
    steps = [(f"play-{game_id}", _play_one_game, game_id) for game_id in games]
    steps += [(f"exact-{game_id}", _solve_exactly, game_id) for game_id in games]
    waiting = []
    for name, step, game_id in steps:
        lock = open(folder / f"{name}.lock", "a")  # noqa: SIM115 - held until the step is done
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting.append(lock)  # another worker does it
            continue
        if not (folder / f"{name}.done").exists():
            step(game_id)
            (folder / f"{name}.done").touch()
        lock.close()
    for lock in waiting:
        fcntl.flock(lock, fcntl.LOCK_EX)  # returns once the worker that compiles it is done
        lock.close()


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory):
    """The run's own solver cache (``PIRATE_ANALYZER_CACHE``), shared by its workers: the suite never
    reads or fills the user's ``~/.cache/pirate-analyzer``, so it runs as on a fresh machine (the solver
    writes a cache file whole, so two workers may share the folder)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "solver-cache"
    folder.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PIRATE_ANALYZER_CACHE", str(folder))
        yield folder


@pytest.fixture(scope="session", autouse=True)
def kernels_compiled_once(tmp_path_factory, solver_cache):
    """Under pytest-xdist, every kernel compiled (and the default policies solved) before the first test."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ...: set in the workers only
    if worker:
        folder = tmp_path_factory.getbasetemp().parent / "warm-up"  # shared by the run's workers
        folder.mkdir(exist_ok=True)
        with oldest_generation_held():
            _warm_up(folder)
        gc.freeze()
