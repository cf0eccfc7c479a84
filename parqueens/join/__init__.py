"""The join: totals by matching half-boards (Kluev's quadrant-join counter, in numba).

What it owns:

- :mod:`.units`: the join's plan, its configurations and work units
  (:class:`JoinUnit`) with their weights, the quadrant tables per process,
  counting them (:func:`count_join_units`, :func:`count_join`), and its memory
  and time before it runs (:func:`join_memory`, :func:`join_estimate`);
- :mod:`.kernels`: its numba kernels (quadrant placements, role tables,
  half-boards, work units);
- :mod:`.match`: the matcher (east words bit-sliced into chunk tables, the
  sieve, disjoint pairs counted);
- past n = 21, :mod:`.rowsets` (units of row sets, their count, memory and
  sampled estimate), :mod:`.pieces` (tables per row set, counted in blocks)
  and :mod:`.south` (the south tables a process keeps);
- :mod:`.simd`: vectors of 4 and of 4 or 8 ``uint64`` lanes (AVX-512) in one LLVM vector;
- :mod:`.burnside`: the solutions fixed by the half and quarter turns, and the
  classes from them by Burnside's lemma.

What it may import: :mod:`parqueens.io` and the shared bottom (``names``,
``checks``, ...), and the search's kernels (:func:`parqueens.search.kernels.popcount`, the
words :data:`~parqueens.search.kernels.ZERO`, ``ONE``, ``ALL``);
never :mod:`parqueens.run` or :mod:`parqueens.cli`, which use it
(``tests/test_module_boundaries.py``).

The names of :mod:`.units` are importable from here too (``from parqueens.join
import join_units``), loaded on first use so that importing a module of this
package (Burnside's counts) does not load the join's kernels.
"""

import importlib as _importlib

__all__ = [
    "JoinUnit",
    "count_join",
    "count_join_units",
    "join_estimate",
    "join_memory",
    "join_sampled_estimate",
    "join_units",
]


def __getattr__(name):
    if name in __all__:
        value = getattr(_importlib.import_module(".units", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
