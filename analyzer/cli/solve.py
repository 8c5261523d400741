"""analyze solve (the exact Skull Island turn solver)."""

import click

from analyzer.cli.common import check_out, emit, game_options, output_options
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
