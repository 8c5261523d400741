"""Running ``analyze`` in-process, and the check every bad-input test makes."""

from click.testing import CliRunner

from analyzer.cli import main


def run_cli(args):
    """``analyze ARGS`` through click's test runner (paths and numbers become strings)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result, *words):
    """Exit 2; exactly one non-empty line of output (stdout+stderr), on stderr;
    no traceback; every word in `words` appears (case-insensitive)."""
    out = result.output
    assert result.exit_code == 2, f"exit {result.exit_code}: {out!r} ({result.exception!r})"
    assert "Traceback" not in out, out
    lines = out.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got {len(lines)}: {out!r}"
    assert lines[0].strip(), out
    assert lines[0].strip() in result.stderr, f"message not on stderr: {out!r}"
    for word in words:
        assert word.lower() in out.lower(), f"{word!r} not named in {out!r}"


#: the memory and time a command run by :func:`run_limited` may take
LIMIT_MEMORY_BYTES = 2 * 1024**3
LIMIT_SECONDS = 60


def run_limited(args, cwd=None, timeout=LIMIT_SECONDS, memory=LIMIT_MEMORY_BYTES, code=None):
    """``analyze ARGS`` in its own process, under an address-space limit and a timeout,
    with this checkout's package first on the path: for failures that were exhaustion or a
    hang. ``code`` runs first in that process (e.g. to arrange a kill). Returns the
    CompletedProcess; a timeout fails the test."""
    import os
    import resource
    import subprocess
    import sys
    from pathlib import Path

    import pytest

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    program = (code or "") + "\nimport sys\nfrom analyzer.cli import main\nmain(sys.argv[1:])\n"
    try:
        return subprocess.run([sys.executable, "-c", program, *map(str, args)], cwd=cwd, env=env,
                              preexec_fn=limit, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"analyze {' '.join(map(str, args))} still ran after {timeout} s")


def assert_one_line_exit_2(completed, *words):
    """What :func:`assert_one_line_error` checks, for a :func:`run_limited` process."""
    assert completed.returncode == 2, f"exit {completed.returncode}: {completed.stderr[-2000:]!r}"
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in completed.stderr, completed.stderr[-2000:]
    assert len(lines[0]) <= 320, f"a line of {len(lines[0]):,} characters"
    for word in words:
        assert word.lower() in lines[0].lower(), f"{word!r} not named in {lines[0]!r}"
    assert completed.stdout == ""
