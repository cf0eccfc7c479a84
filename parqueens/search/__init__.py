"""The search: the iterative bitmask backtracker over work units reduced by
the symmetries of the square.

What it owns:

- :mod:`.kernels`: the numba kernels (conventions in its docstring): counting,
  listing, estimating, and checking lists for :mod:`parqueens.verify`;
- :mod:`.units`: the work units (:class:`~.units.WorkUnit`, stable ids), their
  masks and kernel inputs, the split depth, the d4 ranking
  (:func:`~.units.d4_order`), the units' shares of the work;
- :mod:`.small`: small boards (at most 10 rows to search) in pure Python, and
  when a run is one.

What it may import: :mod:`parqueens.io` and the shared bottom (``names``,
``checks``, ``methods``, ``symmetry``, ``dihedral``, ...); never the join,
:mod:`parqueens.run` or :mod:`parqueens.cli`, which use it
(``tests/test_module_boundaries.py``).
"""

__all__: list[str] = []
