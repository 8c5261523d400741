"""The turn solver (``analyze solve``): one Skull Island turn solved exactly.

:mod:`.space` indexes a turn's states (the kernel's tabulated strategies read it too),
:mod:`.core` runs value iteration over them, :mod:`.strategies` evaluates the built-in
strategies on the same states, and :mod:`.solve` solves, caches and hands the kernel
its policies. See docs/solver.md.
"""
