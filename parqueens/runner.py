"""Parallel runs: split into work units, dispatch with joblib, merge exactly.

The parent builds the work units (:mod:`parqueens.units`), loads the numba
kernels once (so that workers find them in the on-disk cache instead of
compiling them concurrently), and hands chunks of units to
``joblib.Parallel(return_as="generator_unordered")``, which streams results
as chunks finish.  Counts are merged as Python integers, so totals never
overflow; a single unit's count is a ``uint64`` and an overflow there is
detected and raised.
"""

import itertools
import sys
import time
from dataclasses import asdict, dataclass, field

import joblib
import numpy as np

from . import symmetry
from .kernels import MAX_N, _search_batch
from .units import METHODS, auto_depth, make_units, min_depth, unit_masks


#: With the default ``jobs=None``, boards up to this size are searched in the
#: calling process: starting worker processes takes longer than the search.
SMALL_N = 14


@dataclass
class CountResult:
    """The outcome of a count.

    Attributes
    ----------
    n : int
        Board size.
    total : int
        Number of solutions (OEIS A000170).
    fundamental : int or None
        Number of symmetry classes (OEIS A002562), if asked for.
    orbits : dict or None
        ``{orbit size: number of classes}`` for sizes 8, 4, 2 and 1 (size 1
        only for n <= 1), if asked for.  ``total = sum(size * classes)``.
    method : str
        Method actually used (``d4`` falls back to ``plain`` for n < 4).
    split_depth : int
        Rows pre-placed per work unit (0 for n < 3, solved directly).
    units : int
        Number of work units.
    jobs : int
        Number of parallel jobs used.
    seconds : float
        Wall-clock time of the run, in seconds.
    nodes : int
        Queens placed by the search (0 for n < 3).
    """

    n: int
    total: int
    fundamental: int = None
    orbits: dict = None
    method: str = "d4"
    split_depth: int = 0
    units: int = 0
    jobs: int = 1
    seconds: float = 0.0
    nodes: int = 0

    def as_dict(self):
        """The result as a JSON-ready dict (orbit keys as strings)."""
        d = asdict(self)
        if self.orbits is None:
            del d["orbits"]
            del d["fundamental"]
        else:
            d["orbits"] = {str(k): v for k, v in self.orbits.items()}
        return d


@dataclass
class UnitResult:
    """Result of one work unit: its solutions found (before weighting),
    canonical classes by stabiliser size (``by_stab[k]`` for ``2**k``), and
    the queens placed."""

    solutions: int
    by_stab: tuple = field(default=(0, 0, 0, 0))
    nodes: int = 0


def check_n(n, *, name="n", low=0, high=MAX_N):
    """Validate a board size; returns it as an int.

    Raises ``TypeError`` for a non-integer (booleans included) and
    ``ValueError`` outside ``low..high``.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {n!r}")
    n = int(n)
    if n < low:
        raise ValueError(f"{name} must be >= {low}, got {n}")
    if n > high:
        raise ValueError(f"{name} = {n} is too large: the kernels hold a row in a 64-bit "
                         f"mask, so n <= {high}")
    return n


def resolve_jobs(jobs):
    """Number of worker processes for ``jobs``.

    ``None`` means ``joblib.cpu_count()`` (which respects CPU affinity and
    container quotas); a negative value counts back from it like joblib
    (-1 = all cores, -2 = all but one).  Raises ``ValueError`` for 0 or a
    value that leaves no core, ``TypeError`` for a non-integer.
    """
    cpus = joblib.cpu_count()
    if jobs is None:
        return cpus
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)):
        raise TypeError(f"jobs must be an integer, got {jobs!r}")
    jobs = int(jobs)
    if jobs == 0:
        raise ValueError("jobs must not be 0 (use 1 for no parallelism, -1 for all cores)")
    if jobs < 0:
        resolved = cpus + 1 + jobs
        if resolved < 1:
            raise ValueError(f"jobs = {jobs} leaves no core on this machine ({cpus} cores)")
        return resolved
    return jobs


def warm_up():
    """Load (or compile, the first time) the numba kernels in this process.

    Done in the parent before workers start, so that they load the cached
    machine code instead of all compiling it at once.
    """
    run_chunk(make_units(5, "plain", 1), unique=True)


def run_chunk(units, unique):
    """Search a list of work units in this process.

    ``unique``: classify the solutions of ``plain``/``mirror`` units by
    symmetry too.  Returns a list of :class:`UnitResult`, one per unit, in
    order.  Raises ``OverflowError`` if a unit's count exceeded 2**64 - 1.
    """
    if not units:
        return []
    n = units[0].n
    count = len(units)
    allowed = np.zeros((count, n), dtype=np.uint64)
    must_row = np.full(count, -1, dtype=np.int64)
    must_mask = np.zeros(count, dtype=np.uint64)
    leaf_mode = np.zeros(count, dtype=np.int64)
    ties = np.zeros((count, 3), dtype=np.int64)
    for i, unit in enumerate(units):
        spec = unit_masks(unit, unique)
        if spec.ok:
            allowed[i] = spec.allowed
        must_row[i] = spec.must_row
        must_mask[i] = spec.must_mask
        leaf_mode[i] = spec.leaf_mode
        ties[i] = spec.tie_row_a, spec.tie_row_b, spec.tie_cols
    solutions, by_stab, nodes, overflow = _search_batch(n, allowed, must_row, must_mask,
                                                        leaf_mode, ties)
    if overflow:
        raise OverflowError("a work unit has more than 2**64 - 1 solutions; use a deeper "
                            "--split-depth")
    return [UnitResult(int(s), tuple(int(x) for x in b), int(k))
            for s, b, k in zip(solutions, by_stab, nodes)]


def _chunks(units, jobs):
    # Several chunks per job so that the large units, dispatched first,
    # are balanced by the many small ones at the end.
    size = max(1, len(units) // (16 * jobs))
    for i in range(0, len(units), size):
        yield units[i:i + size]


def iter_results(units, *, jobs=1, unique=False):
    """Yield ``(unit, UnitResult)`` pairs as work units finish.

    ``jobs`` = 1 runs in this process; more uses joblib's active backend
    (loky processes by default, or e.g. dask inside
    ``joblib.parallel_config(backend="dask")``).  Order is not guaranteed.
    """
    if not units:
        return
    warm_up()
    if jobs == 1:
        for chunk in _chunks(units, 1):
            yield from zip(chunk, run_chunk(chunk, unique))
        return
    chunks = list(_chunks(units, jobs))
    parallel = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")
    calls = (joblib.delayed(_run_chunk_tagged)(i, chunk, unique)
             for i, chunk in enumerate(chunks))
    for i, results in parallel(calls):
        yield from zip(chunks[i], results)


def _run_chunk_tagged(index, units, unique):
    return index, run_chunk(units, unique)


def _tiny(n):
    """n <= 2: every permutation checked directly."""
    total = 0
    orbits = {8: 0, 4: 0, 2: 0, 1: 0}
    for perm in itertools.permutations(range(n)):
        if all(abs(perm[i] - perm[j]) != i - j for i in range(n) for j in range(i)):
            total += 1
            if symmetry.canonical(perm) == perm:
                orbits[symmetry.orbit_size(perm)] += 1
    return total, orbits


def run_count(n, *, unique=False, method="d4", jobs=None, split_depth=None,
              progress=False):
    """Count the solutions of the n-queens problem, in parallel.

    Parameters
    ----------
    n : int
        Board size, ``0 <= n <= 64`` (n = 0 counts the empty placement: 1).
    unique : bool
        Also count the symmetry classes (fundamental solutions, OEIS A002562)
        and their orbit sizes.
    method : str
        ``"d4"`` (default, about 1/8 of the full tree), ``"mirror"`` (1/2)
        or ``"plain"`` (all of it); see :mod:`parqueens.units`.
    jobs : int or None
        Worker processes; None for ``joblib.cpu_count()`` (but 1 for
        n <= SMALL_N = 14, where starting workers costs more than the
        search), negative as in joblib, 1 for none (the search runs in this
        process).
    split_depth : int or None
        Rows pre-placed per work unit; None chooses one with at least 64
        units per job.
    progress : bool
        Show a tqdm bar over the work units on stderr.

    Returns
    -------
    CountResult

    Raises
    ------
    TypeError, ValueError
        For invalid arguments (see :func:`check_n`, :func:`resolve_jobs`).
    OverflowError
        If one work unit holds more than 2**64 - 1 solutions.
    """
    n = check_n(n)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if jobs is None and n <= SMALL_N:
        jobs = 1  # worker start-up would cost more than the whole search
    jobs = resolve_jobs(jobs)
    start = time.perf_counter()
    if n < 3:
        total, orbits = _tiny(n)
        return _finish(CountResult(n, total, method="plain", jobs=jobs), unique,
                       orbits, start)
    if method == "d4" and n < 4:
        method = "plain"
    if split_depth is None:
        depth = auto_depth(n, method, jobs)
    else:
        if isinstance(split_depth, bool) or not isinstance(split_depth, (int, np.integer)):
            raise TypeError(f"split depth must be an integer, got {split_depth!r}")
        depth = int(split_depth)
        if not min_depth(method) <= depth <= n:
            raise ValueError(f"split depth must be {min_depth(method)}..{n} for n = {n} "
                             f"and method {method}, got {depth}")
    units = make_units(n, method, depth)
    total = 0
    nodes = 0
    classes = [0, 0, 0, 0]
    bar = _progress_bar(len(units), progress, f"n={n}")
    try:
        for unit, res in iter_results(units, jobs=jobs, unique=unique):
            total += unit.weight * res.solutions
            nodes += res.nodes
            for k in range(4):
                classes[k] += res.by_stab[k]
            bar.update(1)
    finally:
        bar.close()
    orbits = {8 >> k: classes[k] for k in range(4)}
    if method == "d4":
        total = sum(size * c for size, c in orbits.items())
    result = CountResult(n, total, method=method, split_depth=depth, units=len(units),
                         jobs=jobs, nodes=nodes)
    return _finish(result, unique, orbits, start)


def _finish(result, unique, orbits, start):
    if unique:
        result.orbits = orbits
        result.fundamental = sum(orbits.values())
        if sum(size * c for size, c in orbits.items()) != result.total:
            raise RuntimeError("internal error: orbit sizes do not add up to the total")
    result.seconds = time.perf_counter() - start
    return result


def _progress_bar(total, enabled, desc):
    from tqdm import tqdm
    return tqdm(total=total, disable=not enabled, file=sys.stderr, unit="unit",
                desc=desc, dynamic_ncols=True)
