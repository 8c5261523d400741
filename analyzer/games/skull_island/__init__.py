"""Skull Island (Piraten Kapern): the push-your-luck dice game, 2 to 5 players."""

from analyzer.games.skull_island.components import CARDS
from analyzer.games.skull_island.game import GAME

__all__ = ["GAME", "CARDS"]
