"""Scenario files (TOML): a rule set, its players and strategies, with clear errors."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError

TOP_LEVEL_KEYS = ("game", "name", "description", "players", "rules", "strategies")
STRATEGY_KEYS = ("seats",)


@dataclass
class Scenario:
    """A parsed scenario file; rule values are validated later against the game."""

    path: str
    game: str
    name: str
    description: str = ""
    players: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    seats: list[str] | None = None


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AnalyzerError(f"scenario file {where} does not exist") from None
    except IsADirectoryError:
        raise AnalyzerError(f"scenario file {where} is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AnalyzerError(f"scenario file {where} cannot be read: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AnalyzerError(f"scenario file {where} is not valid TOML: {exc}") from None
    return scenario_from_dict(data, where)


def scenario_from_dict(data: dict, where: str) -> Scenario:
    unknown = [k for k in data if k not in TOP_LEVEL_KEYS]
    if unknown:
        raise AnalyzerError(
            f"{where}: unknown key {unknown[0]!r}; allowed top-level keys: {', '.join(TOP_LEVEL_KEYS)}"
        )
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise AnalyzerError(f"{where}: the key 'game' is required and must be a game id (see `analyze games`)")
    name = data.get("name", Path(where).stem)
    if not isinstance(name, str):
        raise AnalyzerError(f"{where}: name must be a text")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise AnalyzerError(f"{where}: description must be a text")
    players = data.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise AnalyzerError(f"{where}: players must be a whole number, not {players!r}")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise AnalyzerError(f"{where}: [rules] must be a table of rule options")
    seats = None
    strategies = data.get("strategies")
    if strategies is not None:
        if not isinstance(strategies, dict):
            raise AnalyzerError(f"{where}: [strategies] must be a table with the key 'seats'")
        unknown = [k for k in strategies if k not in STRATEGY_KEYS]
        if unknown:
            raise AnalyzerError(f"{where}: unknown key {unknown[0]!r} in [strategies]; allowed: seats")
        seats = strategies.get("seats")
        if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
            raise AnalyzerError(f"{where}: strategies.seats must be a list of strategy specs such as "
                                "[\"NAME\", \"NAME:key=value\"]")
    return Scenario(where, game, name, description, players, dict(rules), seats)
