"""The Python API: every command is a function here first; the CLI only parses."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path
from typing import Any

from analyzer.engine.precision import extend_to_precision, parse_precision, refuse_checkpoint
from analyzer.errors import AnalyzerError, param
from analyzer.execution import Execution
from analyzer.files import check_distinct_outputs
from analyzer.result import Result, RunInfo
from analyzer.runspec import RunSpec, resolve

MAX_GAMES = 10**12
#: --save-games writes one row per game; above this many games it is refused
MAX_SAVED_GAMES = 10**7


def parse_count(value: Any, name: str = "n") -> int:
    """A count of games (the API parameter ``name``): 1e6, 1000000, 1_000_000; a positive whole number up to 1e12."""
    number = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float):
        number = int(value) if math.isfinite(value) and value.is_integer() else None
    elif isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+]?\d+(_\d+)*", text):
            number = int(text.replace("_", ""))
        elif re.fullmatch(r"[+]?\d+(\.\d*)?[eE][+]?\d+", text):
            mantissa, _, exponent = text.lower().lstrip("+").partition("e")
            whole, _, fraction = mantissa.partition(".")
            exponent = int(exponent)
            fraction = fraction.rstrip("0")
            if len(fraction) <= exponent:
                number = int(whole + fraction) * 10 ** (exponent - len(fraction))
    if number is None or number < 1 or number > MAX_GAMES:
        raise AnalyzerError(f"{param(name)} {value!r} is not allowed: it must be a positive whole number up to 1e12 "
                            f"(for example 1e6, 1000000 or 1_000_000)")
    return number


def simulate(game: str | None = None, n: int | str = 100_000, players: int | None = None,
             strategies: list[str] | None = None, rules: dict[str, Any] | None = None,
             scenario: str | Path | None = None, seed: int | None = None, workers: int | None = None,
             sets: list[str] | None = None, progress: bool | None = False,
             save_games: str | Path | None = None, backend: str = "local", scheduler: str | None = None,
             checkpoint: str | Path | None = None, worker_timeout: float | None = None,
             precision: float | str | None = None) -> Result:
    """Play ``n`` games and return their statistics.

    ``strategies`` are specs such as ``"threshold:stop_at=500"`` (one for all seats or
    one per seat); ``rules`` overrides rule options; ``scenario`` is a TOML file;
    ``sets`` are ``OPTION=VALUE`` texts as given to ``--set``. ``progress=None`` shows
    a progress bar when stderr is a terminal. ``save_games`` writes one row per game
    (.csv or .parquet). ``workers`` beyond this machine's cores are capped (unless a
    ``scheduler``'s cluster plays); on Dask, the run stops when no worker has been left for
    ``worker_timeout`` seconds (default 120). ``precision`` (percentage points) stops as
    soon as every seat's 95% win-rate interval is within ± that many points, ``n`` then
    being the most games played (see :func:`run_spec`). Raises :class:`AnalyzerError` on bad input.
    """
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress, worker_timeout)
    execution.check_checkpoint()
    spec = resolve(game=game, scenario=None if scenario is None else str(scenario), players=players,
                   strategies=strategies, rules=rules, sets=sets)
    return run_spec(spec, n, execution, save_games=save_games, precision=precision)


def run_spec(spec: RunSpec, n: int | str, execution: Execution, save_games: str | Path | None = None,
             on_chunk=None, precision: float | str | None = None, progress=None) -> Result:
    """Play ``n`` games of an already resolved :class:`RunSpec` as ``execution`` says.

    ``on_chunk(chunk, aggregates)`` sees each chunk's own aggregates as it finishes
    (e.g. for convergence plots). ``precision`` (percentage points) plays in rounds
    until every seat's 95% win-rate interval is within ± that many points, ``n`` games
    at most (:mod:`analyzer.engine.precision`); ``result.info.precision`` says how it ended.
    ``progress``: a bar of a longer task to advance (it stays open) instead of the run's own.
    """
    n = parse_count(n)
    target = None if precision is None else parse_precision(precision)
    if target is not None:
        refuse_checkpoint(execution.checkpoint)
    check_distinct_outputs({"checkpoint": execution.checkpoint, "save_games": save_games})
    writer = None
    if save_games is not None:
        from analyzer.games_file import GamesWriter

        if n > MAX_SAVED_GAMES:
            raise AnalyzerError(f"{param('save_games')} writes one row per game and is limited to "
                                f"{MAX_SAVED_GAMES:,} games; "
                                f"this run has {n:,}")
        writer = GamesWriter(save_games, spec.players)
    prepared = spec.game.prepare(spec.rules, spec.players, spec.seats)
    bar = progress if progress is not None else execution.progress_bar(n)
    played = 0  # games played in this session (a resumed checkpoint plays only the rest)

    def count_played(chunk, aggregates):
        nonlocal played
        played += chunk.n_games
        if on_chunk is not None:
            on_chunk(chunk, aggregates)

    def play(chunks=None):
        return execution.play(spec.game, prepared, n, progress=bar, record_sink=writer.write if writer else None,
                              on_chunk=count_played, chunks=chunks)

    start = time.perf_counter()
    outcome = None
    try:
        if target is None:
            totals = play()
        else:
            totals, outcome = extend_to_precision(play, n, target, spec.players)
        if writer:
            writer.commit()
    finally:
        if writer:
            writer.abort()
        if bar is not None and progress is None:
            bar.close()
    wall = time.perf_counter() - start
    return Result(spec, prepared, totals,
                  RunInfo(seed=execution.seed, n=n if outcome is None else outcome.games_used, wall_seconds=wall,
                          workers=execution.reported_workers, backend=execution.backend_name, games_played=played,
                          precision=outcome))



def game_command(command: str, game: str | None = None, scenario: str | Path | None = None,
                 players: int | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
                 **options: Any):
    """Run ``command``, one of the game's own commands (``analyze games`` lists them), as
    ``analyze <command>`` would: ``options`` by their parameter names (``cards=["coin"]``
    for ``--card coin``), every option not given at its default. Returns what the command
    prints, as an :class:`analyzer.output.Rendered` (``to_table()``, ``to_dict()``). Without
    ``game`` or ``scenario``, the only game that offers ``command`` plays it."""
    from analyzer.games.commands import offered_commands

    offering = offered_commands().get(command, {})
    if game is None and scenario is None and len(offering) == 1:
        game = next(iter(offering))  # as on the command line: the only game that offers it
    spec = resolve(game=game, scenario=None if scenario is None else str(scenario), players=players, rules=rules,
                   sets=sets)
    declared = offering.get(spec.game.id)
    if declared is None:
        raise AnalyzerError(f"{spec.game.id} offers no {command!r} command; games that do: "
                            f"{', '.join(offering) or 'none'}")
    names = {option.name for option in declared.options}
    unknown = sorted(set(options) - names)
    if unknown:
        from analyzer.errors import closest_first

        raise AnalyzerError(f"{command} of {spec.game.id} takes no {unknown[0]!r}; it takes, closest first: "
                            f"{closest_first(unknown[0], sorted(names))}")
    return declared.run(spec, **{**_defaults(declared), **options})


def _defaults(declared) -> dict[str, Any]:
    """What the command line gives each of the command's options when it is not on it."""
    import click

    command = click.Command(declared.name, params=list(declared.options))
    with command.make_context(declared.name, [], resilient_parsing=True) as context:
        return {option.name: context.params.get(option.name) for option in declared.options}


def solve(game: str | None = None, **arguments: Any):
    """``analyze solve``: the game's solver (Skull Island's optimal turn per fortune card, or with
    ``objective="win"`` the two-player game solved for the chance of winning); the arguments are
    :func:`game_command`'s."""
    return game_command("solve", game=game, **arguments)
