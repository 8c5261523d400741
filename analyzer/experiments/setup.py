"""What the runs of an experiment play: scenarios of one game, their names, their setup in words."""

from __future__ import annotations

from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.games.component_params import kept_under
from analyzer.games.options import format_value
from analyzer.runspec import RunSpec, players_text, resolve


def unique_names(names: list[str]) -> list[str]:
    """Names with repeats made distinct: ``standard``, ``standard (2)``."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return unique


def resolve_scenarios(scenarios: list, game: str | None = None, players: int | None = None,
                      strategies: list[str] | None = None, sets: list[str] | None = None) -> list[RunSpec]:
    """Scenario files (or parsed scenarios) of one game as run specs; another game's is an error."""
    specs = []
    for scenario in scenarios:
        spec = resolve(game=game, scenario=str(scenario) if isinstance(scenario, Path) else scenario,
                       players=players, strategies=strategies, sets=sets)
        if specs and spec.game.id != specs[0].game.id:
            first = specs[0].scenario.path if specs[0].scenario else specs[0].game.id
            raise AnalyzerError(f"{spec.scenario.path} is a {spec.game.id} scenario but {first} is {specs[0].game.id}: "
                                f"every scenario of one comparison must be of the same game")
        specs.append(spec)
    return specs


def rules_text(spec: RunSpec, leave_out: str | None = None) -> str:
    """The rule options that differ from the standard, or ``standard rules``; ``leave_out`` (the option or
    component parameter a command varies) is left out, and so is the rule option a parameter writes."""
    varied = None if leave_out is None else kept_under(spec.game, spec.rules, leave_out)
    changed = {k: v for k, v in spec.changed_rules().items() if k not in (leave_out, varied)}
    return ", ".join(f"{k} = {format_value(v)}" for k, v in changed.items()) if changed else "standard rules"


def setup_text(spec: RunSpec) -> str:
    """Players, strategies and changed rules of a spec in one line."""
    return f"{players_text(spec)}; {rules_text(spec)}"
