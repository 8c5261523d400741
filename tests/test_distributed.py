"""The Dask backend: bit-identical to the local backend, resumable, surviving a killed
worker, and one clear line for an unreachable scheduler.

One local cluster of 2 worker processes (1 thread each) serves the whole module.
"""

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from distributed import Client

from analyzer.cli import main
from analyzer.engine.chunks import Chunk, chunk, chunk_count
from analyzer.engine.distributed import (
    MAX_CHUNKS_PER_TASK,
    chunks_per_task,
    consecutive_groups,
    local_cluster,
    play_chunks,
    resource_tracker_started_quietly,
)
from analyzer.engine.runner import execute
from analyzer.errors import AnalyzerError
from analyzer.runspec import resolve

GAME = "skull-island"
N = 20_000  # 10 chunks of 2048 games
SEED = 1717


class Interrupted(Exception):
    """Stands for a kill of the client: raised from the chunk callback part-way through."""


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(2) as local, Client(local, set_as_default=False) as client:
        yield local.scheduler_address, client


@pytest.fixture(scope="module")
def skull_island():
    spec = resolve(game=GAME, strategies=["threshold", "threshold:stop_at=500", "random", "first-roll"])
    return spec.game, spec.game.prepare(spec.rules, spec.players, spec.seats)


def local_totals(skull_island, n=N):
    game, prepared = skull_island
    return execute(game, prepared, n, SEED, workers=1)


def test_dask_totals_equal_local_totals(cluster, skull_island):
    address, _ = cluster
    game, prepared = skull_island
    seen = []
    totals = execute(game, prepared, N, SEED, scheduler=address,
                     on_chunk=lambda ch, aggregates: seen.append(ch.index))
    assert sorted(seen) == list(range(chunk_count(N)))  # every chunk reported once, as it arrives
    assert totals.equals(local_totals(skull_island))


def test_dask_rows_arrive_in_game_order(cluster, skull_island):
    address, _ = cluster
    game, prepared = skull_island
    rows = {"local": [], "dask": []}
    execute(game, prepared, N, SEED, workers=2, record_sink=lambda ch, r: rows["local"].append((ch, r)))
    execute(game, prepared, N, SEED, scheduler=address, record_sink=lambda ch, r: rows["dask"].append((ch, r)))
    assert [ch.index for ch, _ in rows["dask"]] == list(range(chunk_count(N)))
    for (_, mine), (_, theirs) in zip(rows["local"], rows["dask"], strict=True):
        assert mine.keys() == theirs.keys()
        assert all((mine[k] == theirs[k]).all() for k in mine)


def test_run_interrupted_on_dask_resumes_locally_and_vice_versa(cluster, skull_island, tmp_path):
    address, _ = cluster
    game, prepared = skull_island
    expected = local_totals(skull_island)
    runs = (({"scheduler": address}, {"workers": 1}), ({"workers": 2}, {"scheduler": address}))
    for index, (first, then) in enumerate(runs):
        path = tmp_path / f"run-{index}.ckpt"
        seen = []

        def stop_part_way(ch, aggregates, seen=seen):
            seen.append(ch.index)
            if len(seen) == 3:
                raise Interrupted

        with pytest.raises(Interrupted):
            execute(game, prepared, N, SEED, checkpoint=str(path), on_chunk=stop_part_way, **first)
        finished = json.loads(path.read_text())["finished"]
        assert sum(stop - start for start, stop in finished) == 3
        replayed = []
        resumed = execute(game, prepared, N, SEED, checkpoint=str(path),
                          on_chunk=lambda ch, aggregates, replayed=replayed: replayed.append(ch.index), **then)
        assert sorted(replayed + seen) == list(range(chunk_count(N)))
        assert resumed.equals(expected)


def test_killed_worker_costs_only_its_unfinished_chunks(cluster, skull_island):
    address, client = cluster
    game, prepared = skull_island
    # 489 chunks in 123 tasks: a worker is still busy after the first tasks return (a task carries only the
    # run's recipe, so 25 tasks could all be done before the first result is merged on a fast machine)
    n = 1_000_000
    killed = {}

    def kill_a_busy_worker(ch, aggregates):
        if killed:
            return
        busy = [worker for worker, keys in client.processing().items() if keys]
        if not busy:  # the scheduler's view between two tasks: try again at the next chunk
            return
        pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed["pid"] = pid

    seen = []

    def on_chunk(ch, aggregates):
        seen.append(ch.index)
        kill_a_busy_worker(ch, aggregates)

    totals = execute(game, prepared, n, SEED, scheduler=address, on_chunk=on_chunk)
    assert killed, "no worker was killed"
    assert sorted(seen) == list(range(chunk_count(n)))  # each chunk merged exactly once
    assert totals.equals(local_totals(skull_island, n))
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the tests that follow


def test_dask_local_cluster_from_the_command_line_matches_local():
    args = ["simulate", "--game", GAME, "--n", str(N), "--seed", str(SEED), "--quiet", "--json"]
    dask = CliRunner().invoke(main, args + ["--backend", "dask", "--workers", "2"])
    local = CliRunner().invoke(main, args)
    assert dask.exit_code == 0, dask.output
    dask_result, local_result = json.loads(dask.stdout), json.loads(local.stdout)
    assert dask_result.pop("run")["backend"] == "dask"
    local_result.pop("run")
    assert dask_result == local_result


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("address, named", [
    ("tcp://127.0.0.1:{free_port}", "cannot reach the Dask scheduler"),
    ("no-port-here", "not a Dask scheduler address"),
])
def test_unreachable_scheduler_is_one_line_and_exit_2_within_seconds(address, named):
    # the port is found when the test runs: in a test id, every pytest-xdist worker would collect another
    address = address.format(free_port=free_port())
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["simulate", "--game", GAME, "--n", "1000", "--quiet", "--scheduler", address])
    elapsed = time.perf_counter() - start
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], result.stderr
    assert result.stdout == ""
    assert elapsed < 10, elapsed


def test_tasks_are_runs_of_consecutive_chunks():
    chunks = [Chunk(i, 100 * i, 100) for i in (0, 1, 2, 3, 4, 7, 8, 9)]
    groups = [[ch.index for ch in group] for group in consecutive_groups(chunks, 3)]
    assert groups == [[0, 1, 2], [3, 4], [7, 8, 9]]
    assert chunks_per_task(2048, 2) == 64  # 1e7 games on 2 workers: 32 tasks
    assert chunks_per_task(10, 2) == 1
    assert chunks_per_task(10**6, 4) == MAX_CHUNKS_PER_TASK


def test_a_worker_with_another_package_version_refuses(skull_island):
    game, prepared = skull_island
    with pytest.raises(AnalyzerError, match="install the same version everywhere"):
        play_chunks(game, prepared, SEED, [chunk(N, 0)], False, "0.0.0-elsewhere")


def test_a_precision_run_on_dask_stops_at_the_same_games_as_locally(cluster):
    import analyzer

    address, _ = cluster
    kwargs = {"game": GAME, "strategies": ["threshold"], "seed": SEED, "precision": 1.5, "n": N}
    on_dask = analyzer.simulate(scheduler=address, **kwargs)
    local = analyzer.simulate(workers=1, **kwargs)
    assert on_dask.info.precision == local.info.precision
    assert on_dask.info.precision.reached and on_dask.info.n < N  # more than one round, fewer games than the limit
    assert on_dask.totals.equals(local.totals)


def test_an_interrupted_cluster_start_reports_nothing_more_at_exit(monkeypatch):
    """Ctrl-C while a local cluster's workers start: Dask's exit hook leaves the half-started cluster
    alone (closing it failed on its workers), and asyncio's report of its nannies' start tasks, failed
    unseen, is dropped; each printed a traceback after ``analyze: interrupted``."""
    import distributed
    from distributed.deploy.spec import SpecCluster

    made = []

    class StartInterrupted:
        shutdown_on_close = True

        def __init__(self, **options):
            made.append(self)
            SpecCluster._instances.add(self)
            raise KeyboardInterrupt

    monkeypatch.setattr(distributed, "LocalCluster", StartInterrupted)
    asyncio_logger = logging.getLogger("asyncio")
    monkeypatch.setattr(asyncio_logger, "filters", list(asyncio_logger.filters))  # restored after the test
    try:
        with pytest.raises(KeyboardInterrupt):
            local_cluster(2)
    finally:
        SpecCluster._instances.discard(made[0])
    assert made[0].shutdown_on_close is False

    def record(message):
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, None, None)

    assert not asyncio_logger.filter(record("Task exception was never retrieved\nfuture: <Task finished ...>"))
    assert not asyncio_logger.filter(record("Task was destroyed but it is pending!\ntask: <Task pending ...>"))
    assert asyncio_logger.filter(record("Unclosed client session"))


#: a process that leaves a semaphore behind, as one whose local cluster's start Ctrl-C cut short
SEMAPHORE_LEFT_BEHIND = """
import multiprocessing, os
from analyzer.engine.distributed import resource_tracker_started_quietly
resource_tracker_started_quietly()
semaphore = multiprocessing.get_context("spawn").Lock()  # named, and registered with the tracker
os._exit(0)  # no clean-up at exit: the tracker removes it
"""


def test_the_resource_tracker_removes_what_a_cut_short_start_left_without_a_word():
    """The tracker writes to the terminal after the process has ended: it once warned of a cut-short
    cluster start's semaphores after ``analyze: interrupted`` (the Ctrl-C test of a Dask run)."""
    completed = subprocess.run([sys.executable, "-c", SEMAPHORE_LEFT_BEHIND], capture_output=True, text=True,
                               timeout=60)
    assert completed.returncode == 0
    assert completed.stderr == ""  # the pipe stays open until the tracker, which holds it too, has ended
    before = os.environ.get("PYTHONWARNINGS")
    resource_tracker_started_quietly()  # here it may run already; either way the environment is left as it was
    assert os.environ.get("PYTHONWARNINGS") == before
