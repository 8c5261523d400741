"""The contract between the engine and a game: the same small surface for all games.

A game is a subclass of :class:`Game` living in ``analyzer/games/<game>/`` and
exposed as ``GAME`` by that package. It declares its rule options and strategies,
turns validated rules and per-seat strategies into plain numeric arrays (a
:class:`Prepared`), plays a chunk of games in a jitted kernel that only accumulates
integer aggregates (see :mod:`analyzer.engine.aggregate`), and turns the merged
aggregates into its own ``game_stats``. The engine owns everything else.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.options import Option, option_table


@dataclass(frozen=True)
class Strategy:
    """A named heuristic with typed parameters."""

    name: str
    description: str
    params: tuple[Option, ...] = ()

    def describe(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "params": [p.describe() for p in self.params],
        }


@dataclass(frozen=True)
class StrategyChoice:
    """A strategy with every parameter's value (defaults filled in)."""

    name: str
    params: dict[str, Any]
    label: str


def canonical_label(strategy: Strategy, params: dict[str, Any]) -> str:
    """``name`` plus the parameters that differ from the defaults, sorted by key."""
    changed = [
        (p.name, params[p.name]) for p in sorted(strategy.params, key=lambda o: o.name)
        if params[p.name] != p.default
    ]
    if not changed:
        return strategy.name
    return strategy.name + ":" + ",".join(f"{k}={_format_value(v)}" for k, v in changed)


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, tuple):
        return "[" + ",".join(_format_value(v) for v in value) + "]"
    return str(value)


@dataclass
class Prepared:
    """Everything the kernel needs, as plain numbers and arrays (picklable).

    ``arrays`` and ``scalars`` are the game's own; ``score_bins`` is
    ``(low, width, count)`` for the final-score histogram; ``length_caps`` maps each
    length unit to the largest length the histogram holds.
    """

    players: int
    rules: dict[str, Any]
    seats: list[StrategyChoice]
    score_bins: tuple[int, int, int]
    length_caps: dict[str, int]
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    scalars: dict[str, Any] = field(default_factory=dict)


class Game(ABC):
    """A game plug-in. Subclasses set the class attributes and the four methods."""

    id: str
    title: str
    description: str
    min_players: int
    max_players: int
    default_players: int
    score_unit: str
    length_units: tuple[str, ...]  # main unit first
    options: tuple[Option, ...]
    strategies: tuple[Strategy, ...]
    default_strategy: str
    #: the option that, set to true, allows player counts above ``max_players``
    more_players_option: str | None = None
    #: the largest player count that option allows
    max_players_with_option: int = 12
    #: the column names of ``--save-games`` rows beyond the common ones
    record_columns: tuple[str, ...] = ()

    # -- declared surface -------------------------------------------------------------
    def option(self, name: str) -> Option:
        table = option_table(self.options)
        if name not in table:
            raise AnalyzerError(
                f"{self.id} has no rule option {name!r}; options: {', '.join(sorted(table))}"
            )
        return table[name]

    def strategy(self, name: str) -> Strategy:
        for strategy in self.strategies:
            if strategy.name == name:
                return strategy
        raise AnalyzerError(
            f"unknown strategy {name!r} for {self.id}; strategies: "
            + ", ".join(s.name for s in self.strategies)
        )

    def player_range(self, rules: dict[str, Any]) -> tuple[int, int]:
        """The allowed player counts under these rules."""
        high = self.max_players
        if self.more_players_option and rules.get(self.more_players_option):
            high = max(high, self.max_players_with_option)
        return self.min_players, high

    # -- the four methods every game implements --------------------------------------
    def check_rules(self, rules: dict[str, Any], players: int) -> None:  # noqa: B027 - optional hook
        """Cross-option validation (each option alone is already valid). Raise AnalyzerError."""

    @abstractmethod
    def prepare(self, rules: dict[str, Any], players: int, seats: list[StrategyChoice]) -> Prepared:
        """Turn validated rules and strategies into a :class:`Prepared`."""

    @abstractmethod
    def run_chunk(self, prepared: Prepared, seed: int, first_game: int, n_games: int,
                  record: bool = False) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray] | None]:
        """Play games ``first_game .. first_game + n_games - 1``.

        Returns the chunk's integer aggregates and, when ``record`` is true, one row per
        game as columns (``winner`` (0 = shared or none, else seat), ``score_<seat>``,
        ``length_<unit>``, ``capped`` and the game's ``record_columns``).
        Must release the GIL (``nogil=True``) so chunks run in parallel threads.
        """

    @abstractmethod
    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        """The game's own statistics (``game_stats`` in the JSON) from merged totals."""

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        """``game_stats`` as text for the terminal table (default: nothing)."""
        return ""
