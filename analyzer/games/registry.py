"""Game id -> game plug-in. A game is loaded (and its kernel imported) only when used."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from analyzer.errors import AnalyzerError, closest_first, shortened

if TYPE_CHECKING:
    from analyzer.games.base import Game

# id -> (module, one-line description shown by `analyze games` without importing it)
GAMES: dict[str, str] = {
    "skull-island": "analyzer.games.skull_island",
    "lucky-pirates": "analyzer.games.lucky_pirates",
    "doubloons": "analyzer.games.doubloons",
    "dead-mans-chest": "analyzer.games.dead_mans_chest",
}

_loaded: dict[str, Game] = {}


def game_on_first_use(package: str):
    """A ``__getattr__`` for a game package that builds ``GAME`` (from ``<package>.game``) on
    first use, so reading the package's command declarations loads no kernel."""

    def __getattr__(name: str):
        if name == "GAME":
            return importlib.import_module(f"{package}.game").GAME
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def register(game_id: str, module: str) -> None:
    """Add a game: ``module`` is the import path of a package that exposes ``GAME``."""
    GAMES[game_id] = module
    _loaded.pop(game_id, None)


def available_ids() -> list[str]:
    """The ids of the games whose package is installed."""
    ids = []
    for game_id, module in GAMES.items():
        if importlib.util.find_spec(module) is not None:
            ids.append(game_id)
    return ids


def get_game(game_id: str) -> Game:
    if game_id not in _loaded:
        if game_id not in available_ids():
            raise AnalyzerError(f"unknown game {shortened(game_id)!r}; games, closest first: "
                                f"{closest_first(game_id, available_ids())}")
        _loaded[game_id] = importlib.import_module(GAMES[game_id]).GAME
    return _loaded[game_id]
