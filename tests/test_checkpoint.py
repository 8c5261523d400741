"""--checkpoint: finished chunks saved atomically, resumed to bit-identical totals,
and a file made by a run with other numbers refused (one line, exit 2).

Resuming on the Dask backend is tested in test_distributed.py (it needs the cluster).
"""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.engine import checkpoint as checkpoint_module
from analyzer.engine.chunks import chunk_count
from analyzer.engine.runner import execute
from analyzer.errors import AnalyzerError
from analyzer.runspec import resolve

GAME = "skull-island"
N = 20_000  # 10 chunks of 2048 games
SEED = 424242
STOP_AFTER = 4


class Interrupted(Exception):
    """Stands for a kill: raised from the chunk callback part-way through a run."""


def prepared_run(**changes):
    spec = resolve(game=GAME, **changes)
    return spec.game, spec.game.prepare(spec.rules, spec.players, spec.seats)


@pytest.fixture(scope="module")
def uninterrupted():
    game, prepared = prepared_run()
    return execute(game, prepared, N, SEED, workers=1)


def interrupt_after(count):
    seen = []

    def on_chunk(ch, aggregates):
        seen.append(ch.index)
        if len(seen) == count:
            raise Interrupted

    return on_chunk


def test_interrupted_run_resumes_to_identical_totals(tmp_path, uninterrupted):
    game, prepared = prepared_run()
    path = tmp_path / "run.ckpt"
    with pytest.raises(Interrupted):
        execute(game, prepared, N, SEED, workers=2, checkpoint=str(path), on_chunk=interrupt_after(STOP_AFTER))
    saved = json.loads(path.read_text())
    done = sum(stop - start for start, stop in saved["finished"])
    assert done == STOP_AFTER  # every chunk finished before the interruption, and only those
    assert saved["totals"]["games"] == [saved["games_done"]]

    replayed = []
    resumed = execute(game, prepared, N, SEED, workers=1, checkpoint=str(path),
                      on_chunk=lambda ch, aggregates: replayed.append(ch.index))
    assert len(replayed) == chunk_count(N) - STOP_AFTER  # finished chunks are not played again
    assert resumed.equals(uninterrupted)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.ckpt"]  # no temporary file left behind

    # a finished checkpoint gives the result again without playing a game
    again = execute(game, prepared, N, SEED, checkpoint=str(path),
                    on_chunk=lambda ch, aggregates: pytest.fail("a finished chunk was played again"))
    assert again.equals(uninterrupted)


def test_progress_counts_the_games_left(tmp_path):
    game, prepared = prepared_run()
    path = tmp_path / "run.ckpt"
    with pytest.raises(Interrupted):
        execute(game, prepared, N, SEED, workers=1, checkpoint=str(path), on_chunk=interrupt_after(STOP_AFTER))

    class Counter:
        total = N
        done = 0

        def advance(self, games):
            self.done += games

    progress = Counter()
    already = json.loads(path.read_text())["games_done"]
    execute(game, prepared, N, SEED, workers=1, checkpoint=str(path), progress=progress)
    assert 0 < already < N
    assert progress.total == progress.done == N - already


@pytest.mark.parametrize("changes, n, seed, named", [
    ({}, N, SEED + 1, "seed"),
    ({}, N + 1, SEED, "n "),
    ({"players": 3}, N, SEED, "players"),
    ({"strategies": ["threshold:stop_at=500"]}, N, SEED, "strategies"),
    ({"sets": ["target_score=8000"]}, N, SEED, "rule target_score"),
])
def test_checkpoint_of_another_run_is_refused(tmp_path, changes, n, seed, named):
    game, prepared = prepared_run()
    path = tmp_path / "run.ckpt"
    with pytest.raises(Interrupted):
        execute(game, prepared, N, SEED, workers=1, checkpoint=str(path), on_chunk=interrupt_after(1))
    before = path.read_bytes()
    other_game, other = prepared_run(**changes)
    with pytest.raises(AnalyzerError, match="different run") as error:
        execute(other_game, other, n, seed, workers=1, checkpoint=str(path))
    message = str(error.value)
    assert "\n" not in message and named in message, message
    assert path.read_bytes() == before  # a refused run leaves the file alone


def test_cli_refuses_a_mismatched_checkpoint_with_one_line(tmp_path):
    path = tmp_path / "run.ckpt"
    base = ["simulate", "--game", GAME, "--n", "5000", "--quiet", "--checkpoint", str(path), "--json"]
    first = CliRunner().invoke(main, base + ["--seed", "1"])
    assert first.exit_code == 0, first.output
    refused = CliRunner().invoke(main, base + ["--seed", "2"])
    assert refused.exit_code == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "seed 1 in the checkpoint, 2 now" in lines[0], refused.stderr
    assert "Traceback" not in refused.output


def test_cli_rerun_resumes_to_the_same_json(tmp_path):
    path = tmp_path / "run.ckpt"
    args = ["simulate", "--game", GAME, "--n", "5000", "--seed", "9", "--quiet", "--checkpoint", str(path), "--json"]
    first = json.loads(CliRunner().invoke(main, args).stdout)
    second = json.loads(CliRunner().invoke(main, args).stdout)
    plain = json.loads(CliRunner().invoke(main, args[:-3] + ["--json"]).stdout)
    for result in (first, second, plain):
        del result["run"]
    assert first == second == plain


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"format": "something else"}', b"\xff\xfe",
                                     b'{"format": "pirate-analyzer checkpoint", "schema": 99}'])
def test_unreadable_checkpoint_is_refused(tmp_path, content):
    game, prepared = prepared_run()
    path = tmp_path / "run.ckpt"
    path.write_bytes(content)
    with pytest.raises(AnalyzerError, match="checkpoint") as error:
        execute(game, prepared, N, SEED, workers=1, checkpoint=str(path))
    assert "\n" not in str(error.value)


def test_tampered_totals_are_refused(tmp_path):
    game, prepared = prepared_run()
    path = tmp_path / "run.ckpt"
    with pytest.raises(Interrupted):
        execute(game, prepared, N, SEED, workers=1, checkpoint=str(path), on_chunk=interrupt_after(2))
    document = json.loads(path.read_text())
    document["totals"]["games"] = [document["games_done"] - 1]
    path.write_text(json.dumps(document))
    with pytest.raises(AnalyzerError, match="not a valid"):
        execute(game, prepared, N, SEED, workers=1, checkpoint=str(path))


def test_checkpoint_needs_an_existing_folder_and_no_saved_games(tmp_path):
    game, prepared = prepared_run()
    with pytest.raises(AnalyzerError, match="does not exist"):
        execute(game, prepared, N, SEED, checkpoint=str(tmp_path / "missing" / "run.ckpt"))
    with pytest.raises(AnalyzerError, match="is a folder"):
        execute(game, prepared, N, SEED, checkpoint=str(tmp_path))
    with pytest.raises(AnalyzerError, match="cannot be combined with save_games"):  # the API's words
        execute(game, prepared, N, SEED, checkpoint=str(tmp_path / "run.ckpt"),
                record_sink=lambda ch, rows: None)


def test_variant_path_gives_each_run_its_own_file():
    assert checkpoint_module.variant_path("runs/sweep.ckpt", 3) == "runs/sweep.3.ckpt"
    assert checkpoint_module.variant_path("sweep", 0) == "sweep.0"
