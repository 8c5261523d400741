"""``analyze <name>`` for each command a game offers (see :mod:`analyzer.games.commands`).

One click command per name, built from the declarations of every registered game that
offers it: the common options (``--game``, ``--scenario``, ``--set``, ``--players`` when
one of them plays with a player count, the output options) plus the options they
declare. ``--game`` defaults to the only game that offers the command; any other game
gets one line naming the games that do.
"""

from __future__ import annotations

import click
from click.core import ParameterSource

from analyzer.cli.common import check_out, emit, output_options
from analyzer.errors import AnalyzerError
from analyzer.games.commands import GameCommand, offered_commands

#: parameter names of the options every offered command has (and ``players`` where meaningful)
COMMON = ("game", "scenario", "sets", "fmt", "as_json", "out")


def offered_names() -> list[str]:
    """The commands that registered games offer, by name."""
    return sorted(offered_commands())


def build(name: str) -> click.Command | None:
    """``analyze <name>`` as a click command, or None when no game offers ``name``."""
    offering = offered_commands().get(name)
    if not offering:
        return None

    def callback(**values):
        _run(name, offering, values)

    if len(offering) == 1:
        help_text = short_help = next(iter(offering.values())).summary
    else:
        help_text = "\b\n" + "\n".join(f"{game_id}: {command.summary}" for game_id, command in offering.items())
        short_help = f"Offered by {', '.join(offering)}."
    params = [*_game_options(name, offering), *_declared_options(name, offering)]
    return click.command(name, help=help_text, short_help=short_help, params=params)(output_options(callback))


def _game_options(name: str, offering: dict[str, GameCommand]) -> list[click.Option]:
    """--game, --scenario, --set and --players. The first two are checked first (eagerly):
    a game that does not offer the command is told so before any of its options is missing."""
    only = next(iter(offering)) if len(offering) == 1 else None

    def check_game(ctx, param, game_id):
        if game_id is not None and ctx.get_parameter_source("game") is not ParameterSource.DEFAULT:
            _check_offered(name, game_id, offering)
        return game_id

    def load_scenario(ctx, param, path):
        from analyzer.scenarios import load_scenario

        if path is None:
            return None
        scenario = load_scenario(path)
        _check_offered(name, scenario.game, offering)
        return scenario

    options = [
        click.Option(["--game"], metavar="ID", default=only, show_default=only is not None, is_eager=True,
                     callback=check_game, help=f"Game id; games that offer {name}: {', '.join(offering)}."),
        click.Option(["--scenario"], metavar="FILE", is_eager=True, callback=load_scenario,
                     help="A scenario TOML file (it names the game)."),
        click.Option(["--set", "sets"], multiple=True, metavar="OPTION=VALUE",
                     help="Override a rule option, or a component number TABLE[NAME].FIELD (repeatable)."),
    ]
    if any(command.players for command in offering.values()):
        options.append(click.Option(["--players"], type=int,
                                    help="Number of players (default: the scenario's, else the game's)."))
    return options


def _check_offered(name: str, game_id: str, offering: dict[str, GameCommand]) -> None:
    from analyzer.games.registry import get_game

    if game_id not in offering:
        get_game(game_id)  # an unknown id is the registry's error
        raise AnalyzerError(f"{game_id} offers no {name!r} command; games that do: {', '.join(offering)}")


def _declared_options(name: str, offering: dict[str, GameCommand]) -> list[click.Parameter]:
    """The games' own options; two games declaring one name share the first declaration."""
    options: dict[str, click.Parameter] = {}
    for game_id, command in offering.items():
        for option in command.options:
            if option.name in (*COMMON, "players"):
                raise ValueError(f"{game_id}'s {name} declares {option.opts[-1]}, which every offered command has")
            options.setdefault(option.name, option)
    return list(options.values())


def _run(name: str, offering: dict[str, GameCommand], values: dict) -> None:
    from analyzer.runspec import resolve

    ctx = click.get_current_context()
    scenario = values["scenario"]
    game_id = values["game"]
    if scenario is not None and ctx.get_parameter_source("game") is ParameterSource.DEFAULT:
        game_id = scenario.game
    if game_id is None:
        raise AnalyzerError(f"no game given: use --game ID or --scenario FILE (games that offer {name}: "
                            f"{', '.join(offering)})")
    command = offering[game_id]
    accepted = {*COMMON, *(option.name for option in command.options), *(("players",) if command.players else ())}
    for param in ctx.command.params:
        if param.name not in accepted and ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT:
            raise AnalyzerError(f"{game_id}'s {name} takes no {param.opts[-1]}")
    check_out(values["out"])
    spec = resolve(game=game_id, scenario=scenario, players=values.get("players"), sets=list(values["sets"]))
    result = command.run(spec, **{option.name: values[option.name] for option in command.options})
    emit(result.render, values["fmt"], values["as_json"], values["out"])
