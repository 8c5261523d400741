"""dead-mans-chest: The Game of Life: Pirates of the Caribbean – Dead Man's Chest."""

from analyzer.games.registry import game_on_first_use

__getattr__ = game_on_first_use(__name__)
