"""analyze exact: exact win probabilities and game length, for games small enough to solve."""

import json

import click

from analyzer.cli.common import check_out, game_options
from analyzer.errors import AnalyzerError


@click.command()
@game_options
@click.option("--players", type=int, help="Number of players (default: the scenario's, else the game's).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("-o", "--out", metavar="FILE", help="Write the JSON to FILE (.json).")
def exact(game, scenario, sets, players, as_json, out):
    """Exact win probability of each seat and expected length (absorbing Markov chain)."""
    from analyzer.output import write_text_atomic
    from analyzer.runspec import resolve

    check_out(out, (".json",))
    spec = resolve(game=game, scenario=scenario, players=players, sets=list(sets))
    solver = getattr(spec.game, "exact", None)
    if solver is None:
        raise AnalyzerError(f"{spec.game.id} has no exact solution; use `analyze simulate`")
    result = solver(spec.rules, spec.players)
    if out:
        write_text_atomic(out, json.dumps(result, indent=2) + "\n")
        click.echo(f"wrote {out}", err=True)
    elif as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(spec.game.exact_table(result))
