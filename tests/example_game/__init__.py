"""Pig, a test-only example game: the whole contract in one small package.

Each turn a player rolls a die until they hold or roll a 1 (which loses the turn's
points); the first to ``target`` points wins at once. ``tests/conftest.py`` registers
it as ``pig`` through :func:`analyzer.games.registry.register`, so every contract test
runs it like a built-in game. ``docs/adding-a-game.md`` walks through it.
"""

from tests.example_game.game import GAME

__all__ = ["GAME"]
