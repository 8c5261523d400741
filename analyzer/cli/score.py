"""analyze score: referee one finished Skull Island turn."""

import json

import click

from analyzer.cli.common import need_game
from analyzer.errors import AnalyzerError


@click.command()
@click.option("--game", metavar="ID", default="skull-island", show_default=True, help="Game id (skull-island).")
@click.option("--card", required=True, help="The fortune card (none, coin, diamond, ...).")
@click.option("--dice", required=True, metavar="FACE,...", help="All 8 dice at the end of the turn.")
@click.option("--chest", default="", metavar="FACE,...", help="The dice lying on the treasure chest card.")
@click.option("--island", is_flag=True, help="The turn was on Skull Island.")
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE", help="Override a rule option.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def score(game, card, dice, chest, island, sets, as_json):
    """Score one finished Skull Island turn as a referee would."""
    from analyzer.runspec import resolve

    if game != "skull-island":
        need_game(game)
        raise AnalyzerError(f"score referees skull-island turns only, not {game}")
    from analyzer.games.skull_island.referee import referee

    spec = resolve(game=game, sets=list(sets))
    own, opponents = referee(spec.rules, card, dice, chest, island)
    if as_json:
        click.echo(json.dumps({"score": own, "opponents": opponents}))
    else:
        click.echo(f"score: {own:+d} for the player, {opponents:+d} for each opponent")
