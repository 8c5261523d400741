"""The package's ``njit`` (:mod:`analyzer.engine.jit`) compiles a callee once per argument types:
a constant passed to it from compiled code adds no specialization, as it would with Numba's own;
and while it compiles, the garbage collector's oldest generation is left alone."""

import gc
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import event

from analyzer.engine.garbage import HELD_THRESHOLD
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


@njit
def _item(items, i):
    return items[i % items.shape[0]]


def _first_bound_items(arrays, n):
    """Binds an array read out of a tuple in a loop with two exits and hands it to a compiled
    function: Numba counts its references."""
    total = 0
    for i in range(n):
        items = arrays[i % 2]
        if items[0] > 5:
            return total
        total += _item(items, i)
    return total


def _reference_counts(dispatcher) -> int:
    """Calls to Numba's NRT_incref and NRT_decref in ``dispatcher``'s compiled code, its wrapper for
    Python left out (which counts the references to what Python hands it, whatever the function)."""
    counted, in_wrapper = 0, False
    for ir in dispatcher.inspect_llvm().values():
        for line in ir.splitlines():
            if line.startswith("define "):
                in_wrapper = "@_ZN7cpython" in line
            elif "call " in line and not in_wrapper:
                counted += line.count("@NRT_incref(") + line.count("@NRT_decref(")
    return counted


def test_refcounts_false_compiles_without_reference_counts():
    counted, uncounted = njit(_first_bound_items), njit(refcounts=False)(_first_bound_items)
    arrays = (np.arange(3), np.arange(4))
    assert counted(arrays, 10) == uncounted(arrays, 10) == 14
    assert _reference_counts(counted) > 0
    assert _reference_counts(uncounted) == 0


def test_a_function_without_reference_counts_may_not_allocate():
    allocating = njit(refcounts=False)(lambda n: np.zeros(n).sum())
    with pytest.raises(numba.core.errors.NumbaError):
        allocating(3)


def test_a_callee_keeps_its_reference_counts_when_its_caller_has_none():
    """Numba would compile the callee like its caller; the package's njit sets each function's own."""
    callee = njit(_first_bound_items)
    caller = njit(refcounts=False)(lambda arrays, n: callee(arrays, n) + 1)
    assert caller((np.arange(3), np.arange(4)), 10) == 15
    assert _reference_counts(callee) > 0


def test_a_cached_kernel_is_stamped_with_its_whole_game_and_the_engine(tmp_path):
    """Numba stamps a cache with the function's own file; a kernel inlines helpers from its game's other
    files and the engine's, so an edit to any of them must compile it again."""
    from analyzer.engine.jit import ENGINE, _folder_stamp, _package, sources_stamp
    from analyzer.games.doubloons import kernel

    stamp = kernel.play_game._cache._cache_file._source_stamp
    kernel_file = Path(kernel.__file__).stat()
    assert stamp == sources_stamp(kernel.play_game.py_func) != (kernel_file.st_mtime, kernel_file.st_size)
    game = Path(kernel.__file__).resolve().parent
    assert _package(game / "turns.py") == game
    assert _package(game / "deeper" / "solver.py") == game  # a game's subpackage: the whole game
    assert _package(ENGINE / "rng.py") == ENGINE
    helper = tmp_path / "games" / "g" / "part" / "helper.py"
    helper.parent.mkdir(parents=True)
    (tmp_path / "games" / "g" / "kernel.py").write_text("x = 1\n")
    helper.write_text("y = 1\n")
    before = _folder_stamp.__wrapped__(tmp_path / "games" / "g")
    helper.write_text("y = 10\n")
    assert _folder_stamp.__wrapped__(tmp_path / "games" / "g") != before


def test_a_compile_holds_back_the_oldest_generation_and_gives_it_back():
    class ThresholdsSeen(event.Listener):
        def __init__(self):
            self.seen = []

        def on_start(self, event):
            self.seen.append(gc.get_threshold())

        def on_end(self, event):
            self.seen.append(gc.get_threshold())

    before = gc.get_threshold()
    listener = ThresholdsSeen()
    with event.install_listener("numba:compile", listener):
        assert njit(lambda count: count * 3)(4) == 12
    assert listener.seen == [(*before[:2], HELD_THRESHOLD)] * 2
    assert gc.get_threshold() == before
