"""analyze games / strategies / rules: what there is to play and to set."""

import json
import textwrap

import click

from analyzer.cli.common import need_game
from analyzer.games.options import format_value


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def games(as_json):
    """List the games with their player range and what each offers beyond simulation."""
    from analyzer.games.commands import offers
    from analyzer.games.registry import available_ids, get_game

    rows = []
    for game_id in available_ids():
        game = get_game(game_id)
        rows.append({"id": game.id, "title": game.title, "players": [game.min_players, game.max_players],
                     "default_players": game.default_players, "description": game.description,
                     "offers": offers(game)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        low, high = row["players"]
        click.echo(f"{row['id']:<16} {low}-{high} players  {row['title']}: {row['description']}")
        extras = [f"analyze {name}" for name in row["offers"]["commands"]]
        if row["offers"]["own_report_pages"]:
            extras.append("its own report pages")
        if extras:
            click.echo(f"{'':<16} offers {', '.join(extras)}")


@click.command()
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
            click.echo(f"    {p['name']} ({p['type']}, default {format_value(p['default'])}; {p['allowed']}): "
                       f"{p['description']}")
        if not row["params"]:
            click.echo("    no parameters")


@click.command()
@click.option("--game", metavar="ID", required=True, help="Game id.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules(game, as_json):
    """List a game's rule options: type, default, allowed values; then the numbers of its
    component data that --set TABLE[NAME].FIELD=VALUE changes."""
    from analyzer.games.component_params import describe_tables
    from analyzer.games.options import defaults

    the_game = need_game(game)
    rows = [o.describe() for o in the_game.options]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        click.echo(f"{row['name']} ({row['type']}, default {format_value(row['default'])}): {row['description']}")
        click.echo(f"    allowed: {row['allowed']}")
    tables = describe_tables(the_game, defaults(the_game.options))
    if tables:
        click.echo("component numbers: --set 'TABLE[NAME].FIELD=VALUE'; a group: TABLE[FIELD=VALUE];\n"
                   "    every row: TABLE[*]")
    for table in tables:
        for number in table["fields"]:
            click.echo(f"{table['table']}[NAME].{number['name']}: {number['description']}")
            click.echo(f"    allowed: {number['allowed']}")
        by = ", ".join([f["name"] for f in table["fields"]] + table["group_by"])
        click.echo(textwrap.fill(f"NAME: {', '.join(table['rows'])}; groups by {by}", 80, initial_indent="    ",
                                 subsequent_indent="      ", break_on_hyphens=False))
