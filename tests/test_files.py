"""analyzer.files: inputs read safely, outputs written atomically, stale temporaries removed."""

import os
import subprocess
import sys
import tomllib

import pytest

from analyzer import files
from analyzer.errors import AnalyzerError, one_line, param, safe_text


def _nested_ok(text: str) -> bool:
    try:
        files.check_nesting(text, "x")
    except AnalyzerError:
        return False
    return True


DEEP = "[" * (files.MAX_NESTING + 1) + "]" * (files.MAX_NESTING + 1)


@pytest.mark.parametrize("text", [
    'a = "' + "[" * 100 + '"',
    "a = '" + "{" * 100 + "'",
    'a = """\n' + "[" * 100 + '\n"""',
    "a = '''" + "[" * 100 + "'''",
    "# " + "[" * 100 + "\nb = 1",
    'a = "\\"' + "[" * 100 + '"',
    "a = " + "[" * files.MAX_NESTING + "]" * files.MAX_NESTING,
    '{"a": "' + "[" * 100 + '"}',
])
def test_brackets_in_strings_and_comments_do_not_count(text):
    assert _nested_ok(text)


@pytest.mark.parametrize("text", [
    "a = " + DEEP,
    "a = 'C:\\'\nb = " + DEEP,  # a literal string ends at its quote, backslash or not
    "a = '''\\'''\nb = " + DEEP,
    'a = """x""""\nb = ' + DEEP,  # a multi-line string may end in four quotes
    "[" * 100_000 + "]" * 100_000,
])
def test_deep_nesting_is_refused_wherever_it_starts(text):
    assert not _nested_ok(text)


def test_every_toml_the_scanner_accepts_has_the_depth_tomllib_sees():
    for text in ("a = [[1], [[2]]]", "a = {b = {c = [1, {d = 2}]}}", "[[x]]\ny = [1]\n[[x]]\ny = [2]"):
        assert _nested_ok(text) and tomllib.loads(text)


def test_read_input_refuses_what_is_too_large_or_no_regular_file(tmp_path):
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * 101)
    assert files.read_input(path, "scenario file", 101) == b"#" * 101
    with pytest.raises(AnalyzerError, match="larger than"):
        files.read_input(path, "scenario file", 100)
    with pytest.raises(AnalyzerError, match="does not exist"):
        files.read_input(tmp_path / "missing.toml", "scenario file", 100)
    with pytest.raises(AnalyzerError, match="is a folder, not a file"):
        files.read_input(tmp_path, "scenario file", 100)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(AnalyzerError, match="FIFO"):
        files.read_input(tmp_path / "fifo", "scenario file", 100)


def test_parse_toml_refuses_a_number_python_will_not_convert():
    with pytest.raises(AnalyzerError, match="not valid TOML"):
        files.parse_toml(b"a = " + b"1" * 5000, "scenario file s.toml")
    with pytest.raises(AnalyzerError, match="not UTF-8"):
        files.parse_toml(b"\xff\xfe", "scenario file s.toml")


def test_an_existing_fifo_is_no_output(tmp_path):
    os.mkfifo(tmp_path / "out.json")
    with pytest.raises(AnalyzerError, match="FIFO"):
        files.check_output_path(tmp_path / "out.json", (".json",))


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_stale_temporaries_of_dead_runs_on_this_machine_go_and_nothing_else(tmp_path):
    host = files._HOST
    other_host = "0" * 8 if host != "0" * 8 else "1" * 8
    names = {
        "dead": f".r.pdf.analyze-{host}-{_dead_pid()}-0123abcd.part",
        "alive": f".r.pdf.analyze-{host}-{os.getppid()}-0123abcd.part",
        "mine": f".r.pdf.analyze-{host}-{os.getpid()}-0123abcd.part",
        "other machine": f".r.pdf.analyze-{other_host}-{_dead_pid()}-0123abcd.part",
        "not ours": ".r.pdf.abcdef.part",
    }
    for name in names.values():
        (tmp_path / name).write_text("")
    files.remove_stale_temporaries(tmp_path)
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {name for what, name in names.items() if what != "dead"}


def test_an_atomic_write_leaves_only_the_file(tmp_path):
    target = tmp_path / "out.txt"
    files.write_text_atomic(target, "one")
    with pytest.raises(RuntimeError), files.atomic_path(target) as temporary:
        temporary.write_text("two")
        raise RuntimeError
    assert target.read_text() == "one" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_error_messages_are_one_safe_short_line_in_the_callers_words():
    error = AnalyzerError(f"{param('save_games')} {'x' * 1000!r}\u202e\nsecond line")
    assert str(error).startswith("save_games 'xxx") and len(str(error)) == 300 and str(error).endswith("…")
    assert error.worded(lambda name: "--" + name.replace("_", "-")).startswith("--save-games 'xxx")
    assert one_line("a\u202eb\x1b[2J\nc") == "a\\u202eb\\x1b[2J"
    assert safe_text("line\n\tnext\u2066", keep="\n\t") == "line\n\tnext\\u2066"
