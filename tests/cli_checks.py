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
