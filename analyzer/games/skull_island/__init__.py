"""Skull Island (Piraten Kapern): the push-your-luck dice game, 2 to 5 players."""

from analyzer.games.registry import game_on_first_use
from analyzer.games.skull_island.components import CARDS

__all__ = ["GAME", "CARDS"]

__getattr__ = game_on_first_use(__name__)
