"""Test-wide setup: the example game joins the registry like any built-in game, and under
pytest-xdist every game's kernel is compiled once for the whole run.

``make test`` runs the suite on every core (``pytest -n auto``). Each worker is a process
of its own, and Numba compiles a kernel on its first use in a process unless its disk
cache (``__pycache__``) already holds it; on a fresh clone every worker would compile
every kernel (about 9 s of CPU a game) and solve Skull Island's standard turn policy and
final-round tables (about a minute of CPU). So before its first test each worker plays
one game of every registered game under its default strategy, and a lock file per game
makes the first worker to reach a game the one that compiles (and solves) it, while the
other goes on to the next game and then waits for that one to be done (the solver's
threads use the waiting worker's core): its first use then loads from the disk caches.
Numba and the solver write a cache file whole (to a temporary name, then renamed), so a
reader never sees a half-written one. A run without workers compiles on first use.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from analyzer.games.registry import available_ids, register

register("pig", "tests.example_game")


def _play_one_game(game_id: str) -> None:
    from analyzer.api import simulate

    simulate(game=game_id, n=1, seed=1, workers=1)


def _warm_up(folder: Path, worker: int) -> None:
    """Play one game of every game, each game once over all workers (see the module's docstring)."""
    games = available_ids()
    games = games[worker % len(games):] + games[:worker % len(games)]  # workers start on different games
    waiting = []
    for game_id in games:
        lock = open(folder / f"{game_id}.lock", "a")  # noqa: SIM115 - held until the game is compiled
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting.append(lock)  # another worker compiles it
            continue
        if not (folder / f"{game_id}.done").exists():
            _play_one_game(game_id)
            (folder / f"{game_id}.done").touch()
        lock.close()
    for lock in waiting:
        fcntl.flock(lock, fcntl.LOCK_EX)  # returns once the worker that compiles it is done
        lock.close()


@pytest.fixture(scope="session", autouse=True)
def kernels_compiled_once(tmp_path_factory):
    """Under pytest-xdist, every kernel compiled (and the default policies solved) before the first test."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ...: set in the workers only
    if worker:
        folder = tmp_path_factory.getbasetemp().parent / "warm-up"  # shared by the run's workers
        folder.mkdir(exist_ok=True)
        _warm_up(folder, int(worker.removeprefix("gw")))
