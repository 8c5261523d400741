"""Doubloons: the pirate card game in the family of Garbage (Trash), 2 to 5 players."""


def __getattr__(name):
    """``GAME`` is built on first use, so listing the games' commands loads no kernel."""
    if name == "GAME":
        from analyzer.games.doubloons.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
