"""The ``analyze`` command: parses, validates, delegates to the API, prints.

Bad input of any kind is one line on stderr and exit status 2; an unexpected
internal error is exit status 1 (with a traceback only under ``--debug``).
"""

from __future__ import annotations

import json
import sys
import traceback

import click

from analyzer.errors import AnalyzerError

FORMATS = ("table", "json", "csv", "markdown")
OUTPUT_KINDS = {".json": "json", ".csv": "csv", ".md": "markdown", ".txt": "table"}


class AnalyzeGroup(click.Group):
    """A click group whose errors are one line and whose exit codes follow INTERFACE.md."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        debug = "--debug" in args
        try:
            rv = super().main(args=args, prog_name=prog_name or "analyze", complete_var=complete_var,
                              standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("analyze: aborted", err=True)
            sys.exit(1)
        except click.ClickException as exc:
            message = exc.format_message().strip().replace("\n", " ")
            click.echo(f"analyze: {message}", err=True)
            sys.exit(2 if isinstance(exc, (click.UsageError, click.BadParameter)) or exc.exit_code == 2 else 1)
        except AnalyzerError as exc:
            click.echo(f"analyze: {str(exc).splitlines()[0] if str(exc) else 'bad input'}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("analyze: interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            if debug:
                traceback.print_exc()
            click.echo(f"analyze: internal error: {type(exc).__name__}: {exc} (run with --debug for details)",
                       err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=AnalyzeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pirate-analyzer", prog_name="analyze")
@click.option("--debug", is_flag=True, help="Show a traceback on an internal error.")
def main(debug):
    """Monte Carlo balance analysis for pirate tabletop games."""


# -- shared options -------------------------------------------------------------------------
def game_options(func):
    func = click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
                        help="Override a rule option (repeatable).")(func)
    func = click.option("--scenario", metavar="FILE", help="A scenario TOML file.")(func)
    func = click.option("--game", metavar="ID", help="Game id (see `analyze games`).")(func)
    return func


def output_options(func):
    func = click.option("-o", "--out", metavar="FILE", help="Write the result to FILE (.json .csv .md .txt).")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Short for --format json.")(func)
    func = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="What goes to standard output.")(func)
    return func


def emit(render, fmt: str, as_json: bool, out: str | None) -> None:
    """Print ``render(fmt)`` or write it atomically to ``out`` (kind from the extension)."""
    from analyzer.output import write_text_atomic

    fmt = "json" if as_json else fmt
    if out:
        from pathlib import Path

        kind = OUTPUT_KINDS[Path(out).suffix.lower()]
        write_text_atomic(out, render(kind))
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(render(fmt), nl=False)


def check_out(out: str | None, kinds=tuple(OUTPUT_KINDS)) -> None:
    if out:
        from analyzer.output import check_output_path

        check_output_path(out, kinds)


def need_game(game_id: str | None):
    from analyzer.games.registry import get_game

    if not game_id:
        raise AnalyzerError("--game ID is required (see `analyze games`)")
    return get_game(game_id)


# -- listing commands -------------------------------------------------------------------------
@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def games(as_json):
    """List the games with their player range."""
    from analyzer.games.registry import available_ids, get_game

    rows = []
    for game_id in available_ids():
        game = get_game(game_id)
        rows.append({"id": game.id, "title": game.title, "players": [game.min_players, game.max_players],
                     "default_players": game.default_players, "description": game.description})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        low, high = row["players"]
        click.echo(f"{row['id']:<16} {low}-{high} players  {row['title']}: {row['description']}")


@main.command()
@click.option("--game", metavar="ID", required=True, help="Game id.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def strategies(game, as_json):
    """List a game's strategies with their parameters."""
    the_game = need_game(game)
    rows = []
    for strategy in the_game.strategies:
        row = strategy.describe()
        row["default"] = strategy.name == the_game.default_strategy
        rows.append(row)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        mark = "  (default)" if row["default"] else ""
        click.echo(f"{row['name']}{mark}: {row['description']}")
        for p in row["params"]:
            click.echo(f"    {p['name']} ({p['type']}, default {_show(p['default'])}; {p['allowed']}): "
                       f"{p['description']}")
        if not row["params"]:
            click.echo("    no parameters")


@main.command()
@click.option("--game", metavar="ID", required=True, help="Game id.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules(game, as_json):
    """List a game's rule options: type, default, allowed values."""
    the_game = need_game(game)
    rows = [o.describe() for o in the_game.options]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        click.echo(f"{row['name']} ({row['type']}, default {_show(row['default'])}): {row['description']}")
        click.echo(f"    allowed: {row['allowed']}")


def _show(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


# -- simulate ---------------------------------------------------------------------------------
@main.command()
@game_options
@click.option("--players", type=int, help="Number of players (default: the scenario's, else the game's).")
@click.option("--strategy", "strategy_specs", multiple=True, metavar="SPEC",
              help="name or name:key=value,...; once for every seat or once per seat.")
@click.option("--n", "n", default="100000", show_default=True, metavar="COUNT", help="Games to play (e.g. 1e6).")
@click.option("--seed", metavar="INT", help="Random seed (default: drawn and reported).")
@click.option("--workers", type=int, help="Threads (default: all cores).")
@click.option("--backend", type=click.Choice(["local"]), default="local", show_default=True,
              help="Where chunks run.")
@click.option("--save-games", metavar="FILE", help="Also write one row per game (.csv or .parquet).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@output_options
def simulate(game, scenario, sets, players, strategy_specs, n, seed, workers, backend, save_games, quiet,
             fmt, as_json, out):
    """Play games and print balance statistics."""
    from analyzer.api import parse_count, parse_seed, run_spec
    from analyzer.runspec import resolve

    check_out(out)
    n = parse_count(n)
    seed = parse_seed(seed)
    spec = resolve(game=game, scenario=scenario, players=players, strategies=list(strategy_specs) or None,
                   sets=list(sets))
    result = run_spec(spec, n, seed=seed, workers=workers, progress=False if quiet else None,
                      save_games=save_games)
    emit(result.render, fmt, as_json, out)


# -- score ------------------------------------------------------------------------------------
@main.command()
@click.option("--game", metavar="ID", default="skull-island", show_default=True, help="Game id (skull-island).")
@click.option("--card", required=True, help="The fortune card (none, coin, diamond, ...).")
@click.option("--dice", required=True, metavar="FACE,...", help="All 8 dice at the end of the turn.")
@click.option("--chest", default="", metavar="FACE,...", help="The dice lying on the treasure chest card.")
@click.option("--island", is_flag=True, help="The turn was on Skull Island.")
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE", help="Override a rule option.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def score(game, card, dice, chest, island, sets, as_json):
    """Score one finished Skull Island turn as a referee would."""
    from analyzer.runspec import resolve

    if game != "skull-island":
        need_game(game)
        raise AnalyzerError(f"score referees skull-island turns only, not {game}")
    from analyzer.games.skull_island.referee import referee

    spec = resolve(game=game, sets=list(sets))
    own, opponents = referee(spec.rules, card, dice, chest, island)
    if as_json:
        click.echo(json.dumps({"score": own, "opponents": opponents}))
    else:
        click.echo(f"score: {own:+d} for the player, {opponents:+d} for each opponent")


def run():
    main()
