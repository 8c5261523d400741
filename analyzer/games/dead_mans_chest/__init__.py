"""dead-mans-chest: The Game of Life: Pirates of the Caribbean – Dead Man's Chest."""

from analyzer.games.dead_mans_chest.game import DeadMansChest

GAME = DeadMansChest()
