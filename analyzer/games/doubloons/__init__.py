"""Doubloons: the pirate card game in the family of Garbage (Trash), 2 to 5 players."""

from analyzer.games.doubloons.game import Doubloons

GAME = Doubloons()
__all__ = ["GAME", "Doubloons"]
