"""Whole-array copies and sums in compiled code, element by element.

Numba compiles ``target[:] = source`` and ``target += source`` for two arrays with a check
that their shapes agree, and the message of that check's error brings Numba's string
formatting (integers to text, concatenation) into the function that holds it: 2.6 to 3.8 s
of CPU each time a kernel or solver that had one was compiled. Where the shapes agree by
construction, these do the same additions and copies, in the same order, without it.
"""

from analyzer.engine.jit import njit


@njit(cache=True, nogil=True, inline="always")
def copy_into(source, target):
    """``target[:] = source`` for two 1-d arrays of the same length."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit(cache=True, nogil=True, inline="always")
def add_into(source, target):
    """``target += source`` for two 1-d arrays of the same length."""
    for i in range(source.shape[0]):
        target[i] += source[i]
