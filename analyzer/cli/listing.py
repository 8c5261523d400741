"""analyze games / strategies / rules: what there is to play and to set."""

import json

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
    indent = " " * 17
    for row in rows:
        low, high = row["players"]
        _echo_wrapped(f"{low}-{high} players. {row['title']}: {row['description']}", f"{row['id']:<16} ", indent)
        extras = [f"`analyze {name}`" for name in row["offers"]["commands"]]
        if row["offers"]["own_report_pages"]:
            extras.append("its own report pages")
        if extras:
            _echo_wrapped(f"offers {', '.join(extras)}", indent, indent)


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
        mark = " (default)" if row["default"] else ""
        _echo_wrapped(f"{row['name']}{mark}: {row['description']}", "", "  ")
        for p in row["params"]:
            _echo_wrapped(f"{p['name']} ({p['type']}, default {format_value(p['default'])}; {p['allowed']}): "
                          f"{p['description']}", "    ", "      ")
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
        _echo_wrapped(f"{row['name']} ({row['type']}, default {format_value(row['default'])}): "
                      f"{row['description']}", "", "  ")
        _echo_wrapped(f"allowed: {row['allowed']}", "    ", "      ")
    tables = describe_tables(the_game, defaults(the_game.options))
    if tables:
        _echo_wrapped("component numbers: --set 'TABLE[NAME].FIELD=VALUE'; a group: TABLE[FIELD=VALUE]; every row: "
                      "TABLE[*]", "", "    ")
    for table in tables:
        for number in table["fields"]:
            _echo_wrapped(f"{table['table']}[NAME].{number['name']}: {number['description']}", "", "  ")
            _echo_wrapped(f"allowed: {number['allowed']}", "    ", "      ")
        by = ", ".join([f["name"] for f in table["fields"]] + table["group_by"])
        _echo_wrapped(f"NAME: {', '.join(table['rows'])}; groups by {by}", "    ", "      ")


def _echo_wrapped(text: str, indent: str, subsequent_indent: str) -> None:
    """``text`` wrapped to the output's width at spaces only (names and commands stay whole)."""
    from analyzer.wrapping import wrap

    for line in wrap(text, indent=indent, subsequent_indent=subsequent_indent):
        click.echo(line)
