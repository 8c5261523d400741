"""Options, output and checks shared by the commands."""

from __future__ import annotations

import functools

import click

from analyzer.errors import AnalyzerError

FORMATS = ("table", "json", "csv", "markdown")
OUTPUT_KINDS = {".json": "json", ".csv": "csv", ".md": "markdown", ".txt": "table"}


def game_options(func):
    func = click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
                        help="Override a rule option, or a component number TABLE[NAME].FIELD (repeatable).")(func)
    func = click.option("--scenario", metavar="FILE", help="A scenario TOML file.")(func)
    func = click.option("--game", metavar="ID", help="Game id (see `analyze games`).")(func)
    return func


def execution_options(func=None, *, checkpoint: bool = True):
    """--seed, --workers, --backend, --scheduler, --worker-timeout, --checkpoint, --quiet: how games are played.

    The command receives them as one ``execution`` argument (an
    :class:`~analyzer.execution.Execution`, validated). ``@execution_options(checkpoint=False)``
    leaves out --checkpoint, for commands made of many short runs that a checkpoint
    cannot resume. More --workers than this machine has cores are capped, with a note.
    """
    if func is None:
        return lambda f: execution_options(f, checkpoint=checkpoint)

    @functools.wraps(func)
    def command(*args, seed, workers, backend, scheduler, worker_timeout, quiet, **kwargs):
        from analyzer.execution import Execution

        execution = Execution.create(seed, workers, backend, scheduler, kwargs.pop("checkpoint", None),
                                     progress=False if quiet else None, worker_timeout=worker_timeout)
        execution.check_checkpoint()
        if workers is not None and execution.workers < workers:
            click.echo(f"analyze: note: --workers {workers} is more than the {execution.workers} cores of this "
                       f"machine; using {execution.workers}", err=True)
        return func(*args, execution=execution, **kwargs)

    command = click.option("--quiet", is_flag=True, help="No progress bar.")(command)
    command = click.option("--worker-timeout", type=float, metavar="SECONDS",
                           help="Dask: stop when the cluster has had no worker this long (default 120).")(command)
    if checkpoint:
        command = click.option("--checkpoint", metavar="FILE",
                               help="Save finished chunks to FILE and resume from it when run again.")(command)
    command = click.option("--scheduler", metavar="ADDRESS",
                           help="A Dask scheduler address (implies --backend dask).")(command)
    command = click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                           help="local: threads on this machine; dask: a Dask cluster.")(command)
    command = click.option("--workers", type=int, help="Workers (default: all cores).")(command)
    return click.option("--seed", metavar="INT", help="Random seed (default: drawn and reported).")(command)


def precision_option(func):
    """--precision POINTS: play in rounds until the win-rate intervals are that narrow (--n the limit).

    Taken as text so that any bad value ends in the API's one-line message.
    """
    return click.option("--precision", metavar="POINTS",
                        help="Play until every seat's 95% win-rate interval is within ±POINTS percentage points "
                             "(--n is then the limit).")(func)


def output_options(func=None, *, plots: bool = False):
    """--format, --json and -o FILE; ``@output_options(plots=True)`` for a command whose -o also takes .pdf."""
    if func is None:
        return lambda f: output_options(f, plots=plots)
    plot = "; .pdf plots it" if plots else ""
    func = click.option("-o", "--out", metavar="FILE",
                        help=f"Write the result to FILE (kind from the extension: "
                             f"{' '.join(OUTPUT_KINDS)}{plot}).")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Short for --format json.")(func)
    func = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="What goes to standard output.")(func)
    return func


def emit(render, fmt: str, as_json: bool, out: str | None) -> None:
    """Print ``render(fmt)`` or write it atomically to ``out`` (kind from the extension)."""
    from analyzer.files import write_text_atomic

    fmt = "json" if as_json else fmt
    if out:
        from pathlib import Path

        kind = OUTPUT_KINDS[Path(out).suffix.lower()]
        write_text_atomic(out, render(kind))
        echo_wrote(out)
    else:
        click.echo(render(fmt), nl=False)


def echo_wrote(path, details: str = "") -> None:
    """``wrote PATH`` on stderr, the path's control characters escaped (one line whatever its name)."""
    from analyzer.errors import safe_text

    click.echo(f"wrote {safe_text(str(path))}{details}", err=True)


def check_out(out: str | None, kinds=tuple(OUTPUT_KINDS), execution=None, **other_outputs) -> None:
    """Check ``-o FILE`` before any game is played (an empty name included), and that no other
    output of the command (``execution``'s checkpoint, ``save_games=...``) names the same file."""
    if out is not None:
        from analyzer.files import check_distinct_outputs, check_output_path

        check_output_path(out, kinds)
        checkpoint = None if execution is None else execution.checkpoint
        check_distinct_outputs({"checkpoint": checkpoint, **other_outputs, "out": out})


def need_game(game_id: str | None):
    from analyzer.games.registry import get_game

    if not game_id:
        raise AnalyzerError("--game ID is required (see `analyze games`)")
    return get_game(game_id)
