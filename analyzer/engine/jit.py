"""``njit``: Numba's ``njit``, with one compiled specialization per argument types.

Numba types a constant argument in a call between compiled functions as a literal
(``collect_tiles(m, p, 1)`` passes ``Literal[int](1)``, ``offer_mascots(m, p, True)``
``Literal[bool](True)``) and compiles the callee once for each such value, on top of its
compile for the plain types. Over a game's kernel that is one compile in six or seven:
Dead Man's Chest's kernel took 41 s to compile and Skull Island's 26 s; without the
literal copies 36 s and 19 s. The kernels run as fast either way, since LLVM still sees
the constants once it inlines a call. So every compiled function of the package is made
with this ``njit``, which hands the callee the plain types of its arguments.
"""

from __future__ import annotations

import numba
from numba.core import types
from numba.core.registry import CPUDispatcher


class PlainArgumentsDispatcher(CPUDispatcher):
    """A CPU dispatcher whose calls from compiled code compile for plain argument types."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(argument) for argument in args)
        return super().get_call_template(plain, {name: types.unliteral(kind) for name, kind in kws.items()})


def njit(function=None, **options):
    """``numba.njit(**options)``, used as ``@njit`` or ``@njit(cache=True, ...)``; its dispatcher is a
    :class:`PlainArgumentsDispatcher`."""

    def compiled(py_func):
        dispatcher = numba.njit(**options)(py_func)
        if isinstance(dispatcher, CPUDispatcher):  # not with NUMBA_DISABLE_JIT, which returns py_func
            dispatcher.__class__ = PlainArgumentsDispatcher
        return dispatcher

    return compiled if function is None else compiled(function)
