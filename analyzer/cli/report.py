"""analyze report: the balance report as a PDF or one HTML file (or its figures as separate files)."""

import click

from analyzer.cli.common import echo_wrote, execution_options, precision_option


@click.command()
@click.option("--scenario", "scenarios", multiple=True, metavar="FILE",
              help="A scenario TOML file; repeat it for a comparison report.")
@click.option("--game", metavar="ID", help="Game id (the standard rules when no scenario is given).")
@click.option("--set", "sets", multiple=True, metavar="OPTION=VALUE",
              help="Override a rule option or a component number TABLE[NAME].FIELD in every scenario (repeatable).")
@click.option("--players", metavar="N|all|N,N,...",
              help="Number of players (default: the scenario's, else the game's); all or a list such as 2,3,4 "
                   "adds a page of those player counts side by side.")
@click.option("--strategy", "strategy_specs", multiple=True, metavar="SPEC",
              help="name or name:key=value,...; once for every seat or once per seat.")
@click.option("--n", "n", default="100000", show_default=True, metavar="COUNT", help="Games per scenario.")
@click.option("-o", "--out", metavar="FILE.pdf|FILE.html|FOLDER",
              help="The PDF (default reports/<scenario>.pdf), or a self-contained HTML file (.html or .htm), "
                   "or with --figures the folder for the figure files.")
@click.option("--figures", type=click.Choice(["png", "svg"]),
              help="Write each figure as a separate file into the folder given by -o instead of a PDF.")
@click.option("--skill-n", default="20000", show_default=True, metavar="COUNT",
              help="Games per strategy of the skill ladder (games with decisions; the first scenario).")
@click.option("--no-skill", is_flag=True, help="Leave out the skill ladder.")
@click.option("--no-balance", is_flag=True,
              help="Leave out the search for the value of the game's seat-compensating option (e.g. seat_bonus).")
@precision_option
@execution_options
def report(scenarios, game, sets, players, strategy_specs, n, out, figures, skill_n, no_skill, no_balance, precision,
           execution):
    """Write the balance report of one scenario, or the comparison of several, as a PDF or HTML.

    One scenario's report opens with its verdicts; a comparison opens with the
    comparison's verdicts (every significant change, then what did not change), then
    the comparison, then an appendix of each scenario's seats and verdicts. A game with
    decisions also gets its skill ladder (see analyze skill), measured on the first
    scenario with its own, smaller game count; where the game has a rule option that
    compensates seats, the seat verdict gives the value that equalises them, searched as
    analyze balance does with 20,000 games per value (at most --n). With --precision,
    every scenario plays the same count, the largest any seat's interval (and, for
    several scenarios, any seat win-rate difference's) needs, --n at most.
    """
    from analyzer.experiments.players import split_players_option
    from analyzer.report import BALANCE_GAMES, report_specs, resolve_report_specs

    players, counts = split_players_option(players)
    specs = resolve_report_specs(list(scenarios), game, players, list(strategy_specs) or None, list(sets))
    outcome = report_specs(specs, n, execution, out=out, figures=figures, skill_n=None if no_skill else skill_n,
                           balance_n=None if no_balance else BALANCE_GAMES, precision=precision,
                           player_counts=counts)
    what = f"{outcome.pages} figure files" if figures else f"{outcome.pages} pages"
    reached = f"; {outcome.precision.sentence()}" if outcome.precision is not None else ""
    echo_wrote(outcome.path, f" ({what}, seed {outcome.runs[0].result.info.seed}){reached}")
