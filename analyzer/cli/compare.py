"""analyze compare / sweep / balance: variants, strategy match-ups, one option over a range, the fair value."""

import click

from analyzer.cli.common import (
    OUTPUT_KINDS,
    check_out,
    echo_wrote,
    emit,
    execution_options,
    game_options,
    output_options,
    precision_option,
)

PLOT_KINDS = (*OUTPUT_KINDS, ".pdf")


def players_and_strategies(func):
    func = click.option("--strategy", "strategy_specs", multiple=True, metavar="SPEC",
                        help="name or name:key=value,...; once for every seat or once per seat.")(func)
    func = click.option("--players", type=int,
                        help="Number of players (default: the scenario's, else the game's).")(func)
    return func


def games_option(default: str, help_text: str):
    return click.option("--n", "n", default=default, show_default=True, metavar="COUNT", help=help_text)


def _base(game, scenario, players, strategy_specs, sets):
    """The table every variant of a sweep or a search starts from."""
    from analyzer.runspec import resolve

    return resolve(game=game, scenario=scenario, players=players, strategies=list(strategy_specs) or None,
                   sets=list(sets))


def _no_precision(value) -> None:
    """balance has no --precision POINTS: one line naming the option that does what it did."""
    if value is not None:
        from analyzer.errors import AnalyzerError

        raise AnalyzerError("balance takes no --precision: --precision POINTS is a win-rate width in percentage "
                            "points elsewhere; the width of the fairest value's interval is --interval-width WIDTH")


def _emit_or_plot(result, fmt, as_json, out) -> None:
    """``-o FILE.pdf`` plots the result; anything else goes through :func:`emit`."""
    if out and out.lower().endswith(".pdf"):
        from analyzer.report import write_experiment_pdf

        write_experiment_pdf(result, out)
        echo_wrote(out)
    else:
        emit(result.render, fmt, as_json, out)


@click.command()
@click.argument("scenario_files", nargs=-1, metavar="[SCENARIO.toml]...")
@click.option("--scenario", "scenario_options", multiple=True, metavar="FILE",
              help="A scenario TOML file (repeatable; the same as giving it as an argument).")
@click.option("--game", metavar="ID", help="Game id (for a strategy match-up).")
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
              help="Override a rule option or a component number TABLE[NAME].FIELD in every scenario (repeatable).")
@players_and_strategies
@games_option("100000", "Games per scenario (per match-up table and per pair for strategies).")
@precision_option
@execution_options
@output_options
def compare(scenario_files, scenario_options, game, sets, players, strategy_specs, n, precision, execution, fmt,
            as_json, out):
    """Compare scenarios with common random numbers, or strategies in a match-up.

    \b
    analyze compare A.toml B.toml [C.toml ...]
    The variant verdicts first: every change significant after
    Benjamini-Hochberg control of the false discovery rate (5%), largest
    relative change first, then what did not change. Then every metric side by
    side, with the difference to A, its 95% interval, its p-value in the JSON
    and a mark where it is significant after that control.

    
    analyze compare --game G --players P --strategy A --strategy B ...
    The strategies fill the seats in order, every rotation of the seating plays
    equally often; each strategy's win rate and the head-to-head matrix.

    --precision POINTS (scenarios only): play until every seat win-rate
    difference's 95% interval is within ±POINTS percentage points, --n games at
    most.
    """
    from analyzer import experiments
    from analyzer.errors import AnalyzerError

    check_out(out, execution=execution)
    scenarios = list(scenario_files) + list(scenario_options)
    strategies = list(strategy_specs)
    if len(scenarios) >= 2:
        specs = experiments.resolve_scenarios(scenarios, game=game, players=players, strategies=strategies or None,
                                              sets=list(sets))
        result = experiments.compare_specs(specs, n, execution, precision)
    elif len(strategies) >= 2:
        if precision is not None:
            raise AnalyzerError("--precision applies to a comparison of scenarios, not to a strategy match-up")
        base = _base(game, scenarios[0] if scenarios else None, players, (), sets)
        result = experiments.matchup_spec(strategies, base, n, execution)
    else:
        raise AnalyzerError("compare needs two or more scenario files, or --game ID with two or more --strategy "
                            "for a match-up")
    emit(result.render, fmt, as_json, out)


@click.command()
@game_options
@players_and_strategies
@click.option("--param", required=True, metavar="NAME=START:STOP:STEP|NAME=A,B,C",
              help="The rule option (or component number TABLE[NAME].FIELD) and its values (stop included "
                   "when reached).")
@games_option("100000", "Games per value.")
@execution_options
@output_options(plots=True)
def sweep(game, scenario, sets, players, strategy_specs, param, n, execution, fmt, as_json, out):
    """Run one rule option over a range or a list: every metric per value.

    -o FILE.pdf plots each metric against the option (all values play the same seed).
    """
    from analyzer import experiments

    check_out(out, PLOT_KINDS, execution=execution)
    result = experiments.sweep_spec(param, _base(game, scenario, players, strategy_specs, sets), n, execution)
    _emit_or_plot(result, fmt, as_json, out)


@click.command()
@game_options
@players_and_strategies
@click.option("--param", required=True, metavar="NAME=LOW:HIGH",
              help="The numeric rule option (or component number TABLE[NAME].FIELD) and its search range.")
@games_option("100000", "At most this many games per evaluated value.")
@click.option("--interval-width", type=float, metavar="WIDTH",
              help="Stop once the fairest value's 95% interval is narrower than WIDTH, in the option's units "
                   "(default: a tenth of the range).")
@click.option("--precision", hidden=True, expose_value=False, callback=lambda ctx, param, value: _no_precision(value))
@click.option("--target", metavar="TABLE[SELECTOR]",
              help="Equalise these components' win rate with the other rows' of their table (e.g. "
                   "'captains[loot=250]') instead of the seats'.")
@execution_options
@output_options(plots=True)
def balance(game, scenario, sets, players, strategy_specs, param, n, interval_width, target, execution, fmt, as_json,
            out):
    """Find the value of a numeric rule option that makes every seat equally likely to win
    (or, with --target, a group of components as likely to win as the rest).

    Measure: Ludii's balance, one minus the largest gap between seat win rates.
    Lines fitted to the seat win rates give the fairest value and its 95% interval;
    the recommendation is the value the game can play measured fairest of those
    bracketing it (where scores move in steps of 100, every value strictly between two
    steps plays alike), each shown with its win rates. -o FILE.pdf plots the seat win
    rates against the option.
    """
    from analyzer import experiments

    check_out(out, PLOT_KINDS, execution=execution)
    result = experiments.balance_spec(param, _base(game, scenario, players, strategy_specs, sets), n, execution,
                                      interval_width, target)
    _emit_or_plot(result, fmt, as_json, out)
