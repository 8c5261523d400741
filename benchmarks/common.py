"""Timing a command as a user runs it: wall time, and peak memory of the process."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ANALYZE = str(Path(sys.executable).with_name("analyze"))


def timed_run(args: list[str], env: dict | None = None) -> tuple[float, int, str]:
    """Run ``analyze ARGS`` in a fresh process: (wall seconds, peak RSS in MB, stdout)."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - start\n"
        "if done.returncode: sys.stderr.write(done.stderr); sys.exit(done.returncode)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024\n"
        "sys.stdout.write(f'{wall} {peak}\\n' + done.stdout)\n"
    )
    full_env = dict(os.environ, **(env or {}))
    done = subprocess.run([sys.executable, "-c", probe, ANALYZE, *args], capture_output=True, text=True,
                          env=full_env, check=True)
    first, _, output = done.stdout.partition("\n")
    wall, peak = first.split()
    return float(wall), int(peak), output


def simulate_json(args: list[str], env: dict | None = None) -> tuple[float, int, dict]:
    wall, peak, output = timed_run(["simulate", *args, "--quiet", "--json"], env)
    return wall, peak, json.loads(output)


def median_of(repeats: int, args: list[str]) -> tuple[float, int, dict]:
    """The run of median wall time among several (this host's speed varies from run to run)."""
    runs = sorted((simulate_json(args) for _ in range(repeats)), key=lambda r: r[0])
    return runs[len(runs) // 2]


def _calibration_loop() -> float:
    """Seconds for a fixed pure-Python integer loop (the same work on every machine)."""
    start = time.perf_counter()
    state = 1
    for step in range(3_000_000):
        state = (state * 6364136223846793005 + step) & 0xFFFFFFFFFFFFFFFF
    return time.perf_counter() - start


_calibration: list[float] = []


def calibration_seconds() -> float:
    """The median of five runs of the calibration loop, timed once per benchmark process."""
    if not _calibration:
        runs = sorted(_calibration_loop() for _ in range(5))
        _calibration.append(runs[2])
    return _calibration[0]


def in_units(seconds: float) -> str:
    """``seconds`` as a multiple of the calibration loop timed in the same run, so figures
    from a fast and a slow hour (or machine) can be compared."""
    return f"{seconds / calibration_seconds():.1f} x calibration"


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def stamp() -> str:
    return (time.strftime("%Y-%m-%d %H:%M") + f", load average {load_average()}, {os.cpu_count()} cores, "
            f"calibration loop {calibration_seconds():.3f} s")
