"""analyze skill: the skill ladder of a game's strategies against its default."""

import click

from analyzer.cli.common import check_out, emit, execution_options, game_options, output_options


@click.command()
@game_options
@click.option("--players", type=int, help="Number of players (default: 2).")
@click.option("--strategy", "strategy_specs", multiple=True, metavar="SPEC",
              help="Add a strategy to the ladder, or replace the default entry of the same name (repeatable).")
@click.option("--n", "n", default="100000", show_default=True, metavar="COUNT",
              help="Games per strategy against the reference, again with it on every seat, and for the "
                   "head-to-head against random.")
@execution_options
@output_options
def skill(game, scenario, sets, players, strategy_specs, n, execution, fmt, as_json, out):
    """The skill ladder: every strategy against the game's default, ranked, with the verdicts
    (seat advantage, length, ties) under each level of play and how much skill matters.

    Each strategy holds one seat against the default strategy on the others,
    rotated over every seat, and plays a table of its own; the strongest then plays
    random head to head. Default ladder: every built-in strategy at its default
    parameters, except search players and strategies that need a whole-game solve.
    """
    from analyzer.experiments.skill import DEFAULT_PLAYERS, skill_spec
    from analyzer.runspec import resolve

    check_out(out, execution=execution)
    base = resolve(game=game, scenario=scenario, players=DEFAULT_PLAYERS if players is None else players,
                   sets=list(sets))
    emit(skill_spec(base, n, execution, list(strategy_specs)).render, fmt, as_json, out)
