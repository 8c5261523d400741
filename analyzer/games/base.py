"""The contract between the engine and a game: the same small surface for all games.

A game is a subclass of :class:`Game` living in ``analyzer/games/<game>/`` and
exposed as ``GAME`` by that package. It declares its rule options and strategies,
turns validated rules and per-seat strategies into its kernel inputs (a NamedTuple in
a :class:`Prepared`), supplies a jitted function that plays one game from its random
stream (see :mod:`analyzer.engine.template`), declares its own aggregates, and turns
the merged aggregates into its own ``game_stats``. The engine owns everything else:
the chunk loop, seeding, the common aggregates and rows, merging, and execution.

What a game offers beyond simulation (commands of its own such as a referee, an
exact solution or a solver; report pages of its own) it declares through
:meth:`Game.commands` and :meth:`Game.report_pages`; nothing outside
``analyzer/games/`` names a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.engine.play import run_chunk
from analyzer.errors import AnalyzerError
from analyzer.games.options import Option, option_table


@dataclass(frozen=True)
class Strategy:
    """A named heuristic with typed parameters."""

    name: str
    description: str
    params: tuple[Option, ...] = ()
    #: False for strategies left out of the default skill ladder: search players and those
    #: that need a whole-game solve
    in_skill_ladder: bool = True

    def describe(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "params": [p.describe() for p in self.params],
        }


@dataclass(frozen=True)
class Mechanic:
    """A rule, card, space or special whose coverage is measured: the share of games in which it
    happened (the kernel sets ``outcome.triggered[index]``; see :mod:`analyzer.engine.quality`)."""

    name: str
    description: str
    #: a cap of the simulation (a game stopped at ``max_turns``), not a rule of the game: its share
    #: is reported, but it is never called a rare mechanic
    safeguard: bool = False
    #: whether a rule set allows it at all (``possible(rules)``; None: always): one switched off by the
    #: rules (a promo card not in the deck, a house rule off) is listed apart, never called rare
    possible: Callable[[dict], bool] | None = None

    def switched_off(self, rules: dict) -> bool:
        return self.possible is not None and not self.possible(rules)


#: how a component's effect is measured: held or not, or per time a player meets it
PRESENCE = "presence"
PER_DRAW = "per draw"


@dataclass(frozen=True)
class Component:
    """A component a player gets or meets (captain, ship, mascot, card, special, space).

    ``measure`` is :data:`PRESENCE` where a player may or may not get it (its effect:
    holders against the other seats) or :data:`PER_DRAW` where every player meets it
    (its effect: per time met, against the average seat). The kernel adds 1 to
    ``outcome.holdings[seat, index]`` each time ``seat`` gets or meets it.
    """

    name: str
    kind: str
    measure: str = PRESENCE


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
    """A run made ready to play (picklable, so Dask workers receive it whole).

    ``inputs`` is the game's kernel inputs: a NamedTuple of arrays, numbers and tuples
    of numbers that its play function reads and never writes. ``facts`` holds what the
    game's statistics need besides the totals (names of components, a data file).
    ``score_bins`` is ``(low, width, count)`` for the final-score histogram;
    ``length_caps`` maps each length unit to the largest length the histogram holds.
    """

    players: int
    rules: dict[str, Any]
    seats: list[StrategyChoice]
    score_bins: tuple[int, int, int]
    length_caps: dict[str, int]
    inputs: tuple
    facts: dict[str, Any] = field(default_factory=dict)


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
    #: the NamedTuple class of the game's own aggregates (int64 arrays; field = aggregate key)
    tally_type: type
    #: False for a game of pure chance (every strategy plays alike: no skill ladder)
    has_decisions: bool = True
    #: the numeric rule option that compensates seats (a positive value helps the later seats),
    #: which the report's seat verdict searches with ``balance``; None when the game has none
    seat_compensation_option: str | None = None
    #: how far the report searches that option: from the run's value up to this much higher when seat 1
    #: is favoured, else as much lower
    seat_compensation_span: float = 0

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

    # -- what every game implements ----------------------------------------------------
    def check_rules(self, rules: dict[str, Any], players: int) -> None:  # noqa: B027 - optional hook
        """Cross-option validation (each option alone is already valid). Raise AnalyzerError."""

    @abstractmethod
    def prepare(self, rules: dict[str, Any], players: int, seats: list[StrategyChoice]) -> Prepared:
        """Turn validated rules and strategies into a :class:`Prepared`."""

    @abstractmethod
    def play_function(self):
        """The jitted function that plays one game (see :func:`analyzer.engine.template.play_game`).

        It must be compiled with ``nogil=True`` so chunks run in parallel threads.
        """

    @abstractmethod
    def tally_shapes(self, prepared: Prepared) -> dict[str, tuple[int, ...]]:
        """The shape of each of the game's own aggregates (the fields of ``tally_type``)."""

    def scratch(self, prepared: Prepared) -> tuple:
        """The game's private working arrays for one chunk, as a NamedTuple (default: none).

        Allocate them with :func:`analyzer.engine.memory.padded_zeros`: two threads
        writing next to each other slow each other down.
        """
        return ()

    def check_chunk(self, prepared: Prepared, aggregates: dict[str, np.ndarray]) -> None:  # noqa: B027
        """Inspect a played chunk's aggregates (e.g. an audit's count); raise to refuse it."""

    def run_chunk(self, prepared: Prepared, seed: int, first_game: int, n_games: int,
                  record: bool = False) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray] | None]:
        """Play games ``first_game .. first_game + n_games - 1`` (see :func:`analyzer.engine.play.run_chunk`)."""
        return run_chunk(self, prepared, seed, first_game, n_games, record)

    @abstractmethod
    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        """The game's own statistics (``game_stats`` in the JSON) from merged totals."""

    def mechanics(self, prepared: Prepared) -> tuple[Mechanic, ...]:
        """The mechanics whose coverage the kernel reports, in ``outcome.triggered`` order."""
        return ()

    def components(self, prepared: Prepared) -> tuple[Component, ...]:
        """The components whose balance the kernel reports, in ``outcome.holdings`` order."""
        return ()

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        """``game_stats`` as text for the terminal table (default: nothing)."""
        return ""

    # -- what a game may offer beyond simulation -----------------------------------------
    def commands(self) -> dict[str, Any]:
        """The ``analyze`` commands this game offers beyond the common ones, by name
        (a referee's ``score``, an exact solution's ``exact``, a solver's ``solve``)."""
        return {}

    def report_pages(self, result, palette) -> list | None:
        """The game's own pages for the PDF report, or None for pages drawn from ``game_stats``."""
        return None

    def display_names(self) -> dict[str, str]:
        """What a reader calls each id the game's statistics use as a key (a card, a component), where
        the two differ; reports show the name, never the id (default: none)."""
        return {}
