"""analyze solve (the exact Skull Island turn solver) and analyze tune (strategy parameter search)."""

import click

from analyzer.cli.common import check_out, emit, execution_options, game_options, output_options
from analyzer.errors import AnalyzerError


@click.command()
@game_options
@click.option("--card", "cards", multiple=True, metavar="CARD",
              help="A fortune card to show (repeatable; default: every card in the deck).")
@click.option("--strategy", "strategy_specs", multiple=True, metavar="SPEC",
              help="A strategy to evaluate exactly (repeatable; default: first-roll, random, threshold, set-chaser).")
@click.option("--needed", type=int, metavar="POINTS",
              help="Maximise the probability that the turn scores at least POINTS instead of the expected score.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@output_options
def solve(game, scenario, sets, cards, strategy_specs, needed, quiet, fmt, as_json, out):
    """The optimal Skull Island turn per fortune card, and the exact value of each strategy."""
    from analyzer.runspec import resolve

    check_out(out)
    spec = resolve(game=game, scenario=scenario, sets=list(sets))
    if spec.game.id != "skull-island":
        raise AnalyzerError(f"solve solves skull-island turns only, not {spec.game.id}")
    from analyzer.games.skull_island.solver import solve as run_solve

    solution = run_solve(spec.rules, cards=list(cards), strategies=list(strategy_specs), needed=needed,
                         progress=False if quiet else None)
    emit(solution.render, fmt, as_json, out)


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
def tune(game, scenario, sets, players, strategy, params, opponents, n, candidates, seed, workers, backend,
         scheduler, quiet, fmt, as_json, out):
    """Search a strategy's parameters for the highest win rate against a field of opponents."""
    from analyzer.tune import tune as run_tune

    check_out(out)
    result = run_tune(game=game, strategy=strategy, params=list(params), opponents=list(opponents), n=n,
                      players=players, scenario=scenario, sets=list(sets), seed=seed, workers=workers,
                      candidates=candidates, progress=False if quiet else None, backend=backend, scheduler=scheduler)
    emit(result.render, fmt, as_json, out)
