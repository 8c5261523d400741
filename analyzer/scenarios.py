"""Scenario files (TOML): a rule set, its players and strategies, with clear errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError, safe_text
from analyzer.files import MAX_SCENARIO_BYTES, parse_toml, read_input

TOP_LEVEL_KEYS = ("game", "name", "description", "players", "target_length", "rules", "strategies", "time")
STRATEGY_KEYS = ("seats",)


@dataclass
class Scenario:
    """A parsed scenario file; rule values are validated later against the game.

    The texts shown to people (``path``, ``name``, ``description``) have their control
    and bidirectional formatting characters escaped, so no file can garble a terminal or
    make a report read in another order.
    """

    path: str
    game: str
    name: str
    description: str = ""
    players: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    seats: list[str] | None = None
    #: the game length the designer aims at, in the game's main length unit (None: not stated)
    target_length: float | None = None
    #: the ``[time]`` table as written (checked against the game in :mod:`analyzer.playing_time`)
    time: dict[str, Any] | None = None


def load_scenario(path: str | Path) -> Scenario:
    where = safe_text(str(Path(path)))
    data = parse_toml(read_input(path, "scenario file", MAX_SCENARIO_BYTES), f"scenario file {where}")
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
    target_length = data.get("target_length")
    if target_length is not None and (isinstance(target_length, bool) or not isinstance(target_length, (int, float))
                                      or not 0 < target_length < float("inf")):
        raise AnalyzerError(f"{where}: target_length must be a positive number (in the game's main length unit), "
                            f"not {target_length!r}")
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
    time = data.get("time")
    if time is not None and not isinstance(time, dict):
        raise AnalyzerError(f"{where}: [time] must be a table such as seconds_per_turn = 40")
    return Scenario(where, game, safe_text(name), safe_text(description, keep="\n\t"), players, dict(rules), seats,
                    target_length, time)
