"""lucky-pirates: Glücks-Piraten (HABA), simulated and solved exactly."""

from analyzer.games.lucky_pirates.game import LuckyPirates

GAME = LuckyPirates()
