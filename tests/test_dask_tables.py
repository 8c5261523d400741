"""A Dask run sends its strategy tables once per worker, not with every task (issue 23): a task
carries a small recipe, each worker prepares the run once per process, and no warning of a
large graph reaches the terminal."""

import pickle

import pytest

from analyzer.engine import distributed
from analyzer.engine.chunks import chunk
from analyzer.engine.play import run_chunk
from analyzer.errors import AnalyzerError
from analyzer.runspec import resolve
from tests.cli_checks import run_limited


@pytest.fixture(scope="module")
def solved_table():
    spec = resolve(game="skull-island", players=2)  # the default strategy: solved, its tables megabytes
    return spec.game, spec.game.prepare(spec.rules, spec.players, spec.seats)


def test_a_task_carries_a_recipe_of_a_few_kilobytes(solved_table):
    game, prepared = solved_table
    assert len(pickle.dumps(prepared)) > 1_000_000
    assert len(pickle.dumps(distributed.recipe(prepared))) < 20_000


def test_a_worker_prepares_each_run_once_and_plays_the_same_numbers(solved_table, monkeypatch):
    game, prepared = solved_table
    made = distributed.recipe(prepared)
    calls = []
    real_prepare = type(game).prepare

    def counted(self, *args):
        calls.append(args)
        return real_prepare(self, *args)

    monkeypatch.setattr(type(game), "prepare", counted)
    distributed._PREPARED.clear()
    first = distributed.play_chunks(game, made, 7, [chunk(4096, 0)], False, distributed.__version__)
    second = distributed.play_chunks(game, made, 7, [chunk(4096, 1)], False, distributed.__version__)
    assert len(calls) == 1
    monkeypatch.undo()
    for (_, mine, _), index in ((first[0], 0), (second[0], 1)):
        theirs = run_chunk(game, prepared, 7, chunk(4096, index).first_game, chunk(4096, index).n_games)[0]
        assert all((mine[key] == theirs[key]).all() for key in mine)


def test_a_worker_that_prepares_other_inputs_refuses(solved_table):
    game, prepared = solved_table
    forged = distributed.Recipe(prepared.rules, prepared.players, prepared.seats, "0" * 64)
    with pytest.raises(AnalyzerError, match="other kernel inputs"):
        distributed.play_chunks(game, forged, 7, [chunk(4096, 0)], False, distributed.__version__)


def test_a_dask_run_prints_no_warning(tmp_path):
    completed = run_limited(["simulate", "--game", "skull-island", "--players", "2", "--n", "8192", "--seed", "1",
                             "--backend", "dask", "--workers", "2", "--quiet", "--json"], cwd=tmp_path, timeout=300,
                            memory=8 * 1024**3)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stderr == "", completed.stderr[-2000:]
