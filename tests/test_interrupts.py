"""Ctrl-C, whatever the command is doing: one line ``analyze: interrupted``, exit status 130,
no traceback, soon, and no file changed (issue 23).

Each command runs in its own process and gets SIGINT once it is under way
(:func:`interrupted`: once it has used more CPU time than its start-up takes, or after a
given wall time); the win solve, whose compiled value iteration cannot see a signal
until it returns, waits on another thread (:func:`analyzer.engine.progress.wait_interruptibly`).
"""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.jit import njit
from analyzer.engine.progress import map_on_threads, wait_interruptibly
from analyzer.games.skull_island.cache_files import load_arrays
from analyzer.runspec import resolve

ROOT = Path(__file__).resolve().parent.parent
#: how long after SIGINT the process must have ended (seconds; the machine may be busy)
STOPS_WITHIN = 30
#: how long (seconds) what must stop at once may take after Ctrl-C: a wait for compiled code, a local Dask
#: run (its workers killed: 0.02-0.05 s here)
STOPS_AT_ONCE_WITHIN = 3
#: CPU time (seconds, all its threads) after which a command is under way: its start-up (imports,
#: loading the compiled kernels and solved tables from the disk caches) takes about 0.5 s of it
#: (`analyze simulate --n 1`: 0.45 s of CPU, 2026-12-02)
UNDER_WAY_CPU = 1.5
#: how long (wall seconds) a command may take to become under way on a busy machine
UNDER_WAY_WITHIN = 120


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time process ``pid`` has used so far, over all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()  # from field 3, the state
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # fields 14 and 15: utime, stime


def process_tree_cpu_seconds(pid: int) -> float:
    """:func:`cpu_seconds` of process ``pid`` and of every process descended from it (a Dask run's
    worker processes); a process that ends while it is read counts nothing."""
    parent_of = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent_of[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                continue  # ended meanwhile
    tree, grown = {pid}, True
    while grown:
        descendants = {child for child, parent in parent_of.items() if parent in tree} - tree
        tree |= descendants
        grown = bool(descendants)
    total = 0.0
    for member in tree:
        try:
            total += cpu_seconds(member)
        except (OSError, ValueError):
            continue
    return total


def _ctrl_c_as_at_a_terminal() -> None:
    """In the command's process before it starts: SIGINT delivered, as to a command run at a terminal,
    even when the suite itself ignores it (run as a background job of a shell, the suite and every
    process it starts inherit SIGINT ignored, and a command that ignores Ctrl-C plays on)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(args, cwd, env=None, after: float | None = None, under_way_cpu: float = UNDER_WAY_CPU,
                whole_tree: bool = False) -> tuple[subprocess.CompletedProcess, float]:
    """``analyze ARGS`` sent SIGINT once it has used ``under_way_cpu`` seconds of CPU time (with its
    child processes when ``whole_tree``), or ``after`` seconds of wall time when given: the finished
    process and how long it took to stop."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    process = subprocess.Popen([sys.executable, "-c", "from analyzer.cli import main; main()", *map(str, args)],
                               cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_ctrl_c_as_at_a_terminal)
    command = " ".join(map(str, args))
    if after is not None:
        time.sleep(after)
    else:
        started = time.perf_counter()
        used = process_tree_cpu_seconds if whole_tree else cpu_seconds
        while process.poll() is None and used(process.pid) < under_way_cpu:
            assert time.perf_counter() - started < UNDER_WAY_WITHIN, f"analyze {command} not under way"
            time.sleep(0.05)
    assert process.poll() is None, f"analyze {command} ended before the signal: {process.stderr.read()}"
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        stdout, stderr = process.communicate(timeout=STOPS_WITHIN * 4)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"analyze {command} still ran {STOPS_WITHIN * 4} s after Ctrl-C")
    return subprocess.CompletedProcess(args, process.returncode, stdout, stderr), time.perf_counter() - sent


def assert_interrupted(completed: subprocess.CompletedProcess, took: float) -> None:
    assert completed.returncode == 130, completed.stderr[-2000:]
    assert completed.stderr.strip().splitlines()[-1] == "analyze: interrupted", completed.stderr[-2000:]
    assert "Traceback" not in completed.stderr and "internal error" not in completed.stderr
    assert took < STOPS_WITHIN, f"it took {took:.1f} s to stop"


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "skull-island", "--n", "1e9", "--seed", "1", "-o", "out.json"],
    ["compare", "--game", "skull-island", "--strategy", "threshold", "--strategy", "random", "--n", "1e9",
     "-o", "out.json"],
    ["sweep", "--game", "skull-island", "--param", "target_score=4000,5000", "--n", "1e9", "-o", "out.json"],
    ["balance", "--game", "skull-island", "--players", "2", "--param", "seat_bonus=0:800", "--n", "1e9",
     "-o", "out.json"],
    ["skill", "--game", "skull-island", "--n", "1e9", "-o", "out.json"],
    ["tune", "--game", "skull-island", "--strategy", "threshold", "--param", "stop_at=300:2000", "--n", "1e9",
     "-o", "out.json"],
    ["report", "--game", "lucky-pirates", "--n", "1e9", "-o", "out.pdf"],
    # a larger game than the standard one, so the solve (2 s at the standard rules) is under way at the signal
    ["exact", "--game", "lucky-pirates", "--players", "4", "--set", "treasures_to_win=8", "--set",
     "treasure_supply=30", "-o", "out.json"],
])
def test_every_command_stops_on_ctrl_c_leaving_no_file(args, tmp_path):
    completed, took = interrupted(args if args[0] == "exact" else [*args, "--quiet"], tmp_path)
    assert_interrupted(completed, took)
    assert list(tmp_path.iterdir()) == []


def test_the_win_solve_stops_on_ctrl_c_leaving_the_cache_as_it_was(tmp_path):
    cache = tmp_path / "cache"
    (cache / "skull-island").mkdir(parents=True)
    (cache / "skull-island" / "kept.npz").write_bytes(b"an older cache file")
    before = sorted((path.name, path.read_bytes()) for path in cache.rglob("*") if path.is_file())
    completed, took = interrupted(["solve", "--game", "skull-island", "--objective", "win", "--players", "2",
                                   "--set", "target_score=3000", "--quiet"], tmp_path,
                                  env={"PIRATE_ANALYZER_CACHE": str(cache)}, under_way_cpu=6)
    assert_interrupted(completed, took)
    after = sorted((path.name, path.read_bytes()) for path in cache.rglob("*") if path.is_file())
    # what was there is untouched and the win solve wrote nothing of its own (game-win-*: written at the
    # end). A turn policy the turn solver finished before (policy-*, final-round-*), or the turn outcomes of
    # the win solver's policy class (turn-outcomes-*), each written atomically, may have been added: it is
    # whole, and the next run reads it.
    finished = ("policy-", "final-round-", "turn-outcomes-")
    assert [entry for entry in after if not entry[0].startswith(finished)] == before
    assert all(load_arrays(cache / "skull-island" / name) is not None for name, _ in after if name.startswith(finished))


@njit(nogil=True, cache=True)
def _spin(seconds_of_work, stop):
    """Compiled work that cannot see Ctrl-C: about ``seconds_of_work`` half-seconds of it here, ended early once
    ``stop[0]`` is set (checked every 2**20 steps). The tests abandon its threads, as the commands do, so
    without ``stop`` they would spin on for seconds after the test, taking a core from the tests after it."""
    total = 0.0
    for i in range(seconds_of_work * 300_000_000):
        if (i & 0xFFFFF) == 0 and stop[0] != 0:
            break
        total += (i % 7) * 1e-9
    return total


@pytest.fixture
def ctrl_c_raises():
    """SIGINT raises KeyboardInterrupt in this process during the test, as it does at a terminal, even
    when the suite runs with SIGINT ignored (as a background job of a shell)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("wait", [lambda stop: wait_interruptibly(_spin, 10, stop),  # one computing thread
                                  lambda stop: map_on_threads(lambda work: _spin(work, stop), [10] * 4, 2)],
                         ids=["wait_interruptibly", "map_on_threads"])  # threads not waited for
def test_a_wait_for_compiled_code_takes_ctrl_c_at_once(wait, ctrl_c_raises):
    stop = np.zeros(1, dtype=np.int64)
    _spin(0, stop)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            wait(stop)
        assert time.perf_counter() - start < STOPS_AT_ONCE_WITHIN
    finally:
        stop[0] = 1  # the abandoned threads end


def test_a_solve_shows_its_stages_on_a_terminal(monkeypatch):
    from analyzer.engine.progress import Stages

    class Terminal:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    terminal = Terminal()
    stages = Stages(3, "solve stages", stream=terminal)
    with stages.stage("value iteration"):
        wait_interruptibly(time.sleep, 0.5, progress=stages)
    stages.close()
    assert "value iteration: " in terminal.text and "1/3 solve stages done" in terminal.text
    quiet = Terminal()
    Stages(3, stream=quiet, enabled=False).close()
    assert quiet.text == ""


#: the CPU time of a local Dask run's processes while its workers start (the client's start-up alone
#: takes about 1 s), and by which they have played for a few seconds (each process starts in about 1 s)
WORKERS_STARTING_CPU = 1
WORKERS_PLAYING_CPU = 6


@pytest.mark.parametrize("under_way_cpu", [WORKERS_STARTING_CPU, WORKERS_PLAYING_CPU],
                         ids=["while-its-workers-start", "while-they-play"])
def test_a_dask_run_stops_on_ctrl_c_with_one_line(tmp_path, under_way_cpu):
    """Dask's own clean-up at exit once failed on workers still starting, printing a traceback."""
    spec = resolve(game="skull-island")
    spec.game.prepare(spec.rules, spec.players, spec.seats)  # its policy solved (or read) now, so the command's CPU
    # is its cluster's: run alone, without the suite's warm-up, the command would still be solving at the signal
    completed, took = interrupted(["simulate", "--game", "skull-island", "--n", "1e9", "--backend", "dask",
                                   "--workers", "2", "--quiet", "-o", "out.json"], tmp_path,
                                  under_way_cpu=under_way_cpu, whole_tree=True)
    assert_interrupted(completed, took)
    assert completed.stderr.strip().splitlines() == ["analyze: interrupted"]
    assert list(tmp_path.iterdir()) == []
    # its workers are killed, not waited for: closed as usual, each first finished the task it was playing
    # (4 s here, both cores busy meanwhile)
    assert took < STOPS_AT_ONCE_WITHIN, f"it took {took:.1f} s to stop"


#: a Ctrl-C raised in a callback Python cannot raise from, which drops it: one from C (ctypes, as in
#: llvmlite's object cache while Numba compiles) or a weak reference's (as the import system's module
#: locks have, while Dask's workers start); then a wait, which must raise it again
LOST_CTRL_C = """
import ctypes, os, queue, signal, sys, time, weakref
from analyzer.engine.progress import map_on_threads, remember_ctrl_c, wait_interruptibly
from analyzer.engine.runner import _next_done
remember_ctrl_c()
def callback(*reference):
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.5)  # the KeyboardInterrupt is raised in here, and dropped
class Referent:
    pass
if sys.argv[2] == "from-c":
    ctypes.CFUNCTYPE(None)(callback)()
else:
    referent = Referent()
    reference = weakref.ref(referent, callback)
    del referent
print("lost", flush=True)
waits = {"wait_interruptibly": lambda: wait_interruptibly(time.sleep, 20),
         "map_on_threads": lambda: map_on_threads(time.sleep, [20], 1),
         "chunks": lambda: _next_done(queue.Queue())}
try:
    waits[sys.argv[1]]()
except KeyboardInterrupt:
    print("raised again")
"""


@pytest.mark.parametrize("callback", ["from-c", "of-a-weak-reference"])
@pytest.mark.parametrize("wait", ["wait_interruptibly", "map_on_threads", "chunks"])
def test_a_ctrl_c_lost_in_a_callback_is_raised_by_the_next_wait_and_not_printed(wait, callback):
    started = time.perf_counter()
    completed = subprocess.run([sys.executable, "-c", LOST_CTRL_C, wait, callback], capture_output=True, text=True,
                               preexec_fn=_ctrl_c_as_at_a_terminal,
                               timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert completed.stdout.split() == ["lost", "raised", "again"], completed.stderr[-2000:]
    assert completed.stderr == ""  # Python printed the dropped one as "Exception ignored", with a traceback
    assert time.perf_counter() - started < 15
