"""pirate-analyzer: Monte Carlo strategy analysis for pirate tabletop games.

>>> import analyzer
>>> result = analyzer.simulate(game="skull-island", n=100_000, seed=1)
>>> result.to_dict()["first_player_advantage"]

Everything the ``analyze`` command does is a function here first.
"""

from analyzer.errors import AnalyzerError
from analyzer.version import __version__

__all__ = ["AnalyzerError", "simulate", "__version__"]


def __getattr__(name):
    # the API pulls in numba and numpy: load it only when used, so `analyze --help` is fast
    if name == "simulate":
        from analyzer.api import simulate

        return simulate
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
