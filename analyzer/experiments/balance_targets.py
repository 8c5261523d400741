"""What the fairness search equalises: the seats' win rates, or a group of components' against the rest.

A target turns a run's totals into win counts and their denominators, one column per
thing to equalise (:meth:`counts`); the search fits a line per column and looks for the
value where the columns are closest (see :mod:`analyzer.experiments.balancing`).

- :class:`SeatTarget` (the default): every seat's wins over the games.
- :class:`ComponentTarget` (``balance --target "captains[loot=250]"``): the outright wins of
  the seat-games holding a component of the selected rows of a component table, over
  those seat-games, against the same for the table's other rows. Meant for components
  a player is given (a captain): run it where they are dealt at random (the rule
  options of ``Game.random_assignment``), or the gap mixes the component with who picks it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.component_params import selected_rows


@dataclass(frozen=True)
class SeatTarget:
    """Every seat equally likely to win."""

    players: int

    batch_keys = ("games", "wins")
    text = None  # no ``target`` key in the JSON: the search's original meaning

    @property
    def labels(self) -> list[str]:
        return [f"seat {s + 1}" for s in range(self.players)]

    def counts(self, totals, declared) -> tuple[np.ndarray, np.ndarray]:
        wins = np.asarray(totals["wins"], dtype=np.float64)
        return wins, np.full(wins.shape, float(totals["games"][0]))


@dataclass(frozen=True)
class ComponentTarget:
    """The selected components (``text``, e.g. ``captains[loot=250]``) as likely to win as the others of
    their table: ``kind`` is the components' ``Component.kind``, ``selected``/``others`` their names."""

    text: str
    kind: str
    selected: tuple[str, ...]
    others: tuple[str, ...]

    batch_keys = ("games", "wins", "component_holders", "component_holder_wins")

    @property
    def labels(self) -> list[str]:
        return [self.text, "the others"]

    def counts(self, totals, declared) -> tuple[np.ndarray, np.ndarray]:
        holders = np.asarray(totals["component_holders"], dtype=np.float64)
        wins = np.asarray(totals["component_holder_wins"], dtype=np.float64)
        groups = [[i for i, c in enumerate(declared) if c.kind == self.kind and c.name in names]
                  for names in (self.selected, self.others)]
        return (np.array([wins[g].sum() for g in groups]), np.array([holders[g].sum() for g in groups]))


def parse_target(text: str | None, spec):
    """``None`` (the seats) or ``TABLE[SELECTOR]`` of a component table whose rows are components."""
    if text is None:
        return SeatTarget(spec.players)
    table, selected, others = selected_rows(spec.game, spec.rules, text, "--target")
    if table.component_kind is None:
        raise AnalyzerError(f"--target {text!r}: the rows of {table.name} are not components the results "
                            f"measure; a target needs a table of components (e.g. captains)")
    if not others:
        raise AnalyzerError(f"--target {text!r} selects every row of {table.name}: nothing is left to compare with")
    return ComponentTarget(text.strip(), table.component_kind, tuple(selected), tuple(others))
