"""dead-mans-chest: The Game of Life: Pirates of the Caribbean – Dead Man's Chest."""


def __getattr__(name):
    """``GAME`` is built on first use, so listing the games' commands loads no kernel."""
    if name == "GAME":
        from analyzer.games.dead_mans_chest.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
