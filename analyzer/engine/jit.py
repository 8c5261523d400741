"""``njit``: Numba's ``njit``, with one compiled specialization per argument types.

Numba types a constant argument in a call between compiled functions as a literal
(``collect_tiles(m, p, 1)`` passes ``Literal[int](1)``, ``offer_mascots(m, p, True)``
``Literal[bool](True)``) and compiles the callee once for each such value, on top of its
compile for the plain types. Over a game's kernel that is one compile in six or seven:
Dead Man's Chest's kernel took 41 s to compile and Skull Island's 26 s; without the
literal copies 36 s and 19 s. The kernels run as fast either way, since LLVM still sees
the constants once it inlines a call. So every compiled function of the package is made
with this ``njit``, which hands the callee the plain types of its arguments.

It also lets a hot function go without Numba's reference counting (``refcounts=False``).
Numba counts the references to every array a compiled function binds: an argument, an
array read out of a tuple, the arguments of a function it inlines. Each count is a call
into Numba's runtime (``NRT_incref``, ``NRT_decref``) that LLVM cannot see through, so it
also keeps values in memory rather than in registers. Numba prunes the pairs it can
match, but not in a loop with many exits: Doubloons' round loop made about 1,600 such
calls a match, a quarter of its time, and each step split out of it added more.

And its disk cache is stamped with the sources of the function's whole package and of the
engine (:func:`sources_stamp`). Numba stamps a cached function with its own file only, so
a kernel that inlines or links a helper from another file kept running the helper's old
code after that file changed: a game's ``play_game`` in ``kernel.py`` kept Doubloons' old
round loop from ``turns.py``, 1.4 times as slow, until its cache was cleared.

And it keeps the two wrappers Numba makes for every compiled function, to call it from Python
and from C. (Compiling without them what only compiled code calls, through a second dispatcher
of each function, made a kernel's fresh compile 0.84 to 0.96 times as long, but compiled twice
each function that a test also calls from Python, each time with everything it calls: Dead Man's
Chest's tests took 65 s instead of 54 s from an empty cache. Not kept: see the README.)

And while it compiles, Python's garbage collector leaves its oldest generation alone
(:mod:`analyzer.engine.garbage`): Skull Island's first run took 0.78 times as long so.

And its disk cache loads a compiled function without refreshing Numba's target context first
(:class:`LoadWithoutRefresh`), which a run whose kernels are all cached never needs.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numba
from numba.core import types
from numba.core.caching import FunctionCache
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys

from analyzer.engine.garbage import oldest_generation_held


class PlainArgumentsDispatcher(CPUDispatcher):
    """A CPU dispatcher whose calls from compiled code compile for plain argument types, and whose
    compiles hold back the collection of the garbage collector's oldest generation."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(argument) for argument in args)
        return super().get_call_template(plain, {name: types.unliteral(kind) for name, kind in kws.items()})

    def compile(self, sig):
        with oldest_generation_held():  # also around a load from the disk cache, which costs nothing here
            return super().compile(sig)


class LoadWithoutRefresh(FunctionCache):
    """Numba's disk cache of a compiled function, which loads one without refreshing the target context.

    Numba refreshes it before every load: it imports and registers every implementation it
    knows (the lowering of NumPy, of Python's built-ins, ...), the first time about 0.1 s of a
    short run's 0.45 s (0.15 s under cProfile). Code loaded from the cache is already compiled
    and needs none of them, only the runtime it calls into (initialised here, as the refresh
    would); a compile, which does need them, refreshes the context itself first.
    """

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)


def njit(function=None, *, refcounts: bool = True, **options):
    """``numba.njit(**options)``, used as ``@njit`` or ``@njit(cache=True, ...)``; its dispatcher is a
    :class:`PlainArgumentsDispatcher`.

    ``refcounts=False`` compiles the function, and every function it inlines, without reference
    counting (Numba's ``_nrt=False``). Only for a function that allocates no array, gets none
    from the functions it calls and returns none: every array it sees must be held by its
    caller for the whole call. Numba refuses to compile one that allocates; one handed a new
    array would leak it, and one returning an array would hand its caller a reference it never
    took.
    """
    options["_nrt"] = refcounts  # set either way: Numba lets a callee compiled for a caller inherit its setting

    def compiled(py_func):
        dispatcher = numba.njit(**options)(py_func)
        if options.get("cache") and getattr(dispatcher, "_cache", None) is not None:
            dispatcher._cache._cache_file._source_stamp = sources_stamp(py_func)
            dispatcher._cache.__class__ = LoadWithoutRefresh
        if isinstance(dispatcher, CPUDispatcher):  # not with NUMBA_DISABLE_JIT, which returns py_func
            dispatcher.__class__ = PlainArgumentsDispatcher
        return dispatcher

    return compiled if function is None else compiled(function)


ENGINE = Path(__file__).resolve().parent


def _package(source: Path) -> Path:
    """The folder whose sources a compiled function of ``source`` may inline: its game's whole
    package (``games/<game>/``, subpackages included), else its own folder."""
    for folder in source.parents:
        if folder.parent.name == "games":
            return folder
    return source.parent


@functools.cache
def _folder_stamp(folder: Path) -> tuple[float, int, int]:
    """The newest modification time, the total size and the count of the ``.py`` files under ``folder``."""
    sources = [path.stat() for path in folder.rglob("*.py")]
    return max(s.st_mtime for s in sources), sum(s.st_size for s in sources), len(sources)


def sources_stamp(py_func) -> tuple:
    """The stamp of a cached compiled function: that of its package's sources and of the engine's,
    whose jitted helpers every kernel calls. Computed once per folder and run."""
    source = Path(py_func.__code__.co_filename).resolve()
    return tuple(_folder_stamp(folder) for folder in sorted({ENGINE, _package(source)}))
