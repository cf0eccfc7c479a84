"""Listing solutions: all of them, or one canonical form per symmetry class,
in lexicographic order, streamed in blocks of bounded size.

The search is the listing kernel, :func:`parqueens.search.kernels.list_solutions` (the
counting kernel's variant that writes the columns of the solutions it
finds).  Work units are taken in lexicographic order of their prefixes, and
each unit lists its solutions in lexicographic order (the kernel tries
columns from 0 up), so the whole stream is sorted, whatever the number of
jobs.  Units are split so that about 13 rows are left to search in each (a
bounded number of solutions per unit), chunks of units run in threads (the
kernel releases the GIL), and only a window of chunks (two per thread) is
searched ahead of the consumer, so memory does not grow with the number of
solutions, however slowly they are written.

All solutions, no fixed queens: the left-right mirror halves the search.
The solutions whose row-0 queen is in column ``n - 1 - c`` are the mirror
images of those in column ``c``, and mirroring reverses their lexicographic
order; so only the left half (and the middle column of an odd board) is
searched, its solutions are kept in a temporary file as they stream out,
and the right half is read back from it, column by column from the middle
out, each backwards, mirrored.  The stream is byte for byte the same.

``unique``: the canonical form of a class is its lexicographically smallest
member; the D4 method's search in its lexicographic order (see
:func:`parqueens.search.units.d4_order`) finds exactly these, so it lists them directly.
"""

import collections
import contextlib
import functools
import itertools
import tempfile
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..checks import (
    check_fixed,
    check_n,
    check_positive,
    check_split_depth,
    check_unique_fixed,
    fixed_conflict,
)
from ..methods import min_depth
from ..names import UNITS_FROM
from ..search.small import serves as small_serves
from ..search.small import solutions as direct_solutions
from .backends import call_interruptibly, plan_jobs
from .method import get_method

# numpy, the numba kernels and the work units are imported where they are
# used: a small board (parqueens.search.small) is listed without them, at once.

__all__ = ["iter_blocks", "spill_bytes", "planned_count", "solutions", "first_solution"]


#: Work units per task given to a thread.
_CHUNK_UNITS = 16

#: Chunks searched or waiting to be taken, per thread: bounds the memory.
_WINDOW_PER_JOB = 2

#: Rows left to search below a listing unit's prefix: a 13-row remainder
#: holds at most some ten thousand solutions (73,712 on a free 13-board).
_ROWS_PER_UNIT = 13

#: Solutions a unit may write at once; a plain unit with more is split into
#: its children (73,712 fit a free 13-row remainder: 1.2 MB at n = 16).
_UNIT_ROWS = 1 << 17

#: Rows read back at a time for the mirrored half (bounds the memory).
_MIRROR_ROWS = 1 << 16


def _listing_method(n, unique, fixed):
    check_unique_fixed(unique, fixed)
    return "d4" if unique and n >= 4 else "plain"


def _listing_depth(n, method, fixed=(), jobs=1):
    """The split depth of a listing.  Without fixed queens, the shallowest
    prefix below which at most _ROWS_PER_UNIT rows are free (a bounded number
    of solutions per unit), at least the method's smallest.  With fixed
    queens, the count's (:func:`parqueens.search.units.auto_depth`: enough units for
    the jobs): they prune the search, so a unit holds far fewer solutions,
    and 13 free rows above fixed bottom rows took some 10**6 units built in
    Python (50 s where the count took 1.5 s); a unit that still finds more
    solutions than a buffer holds is split further as it is searched."""
    if fixed:
        from ..search.units import auto_depth

        return max(min_depth(method, True), auto_depth(n, method, jobs, fixed))
    depth = min_depth(method, True)
    while depth < n - 3 and n - depth > _ROWS_PER_UNIT:
        depth += 1
    return depth


def _probe(n, fixed):
    from ..search.units import iter_units
    from .estimate import probe_units

    return probe_units([unit for unit, _ in iter_units(n, "plain", 2, fixed)], 100_000, 1)


@functools.cache
def _warm_up():
    """Load the listing's kernels and the units' helpers in this process."""
    from ..search.units import iter_units

    units = [unit for unit, _ in iter_units(5, "plain", 1, lexicographic=True)]
    _enumerate_units(units, True, 0)


def _enumerate_units(units, unique, limit):
    """Solutions of consecutive units, concatenated in order: uint8 array of
    shape ``(k, n)``; at most ``limit`` (0: all)."""
    import numpy as np

    from ..search.kernels import WORK_SIZE, bans_beyond, keep_canonical, list_solutions
    from ..search.units import children, unit_masks

    n = units[0].n
    out = np.empty((2 * _UNIT_ROWS, n), np.uint8)
    work = np.zeros(WORK_SIZE, np.uint64)
    k = 0
    todo = list(reversed(units))  # a stack: the next unit last
    while todo:
        unit = todo.pop()
        spec = unit_masks(unit, unique)
        if not spec.ok:
            continue
        if len(out) - k < _UNIT_ROWS:
            out = np.concatenate([out[:k], np.empty((len(out), n), np.uint8)])
        banned = True if bans_beyond(n, spec.allowed) else None
        # The kernel's limit counts what it records; with unique not all of
        # it is canonical, so the limit is applied after the filter.
        left = limit - k if limit and not unique else 0
        room = out[k : k + left] if 0 < left < _UNIT_ROWS else out[k : k + _UNIT_ROWS]
        got, complete = list_solutions(n, spec.allowed, banned, room, work)
        if not complete and not (left and got == left):
            deeper = children(unit)
            if deeper:
                # More solutions than a buffer: search its children instead,
                # in order (bounded memory, however many the unit holds).
                todo.extend(reversed(deeper))
                continue
            while not complete:  # a unit of another method: a larger buffer
                out = np.concatenate([out[:k], np.empty((8 * len(out), n), np.uint8)])
                got, complete = list_solutions(n, spec.allowed, banned, out[k:], work)
        if spec.leaf_mode:
            got = keep_canonical(n, out[k:], got)
        k += got
        if limit and k >= limit:
            return out[:limit].copy()
    # A copy: a view would keep the whole (possibly grown) buffer alive
    # while finished chunks wait their turn.
    return out[:k].copy()


def iter_blocks(
    n: int,
    *,
    unique: bool = False,
    fixed: Iterable[tuple[int, int]] | None = None,
    jobs: int | None = 1,
    limit: int | None = None,
    split_depth: int | None = None,
    arrays: bool = True,
    spill_dir: str | None = None,
) -> Iterator[Any]:
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
        Threads, planned as in :func:`parqueens.run_count` (None: all cores,
        but 1 for at most 14 rows to search); the order of the solutions
        does not depend on it.
    limit : int or None
        Stop after this many solutions.
    split_depth : int or None
        Rows pre-placed per unit (None: so that about 13 free rows are left).
    spill_dir : str or None
        Folder of the temporary file that holds the left half of the
        solutions while a listing of all of them runs (n bytes each, see
        :func:`spill_bytes`); None: the system's (``TMPDIR``).
    arrays : bool
        False: a board small enough to be solved without the kernels
        (:mod:`parqueens.search.small`) comes as one list of tuples, without
        importing numpy (0.05 s of start-up).

    Yields
    ------
    numpy.ndarray of uint8, shape ``(k, n)``
        Consecutive solutions, ``block[i, row] = col`` (with ``arrays``
        False, possibly a list of k tuples of n int instead).

    Raises
    ------
    TypeError, ValueError
        For invalid arguments, at the call (not when iterated).
    """
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    method = _listing_method(n, unique, fixed)
    jobs_asked, jobs = jobs, plan_jobs(jobs, "threads", n - len(fixed))
    if limit is not None:
        limit = check_positive(limit, "limit")
    return _blocks(
        n, method, unique, fixed, jobs_asked, jobs, limit, split_depth, arrays, spill_dir
    )


def _blocks(n, method, unique, fixed, jobs_asked, jobs, limit, split_depth, arrays, spill_dir):
    """:func:`iter_blocks` once its arguments are checked."""
    if fixed_conflict(fixed):
        return
    direct = jobs_asked in (None, 1) and small_serves(n, fixed, split_depth=split_depth)
    if n < UNITS_FROM or direct:
        yield from _direct_blocks(n, fixed, unique, limit, arrays)
        return
    # Loading numba's cache runs through ctypes callbacks, which would
    # swallow a Ctrl-C arriving in this thread meanwhile: load it aside.
    call_interruptibly(_warm_up)
    units, mirror = _listing_units(n, method, fixed, jobs, split_depth)
    blocks = _limited(_searched(units, unique, limit or 0, jobs), limit)
    if not mirror:
        yield from blocks
        return
    yield from _mirrored(n, blocks, limit, spill_dir)


def _direct_blocks(n, fixed, unique, limit, arrays):
    """The solutions of a small board (:mod:`parqueens.search.small`), at most
    ``limit``: one block, a uint8 array (a list of tuples without
    ``arrays``), or none if there are none."""
    found = direct_solutions(n, fixed, unique)[:limit]
    if found and not arrays:
        yield found
    elif found:
        import numpy as np

        yield np.array(found, dtype=np.uint8).reshape(len(found), n)


def _listing_units(n, method, fixed, jobs, split_depth):
    """The work units a listing searches, in lexicographic order (an
    iterator), and whether the mirror gives the rest: without fixed queens,
    a plain listing searches the units whose row-0 queen is in the left
    half or the middle column (see :func:`_mirrored`).  ``split_depth``
    None: :func:`_listing_depth`; else checked (``ValueError``)."""
    from ..search.units import iter_units

    if split_depth is None:
        depth = _listing_depth(n, method, fixed, jobs)
    else:
        depth = check_split_depth(split_depth, n, method, min_depth(method, True))
    mirror = not get_method(method).classifies and not fixed  # plain: mirrored
    units = (
        unit
        for unit, _ in iter_units(n, method, depth, fixed, lexicographic=True)
        if not mirror or 2 * unit.prefix[0] <= n - 1
    )
    return units, mirror


def _searched(units, unique, limit, jobs):
    """The solutions of the units, in order, as blocks."""
    chunks = iter(lambda: list(itertools.islice(units, _CHUNK_UNITS)), [])
    if jobs == 1:
        yield from (call_interruptibly(_enumerate_units, c, unique, limit) for c in chunks)
        return
    # A window of chunks in flight, refilled as their blocks are taken: a
    # slow consumer (text output) holds the search back instead of letting
    # finished chunks pile up.  joblib's generator has no such bound: it ran
    # all 69 chunks of n = 16 ahead of a paused consumer (188 MB).
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="parqueens-listing")
    window = collections.deque()
    try:
        for chunk in itertools.chain(chunks, [None]):
            if chunk is not None:
                window.append(pool.submit(_enumerate_units, chunk, unique, limit))
            while window and (chunk is None or len(window) > _WINDOW_PER_JOB * jobs):
                yield window.popleft().result()
    finally:
        # Stopped early (limit, error, Ctrl-C): chunks not started are
        # dropped, those running end with their chunk.
        pool.shutdown(wait=False, cancel_futures=True)


def _limited(blocks, limit):
    """The non-empty blocks, cut at ``limit`` solutions in all (None: all)."""
    left = limit
    try:
        for block in blocks:
            if left is not None:
                block = block[:left]
                left -= len(block)
            if len(block):
                yield block
            if left == 0:
                return
    finally:
        blocks.close()


def spill_bytes(n, count, *, unique=False, fixed=None):
    """Bytes of the temporary file a listing of ``count`` solutions needs
    besides its output: the mirror's left half, n bytes a solution (0 for
    the listings that search everything: ``unique``, fixed queens)."""
    mirror = not unique and not fixed and n >= UNITS_FROM
    return n * ((count + 1) // 2) if mirror else 0


def _mirrored(n, blocks, limit, spill_dir=None):
    """``blocks`` (the left half and the middle column, in order), then the
    right half: the left half's mirror images, read back from a spill file
    column by column from the middle out, each backwards; at most ``limit``
    solutions in all."""
    import numpy as np

    half = n // 2  # row-0 columns 0..half-1 have mirror images
    per_column = np.zeros(n, np.int64)
    emitted = 0
    with tempfile.TemporaryFile(dir=spill_dir) as spill, contextlib.closing(blocks):
        for block in blocks:
            # Sorted: the rows of the left half come first (a view, no copy).
            left = block[: np.searchsorted(block[:, 0], half)]
            try:
                spill.write(np.ascontiguousarray(left).data)
            except OSError as exc:  # say which file, which a bare ENOSPC does not
                raise OSError(
                    exc.errno,
                    f"{exc.strerror} (writing the listing's temporary file of the mirrored "
                    f"half, n bytes for every other solution; "
                    f"{'beside the output' if spill_dir else 'TMPDIR chooses its folder'})",
                    spill_dir or tempfile.gettempdir(),
                ) from None
            per_column += np.bincount(left[:, 0], minlength=n)
            emitted += len(block)
            yield block
        starts = np.concatenate([[0], np.cumsum(per_column)])
        for c in range(half - 1, -1, -1):
            end = starts[c + 1]
            while end > starts[c]:
                if limit is not None and emitted >= limit:
                    return
                begin = max(starts[c], end - _MIRROR_ROWS)
                if limit is not None:
                    begin = max(begin, end - (limit - emitted))
                spill.seek(int(begin) * n)
                rows = np.empty((int(end - begin), n), np.uint8)
                spill.readinto(rows.data)
                yield (n - 1) - rows[::-1]
                emitted += int(end - begin)
                end = begin


#: A listing estimated to need less than its output's room divided by this
#: is not counted first (Knuth's estimate measured within 14 % of the count
#: for n = 12..20).
_ESTIMATE_MARGIN = 2

#: Boards with at most this many rows to search are counted (within 0.1 s).
_COUNTED_ROWS = 13

#: Nor more than this many to count when space is short (seconds, not hours).
_COUNTABLE_ROWS = 18


def planned_count(
    n: int,
    *,
    unique: bool = False,
    fixed: Iterable[tuple[int, int]] | None = None,
    limit: int | None = None,
    jobs: int | None = None,
    fits: Callable[[int], bool] | None = None,
) -> tuple[int, bool]:
    """How many solutions a listing will yield, for a progress bar and a
    free-space check, without paying for a count where an estimate will do.

    Counting the solutions costs a quarter of listing them, so for more than
    13 rows to search the number is estimated by Knuth's random probes
    (:func:`parqueens.run.estimate.probe_units`, 100,000 of them over the units of
    two rows: about 0.03 s; within 14 % of the count for n = 12..20;
    ``unique``: an eighth of the total).  ``fits``: None, or a predicate on
    a number of solutions (such as whether their file fits in the free
    space); if it rejects twice the
    estimate (capped at ``limit``) but takes half of it, the solutions are
    counted (as :func:`parqueens.run_count`, with ``jobs``), so that a
    number near the limit is decided on the real count; the estimate stands
    when even half of it is rejected, or more than 18 rows are left to
    search (the count would take minutes or more).  Other parameters as
    :func:`iter_blocks`.

    Returns ``(count, exact)``: an int, at most ``limit``, and whether it
    is the number the listing will yield.  Raises like :func:`iter_blocks`.
    """
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    _listing_method(n, unique, fixed)
    if limit is not None:
        limit = check_positive(limit, "limit")
    cap = (lambda k: k) if limit is None else (lambda k: min(k, limit))
    if not fixed_conflict(fixed) and n - len(fixed) > _COUNTED_ROWS:
        _, total = call_interruptibly(_probe, n, fixed)  # kernels loaded aside, as below
        guess = total / 8 if unique else total
        if (
            fits is None
            or fits(cap(int(_ESTIMATE_MARGIN * guess) + 1))
            or n - len(fixed) > _COUNTABLE_ROWS
            or not fits(cap(int(guess / _ESTIMATE_MARGIN)))  # not even half: no need to count
        ):
            return cap(round(guess)), False
    from .runner import run_count

    r = run_count(n, unique=unique, fixed=fixed, jobs=jobs)
    return cap(r.fundamental if unique else r.total), True


def solutions(
    n: int,
    *,
    unique: bool = False,
    fixed: Iterable[tuple[int, int]] | None = None,
    jobs: int | None = 1,
    limit: int | None = None,
) -> Iterator[tuple[int, ...]]:
    """Iterate over the solutions in lexicographic order.

    Same parameters as :func:`iter_blocks`.  Yields tuples of int,
    ``queens[row] = col``; n = 8 starts with ``(0, 4, 7, 5, 2, 6, 1, 3)``.
    Raises TypeError or ValueError for invalid arguments at the call, not
    when iterated.
    """
    blocks = iter_blocks(n, unique=unique, fixed=fixed, jobs=jobs, limit=limit)
    return (tuple(row) for block in blocks for row in block.tolist())


def first_solution(
    n: int, *, fixed: Iterable[tuple[int, int]] | None = None
) -> tuple[int, ...] | None:
    """The lexicographically first solution, or None if there is none.

    Found by backtracking in this process; for some large n this takes long
    (the first solution lies deep in the tree); :func:`parqueens.construct`
    gives *a* solution for any n at once.

    Returns a tuple of int (``queens[row] = col``) or None.
    """
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    # the kernel path starts at once with one row per unit; small boards go direct
    depth = None if n < UNITS_FROM or small_serves(n, fixed) else 1
    for block in iter_blocks(n, fixed=fixed, jobs=1, limit=1, split_depth=depth, arrays=False):
        return tuple(int(c) for c in block[0])
    return None
