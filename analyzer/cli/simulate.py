"""analyze simulate: play games and print balance statistics."""

import click

from analyzer.cli.common import check_out, emit, execution_options, game_options, output_options, precision_option


@click.command()
@game_options
@click.option("--players", type=int, help="Number of players (default: the scenario's, else the game's).")
@click.option("--strategy", "strategy_specs", multiple=True, metavar="SPEC",
              help="name or name:key=value,...; once for every seat or once per seat.")
@click.option("--n", "n", default="100000", show_default=True, metavar="COUNT", help="Games to play (e.g. 1e6).")
@click.option("--save-games", metavar="FILE", help="Also write one row per game (.csv or .parquet).")
@precision_option
@execution_options
@output_options
def simulate(game, scenario, sets, players, strategy_specs, n, save_games, precision, execution, fmt, as_json,
             out):
    """Play games and print balance statistics."""
    from analyzer.api import parse_count, run_spec
    from analyzer.runspec import resolve

    check_out(out, execution=execution, save_games=save_games)
    n = parse_count(n)
    spec = resolve(game=game, scenario=scenario, players=players, strategies=list(strategy_specs) or None,
                   sets=list(sets))
    result = run_spec(spec, n, execution, save_games=save_games, precision=precision)
    emit(result.render, fmt, as_json, out)
