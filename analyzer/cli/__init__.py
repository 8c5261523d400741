"""The ``analyze`` command: parses, validates, delegates to the API, prints.

Bad input of any kind is one line on stderr and exit status 2; an unexpected
internal error is exit status 1 (with a traceback only under ``--debug``).
Commands live in one module per family and are imported only when used, so
``analyze --help`` stays fast. Beyond these common commands, each command a game
offers (``Game.commands()``) is built by :mod:`analyzer.cli.offered`.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import sys
import traceback

import click

from analyzer.engine.progress import ctrl_c_seen, remember_ctrl_c
from analyzer.errors import MAX_MESSAGE_CHARS, AnalyzerError, one_line

# When the command is done, the interpreter's teardown would run full garbage collections over
# every object Numba made: about a quarter of a second of a short run. Nothing the collector could
# free matters once the process ends, so the objects alive then are frozen (left out of them).
atexit.register(gc.freeze)

#: the flag of each API parameter whose flag is not ``--`` and its name with dashes
FLAGS = {"sets": "--set", "strategies": "--strategy"}

#: the common commands: name -> "module:function" (modules under analyzer.cli); a game's
#: command of the same name is not offered
COMMANDS = {
    "games": "listing:games",
    "strategies": "listing:strategies",
    "rules": "listing:rules",
    "simulate": "simulate:simulate",
    "tune": "tune:tune",
    "compare": "compare:compare",
    "sweep": "compare:sweep",
    "balance": "compare:balance",
    "skill": "skill:skill",
    "players": "players:players",
    "report": "report:report",
}


class HelpFormatter(click.HelpFormatter):
    """Help that fits 80 columns (or a wider terminal) and never breaks a word: ``skull-island``
    and a path stay whole (click's own wrapping breaks at hyphens)."""

    def __init__(self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None):
        from analyzer.wrapping import output_width

        super().__init__(indent_increment, width, max_width or output_width())

    def write_usage(self, *args, **kwargs):
        with _words_unbroken():
            super().write_usage(*args, **kwargs)

    def write_text(self, text):
        with _words_unbroken():
            super().write_text(text)

    def write_dl(self, *args, **kwargs):
        with _words_unbroken():
            super().write_dl(*args, **kwargs)


@contextlib.contextmanager
def _words_unbroken():
    """Click's text wrapper, for the help being formatted, breaking at spaces only."""
    from click import _textwrap

    original = _textwrap.TextWrapper

    class Unbroken(original):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.break_on_hyphens = False
            self.break_long_words = False

    _textwrap.TextWrapper = Unbroken
    try:
        yield
    finally:
        _textwrap.TextWrapper = original


class AnalyzeContext(click.Context):
    formatter_class = HelpFormatter


class AnalyzeGroup(click.Group):
    """A lazy click group whose errors are one line and whose exit codes follow INTERFACE.md."""

    context_class = AnalyzeContext

    def list_commands(self, ctx):
        from analyzer.cli.offered import offered_names

        common = [name for name in COMMANDS if self._load(name) is not None]
        return common + [name for name in offered_names() if name not in COMMANDS]

    def get_command(self, ctx, name):
        if name in COMMANDS:
            command = self._load(name)
        else:
            from analyzer.cli.offered import build

            command = build(name)
        if command is not None:
            command.context_class = AnalyzeContext  # its help formatted as the group's
        return command

    @staticmethod
    def _load(name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, _, attribute = target.partition(":")
        try:
            module = importlib.import_module(f"analyzer.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"analyzer.cli.{module_name}":
                return None  # a command family not built yet
            raise
        return getattr(module, attribute, None)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        debug = "--debug" in args
        remember_ctrl_c()
        try:
            rv = super().main(args=args, prog_name=prog_name or "analyze", complete_var=complete_var,
                              standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):
                click.echo("analyze: interrupted", err=True)
                sys.exit(130)
            click.echo("analyze: aborted", err=True)
            sys.exit(1)
        except click.ClickException as exc:
            message = one_line(exc.format_message().strip().replace("\n", " "))
            click.echo(one_line(f"analyze: {message}"), err=True)
            sys.exit(2 if isinstance(exc, (click.UsageError, click.BadParameter)) or exc.exit_code == 2 else 1)
        except AnalyzerError as exc:
            click.echo(one_line(f"analyze: {exc.worded(flag) or 'bad input'}"), err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("analyze: interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            if _interrupted(exc) or ctrl_c_seen():  # a Ctrl-C that broke a compile it was lost in
                click.echo("analyze: interrupted", err=True)
                sys.exit(130)
            if debug:
                traceback.print_exc()
            details = " (run with --debug for details)"
            click.echo(one_line(f"analyze: internal error: {type(exc).__name__}: {exc}",
                                MAX_MESSAGE_CHARS - len(details)) + details, err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` stands for a Ctrl-C: a compiled (Numba) function interrupted by it
    returns a SystemError whose cause is the KeyboardInterrupt."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def flag(parameter: str) -> str:
    """The command-line flag of an API parameter (``save_games`` -> ``--save-games``)."""
    return FLAGS.get(parameter, "--" + parameter.replace("_", "-"))


@click.group(cls=AnalyzeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pirate-analyzer", prog_name="analyze")
@click.option("--debug", is_flag=True, help="Show a traceback on an internal error.")
def main(debug):
    """Monte Carlo balance analysis for pirate tabletop games."""
