"""Borrowed views (analyzer.engine.borrow): the same memory, no owner, and whatever else a tuple
holds still counted."""

from typing import NamedTuple

import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

from analyzer.engine.borrow import borrowed
from analyzer.engine.jit import njit


class Inner(NamedTuple):
    counts: np.ndarray
    width: int


class Outer(NamedTuple):
    totals: np.ndarray
    inner: Inner
    pair: tuple
    name: str


@intrinsic
def _has_owner(typingctx, array):
    """Whether ``array`` has a meminfo (an owner that Numba counts references to)."""
    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, value=args[0])
        return builder.icmp_unsigned("!=", view.meminfo, cgutils.get_null_value(view.meminfo.type))

    return types.boolean(array), codegen


@njit
def _owners(outer):
    view = borrowed(outer)
    return (_has_owner(outer.totals), _has_owner(view.totals), _has_owner(view.inner.counts),
            _has_owner(view.pair[0]), _has_owner(view.pair[1]))


@njit
def _write_through(outer):
    view = borrowed(outer)
    view.totals[0] = 7
    view.inner.counts[1, 2] += view.inner.width
    view.pair[1][0] = view.pair[0][0] + 1
    return view.name


def _outer():
    return Outer(totals=np.zeros(3, np.int64), inner=Inner(counts=np.zeros((2, 3), np.int64), width=5),
                 pair=(np.arange(2.0), np.zeros(4)), name="chest")


def test_every_array_at_any_depth_loses_its_owner():
    assert _owners(_outer()) == (True, False, False, False, False)


def test_a_borrowed_view_reads_and_writes_the_same_memory():
    outer = _outer()
    _write_through(outer)
    assert outer.totals.tolist() == [7, 0, 0]
    assert outer.inner.counts[1, 2] == 5
    assert outer.pair[1][0] == 1.0


def test_what_is_not_an_array_keeps_its_references():
    """The string is counted like any value a call returns: taken for the caller, given back by it.
    Without that, the caller gives back a reference it never had and the string is freed early."""
    outer = _outer()
    for _ in range(10_000):
        assert _write_through(outer) == "chest"
