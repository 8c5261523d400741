"""The turn solver (``analyze solve``): one Skull Island turn solved exactly.

:mod:`.core` runs value iteration over a turn's states (indexed by the game's
:mod:`~analyzer.games.skull_island.turn_states`, which the kernel's tables share),
:mod:`.strategies` evaluates the built-in strategies on the same states, and :mod:`.solve`
solves, caches and hands the kernel its policies. See docs/solver.md.
"""
