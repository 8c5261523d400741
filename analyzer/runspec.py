"""What a run plays: the game, validated rules, player count and per-seat strategies.

Resolves the command line, a scenario file and Python arguments in one place, in
this order: game defaults, then the scenario, then ``rules`` given in Python, then
``--set`` overrides; so every command validates input the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from analyzer.errors import AnalyzerError, closest_first, param, shortened
from analyzer.games.base import Game, StrategyChoice, canonical_label
from analyzer.games.component_params import is_component_key, parse_key, set_component, split_assignment
from analyzer.games.options import defaults
from analyzer.games.registry import get_game
from analyzer.playing_time import PlayingTime, resolve_time, split_time_sets
from analyzer.scenarios import Scenario, load_scenario


@dataclass
class RunSpec:
    game: Game
    rules: dict[str, Any]
    players: int
    seats: list[StrategyChoice]
    scenario: Scenario | None = None
    #: the rule options given with ``--set`` (a command that varies one refuses it there)
    set_options: frozenset[str] = frozenset()
    #: seconds per turn and per counted action (a scenario's ``[time]``), or None: no minutes shown
    time: PlayingTime | None = None

    @property
    def name(self) -> str:
        return self.scenario.name if self.scenario else "standard"

    def changed_rules(self) -> dict[str, Any]:
        """The rule options that differ from the game's defaults, and the component parameters set."""
        base = defaults(self.game.options)
        return {k: v for k, v in self.rules.items() if k not in base or v != base[k]}

    def with_rules(self, changes: dict[str, Any]) -> RunSpec:
        """The same run with some rule options (or component parameters) changed, validated as
        :func:`resolve` validates."""
        rules = dict(self.rules)
        for key, value in changes.items():
            rules = _with_value(self.game, rules, key, value, "rules", from_text=False)
        _check_players(self.game, rules, self.players, self.scenario)
        self.game.check_rules(rules, self.players)
        return replace(self, rules=rules)

    def with_seats(self, strategies: list[str]) -> RunSpec:
        """The same run with other strategies (one spec for every seat, or one per seat)."""
        return replace(self, seats=_seats(self.game, strategies, self.players))


def players_text(spec: RunSpec) -> str:
    """``4 players (threshold on every seat)`` or with the strategy of each seat; a game of pure chance
    (no decisions, so no strategy to name) is ``4 players``."""
    if not spec.game.has_decisions:
        return f"{spec.players} players"
    labels = [s.label for s in spec.seats]
    strategies = labels[0] + " on every seat" if len(set(labels)) == 1 else ", ".join(labels)
    return f"{spec.players} players ({strategies})"


def strategy_parameter(strategy, name: str):
    """The parameter ``name`` of ``strategy``; one line listing its parameters, closest first, when it has none."""
    for parameter in strategy.params:
        if parameter.name == name:
            return parameter
    raise AnalyzerError(f"strategy {strategy.name} has no parameter {shortened(name)!r}; parameters, closest "
                        f"first: {closest_first(name, [p.name for p in strategy.params])}")


def parse_strategy(game: Game, spec: str) -> StrategyChoice:
    """``name`` or ``name:key=value,key=value`` -> a validated StrategyChoice."""
    spec = spec.strip()
    name, _, arguments = spec.partition(":")
    strategy = game.strategy(name.strip())
    params = {p.name: p.default for p in strategy.params}
    given = set()
    for item in filter(None, (a.strip() for a in arguments.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep:
            raise AnalyzerError(f"strategy {spec!r}: parameter {item!r} must be written key=value")
        if key in given:
            raise AnalyzerError(f"strategy {strategy.name}: parameter {key!r} is given twice; give each once")
        given.add(key)
        params[key] = strategy_parameter(strategy, key).parse_text(value, f"strategy {strategy.name}")
    return StrategyChoice(strategy.name, params, canonical_label(strategy, params))


def parse_assignment(text: str) -> tuple[str, str]:
    """``OPTION=VALUE`` or ``TABLE[NAME].FIELD=VALUE`` -> (name, value text)."""
    split = split_assignment(text)
    if split is None or not split[0].strip():
        raise AnalyzerError(f"{param('sets')} {text!r} must be written OPTION=VALUE")
    return split[0].strip(), split[1]


def resolve(game: str | None = None, scenario: str | Scenario | None = None, players: int | None = None,
            strategies: list[str] | None = None, rules: dict[str, Any] | None = None,
            sets: list[str] | None = None) -> RunSpec:
    if isinstance(scenario, str) or hasattr(scenario, "__fspath__"):
        scenario = load_scenario(scenario)
    if scenario is not None:
        if game is not None and game != scenario.game:
            raise AnalyzerError(f"{param('game')} {game} differs from the game of {scenario.path} ({scenario.game})")
        game = scenario.game
    if game is None:
        raise AnalyzerError(f"no game given: use {param('game')} ID or {param('scenario')} FILE")
    try:
        the_game = get_game(game)
    except AnalyzerError as exc:
        if scenario is not None:
            raise AnalyzerError(f"{scenario.path}: {exc}") from None
        raise

    time_sets, sets = split_time_sets(sets)
    time = resolve_time(the_game, scenario.time if scenario is not None else None,
                        scenario.path if scenario is not None else "", time_sets)
    resolved = defaults(the_game.options)
    sources: list[tuple[str, list[tuple[str, Any]], bool]] = []
    if scenario is not None:
        sources.append((f"{scenario.path} [rules]", list(scenario.rules.items()), False))
    if rules:
        sources.append(("rules", list(rules.items()), False))
    if sets:
        sources.append((param("sets"), [parse_assignment(s) for s in sets], True))
    # rule options first, then the component parameters (their tables may depend on the options)
    for component_pass in (False, True):
        for where, values, from_text in sources:
            for key, value in values:
                if is_component_key(key) == component_pass:
                    resolved = _with_value(the_game, resolved, key, value, where, from_text)

    if players is None:
        from_scenario = scenario.players if scenario is not None else None
        players = from_scenario if from_scenario is not None else the_game.default_players
    _check_players(the_game, resolved, players, scenario)
    the_game.check_rules(resolved, players)

    specs = strategies or (scenario.seats if scenario is not None and scenario.seats else None)
    seats = _seats(the_game, list(specs) if specs else [the_game.default_strategy], players)
    set_options = frozenset(_canonical(parse_assignment(s)[0]) for s in sets or ())
    return RunSpec(the_game, resolved, players, seats, scenario, set_options, time)


def _check_players(game: Game, rules: dict[str, Any], players: Any, scenario: Scenario | None) -> None:
    low, high = game.player_range(rules)
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        where = f"{scenario.path}: " if scenario is not None and scenario.players == players else ""
        extra = ""
        if game.more_players_option and players > high and not rules.get(game.more_players_option):
            extra = f" (more with {game.more_players_option} = true)"
        raise AnalyzerError(f"{where}players = {players} is not allowed for {game.id}; "
                            f"it must be from {low} to {high}{extra}")


def _seats(game: Game, specs: list[str], players: int) -> list[StrategyChoice]:
    if len(specs) == 1:
        specs = specs * players
    elif len(specs) != players:
        raise AnalyzerError(f"{len(specs)} strategies for {players} players: give one strategy for every seat, "
                            f"or exactly one for all")
    return [parse_strategy(game, s) for s in specs]


def _canonical(key: str) -> str:
    return parse_key(key, param("sets")).text if is_component_key(key) else key


def _with_value(game: Game, rules: dict[str, Any], key: str, value: Any, where: str,
                from_text: bool) -> dict[str, Any]:
    """``rules`` with rule option or component parameter ``key`` set to ``value`` (validated)."""
    if is_component_key(key):
        return set_component(game, rules, key, value, where, from_text)
    try:
        option = game.option(key)
    except AnalyzerError as exc:
        if not from_text:
            raise
        raise AnalyzerError(f"{where}: {exc}") from None
    return {**rules, key: option.parse_text(value, where) if from_text else option.validate(value, where)}
