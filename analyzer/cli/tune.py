"""analyze tune: search a strategy's parameters for the highest win rate."""

import click

from analyzer.cli.common import check_out, emit, execution_options, game_options, output_options


@click.command()
@game_options
@click.option("--players", type=int, help="Number of players (default: the scenario's, else the game's).")
@click.option("--strategy", "strategy", metavar="NAME", help="The strategy whose parameters are searched.")
@click.option("--param", "params", multiple=True, metavar="NAME=LOW:HIGH",
              help="A parameter to search: name=low:high, name=start:stop:step or name=a,b,c (repeatable).")
@click.option("--opponents", "opponents", multiple=True, metavar="SPEC",
              help="The field: one spec for every other seat, or one per other seat (default: the game's default).")
@click.option("--n", "n", default="100000", show_default=True, metavar="COUNT",
              help="Games in total over the whole search (e.g. 2e5).")
@click.option("--candidates", type=int, default=32, show_default=True,
              help="About how many candidates the low:high ranges are cut into.")
@execution_options(checkpoint=False)
@output_options
def tune(game, scenario, sets, players, strategy, params, opponents, n, candidates, execution, fmt, as_json, out):
    """Search a strategy's parameters for the highest win rate against a field of opponents."""
    from analyzer.experiments import tune_spec
    from analyzer.runspec import resolve

    check_out(out, execution=execution)
    base = resolve(game=game, scenario=scenario, players=players, sets=list(sets))
    result = tune_spec(base, strategy, list(params), list(opponents), n, execution, candidates)
    emit(result.render, fmt, as_json, out)
