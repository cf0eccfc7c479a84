"""Totals by joining half-boards: Kluev's quadrant-join counter, in numba.

Source: Evgeny Kluev, ``N-Queens-Count-Sol`` (MIT, 2022,
https://github.com/EvgenyKluev/N-Queens-Count-Sol).  The kernels are in
:mod:`parqueens.join.kernels` (coordinates and word layout there).

The method
----------
For even ``n = 2h``, every solution has ``h`` queens in the east half of the
columns.  Choose the set ``E`` of rows whose queen is east; an east
half-board of ``E`` is a north-east quadrant placement on the rows of ``E``
in the north half joined with a south-east one on the rest of ``E`` and the
remaining east columns.  Every partial placement of an ``h x h`` quadrant is
enumerated once (one table serves the four quadrants through the board's
reflections).  An east and a west half-board of complementary row sets form
a solution exactly when they share no diagonal, so the count of ``E`` is the
number of disjoint pairs of their diagonal words (bit-sliced and sieved,
see the kernels).  For odd ``n = 2h + 1`` the queens of the middle row and
the middle column are placed first (the centre queen, or a queen in each),
then the four ``h x h`` quadrants are joined the same way, the diagonals of
the placed queens excluded.

Symmetry and weights
--------------------
The result of a :class:`JoinUnit` is its exact share of the total:

- Even ``n``: flipping the board upside down maps row set ``(a, b)`` (``a``
  its north rows, ``b`` its south rows, both in local coordinates, so the
  flip swaps them) to ``(b, a)``: only ``b >= a`` is counted, twice when
  ``b > a``.  The reflections in the two long diagonals preserve the
  occupation of those diagonals quadrant by quadrant: the solutions whose
  main-diagonal queen is in the south-east quadrant are as many as those
  whose main-diagonal queen is north-west (and likewise the anti-diagonal,
  north-east against south-west), so only east half-boards without a
  long-diagonal queen are stored, and each west half-board counts 2 per
  long diagonal it occupies.  A west half-board that occupies neither (so
  the solution has no long-diagonal queen) counts by the east-west
  reflection instead, which maps ``E`` to its complement: 2 for the one of
  the two row sets whose first row with equal membership in ``E`` and its
  flip is in ``E``, 0 for the other (1 when there is no such row).  This is
  Kluev's scheme, close to the 8 of the square's symmetry group.
- Odd ``n``, centre queen: the flip and the east-west reflection, as above,
  count ``(a, b)`` once for its orbit (weight 1, 2 or 4).
- Odd ``n``, a middle-row queen ``dc`` columns east of the centre and a
  middle-column queen ``dr`` rows south of it, ``1 <= dc < dr <= h``: every
  other placement of the two is one of its 8 images (``dc == dr`` would put
  them on one diagonal), so each solution counts 8.

What differs from Kluev's code (ours, written from the method): the
quadrant table is re-laid per configuration and role (north-east,
north-west, south-east, south-west) with the queens placed first filtered
out and each entry's diagonal word precomputed, so a half-board costs one
AND, one OR and no branch; the words have a per-configuration bit layout
that puts the sieve's key bits, the best ones chosen, on top of the bits
that can be set, so a row set sorted by K key bits matches only the chunks
below them (the key bits are disjoint bucket by bucket); the number of key
bits is chosen per row set by a cost model; chunks of 7 bits where Kluev's
have 5 (5 loads a visit at n = 20..25 where his need 7); the chunk tables
are transposed four or eight 64 x 64 blocks at a time in vector registers
(groups of 512 words on AVX-512, where his are 256) and made for a window
of buckets at once, which the words of each bucket of the other side visit
in runs of groups; the buckets are packed, not padded to whole groups (a
visit masks the lanes of the buckets a word may meet); and work units are
independent (Kluev's threads meet at a barrier for every row set), so
threads scale.

Work units
----------
A unit is a configuration (``"e"`` for even n, ``"c"`` for the centre queen,
``"dc.dr"`` for two middle queens) and the north rows ``a`` of the east
half; it holds every row set ``(a, b)`` of that configuration.  Units are
ordered by configuration (the largest total first, so that a process holds
the tables of few configurations at once), largest first within one.  At
n = 18, 19, 20: 457, 18 776 and 936 units, the largest about 0.03, 0.02 and
0.9 seconds.  The tables (:func:`_quadrants`, :func:`_roles`) are built once
per process, under locks, and shared read-only by its threads; loky and
Dask workers build their own.
"""

import functools
import os
import threading
import time
import weakref

import numpy as np

from ..checks import check_n, check_seconds
from ..names import JOIN_MAX_N, JOIN_MIN_N
from . import rowsets
from .configs import JoinUnit, configs
from .kernels import (
    count_units,
    plan,
    quadrant_table,
    role_counts,
    role_tables,
)
from .match import PAD_WORDS, TABLE_WORDS
from .south import BASE_BYTES

# ---------------------------------------------------------------- shared tables

_LOCK = threading.Lock()


def _quadrants(h):
    """The quadrant table of size h, built once per process (thread-safe)."""
    with _LOCK:
        return _quadrants_cached(h)


@functools.cache
def _quadrants_cached(h):
    return quadrant_table(h)


class _RoleTables:
    """A configuration's role tables (a tuple of arrays, see
    :func:`parqueens.join.kernels.role_tables`), weakly referenced by the
    cache while threads use them."""

    __slots__ = ("arrays", "__weakref__")

    def __init__(self, arrays):
        self.arrays = arrays


#: Per process: the role tables in use (held by the threads counting their
#: units), the last ones built (held here), and a lock per configuration
#: being built.
_ROLES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_LAST = [None]
_BUILDING: dict = {}


def _roles(n, config):
    """The role tables of a configuration (a :class:`_RoleTables`), built
    once while threads use them.

    The units come ordered by configuration, so threads mostly share one;
    a configuration's tables are freed when no thread uses them and another
    was built since, so a process holds at most one per thread plus one.
    A thread asking for tables another is building waits for them.
    """
    key = (n, config.name)
    with _LOCK:
        roles = _ROLES.get(key)
        if roles is not None:
            return roles
        building = _BUILDING.setdefault(key, threading.Lock())
    with building:
        with _LOCK:
            roles = _ROLES.get(key)
            if roles is not None:
                return roles
        table = _quadrants(n // 2)
        roles = _RoleTables(
            role_tables(n, n // 2, table, config.fixed, config.diagonal_symmetry, config.layout)
        )
        with _LOCK:
            _ROLES[key] = roles
            _LAST[0] = roles
            _BUILDING.pop(key, None)
    return roles


# ---------------------------------------------------------------- units


#: The cost model of a unit, in seconds of the reference machine (this
#: project's 2-vCPU AMD EPYC): per pair of quadrant placements tested to
#: build the east half-boards and the west ones, per product of the two
#: (the matcher's share) and per row set; for even and odd n.  Fitted by
#: least squares on the single-thread times of every unit of n = 16 and 18
#: and of 600 random units each of n = 15, 17 and 19 (median error of a
#: unit 7 to 11 %, of the sum 1 to 4 %).
_COST = {
    0: (1.03e-8, 4.1e-9, 4.5e-13, 2.6e-6),
    1: (1.57e-8, 5.3e-9, 8.1e-13, 1.1e-6),
}


def join_units(n):
    """The work units of a join count of board size n.

    Parameters
    ----------
    n : int
        Board size, ``JOIN_MIN_N <= n <= JOIN_MAX_N``.

    Returns
    -------
    list of JoinUnit
        Every unit holding at least one row set, ordered by configuration
        (largest total work first), and largest first within one.  Their
        counts sum to the total.  Count them in this order (chunks of
        consecutive units): a process then holds the role tables of few
        configurations at once and builds each once.

    For odd n the configurations are planned on threads (one per core):
    0.2, 0.7 and 4.6 seconds at n = 17, 19 and 21 on this project's
    2-vCPU machine; even n: 0.1 and 1.5 seconds at n = 18 and 20 (the
    role tables built then serve the count).

    Raises
    ------
    TypeError, ValueError
        For n not an integer in range.
    """
    _check(n)
    if n >= rowsets.ROWSET_MIN_N:
        return rowsets.plan_units(n)
    chosen = configs(n)
    _quadrants(n // 2)
    if len(chosen) == 1:
        groups = [_plan_units(n, chosen[0])]
    else:
        # The configurations are planned on threads (the kernels release the GIL).
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(min(len(chosen), os.cpu_count() or 1)) as pool:
            groups = list(pool.map(lambda config: _plan_units(n, config), chosen))
    groups.sort(key=lambda units: -sum(u.work for u in units))
    return [u for units in groups for u in units]


def _plan_units(n, config):
    """The units of one configuration, largest first."""
    east, west, product, rowsets = plan(n // 2, config.cfg, _plan_sizes(n, config))
    c_east, c_west, c_pair, c_rowset = _COST[n % 2]
    work = c_east * east + c_west * west + c_pair * product + c_rowset * rowsets
    units = [
        JoinUnit(n, config.name, int(a), work=float(work[a]))
        for a in np.flatnonzero((east > 0) & (west > 0))
    ]
    units.sort(key=lambda u: (-u.work, u.rows))
    return units


def _plan_sizes(n, config):
    """The cell sizes that plan a configuration's units: its role tables'
    for even n (built anyway), else counted alone (the role tables of every
    configuration would not fit)."""
    if config.diagonal_symmetry:
        return _roles(n, config).arrays[0]
    return role_counts(n, n // 2, _quadrants(n // 2), config.fixed, False)


def _check_units(n, units, *, empty=True):
    """``units`` as a list, and the configurations of n by name, once every
    unit is checked to be a :class:`JoinUnit` of board size ``n``:
    ``TypeError`` for ``units`` not an iterable of them, ``ValueError``
    for a unit of another size or, with ``empty`` False, no units."""
    if isinstance(units, (str, bytes)) or not hasattr(units, "__iter__"):
        raise TypeError(f"units must be an iterable of JoinUnit, got {type(units).__name__}")
    units = list(units)  # an iterator is read once, here
    if not units and not empty:
        raise ValueError("units is empty: there is nothing to estimate")
    h = n // 2
    by_name = {c.name: c for c in configs(n)}
    for u in units:
        if not isinstance(u, JoinUnit):
            raise TypeError(f"units must be JoinUnit, got {type(u).__name__}")
        if not all(_is_int(x) for x in (u.n, u.rows, *u.rowsets)):
            raise TypeError(f"a unit's board size, rows and row sets must be integers: {u!r}")
        slices = u.rowsets and (
            n < rowsets.ROWSET_MIN_N or len(u.rowsets) != 2 or not 0 <= u.rowsets[0] < u.rowsets[1]
        )
        if u.n != n or u.config not in by_name or not 0 <= u.rows < 1 << h or slices:
            raise ValueError(f"unit {u.id} is not a join unit of board size {n}")
    return units, by_name


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _check_stop(stop):
    """``stop`` as the kernels read it: a new flag for None, else a numpy
    uint8 array of at least one element (``TypeError`` otherwise)."""
    if stop is None:
        return np.zeros(1, np.uint8)
    # Only the layout the kernels are compiled for (another compiles anew).
    if not (
        isinstance(stop, np.ndarray)
        and stop.dtype == np.uint8
        and stop.ndim == 1
        and stop.size >= 1
        and stop.flags.c_contiguous
        and stop.flags.writeable
    ):
        raise TypeError(
            "stop must be None or a writable, contiguous 1-d numpy uint8 array "
            "of at least 1 element"
        )
    return stop


def count_join_units(n, units, stop=None):
    """Count work units in this thread (the kernels release the GIL).

    Parameters
    ----------
    n : int
        Board size.
    units : iterable of JoinUnit
        Units of board size n (from :func:`join_units`).
    stop : numpy.ndarray or None
        A uint8 array of 1 read before each unit and each row set: once it is
        set (by another thread), the count returns early and its results are
        meaningless (the caller discards them).

    Returns
    -------
    list of int
        The count of each unit, in order (exact, weights folded in).

    Raises
    ------
    TypeError, ValueError
        For n out of range, units not an iterable of :class:`JoinUnit`, a
        unit of another board size or configuration, or ``stop`` not as
        said.
    """
    _check(n)
    h = n // 2
    units, by_name = _check_units(n, units)
    stop = _check_stop(stop)
    if n >= rowsets.ROWSET_MIN_N:
        return rowsets.count_units(n, units, stop)
    results = [0] * len(units)
    i = 0
    while i < len(units):
        j = i
        while j < len(units) and units[j].config == units[i].config:
            j += 1
        config = by_name[units[i].config]
        rows = np.array([u.rows for u in units[i:j]], np.int64)
        out = np.empty(j - i, np.int64)
        roles = _roles(n, config)
        count_units(n, h, config.cfg, rows, roles.arrays, stop, out)
        if stop[0]:
            return results
        results[i:j] = [int(x) for x in out]
        i = j
    return results


def count_join(n, jobs=1):
    """The number of solutions of board size n (OEIS A000170), by the join.

    ``jobs`` threads of this process count the units, each taking the next
    chunk (about 1/64 of a thread's share of the work) as it finishes one
    (the kernels release the GIL).  Raises TypeError or ValueError for n or
    jobs out of range.
    """
    units = join_units(n)
    jobs = check_n(jobs, name="jobs", low=1, high=None)
    if jobs == 1:
        return sum(count_join_units(n, units))
    from concurrent.futures import ThreadPoolExecutor

    share = sum(u.work for u in units) / (64 * jobs)
    chunks, work = [[]], 0.0
    for u in units:
        if work >= share:
            chunks.append([])
            work = 0.0
        chunks[-1].append(u)
        work += u.work
    with ThreadPoolExecutor(jobs) as pool:
        return sum(sum(c) for c in pool.map(lambda chunk: count_join_units(n, chunk), chunks))


def _check(n):
    check_n(n, low=JOIN_MIN_N, high=JOIN_MAX_N)


# ---------------------------------------------------------------- memory and time

#: Partial placements of an h x h quadrant (the quadrant table's length) and
#: those without a queen on its long diagonal, h = 2..10, as
#: :func:`parqueens.join.kernels.quadrant_table` counts them (sizes for the
#: memory estimate, not results).
_PLACEMENTS = {
    2: (5, 3),
    3: (18, 11),
    4: (87, 51),
    5: (462, 235),
    6: (2635, 1325),
    7: (16870, 8237),
    8: (118969, 57117),
    9: (915442, 429233),
    10: (7535369, 3474295),
}
#: For odd n, the largest share of the four roles' entries that a
#: configuration keeps (measured 0.55, 0.54, 0.54 at n = 15, 17, 19).
_ODD_KEPT = 0.56


def join_memory(n, jobs=1):
    """Estimated peak resident memory of a join count, in bytes.

    Parameters
    ----------
    n : int
        Board size, ``JOIN_MIN_N <= n <= JOIN_MAX_N``.
    jobs : int
        Threads counting at once (each has its own buffers).

    Returns
    -------
    int
        The process's base (numpy, numba, the kernels), the quadrant table,
        the role tables of the configurations held at once (one for even n;
        for odd n one per job plus one, each sized as the configuration that
        keeps the most entries) and each thread's buffers (against measured
        peaks: docs/performance.md, memory of the join).  From n = 22 on, the tables of
        the row sets each thread counts and its blocks of half-boards
        (:func:`parqueens.join.rowsets.rowset_memory`).

    Raises
    ------
    TypeError, ValueError
        For n or jobs out of range.
    """
    _check(n)
    jobs = check_n(jobs, name="jobs", low=1, high=None)
    if n >= rowsets.ROWSET_MIN_N:
        return rowsets.rowset_memory(n, jobs)
    h = n // 2
    placements, off_long = _PLACEMENTS[h]
    keys = 4**h
    table = 8 * keys + 16 * placements  # off, n0; S, T, rS, rT
    building = 8 * keys  # the table's fill cursors, while it is built
    index = 32 * keys  # start and mid, 4 roles, int32
    if n % 2 == 0:
        roles = index + 16 * (2 * placements + 2 * off_long)
        kept = 1
    else:
        roles = index + 16 * int(_ODD_KEPT * 4 * placements)
        kept = min(jobs + 1, len(configs(n)))
    # Each thread: the words of its largest row set, east and west, twice
    # (as joined and sorted): measured 54 159 at n = 18, x 7.2 per h.
    words = 54159 * 7.2 ** (h - 9)
    thread = int(32 * words) + 8 * (_BUFFER_WORDS)
    return int(BASE_BYTES + table + max(building, kept * roles) + jobs * thread)


#: Fixed words of a thread's buffers (group tables, padding room).
_BUFFER_WORDS = PAD_WORDS + TABLE_WORDS + 2**14


def join_estimate(n, jobs=1, units=None, free=None):
    """Estimated wall-clock seconds of a join count, in this process.

    Parameters
    ----------
    n : int
        Board size, ``JOIN_MIN_N <= n <= JOIN_MAX_N``.
    jobs : int
        Threads counting at once (at most the cores count).
    units : list of JoinUnit or None
        The units, if already planned (:func:`join_units` takes seconds for
        n >= 20).
    free : float or None
        The cores the jobs share (None: those other work leaves free now,
        :func:`_free_cores`; a Dask worker, measuring while the others do,
        gives the cluster's threads).

    Returns
    -------
    float
        The plan (timed, when ``units`` is None: it is made here), the
        set-up (quadrant table, role tables: made here, timed, and found
        made by a count in this process) and the units' work shared by the
        jobs (at least the largest unit; up to this machine's cores, no more
        jobs than the cores other work leaves free, :func:`_free_cores`), in
        this machine's seconds:
        the cost model of the units scaled by this thread's speed measured
        on units of n itself, about half a second (:func:`_measured`).  From
        n = 22 on, measured: see :func:`join_sampled_estimate`.

    Raises
    ------
    TypeError, ValueError
        For n or jobs out of range, or units empty or not all join units
        of board size n (:func:`count_join_units`' check).
    """
    _check(n)
    jobs = check_n(jobs, name="jobs", low=1, high=None)
    if n >= rowsets.ROWSET_MIN_N:
        return join_sampled_estimate(n, jobs, units)["seconds"]
    planning = 0.0
    if units is None:
        start = time.perf_counter()
        units = join_units(n)
        planning = time.perf_counter() - start
    units, _ = _check_units(n, units, empty=False)
    setup, speed = _measured(n, tuple(units))
    work = sum(u.work for u in units)
    largest = max((u.work for u in units), default=0.0)
    # jobs past this machine's cores are cores like these elsewhere, all free
    if jobs > (os.cpu_count() or 1):
        here = jobs
    else:
        here = min(jobs, _free_cores() if free is None else max(1.0, free))
    return planning + setup + speed * max(work / here, largest)


def join_sampled_estimate(n, jobs=1, units=None, seconds=None, stop=None):
    """The time of a join count of board size ``n >= 22``, measured on a
    sample of its row sets (:func:`parqueens.join.rowsets.sampled_estimate`).

    Parameters
    ----------
    n : int
        Board size, 22 to ``JOIN_MAX_N``.
    jobs : int
        Cores counting at once.
    units : list of JoinUnit or None
        The units, if already planned.
    seconds : float or None
        Seconds of measuring, at least 0 (default
        :data:`parqueens.join.rowsets.SAMPLE_SECONDS`); at least
        :data:`parqueens.join.rowsets.MIN_SAMPLES` row sets are measured
        however long they take.
    stop : numpy.ndarray or None
        A uint8 flag; once set, measuring ends early, on the samples made
        so far (none if it was set from the start: every figure NaN).

    Returns
    -------
    dict
        ``seconds`` (wall seconds on ``jobs`` cores like this one's: the
        core-seconds shared by the jobs, at least the largest unit's share,
        plus the plan's time), ``low`` and ``high`` (the same from the
        range), ``core_seconds``, ``samples``, ``sample_seconds`` and
        ``largest`` (the largest unit's modelled share of the work).

    Raises
    ------
    TypeError, ValueError
        For n below 22 or above ``JOIN_MAX_N``, jobs out of range, seconds
        negative or not finite, units empty or not all join units of board
        size n, or stop not as said (:func:`count_join_units`' checks).
    """
    check_n(n, low=rowsets.ROWSET_MIN_N, high=JOIN_MAX_N)
    jobs = check_n(jobs, name="jobs", low=1, high=None)
    seconds = rowsets.SAMPLE_SECONDS if seconds is None else check_seconds(seconds, "seconds")
    if units is not None:
        units, _ = _check_units(n, units, empty=False)
    stop = _check_stop(stop)
    planning = 0.0
    if units is None:
        start = time.perf_counter()
        units = join_units(n)
        planning = time.perf_counter() - start
    out = rowsets.sampled_estimate(n, units, seconds=seconds, stop=stop)
    total = sum(u.work for u in units)
    largest = max((u.work for u in units), default=0.0) / total if total else 0.0

    def wall(core):
        return planning + max(core / jobs, core * largest)

    return out | {
        "seconds": wall(out["core_seconds"]),
        "low": wall(out["low"]),
        "high": wall(out["high"]),
        "largest": largest,
    }


def _free_cores():
    """The cores that other work leaves free now (at least 1): the idle
    shares of every core, the more of two quarter-seconds (one alone once
    caught a burst and halved a count's jobs).  A count's jobs share what
    is free (on a machine whose other core is busy, two jobs ran 1.35
    cores' worth)."""
    import psutil

    free = [
        sum(100.0 - b for b in psutil.cpu_percent(interval=0.25, percpu=True)) / 100.0
        for _ in range(2)
    ]
    return max(1.0, *free)


#: Seconds an estimate below n = 22 counts units of the size for their
#: speed (at least one batch), in batches of this many units, drawn alike.
SPEED_SECONDS = 0.5
SPEED_BATCH = 32


@functools.lru_cache(maxsize=4)
def _measured(n, units):
    """``(setup, speed)`` of a count of ``units`` (a tuple) of board size n
    here: the seconds of its set-up and this thread's wall seconds per unit
    of the cost model, both measured on units of n itself for
    :data:`SPEED_SECONDS`.  Configurations are drawn in proportion to their
    modelled work; each one's cheapest unit is counted first (its role
    tables made: a count makes them once a configuration, in plan order),
    then up to :data:`SPEED_BATCH` of its units drawn alike, in one call as
    a count's chunks run them.  The set-up: the quadrant table (made by the
    first unit) and the role tables' mean time for every configuration.
    The cost model's unit is not a fixed time from one size to the next:
    scaled by n = 16's units alone, n = 20 was estimated at 2.4 times its
    time."""
    configs_of = {}
    for u in units:
        configs_of.setdefault(u.config, []).append(u)
    groups = list(configs_of.values())
    weight = np.array([sum(u.work for u in g) for g in groups])
    rng = np.random.default_rng(1)
    start = time.thread_time()
    count_join_units(n, [min(units, key=lambda u: u.work)])  # the kernels, the quadrant table
    table = time.thread_time() - start
    roles, spent, done = [], 0.0, 0.0
    began = time.perf_counter()
    while not roles or time.perf_counter() - began < SPEED_SECONDS:
        group = groups[int(rng.choice(len(groups), p=weight / weight.sum()))]
        start = time.thread_time()
        count_join_units(n, [min(group, key=lambda u: u.work)])
        roles.append(time.thread_time() - start)
        picks = rng.choice(len(group), size=min(SPEED_BATCH, len(group)), replace=False)
        batch = [group[int(i)] for i in picks]
        # wall time: a machine busy with other work gives the count less
        start = time.perf_counter()
        count_join_units(n, batch)
        spent += time.perf_counter() - start
        done += sum(u.work for u in batch)
        if len(roles) >= 4 * len(groups):
            break
    setup = table + float(np.mean(roles)) * len(groups)
    return setup, spent / done if done > 0 else 0.0


__all__ = [
    "JoinUnit",
    "count_join",
    "count_join_units",
    "join_estimate",
    "join_memory",
    "join_sampled_estimate",
    "join_units",
]
