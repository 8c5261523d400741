"""Skull Island's own commands: ``analyze score`` (the referee) and ``analyze solve`` (the turn solver).

Declarations only: the referee and the solver are imported when a command runs.
"""

from __future__ import annotations

import click

from analyzer.games.commands import GameCommand, declare


def _score(spec, card: str, dice: str, chest: str, island: bool):
    from analyzer.games.skull_island.referee import referee

    return referee(spec.rules, card, dice, chest, island)


def _solve(spec, cards: tuple[str, ...], strategy_specs: tuple[str, ...], needed: int | None, quiet: bool,
           objective: str):
    if objective == "win":
        from analyzer.errors import AnalyzerError
        from analyzer.games.skull_island.win_solver.report import solve_win

        if cards or needed is not None:
            raise AnalyzerError(f"--objective win takes no {'--card' if cards else '--needed'}: it solves whole games")
        return solve_win(spec.rules, spec.players, list(strategy_specs), progress=False if quiet else None)
    from analyzer.games.skull_island.turn_solver.solve import solve

    return solve(spec.rules, cards=list(cards), strategies=list(strategy_specs), needed=needed,
                 progress=False if quiet else None)


SCORE = GameCommand(
    name="score",
    summary="Score one finished Skull Island turn as a referee would.",
    run=_score,
    options=(
        click.Option(["--card"], required=True, help="The fortune card (none, coin, diamond, ...)."),
        click.Option(["--dice"], required=True, metavar="FACE,...", help="All 8 dice at the end of the turn."),
        click.Option(["--chest"], default="", metavar="FACE,...", help="The dice lying on the treasure chest card."),
        click.Option(["--island"], is_flag=True, help="The turn was on Skull Island."),
    ),
)

SOLVE = GameCommand(
    name="solve",
    summary="The optimal Skull Island turn per fortune card, and the exact value of each strategy; with "
            "--objective win, the two-player game solved for the chance of winning.",
    run=_solve,
    players=True,
    options=(
        click.Option(["--card", "cards"], multiple=True, metavar="CARD",
                     help="A fortune card to show (repeatable; default: every card in the deck)."),
        click.Option(["--strategy", "strategy_specs"], multiple=True, metavar="SPEC",
                     help="A strategy to evaluate exactly (repeatable; default: first-roll, random, threshold, "
                          "set-chaser)."),
        click.Option(["--needed"], type=int, metavar="POINTS",
                     help="Maximise the probability that the turn scores at least POINTS instead of the expected "
                          "score."),
        click.Option(["--quiet"], is_flag=True, help="No progress bar."),
        click.Option(["--objective"], type=click.Choice(["turn", "win"]), default="turn", show_default=True,
                     help="turn: the best turn per card (expected score or --needed); win: the whole 2-player game "
                          "solved for P(win), --strategy naming the strategies to play against it (--players 2)."),
    ),
)

COMMANDS = declare(SCORE, SOLVE)
