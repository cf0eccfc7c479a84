"""The join as a counting method (:class:`parqueens.methods.Method`): its
units planned by configuration (:mod:`.units`; past
:data:`~parqueens.join.rowsets.ROWSET_MIN_N`, by row sets), their modelled
work, its kernels, its memory, and what its stored results hold.  Its
thresholds are read here and nowhere outside the join.  Numpy and the
kernels are imported when used, so that the registry
(:mod:`parqueens.run.method`) loads at once."""

from ..methods import Method
from ..names import JOIN_MAX_N, JOIN_MIN_N

__all__ = ["JoinMethod", "JOIN"]


class JoinMethod(Method):
    """Totals by matching half-boards; the classes by Burnside's lemma."""

    name = "join"
    splits = False
    classifies = True
    classes_by_burnside = True
    needs_memory = True

    def __repr__(self):
        return "JoinMethod()"

    def serves(self, n):
        return JOIN_MIN_N <= n <= JOIN_MAX_N

    def split(self, n, jobs, split_depth=None, fixed=(), depth_jobs=None):
        from .units import join_units

        return 0, join_units(n)

    def shares(self, units):
        import numpy as np

        work = np.array([u.work for u in units], dtype=np.float64)
        total = work.sum()
        return work / total if total > 0 else np.full(len(units), 1.0 / len(units))

    def load_kernels(self, nodes=False):
        import numpy as np

        from . import rowsets
        from .units import count_join_units, join_units

        count_join_units(8, join_units(8))
        # The kernels of n >= 22 (tables per row set), on a board of 8.
        rowsets.count_units(8, rowsets.plan_units(8)[:1], np.zeros(1, np.uint8))

    def count_chunk(self, units, unique, nodes=False, stop=None):
        from .units import count_join_units

        # each unit's share of the total; no classes, no nodes
        return [(int(c), (0, 0, 0, 0), 0) for c in count_join_units(units[0].n, units, stop)]

    def chunk_share(self, units, target, least=0.0):
        from .rowsets import CHUNK_SECONDS, ROWSET_MIN_N, work_seconds

        total = sum(u.work for u in units)
        if units[0].n >= ROWSET_MIN_N:
            # A count of hours: chunks of seconds, so that an interruption keeps them.
            seconds = work_seconds(total, units[0].n)
            target = min(target, CHUNK_SECONDS / seconds) if seconds > 0 else target
        if not least:
            return target, None
        return target, (min(1.0, least / total) if total > 0 else 1.0)

    def release(self):
        # The south tables this process kept for the run (up to 512 MiB).
        from .south import process_tables

        process_tables().clear()

    def memory(self, n, threads):
        from .units import join_memory

        return join_memory(n, threads)

    def sampled(self, n):
        from .rowsets import ROWSET_MIN_N

        return n >= ROWSET_MIN_N

    def unit_problem(self, classified, solutions, by_stab, nodes, weighed):
        if any(by_stab) or nodes:
            return f"a join unit holds no classes and no nodes, it has {list(by_stab)} and {nodes}"
        return None


JOIN = JoinMethod()
