"""The searches as counting methods (:class:`parqueens.methods.Method`):
``d4``, ``mirror`` and ``plain``, which split a count into work units at a
depth of rows (:mod:`.units`) and search them with the counting kernel
(:mod:`.kernels`).  Numpy and the kernels are imported when used, so that
the registry (:mod:`parqueens.run.method`) loads at once."""

from ..methods import Method
from ..names import ORBIT_SIZES

__all__ = ["SearchMethod", "D4", "MIRROR", "PLAIN", "search_specs"]


class SearchMethod(Method):
    """A search of whole boards row by row, with the symmetry group of the
    square (``d4``), its left-right reflection (``mirror``) or none
    (``plain``)."""

    splits = True

    def __init__(self, name, *, classifies=False, min_n=0, small_n_reason=""):
        self.name = name
        self.classifies = classifies
        # d4 records a unit's classes, and its share of the total is them
        # weighed by their orbits (its search finds other members too)
        self.weighs_classes = classifies
        self.min_n = min_n
        self.small_n_reason = small_n_reason

    def __repr__(self):
        return f"SearchMethod({self.name!r})"

    def serves(self, n):
        return True

    def split(self, n, jobs, split_depth=None, fixed=(), depth_jobs=None):
        from .units import choose_depth, make_units

        depth = choose_depth(n, self.name, depth_jobs or jobs, split_depth, fixed)
        return depth, make_units(n, self.name, depth, fixed)

    def shares(self, units):
        from .units import work_shares

        return work_shares(units)

    def load_kernels(self, nodes=False):
        from .units import make_units, unit_masks

        specs = [unit_masks(u, True) for u in make_units(5, "plain", 1)]
        search_specs(5, specs, nodes)

    def count_chunk(self, units, unique, nodes=False, stop=None):
        from .units import unit_masks

        specs = [unit_masks(unit, unique) for unit in units]
        solutions, by_stab, counted = search_specs(units[0].n, specs, nodes, stop)
        results = []
        for i, (s, b) in enumerate(zip(solutions, by_stab, strict=True)):
            b = tuple(int(x) for x in b)
            if self.weighs_classes:
                s = sum(size * c for size, c in zip(ORBIT_SIZES, b, strict=True))
            results.append((int(s), b, int(counted[i]) if counted is not None else 0))
        return results

    def unit_problem(self, classified, solutions, by_stab, nodes, weighed):
        if self.weighs_classes and weighed:
            total = sum(size * c for size, c in zip(ORBIT_SIZES, by_stab, strict=True))
            if total != solutions:
                return f"its classes {list(by_stab)} weigh {total} solutions, not {solutions}"
        if not self.classifies and classified is False and any(by_stab):
            return f"its size was counted without classes, it has {list(by_stab)}"
        return None


def search_specs(n, specs, nodes=False, stop=None):
    """Run the counting kernel on a list of :class:`parqueens.search.units.UnitSpec`.

    Returns ``(solutions, by_stab, nodes)`` as
    :func:`parqueens.search.kernels.count_batch` does, with ``nodes`` (uint64,
    one per spec) only if asked for, else None: counting the queens
    placed takes a kernel variant with a counter in its hot loop.  A spec
    that is not ``ok`` counts nothing.  ``stop``: None, or a uint8 array of 1
    read before each unit (:func:`parqueens.run.chunks.run_chunk`).
    """
    import numpy as np

    from .kernels import count_batch
    from .units import kernel_args

    counted = np.zeros(len(specs), dtype=np.uint64) if nodes else None
    solutions, by_stab = count_batch(n, *kernel_args(n, specs), counted, stop)
    return solutions, by_stab, counted


D4 = SearchMethod("d4", classifies=True, min_n=4, small_n_reason="four borders")
MIRROR = SearchMethod("mirror")
PLAIN = SearchMethod("plain")
