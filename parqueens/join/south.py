"""The south tables of row sets, made once a process and kept.

A row set's south tables (the placements of its south rows in the
south-east and south-west roles, :func:`parqueens.join.pieces.south_table`)
depend on the configuration and those rows alone, not on the unit's north
rows: n = 22's 352,000 row sets need 2,048 distinct tables, and each was
made 344 times over when every row set made its own (17 % of the count's
time, on 21 units spread over the plan).  A process
keeps them in :class:`SouthTables`, the least recently used leaving first
once they pass :data:`CACHE_BYTES`; the plan runs the units that share
south rows one after the other (:func:`parqueens.join.rowsets.plan_units`),
so that at n = 22 each table is made about once.
"""

import threading
import time
from collections import OrderedDict

from numba import njit, types
from numba.typed import List

from .kernels import CFG_ROWS_S
from .pieces import SE, SW, south_table

#: Bytes of south tables a process keeps (at n = 22 and 23 those of one
#: plan class, the units whose north-east rows have as many queens, hold
#: about 400 MB).
CACHE_BYTES = 512 * 2**20
#: Resident memory of a process that has loaded numpy, numba and the join's
#: kernels, before any table (measured: 144 MB).
BASE_BYTES = 150 * 2**20
#: Bytes of south tables handed to one kernel call at most (a unit of many
#: row sets is counted in several calls, each with its own north tables).
BATCH_BYTES = 64 * 2**20
#: The numba type of a table: (start, mid, ab, word), as
#: :func:`parqueens.join.pieces.role` makes it.
TABLE = types.Tuple((types.int64[::1], types.int64[::1], types.uint64[::1], types.uint64[::1]))

__all__ = [
    "BASE_BYTES",
    "BATCH_BYTES",
    "CACHE_BYTES",
    "SouthTables",
    "batches",
    "new_batch",
    "process_tables",
]


def _bytes(table):
    return sum(a.nbytes for a in table)


class SouthTables:
    """South tables by (configuration, role, rows) of one board size at a
    time, least recently used out first once they hold more than
    ``budget`` bytes (0: none kept, every table made anew); a table of
    another size lets the others go.  Shared by the threads of a process:
    a table two threads miss at once is made twice, kept once."""

    def __init__(self, budget=CACHE_BYTES):
        self.budget = budget
        self.made = 0
        self.served = 0
        #: Thread seconds spent making tables (an estimate's samples time them apart).
        self.seconds = 0.0
        self._tables = OrderedDict()
        self._held = 0
        self._n = None
        self._lock = threading.Lock()

    def clear(self):
        """Let every kept table go (their memory is the allocator's again
        once no count holds them)."""
        with self._lock:
            self._drop()

    def _drop(self):
        # Under the lock.
        self._tables.clear()
        self._held = 0

    @property
    def held(self):
        """Bytes of the tables kept now."""
        return self._held

    def get(self, n, config, which, rows):
        """The table of south rows ``rows`` (an int mask) in role ``which``
        (``SE`` or ``SW``) of configuration ``config`` (one of
        :func:`parqueens.join.configs.configs`) of board size ``n``."""
        key = (config.name, which, rows)
        with self._lock:
            if n != self._n:
                self._drop()
                self._n = n
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
                self.served += 1
                return table
        began = time.thread_time()
        table = south_table(
            n, n // 2, rows, which, config.fixed_wide, config.diagonal_symmetry, config.layout
        )
        size = _bytes(table)
        with self._lock:
            self.seconds += time.thread_time() - began
            self.made += 1
            if n == self._n and key not in self._tables and size <= self.budget:
                self._tables[key] = table
                self._held += size
                while self._held > self.budget:
                    _, old = self._tables.popitem(last=False)
                    self._held -= _bytes(old)
        return table


_PROCESS = SouthTables()


def process_tables():
    """This process's :class:`SouthTables` (one for all its threads; a run
    in this process clears it at its end, a worker of a pool or a cluster
    keeps its tables until it counts another size)."""
    return _PROCESS


def batches(n, config, bs, lo, hi, tables, stop):
    """Yield ``(e0, e1, south)`` for the row sets ``lo:hi`` whose south-east
    rows are ``bs[e]``: ``south`` a typed list of their south-east and
    south-west tables, in order (as :func:`parqueens.join.pieces.count_rowsets`
    takes them), at most about :data:`BATCH_BYTES` a batch.  Stops early
    once ``stop[0]`` is set."""
    rows_s = int(config.cfg[CFG_ROWS_S])
    e = lo
    while e < hi and not stop[0]:
        south = new_batch()
        held = 0
        e0 = e
        while e < hi and (e == e0 or held < BATCH_BYTES) and not stop[0]:
            b = int(bs[e])
            for table in (tables.get(n, config, SE, b), tables.get(n, config, SW, rows_s ^ b)):
                _append(south, table)
                held += _bytes(table)
            e += 1
        yield e0, e, south


# The list made and filled by kernels of numba's cache: the typed list's
# own methods, called from Python, are compiled in every process (0.45 s
# of every join count's start).
@njit(cache=True)
def new_batch():
    """An empty typed list of tables (:data:`TABLE`)."""
    return List.empty_list(TABLE)


@njit(cache=True)
def _append(batch, table):
    batch.append(table)
