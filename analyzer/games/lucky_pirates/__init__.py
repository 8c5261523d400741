"""lucky-pirates: Glücks-Piraten (HABA), simulated and solved exactly."""

from analyzer.games.registry import game_on_first_use

__getattr__ = game_on_first_use(__name__)
