"""Test-wide setup: the example game joins the registry like any built-in game."""

from analyzer.games.registry import register

register("pig", "tests.example_game")
