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

from analyzer.errors import AnalyzerError, closest_first, shortened
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


#: what a mechanic is: a rule a designer wrote and could cut; a procedure of play (reshuffle, redeal,
#: passing); an outcome (ties, shared wins); a safeguard of the simulation (a cap)
RULE, PROCEDURE, OUTCOME, SAFEGUARD = "rule", "procedure", "outcome", "safeguard"
MECHANIC_KINDS = (RULE, PROCEDURE, OUTCOME, SAFEGUARD)


@dataclass(frozen=True)
class Mechanic:
    """A rule, card, space or special whose coverage is measured: the share of games in which it
    happened (the kernel sets ``outcome.triggered[index]``, or the game counts it in its tally:
    ``Game.mechanics_tally``; see :mod:`analyzer.engine.quality`).

    ``kind`` says what it is (:data:`MECHANIC_KINDS`): only a ``rule`` can be called rare; the
    others are shown, never advised on."""

    name: str
    description: str
    kind: str = RULE
    #: whether a rule set allows it at all (``possible(rules)``; None: always): one switched off by the
    #: rules (a promo card not in the deck, a house rule off) is listed apart, never called rare
    possible: Callable[[dict], bool] | None = None

    def __post_init__(self) -> None:
        if self.kind not in MECHANIC_KINDS:
            raise ValueError(f"mechanic {self.name!r}: kind {self.kind!r} is not one of {MECHANIC_KINDS}")

    @property
    def safeguard(self) -> bool:
        """A cap of the simulation (a game stopped at ``max_turns``), not a rule of the game."""
        return self.kind == SAFEGUARD

    def switched_off(self, rules: dict) -> bool:
        return self.possible is not None and not self.possible(rules)


@dataclass(frozen=True)
class TimedAction:
    """An action the game counts that takes players time (a die rolled, a card drawn, a space moved):
    a scenario's ``[time]`` table may give ``seconds_per_<name>``. ``count(totals, prepared)`` is how
    many times it happened over all the games of a run."""

    name: str
    description: str
    count: Callable[[Any, Any], float]


#: how a component's effect is measured: held or not, or per time a player meets it
PRESENCE = "presence"
PER_DRAW = "per draw"
#: how a component reaches a player: met at random (cards drawn, spaces landed on), given at setup
#: (a captain, a start route), or obtained by decisions during play (a ship bought or won)
DEALT, ASSIGNED, ACQUIRED = "dealt", "assigned", "acquired"
#: what a component's measured effect is evidence of: a cause where it reached players at random
RANDOM_DRAW, RANDOM_ASSIGNMENT, ASSOCIATION = "random draw", "random assignment", "association"


@dataclass(frozen=True)
class Component:
    """A component a player gets or meets (captain, ship, mascot, card, special, space).

    ``measure`` is :data:`PRESENCE` where a player may or may not get it (its effect:
    holders against the other seats) or :data:`PER_DRAW` where every player meets it
    (its effect: per time met, against the average seat). The kernel adds 1 to
    ``outcome.holdings[seat, index]`` each time ``seat`` gets or meets it.

    ``origin`` (:data:`DEALT`, :data:`ASSIGNED`, :data:`ACQUIRED`) and ``evidence``
    (:data:`RANDOM_DRAW`, :data:`RANDOM_ASSIGNMENT`, :data:`ASSOCIATION`; None: a random draw
    for a dealt component, else an association) say whether its effect is a cause a verdict may
    act on. ``attributes`` are its numbers (a captain's loot, a ship's fee): components of one
    kind that differ in one are compared in groups by it. ``table`` names it in a component
    parameter (``TABLE[NAME].FIELD``), ``price`` is the attribute it is bought for, and
    ``randomize`` the ``--set`` that assigns it at random (a verdict suggests these only where
    the game accepts them).
    """

    name: str
    kind: str
    measure: str = PRESENCE
    origin: str = DEALT
    evidence: str | None = None
    attributes: tuple[tuple[str, float], ...] = ()
    table: str | None = None
    price: str | None = None
    randomize: str | None = None

    def __post_init__(self) -> None:
        if self.origin not in (DEALT, ASSIGNED, ACQUIRED):
            raise ValueError(f"component {self.name!r}: origin {self.origin!r}")
        if self.evidence is None:
            object.__setattr__(self, "evidence", RANDOM_DRAW if self.origin == DEALT else ASSOCIATION)
        elif self.evidence not in (RANDOM_DRAW, RANDOM_ASSIGNMENT, ASSOCIATION):
            raise ValueError(f"component {self.name!r}: evidence {self.evidence!r}")

    def describe(self) -> dict[str, Any]:
        """What the JSON ``components`` record says of it besides its measurements."""
        return {"component": self.name, "kind": self.kind, "measure": self.measure, "origin": self.origin,
                "evidence": self.evidence, "attributes": dict(self.attributes),
                "parameter": f"{self.table}[{self.name}]" if self.table else None, "price": self.price,
                "randomize": self.randomize}


@dataclass(frozen=True)
class RandomAssignment:
    """The rule options that make the components a player is given at setup random (e.g. captains
    dealt instead of drafted), and the component kinds they make random (``Component.kind``)."""

    rules: dict[str, Any]
    kinds: tuple[str, ...]


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
    #: what one play of the game is called, one and several (Doubloons plays best-of-3 matches)
    game_noun: str = "game"
    games_noun: str = "games"
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
    #: how the components given at setup (a captain) are dealt at random instead, for a measurement of their
    #: cause (see :mod:`analyzer.experiments.component_effects`); None for a game that assigns none
    random_assignment: RandomAssignment | None = None

    # -- declared surface -------------------------------------------------------------
    def option(self, name: str) -> Option:
        table = option_table(self.options)
        if name not in table:
            raise AnalyzerError(
                f"{self.id} has no rule option {shortened(name)!r}; options, closest first: "
                f"{closest_first(name, sorted(table))}"
            )
        return table[name]

    def strategy(self, name: str) -> Strategy:
        for strategy in self.strategies:
            if strategy.name == name:
                return strategy
        raise AnalyzerError(
            f"unknown strategy {shortened(name)!r} for {self.id}; strategies, closest first: "
            f"{closest_first(name, [s.name for s in self.strategies])}"
        )

    def option_step(self, name: str, rules: dict[str, Any]) -> int | None:
        """The step in which the numeric rule option ``name`` changes the game under ``rules``:
        each multiple of the step, and the values strictly between two multiples, play alike
        (``balance`` recommends on this grid). 1 for a whole-number option unless the game
        knows better, None for an option every value of which may play differently."""
        return 1 if self.option(name).kind == "int" else None

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

    def tally_rules(self, prepared: Prepared):
        """What the games of a checkpoint could have put in each of the game's own aggregates: a
        :class:`analyzer.engine.tally_limits.TallyRules` (least and most per game, orderings,
        moments). Default: counts, never negative; a game bounds them from above where it can."""
        from analyzer.engine.tally_limits import TallyRules

        return TallyRules({key: (0, None) for key in self.tally_shapes(prepared)})

    def scratch(self, prepared: Prepared) -> tuple:
        """The game's private working arrays for one chunk, as a NamedTuple (default: none).

        Allocate them with :func:`analyzer.engine.memory.padded_zeros`: two threads
        writing next to each other slow each other down.
        """
        return ()

    def check_chunk(self, prepared: Prepared, aggregates: dict[str, np.ndarray]) -> None:  # noqa: B027
        """Inspect a played chunk's aggregates (e.g. an audit's count); raise to refuse it."""

    @abstractmethod
    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        """The game's own statistics (``game_stats`` in the JSON) from merged totals."""

    def mechanics(self, prepared: Prepared) -> tuple[Mechanic, ...]:
        """The mechanics whose coverage the kernel reports, in ``outcome.triggered`` order."""
        return ()

    def mechanics_tally(self, prepared: Prepared) -> str | None:
        """The field of the game's own tally whose first entries count the games in which each of its
        mechanics happened (in :meth:`mechanics` order), for a game that counts them anyway: its kernel
        then leaves ``outcome.triggered`` alone (it has no columns), and the engine takes the counts
        from that field rather than have the game note them twice. None (the default): the kernel sets
        ``outcome.triggered`` and the chunk template counts them."""
        return None

    def components(self, prepared: Prepared) -> tuple[Component, ...]:
        """The components whose balance the kernel reports, in ``outcome.holdings`` order."""
        return ()

    def display_name(self, key: str) -> str:
        """What a designer calls an item its statistics name by ``key`` (a card id): its name from
        :meth:`display_names`, else the key in words."""
        named = self.display_names().get(key)
        if named is not None:
            return named
        words = key.replace("_", " ").replace("-", " ")
        return words[:1].upper() + words[1:]

    def timed_actions(self) -> tuple[TimedAction, ...]:
        """The actions whose seconds a scenario's ``[time]`` table may give (default: none)."""
        return ()

    def component_tables(self, rules: dict[str, Any]) -> tuple:
        """The game's component data under ``rules`` as :class:`~analyzer.games.component_params.ComponentTable`
        (before the rules' ``TABLE[NAME].FIELD`` overrides): every number in them is a parameter."""
        return ()

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        """``game_stats`` as text for the terminal table (default: nothing)."""
        return ""

    # -- what a game may offer beyond simulation -----------------------------------------
    def commands(self) -> dict[str, Any]:
        """The ``analyze`` commands this game offers beyond the common ones, by name
        (a referee's ``score``, an exact solution's ``exact``, a solver's ``solve``)."""
        return {}

    def round_start_wins(self, rules: dict[str, Any], stats: dict[str, Any]) -> list[int] | None:
        """For a game played in rounds whose starter rotates: the rounds won by each position in a round's
        turn order (the starter first), read from its ``game_stats``; None (the default) for other games."""
        return None

    def exact_seat_win_rates(self, rules: dict[str, Any], players: int) -> list[float] | None:
        """Each seat's exact win rate where the game has an exact solution for these rules (None: it has
        none, the default). The report's summary and seat verdict use it, the simulated rates beside."""
        return None

    def report_pages(self, result, palette) -> list | None:
        """The game's own pages for the PDF report, or None for pages drawn from ``game_stats``."""
        return None

    def display_names(self) -> dict[str, str]:
        """What a reader calls each id the game's statistics use as a key (a card, a component), where
        the two differ; reports show the name, never the id (default: none)."""
        return {}
