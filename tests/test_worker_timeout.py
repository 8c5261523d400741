"""A Dask run that loses every worker stops after --worker-timeout seconds with one line
and exit status 2, and its checkpoint keeps every finished chunk (issue 14).

A scheduler and one worker without a nanny run as processes of their own, so killing
the worker leaves the cluster with none; the run itself is a process under a memory
limit and a timeout (it used to wait silently until a worker came back).
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_checks import assert_one_line_exit_2, run_cli

ROOT = Path(__file__).resolve().parent.parent
DASK = str(Path(sys.executable).with_name("dask"))
#: the worker plays half the time until the run saves a chunk (see _play_in_slices_until_a_chunk_is_saved)
SLICE_SECONDS = 0.03
RUN = ["simulate", "--game", "lucky-pirates", "--n", "2e6", "--seed", "14", "--quiet", "--json"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _games_done(path: Path) -> int:
    try:
        return json.loads(path.read_text())["games_done"]
    except (OSError, ValueError):
        return 0


@pytest.fixture
def scheduler_and_worker(tmp_path):
    address = f"tcp://127.0.0.1:{_free_port()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "cwd": tmp_path}
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], **quiet)
    worker = subprocess.Popen([DASK, "worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard"], **quiet)
    try:
        yield address, worker
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait()


def test_losing_every_worker_stops_the_run_and_the_checkpoint_keeps_its_chunks(tmp_path, scheduler_and_worker):
    address, worker = scheduler_and_worker
    checkpoint = tmp_path / "run.ckpt"
    root = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    run = subprocess.Popen([sys.executable, "-c", "import sys\nfrom analyzer.cli import main\nmain(sys.argv[1:])",
                            *RUN, "--scheduler", address, "--worker-timeout", "3", "--checkpoint", checkpoint],
                           env={**os.environ, "PYTHONPATH": root}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, preexec_fn=_memory_limit)
    _play_in_slices_until_a_chunk_is_saved(worker, run, checkpoint)
    worker.send_signal(signal.SIGKILL)
    saved_before = _games_done(checkpoint)
    killed_at = time.monotonic()
    try:
        stdout, stderr = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail("the run still waited 60 s after its last worker was killed")
    assert time.monotonic() - killed_at >= 3
    stopped = subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)
    assert_one_line_exit_2(stopped, "no workers for 3 s", "--worker-timeout")
    assert 0 < saved_before <= _games_done(checkpoint) < 2_000_000

    resumed = run_cli(RUN + ["--checkpoint", checkpoint, "--workers", "2"])
    plain = run_cli(RUN + ["--workers", "2"])
    assert resumed.exit_code == plain.exit_code == 0, resumed.output
    resumed, plain = json.loads(resumed.stdout), json.loads(plain.stdout)
    resumed.pop("run"), plain.pop("run")
    assert resumed == plain


def _play_in_slices_until_a_chunk_is_saved(worker, run, checkpoint: Path) -> None:
    """Let the worker play only in short slices (continued, then stopped again) until the run has saved some
    of its chunks. Left to play freely, the worker could finish the whole run before the test saw a save: the
    run saves at most once a second, or once every 20 times its last save's time (a slow disk's fsync), and
    on a loaded machine the run once ended 0.03 s after the kill, every chunk played (1 run in 4 under two
    busy loops and synced writes; none in 6 so)."""
    deadline = time.monotonic() + 60
    while _games_done(checkpoint) == 0:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no chunk was saved within 60 s"
        worker.send_signal(signal.SIGCONT)
        time.sleep(SLICE_SECONDS)
        worker.send_signal(signal.SIGSTOP)  # killed while stopped: SIGKILL needs no continuing
        time.sleep(SLICE_SECONDS)


def _memory_limit():
    import resource

    from tests.cli_checks import LIMIT_MEMORY_BYTES

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_MEMORY_BYTES, LIMIT_MEMORY_BYTES))
