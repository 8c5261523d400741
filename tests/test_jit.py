"""The package's ``njit`` (:mod:`analyzer.engine.jit`) compiles a callee once per argument types:
a constant passed to it from compiled code adds no specialization, as it would with Numba's own."""

import numba

from analyzer.engine.jit import PlainArgumentsDispatcher, njit


def _callee(count, flag):
    return count + 1 if flag else count


def _caller(count, flag):
    return _compiled_callee(1, True) + _compiled_callee(count, flag) + _compiled_callee(2, False)


_compiled_callee = njit(_callee)
_compiled_caller = njit(_caller)


def test_constant_arguments_compile_the_callee_once():
    assert isinstance(_compiled_callee, PlainArgumentsDispatcher)
    assert _compiled_caller(5, True) == 2 + 6 + 2
    assert _compiled_callee.signatures == [(numba.int64, numba.boolean)]


def test_numbas_own_njit_compiles_one_more_per_constant():
    """What the package's njit avoids (if Numba stops doing this, the package's njit may go)."""
    plain_callee = numba.njit(_callee)

    def caller(count, flag):
        return plain_callee(1, True) + plain_callee(count, flag)

    assert numba.njit(caller)(5, True) == 2 + 6
    assert len(plain_callee.signatures) == 2
