"""lucky-pirates: Glücks-Piraten (HABA), simulated and solved exactly."""


def __getattr__(name):
    """``GAME`` is built on first use, so listing the games' commands loads no kernel."""
    if name == "GAME":
        from analyzer.games.lucky_pirates.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
