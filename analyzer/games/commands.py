"""What a game offers beyond the common commands: ``analyze`` commands of its own.

A game declares each such command as a :class:`GameCommand`, in the module
``commands`` of its package (the same name in every game) as
``COMMANDS = declare(...)``, and its ``Game.commands()`` returns them (a referee's
``score``, an exact solution's ``exact``, a solver's ``solve``). The CLI builds
``analyze <name>`` from every registered game that offers ``name``
(:func:`offered_commands`); nothing outside ``analyzer/games/`` names a game or its
commands' options.

The declarations are read without building the game (:func:`declared_commands`), so
listing them loads no kernel: a ``commands`` module imports what its ``run`` needs
(kernels, solvers) inside ``run``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from analyzer.games.base import Game

@dataclass(frozen=True)
class GameCommand:
    """An ``analyze`` command that a game offers.

    ``run(spec, **values)`` receives the resolved run (:class:`analyzer.runspec.RunSpec`:
    the game, its rules after ``--scenario`` and ``--set``, the players) and the value of
    each of ``options`` by parameter name, and returns an :class:`analyzer.output.Rendered`
    (table, JSON, CSV and Markdown). The CLI adds the common options: ``--game``,
    ``--scenario``, ``--set``, ``--players`` when ``players`` is true, and
    ``--format``/``--json``/``-o``.
    """

    name: str
    summary: str  # one line: the command's help
    run: Callable[..., Any]
    options: tuple[click.Parameter, ...] = ()
    players: bool = False


def declare(*commands: GameCommand) -> dict[str, GameCommand]:
    """``{name: command}``: what ``Game.commands()`` returns."""
    return {command.name: command for command in commands}


def declared_commands(game_id: str) -> dict[str, GameCommand]:
    """The commands a registered game offers, from its package's ``commands`` module (none without one)."""
    from analyzer.games.registry import GAMES

    module = f"{GAMES[game_id]}.commands"
    if importlib.util.find_spec(module) is None:
        return {}
    return importlib.import_module(module).COMMANDS


def offered_commands() -> dict[str, dict[str, GameCommand]]:
    """Command name -> {game id: its declaration}, for every registered game that offers it."""
    from analyzer.games.registry import available_ids

    offered: dict[str, dict[str, GameCommand]] = {}
    for game_id in available_ids():
        for name, command in declared_commands(game_id).items():
            offered.setdefault(name, {})[game_id] = command
    return offered


def offers(game: Game) -> dict[str, Any]:
    """What ``game`` offers beyond simulation, as ``analyze games`` lists it."""
    from analyzer.games.base import Game

    commands = declared_commands(game.id)
    return {"commands": sorted(commands), "exact_solution": "exact" in commands,
            "own_report_pages": type(game).report_pages is not Game.report_pages}
