"""pirate-analyzer: Monte Carlo strategy analysis for pirate tabletop games.

>>> import analyzer
>>> result = analyzer.simulate(game="skull-island", n=100_000, seed=1)
>>> result.to_dict()["first_player_advantage"]

Everything the ``analyze`` command does is a function here first: ``simulate``,
``compare`` (scenarios) and ``matchup`` (strategies), ``sweep``, ``balance``, ``skill``,
``tune``, ``players``, ``report``, and a game's own commands through ``game_command`` (``solve`` for
Skull Island's solver). The README's "Python API" shows one example of each.
"""

from analyzer.errors import AnalyzerError
from analyzer.version import __version__

#: every experiment the command line runs, as a function: name -> "module:function"
API = {
    "simulate": "analyzer.api:simulate",
    "compare": "analyzer.experiments.comparison:compare",
    "matchup": "analyzer.experiments.matchups:matchup",
    "sweep": "analyzer.experiments.sweeps:sweep",
    "balance": "analyzer.experiments.balancing:balance",
    "skill": "analyzer.experiments.skill:skill",
    "tune": "analyzer.experiments.tuning:tune",
    "players": "analyzer.experiments.players:players",
    "report": "analyzer.report:report",
    "solve": "analyzer.api:solve",
    "game_command": "analyzer.api:game_command",
}

__all__ = ["AnalyzerError", *API, "__version__"]


def __getattr__(name):
    # the API pulls in numba and numpy: load it only when used, so `analyze --help` is fast
    if name in API:
        import importlib

        module, _, function = API[name].partition(":")
        return getattr(importlib.import_module(module), function)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
