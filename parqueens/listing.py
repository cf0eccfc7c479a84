"""Listing solutions: all of them, or one canonical form per symmetry class,
in lexicographic order, streamed in blocks of bounded size.

The search is the listing kernel, :func:`parqueens.kernels._record`, which
stores the solutions it finds.  Work units are taken in
lexicographic order of their prefixes, and each unit lists its solutions in
lexicographic order (the kernel tries columns from 0 up), so the whole
stream is sorted, whatever the number of jobs.  Units are split deep enough
that each holds a bounded number of solutions, and joblib keeps only a few
chunks in flight, so memory does not grow with the number of solutions.

``unique``: the canonical form of a class is its lexicographically smallest
member; the D4 method's search in its lexicographic order (see
:func:`parqueens.units.d4_order`) finds exactly these, so it lists them directly.
"""

import itertools
import warnings

import numpy as np

from .backends import call_interruptibly, parallel, plan_jobs, start_workers
from .checks import (
    check_fixed,
    check_n,
    check_positive,
    check_split_depth,
    check_unique_fixed,
    fixed_conflict,
)
from .kernels import _list_solutions, _record
from .units import UNITS_FROM, iter_units, min_depth, tiny_solutions, unit_masks

#: Work units per task sent to a worker.
_CHUNK_UNITS = 64


def _listing_method(n, unique, fixed):
    check_unique_fixed(unique, fixed)
    return "d4" if unique and n >= 4 else "plain"


def _listing_depth(n, method, fixed=()):
    # About n/4 + 1 free rows keep units to a few thousand solutions each up
    # to n = 20 while the number of units stays manageable; fixed queens'
    # rows do not branch, so the depth grows past them.
    fixed_rows = {r for r, _ in fixed}
    depth = free = 0
    while depth < n - 3 and free < n // 4 + 1:
        free += depth not in fixed_rows
        depth += 1
    return max(min_depth(method, True), depth)


def _enumerate_units(units, unique, limit):
    """Solutions of consecutive units, concatenated in order: uint8 array of
    shape ``(k, n)``."""
    n = units[0].n
    blocks = []
    for unit in units:
        spec = unit_masks(unit, unique)
        if not spec.ok:
            continue
        # The kernel's limit counts recorded solutions; with unique not all
        # of them are canonical, so the limit is applied afterwards.
        kernel_limit = 0 if unique else limit
        capacity = 4096
        while True:
            leaves = np.empty((capacity, n), np.uint64)
            must_row = spec.must_row if spec.must_row >= 0 else None
            recorded, full = _record(
                n, spec.allowed, must_row, np.uint64(spec.must_mask), leaves, kernel_limit
            )
            if not full or (kernel_limit and recorded >= kernel_limit):
                break
            capacity *= 4  # search the unit again: at most a third more work
        if recorded:
            blocks.append(_list_solutions(n, leaves, recorded, spec.leaf_mode != 0))
    if not blocks:
        return np.empty((0, n), np.uint8)
    return np.concatenate(blocks)


def iter_blocks(n, *, unique=False, fixed=None, jobs=1, limit=None, split_depth=None):
    """Solutions in lexicographic order, as blocks.

    Parameters
    ----------
    n : int
        Board size, 0..64.
    unique : bool
        Only the canonical form (smallest member) of each symmetry class.
    fixed : iterable of (int, int) or None
        Only the solutions containing these 0-based ``(row, col)`` queens.
    jobs : int or None
        Worker processes (loky), planned as in :func:`parqueens.run_count`
        (None: all cores, but 1 for at most 14 rows to search); the order of the solutions
        does not depend on it.
    limit : int or None
        Stop after this many solutions.
    split_depth : int or None
        Rows pre-placed per unit (None: about n/4 + 1).

    Yields
    ------
    numpy.ndarray of uint8, shape ``(k, n)``
        Consecutive solutions, ``block[i, row] = col``.

    Raises
    ------
    TypeError, ValueError
        For invalid arguments.
    """
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    method = _listing_method(n, unique, fixed)
    jobs = plan_jobs(jobs, "loky", n - len(fixed))
    if limit is not None:
        limit = check_positive(limit, "limit")
    if fixed_conflict(fixed):
        return
    if n < UNITS_FROM:
        found = tiny_solutions(n, unique, fixed)[:limit]
        if found:
            yield np.array(found, dtype=np.uint8).reshape(len(found), n)
        return
    if split_depth is None:
        depth = _listing_depth(n, method, fixed)
    else:
        depth = check_split_depth(split_depth, n, method, min_depth(method, True))
    units = (unit for unit, _ in iter_units(n, method, depth, fixed, lexicographic=True))
    chunks = iter(lambda: list(itertools.islice(units, _CHUNK_UNITS)), [])
    unit_limit = limit or 0
    if jobs == 1:
        results = (
            call_interruptibly(_enumerate_units, chunk, unique, unit_limit) for chunk in chunks
        )
    else:
        import joblib

        from .runner import warm_up

        call_interruptibly(warm_up)
        results = start_workers(
            parallel("loky", jobs, ordered=True),
            (joblib.delayed(_enumerate_units)(chunk, unique, unit_limit) for chunk in chunks),
        )
    left = limit
    try:
        for block in results:
            if left is not None:
                block = block[:left]
                left -= len(block)
            if len(block):
                yield block
            if left == 0:
                break
    finally:
        close = getattr(results, "close", None)
        if close:
            with warnings.catch_warnings():
                # Stopping early (limit) cancels tasks in flight on purpose.
                warnings.simplefilter("ignore", UserWarning)
                close()


def solutions(n, *, unique=False, fixed=None, jobs=1, limit=None):
    """Iterate over the solutions in lexicographic order.

    Same parameters as :func:`iter_blocks`.  Yields tuples of int,
    ``queens[row] = col``; n = 8 starts with ``(0, 4, 7, 5, 2, 6, 1, 3)``.
    """
    for block in iter_blocks(n, unique=unique, fixed=fixed, jobs=jobs, limit=limit):
        for row in block.tolist():
            yield tuple(row)


def first_solution(n, *, fixed=None):
    """The lexicographically first solution, or None if there is none.

    Found by backtracking in this process; for some large n this takes long
    (the first solution lies deep in the tree); :func:`parqueens.construct`
    gives *a* solution for any n at once.

    Returns a tuple of int (``queens[row] = col``) or None.
    """
    n = check_n(n)
    for block in iter_blocks(n, fixed=fixed, jobs=1, limit=1, split_depth=1 if n >= 3 else None):
        return tuple(int(c) for c in block[0])
    return None
