"""Lucky Pirates' own command: ``analyze exact``, the exact solution by Markov chain (see ``exact.py``).

Declarations only: the solver is imported when the command runs.
"""

from __future__ import annotations

from typing import Any

from analyzer.games.commands import GameCommand, declare
from analyzer.output import Rendered


class ExactSolution(Rendered):
    """What ``analyze exact`` prints: the solver's dictionary as JSON, or as text for the terminal."""

    def __init__(self, solution: dict[str, Any]):
        self.solution = solution

    def to_dict(self) -> dict[str, Any]:
        return self.solution

    def to_table(self) -> str:
        result = self.solution
        length = result["length"]
        lines = [
            (f"lucky-pirates, exact: {result['players']} players, {result['states']:,} states, "
             f"{result['turns_computed']} turns pushed "
             f"(still running after them: {result['unfinished_probability']:.1e})"),
            "seat  win probability",
        ]
        lines += [f"{seat:<5} {p:.12f}" for seat, p in enumerate(result["win_probability"], 1)]
        lines += [
            (f"length: mean {length['mean']:.6f} turns (median {length['median']}, "
             f"p5 {length['p5']}, p95 {length['p95']}), {result['expected_rounds']:.6f} rounds"),
            f"won in a duel: {result['won_in_duel_probability']:.6f}",
            (f"per game: {result['expected_duels']:.6f} duels, "
             f"{result['expected_duel_throws']:.6f} duel throws, "
             f"{result['expected_ship_takes']:.6f} ship takes, "
             f"{result['expected_dry_draws']:.6f} dry draws, {result['expected_steals']:.6f} steals"),
            result["note"],
        ]
        return "\n".join(lines)

    def _rows(self) -> list[tuple[str, Any]]:
        """Every value as (name, value): ``win_probability_seat_<k>``, ``length_<key>``, the rest by key."""
        rows = []
        for key, value in self.solution.items():
            if isinstance(value, list):
                rows += [(f"{key}_seat_{seat}", v) for seat, v in enumerate(value, 1)]
            elif isinstance(value, dict):
                rows += [(f"{key}_{part}", v) for part, v in value.items()]
            else:
                rows.append((key, value))
        return rows

    def to_csv(self) -> str:
        lines = ["quantity,value"] + [f"{name},{value}" for name, value in self._rows() if name != "note"]
        return "\n".join(lines) + "\n"

    def to_markdown(self) -> str:
        lines = [f"# lucky-pirates, exact: {self.solution['players']} players", "",
                 "| quantity | value |", "|---|---:|"]
        lines += [f"| {name} | {value} |" for name, value in self._rows() if name != "note"]
        return "\n".join([*lines, "", self.solution["note"]]) + "\n"


def exact_solution(rules: dict[str, Any] | None = None, players: int | None = None) -> dict[str, Any]:
    """Exact win probabilities, length and events per game (the Python side of ``analyze exact``).

    ``rules`` may leave options out (their defaults are used); rules and players are
    validated as for a simulation.
    """
    from analyzer.runspec import resolve

    return _solve(resolve(game="lucky-pirates", rules=rules, players=players))


def _solve(spec) -> dict[str, Any]:
    from analyzer.games.lucky_pirates import rules as rules_module
    from analyzer.games.lucky_pirates.exact import solve

    return solve(rules_module.rule_values(spec.rules, spec.players))


EXACT = GameCommand(
    name="exact",
    summary="Exact win probability of each seat and expected length (absorbing Markov chain).",
    run=lambda spec: ExactSolution(_solve(spec)),
    players=True,
)

COMMANDS = declare(EXACT)
