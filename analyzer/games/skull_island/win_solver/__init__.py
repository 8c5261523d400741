"""The win solver (``analyze solve --objective win``): the two-player game solved for the chance of winning.

:mod:`.turns` gives what a whole turn does to the two totals, :mod:`.values` the win
probabilities over score pairs, :mod:`.solve` solves and caches the game, :mod:`.bound`
what its policy class may lose, :mod:`.strategies` the built-in strategies against
``optimal-win`` and :mod:`.report` the printed solve. See docs/solver.md.
"""
