"""Doubloons: the pirate card game in the family of Garbage (Trash), 2 to 5 players."""

from analyzer.games.registry import game_on_first_use

__getattr__ = game_on_first_use(__name__)
