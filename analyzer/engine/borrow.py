"""Borrowed views: a kernel's arrays without an owner, so that using them costs no reference count.

Numba counts the references to every array it holds: reading an array out of a NamedTuple,
binding it to a name in an inlined function or passing it to a call takes a reference and
gives it back, each an atomic increment or decrement of the array's owner (its meminfo):
some 250 a game in Skull Island. A borrowed view has the same data, shape and strides and no
owner (a null meminfo), so each count finds no owner and changes nothing: a call into
Numba's runtime that returns at once, no atomic operation (a function compiled with
``refcounts=False``, see :mod:`analyzer.engine.jit`, makes no such calls at all). The
chunk template playing on borrowed views made games 13% faster in Skull Island, 35% in
Doubloons and 41% in Lucky Pirates (single-thread, results bit-identical).

A borrowed view is safe while something else keeps its array alive: the chunk template
borrows its arguments, which its caller holds for the whole call. Never borrow an array
made in the kernel (Numba frees it after its last use) or let a view outlive the call.
"""

from numba.core import cgutils, types
from numba.extending import intrinsic


def _holds_arrays(typ) -> bool:
    if isinstance(typ, types.Array):
        return True
    return isinstance(typ, types.BaseTuple) and any(_holds_arrays(element) for element in typ.types)


def _without_owners(context, builder, typ, value):
    """``value`` of type ``typ`` with every array in it (through nested tuples) made ownerless."""
    if isinstance(typ, types.Array):
        view = context.make_array(typ)(context, builder, value=value)
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    if not isinstance(typ, types.BaseTuple):
        return value
    for index, element in enumerate(typ.types):
        if _holds_arrays(element):
            part = _without_owners(context, builder, element, builder.extract_value(value, index))
            value = builder.insert_value(value, part, index)
    return value


@intrinsic
def borrowed(typingctx, value):
    """``value`` (an array, or a tuple or NamedTuple that holds arrays, at any depth) with each
    array replaced by a borrowed view of it: see the module's docstring for when this is safe.
    Anything else (numbers, a structref) is passed on as it is."""

    def codegen(context, builder, signature, args):
        typ = signature.args[0]
        result = _without_owners(context, builder, typ, args[0])
        if context.enable_nrt:  # a call returns a new reference: to what is left with an owner
            context.nrt.incref(builder, typ, result)
        return result

    return value(value), codegen
