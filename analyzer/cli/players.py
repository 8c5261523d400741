"""analyze players: the same scenario at every player count, side by side."""

import click

from analyzer.cli.common import check_out, emit, execution_options, game_options, output_options, precision_option


@click.command()
@game_options
@click.option("--players", "counts", metavar="N,N,...",
              help="The player counts to play, e.g. 2,3,4 (default: every count the game allows).")
@click.option("--strategy", "strategy_spec", metavar="SPEC",
              help="The strategy on every seat (default: the scenario's, else the game's).")
@click.option("--n", "n", default="100000", show_default=True, metavar="COUNT",
              help="Games at each player count (and for the strongest strategy against random there).")
@precision_option
@execution_options
@output_options
def players(game, scenario, sets, counts, strategy_spec, n, precision, execution, fmt, as_json, out):
    """The same scenario at every player count side by side: seat gap, first-player
    advantage, length (and minutes with a [time] table), ties, comebacks, lead changes and
    how much skill matters, with verdicts on the counts to print on the box.
    """
    from analyzer.experiments.players import players_spec
    from analyzer.runspec import resolve

    check_out(out)
    base = resolve(game=game, scenario=scenario, strategies=[strategy_spec] if strategy_spec else None,
                   sets=list(sets))
    emit(players_spec(base, n, execution, counts, precision).render, fmt, as_json, out)
