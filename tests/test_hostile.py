"""Hostile input, faults and tampering (issue 14): every failure is one line and exit
status 2, nothing is lost or silently wrong.

One test (or more) per row of the issue's table. Where the failure was exhaustion or a
hang, the command runs in its own process under a memory limit and a timeout
(:func:`tests.cli_checks.run_limited`). The Dask cluster that loses its workers is in
test_worker_timeout.py; the files module's own cases are in test_files.py.
"""

import json
import os
import signal
import stat
from pathlib import Path

import pytest

import analyzer
from analyzer.engine import checkpoint as checkpoint_module
from analyzer.engine import runner
from analyzer.engine.progress import default_workers
from analyzer.errors import AnalyzerError
from analyzer.runspec import resolve
from tests.cli_checks import assert_one_line_error, assert_one_line_exit_2, run_cli, run_limited

SIM = ["simulate", "--game", "skull-island", "--n", "1000", "--seed", "1", "--quiet"]
DICE_4_SKULLS = "skull,skull,skull,skull,sword,sword,coin,coin"


def _scenario(folder: Path, body: str, name: str = "s.toml") -> Path:
    path = folder / name
    path.write_text('game = "skull-island"\n' + body, encoding="utf-8")
    return path


# -- input files ---------------------------------------------------------------------------------

def test_scenario_from_dev_zero_is_refused_by_name_without_reading_it():
    assert_one_line_exit_2(run_limited(SIM[:1] + ["--scenario", "/dev/zero", "--n", "1000", "--quiet"]),
                           "/dev/zero", "device")


def test_a_huge_array_is_refused_quickly_in_one_short_line(tmp_path):
    million = _scenario(tmp_path, "[rules]\nset_values = [" + ", ".join(["100"] * 1_000_000) + "]\n")
    assert_one_line_exit_2(run_limited(["simulate", "--scenario", million, "--n", "100", "--quiet"], timeout=20),
                           "larger than")
    hundred_thousand = _scenario(tmp_path, "[rules]\nset_values = [" + ", ".join(["100"] * 100_000) + "]\n")
    result = run_cli(["simulate", "--scenario", hundred_thousand, "--n", "100", "--quiet"])
    assert_one_line_error(result, "set_values", "100,000 values", "exactly 7")
    assert len(result.stderr) < 300


def test_arrays_nested_100000_deep_are_one_line_not_a_recursion_error(tmp_path):
    deep = _scenario(tmp_path, "[rules]\nset_values = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert_one_line_exit_2(run_limited(["simulate", "--scenario", deep, "--n", "100", "--quiet"]), "nests")


@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_components_and_scenarios_must_be_regular_files(tmp_path, kind):
    target = {"folder": tmp_path / "folder", "fifo": tmp_path / "fifo.toml", "device": Path("/dev/null")}[kind]
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)  # nothing ever writes to it: reading it would wait forever
    named = {"folder": "folder", "fifo": "FIFO", "device": "device"}[kind]
    assert_one_line_exit_2(run_limited(["simulate", "--game", "dead-mans-chest", "--set", f"components={target}",
                                        "--n", "100", "--quiet"], timeout=60), str(target), named)
    assert_one_line_exit_2(run_limited(["simulate", "--scenario", target, "--n", "100", "--quiet"], timeout=60),
                           str(target), named)


def test_error_lines_are_capped_and_never_echo_a_large_value():
    result = run_cli(SIM + ["--players", "7" * 100_000])
    assert_one_line_error(result)
    assert len(result.stderr) <= 320


# -- outputs -------------------------------------------------------------------------------------

@pytest.fixture
def no_game_may_be_played(monkeypatch):
    """The destination is checked before any game is played (or any kernel compiled for it)."""
    def refuse(*args, **kwargs):
        pytest.fail("a game was played before the output was checked")

    monkeypatch.setattr(runner, "execute", refuse)


@pytest.mark.parametrize("args", [
    SIM + ["-o", "/proc/x.json"],
    SIM + ["-o", "/sys/x.json"],
    SIM + ["--save-games", "/proc/x.csv"],
    SIM + ["--checkpoint", "/proc/x.ckpt"],
    ["report", "--game", "skull-island", "--n", "1000", "--quiet", "-o", "/proc/r.pdf"],
    ["sweep", "--game", "skull-island", "--param", "target_score=4000,5000", "--n", "1000", "--quiet",
     "-o", "/proc/s.pdf"],
])
def test_an_output_that_cannot_be_created_fails_before_any_game(no_game_may_be_played, args):
    assert_one_line_error(run_cli(args), "cannot be written")


@pytest.mark.parametrize("args", [
    SIM + ["-o", ""],
    ["report", "--game", "skull-island", "--n", "1000", "--quiet", "-o", ""],
    ["score", "--card", "coin", "--dice", DICE_4_SKULLS, "-o", ""],
    ["compare", "--game", "skull-island", "--strategy", "threshold", "--strategy", "random", "--n", "1000",
     "--quiet", "-o", ""],
])
def test_an_empty_output_name_is_an_error(no_game_may_be_played, args):
    assert_one_line_error(run_cli(args), "file name is empty")


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("name, option", [("out.json", "-o"), ("games.csv", "--save-games")])
def test_new_files_get_the_umask_and_replaced_files_keep_their_mode(tmp_path, umask_027, name, option):
    path = tmp_path / name
    args = SIM + [option, path]
    assert run_cli(args).exit_code == 0
    assert _mode(path) == 0o640  # 0666 less the umask, as any program makes a file
    path.chmod(0o444)
    assert run_cli(args).exit_code == 0
    assert _mode(path) == 0o444  # replaced, keeping its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_replaced_report_keeps_its_mode(tmp_path, umask_027):
    path = tmp_path / "report.pdf"
    path.write_text("an older report")
    path.chmod(0o444)
    assert run_cli(["report", "--game", "lucky-pirates", "--n", "200", "--quiet", "-o", path]).exit_code == 0
    assert path.read_bytes().startswith(b"%PDF") and _mode(path) == 0o444


def test_a_checkpoint_gets_the_umask_and_keeps_its_mode_as_it_is_rewritten(tmp_path, umask_027):
    path = tmp_path / "new.ckpt"
    assert run_cli(SIM + ["--checkpoint", path]).exit_code == 0
    assert _mode(path) == 0o640


def test_a_resumed_checkpoint_keeps_its_mode(half_done_checkpoint):
    path, args = half_done_checkpoint
    path.chmod(0o444)
    assert run_cli(args).exit_code == 0
    assert json.loads(path.read_text())["games_done"] == 20_000
    assert _mode(path) == 0o444


def test_a_killed_report_leaves_a_temporary_file_that_the_next_run_removes(tmp_path):
    killed_at_rename = ("import os, signal\n"
                        "rename = os.replace\n"
                        "def replace(source, target):\n"
                        "    if str(source).endswith('.part'):\n"
                        "        os.kill(os.getpid(), signal.SIGKILL)\n"
                        "    rename(source, target)\n"
                        "os.replace = replace\n")
    args = ["report", "--game", "lucky-pirates", "--n", "200", "--seed", "1", "--quiet", "-o", "r.pdf"]
    killed = run_limited(args, cwd=tmp_path, code=killed_at_rename)
    assert killed.returncode == -signal.SIGKILL
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".r.pdf.") and left[0].endswith(".part"), left
    assert run_cli(["simulate", "--game", "skull-island", "--n", "500", "--quiet",
                    "-o", tmp_path / "other.json"]).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.json"]


# -- checkpoints ---------------------------------------------------------------------------------

@pytest.fixture
def half_done_checkpoint(tmp_path):
    """A checkpoint of 5 of the 10 chunks of a 20,000-game run, and the command that resumes it."""
    path = tmp_path / "run.ckpt"
    args = ["simulate", "--game", "skull-island", "--n", "20000", "--seed", "5", "--quiet", "--json",
            "--checkpoint", path]
    spec = resolve(game="skull-island")
    prepared = spec.game.prepare(spec.rules, spec.players, spec.seats)
    seen = []

    class Interrupted(Exception):
        """Stands for a kill part-way through the run."""

    def stop_after_five(chunk, aggregates):
        seen.append(chunk.index)
        if len(seen) == 5:
            raise Interrupted

    with pytest.raises(Interrupted):
        runner.execute(spec.game, prepared, 20_000, 5, workers=1, checkpoint=str(path), on_chunk=stop_after_five)
    return path, args


@pytest.mark.parametrize("tamper", [
    lambda totals: totals["wins"].__setitem__(0, -5),
    lambda totals: totals["score_sum"].__setitem__(1, totals["score_sum"][1] + 1000),
])
def test_a_tampered_checkpoint_is_refused(half_done_checkpoint, tamper):
    path, args = half_done_checkpoint
    document = json.loads(path.read_text())
    tamper(document["totals"])
    path.write_text(json.dumps(document))
    assert_one_line_error(run_cli(args), "checkpoint", "checksum")


@pytest.mark.parametrize("tamper, named", [
    (lambda totals: totals["wins"].__setitem__(0, -5), "negative"),
    (lambda totals: totals["wins"].__setitem__(0, totals["wins"][0] + 3000), "wins, ties and games"),
    (lambda totals: totals["score_hist"][0].__setitem__(3, totals["score_hist"][0][3] + 1), "histogram"),
    (lambda totals: totals["score_sum"].__setitem__(1, 10**12), "score sums"),
    (lambda totals: totals["score_sq"].__setitem__(2, 0), "score sums"),
    (lambda totals: totals.pop("card_turns"), "not the ones"),
])
def test_a_checkpoint_whose_totals_do_not_add_up_is_refused_even_with_its_checksum(half_done_checkpoint,
                                                                                   tamper, named):
    path, args = half_done_checkpoint
    document = json.loads(path.read_text())
    tamper(document["totals"])
    document["checksum"] = checkpoint_module.checksum(document)
    path.write_text(json.dumps(document))
    assert_one_line_error(run_cli(args), "checkpoint", named)


def test_an_untouched_checkpoint_still_resumes_to_the_uninterrupted_result(half_done_checkpoint):
    path, args = half_done_checkpoint
    resumed = json.loads(run_cli(args).stdout)
    plain = json.loads(run_cli(args[:-2]).stdout)
    resumed.pop("run"), plain.pop("run")
    assert resumed == plain


def test_a_checkpoint_of_the_format_without_checksum_is_refused_with_what_to_do(half_done_checkpoint):
    path, args = half_done_checkpoint
    document = json.loads(path.read_text())
    document["schema"] = 1
    del document["checksum"]
    path.write_text(json.dumps(document))
    assert_one_line_error(run_cli(args), "format version 1", "delete it and run again")


# -- workers and the Python API --------------------------------------------------------------------

def test_more_workers_than_cores_are_capped_with_a_note():
    result = run_cli(SIM + ["--workers", "100000", "--json"])
    assert result.exit_code == 0, result.output
    cores = default_workers()
    assert json.loads(result.stdout)["run"]["workers"] == cores
    assert result.stderr.strip() == (f"analyze: note: --workers 100000 is more than the {cores} cores of this "
                                     f"machine; using {cores}")


@pytest.mark.parametrize("arguments, words", [
    ({"n": 0}, "n 0 is not allowed"),
    ({"seed": -1}, "seed -1 is not allowed"),
    ({"workers": 0}, "workers 0 is not allowed"),
    ({"worker_timeout": 0}, "worker_timeout 0 is not allowed"),
    ({"n": 10**8, "save_games": "games.csv"}, "save_games writes one row per game"),
    ({"checkpoint": "run.ckpt", "save_games": "games.csv"}, "checkpoint cannot be combined with save_games"),
    ({"sets": ["target_score"]}, "sets 'target_score' must be written OPTION=VALUE"),
    ({"sets": ["target_score=x"]}, "sets: target_score = 'x' is not allowed"),
    ({"backend": "cloud"}, "backend 'cloud' is not allowed"),
    ({"game": None}, "no game given: use game ID or scenario FILE"),
])
def test_the_python_api_words_its_errors_with_its_parameters(tmp_path, monkeypatch, arguments, words):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AnalyzerError) as error:
        analyzer.simulate(**{"game": "skull-island", "n": 1000, **arguments})
    assert words in str(error.value)
    assert "--" not in str(error.value)


# -- the referee and the exact solution -----------------------------------------------------------

@pytest.mark.parametrize("card, sets, named", [
    ("sea-battle-2", [], "sea_battle_blocks_island"),
    ("sea-battle-4", ["--set", "sea_battle_blocks_island=true"], "sea_battle_blocks_island"),
    ("coin", ["--set", "skull_island=false"], "skull_island = false"),
    ("sea-battle-3", ["--set", "skull_island=false", "--set", "sea_battle_blocks_island=false"],
     "skull_island = false"),
])
def test_the_referee_refuses_skull_island_where_the_rules_forbid_it(card, sets, named):
    result = run_cli(["score", "--card", card, "--dice", DICE_4_SKULLS, "--island", *sets])
    assert_one_line_error(result, "--island", named)


def test_the_referee_still_allows_skull_island_where_the_rules_do():
    result = run_cli(["score", "--card", "sea-battle-2", "--dice", DICE_4_SKULLS, "--island",
                      "--set", "sea_battle_blocks_island=false", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"score": 0, "opponents": -400}


def test_exact_names_its_work_cap_and_suggests_simulate(monkeypatch):
    from analyzer.games.lucky_pirates import exact

    # the case (4 players first to 9) stops on the real cap after a minute; with a
    # cap of 4 turns, 2 players first to 9 stop on it at once
    monkeypatch.setattr(exact, "MAX_WORK", 4 * 7**2 * 9**2 * 6)
    result = run_cli(["exact", "--game", "lucky-pirates", "--players", "2", "--set", "treasures_to_win=9"])
    assert_one_line_error(result, "work cap", "analyze simulate")
    assert "may never end" not in result.stderr


# -- text from scenario files ----------------------------------------------------------------------

def test_bidirectional_controls_in_a_scenario_are_shown_escaped(tmp_path):
    from pypdf import PdfReader

    path = _scenario(tmp_path, 'name = "Target \u202e0008"\ndescription = "a \u2066b\u2069 \\u001b[2J"\n')
    table = run_cli(["simulate", "--scenario", path, "--n", "500", "--seed", "1", "--quiet"])
    assert table.exit_code == 0, table.output
    assert "\u202e" not in table.stdout and "Target \\u202e0008" in table.stdout
    pdf = tmp_path / "r.pdf"
    # every page, the skill ladder's among them, at a small game count (20,000 games a strategy took 4 s more)
    assert run_cli(["report", "--scenario", path, "--n", "200", "--skill-n", "300", "--seed", "1", "--quiet",
                    "-o", pdf]).exit_code == 0
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert not any(char in text for char in "\u202e\u2066\u2069\x1b")
    assert "\\u202e" in text
