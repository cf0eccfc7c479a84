"""The join past n = 21: units of row sets, their count, memory and time.

From :data:`ROWSET_MIN_N` on, the join holds no whole quadrant table: a unit
(a configuration and the north rows ``a`` of the east half, possibly a slice
of its row sets) builds its north tables and takes its row sets' south ones
from those the process keeps (:mod:`parqueens.join.south`), so that a process
holds a unit's north tables, at most :data:`parqueens.join.south.CACHE_BYTES`
of south ones and blocks of at most :data:`LIMIT` half-boards a side,
whatever n (:mod:`parqueens.join.pieces`).

The plan weighs each row set by a cost model (its east and west half-boards
estimated from the row sets' sizes, themselves from Knuth's estimator,
seeded: the same plan every run) and splits a unit whose row sets hold more
than ``1 / CUT`` of the modelled work, or more than :data:`UNIT_SECONDS` of
this machine's time, into slices of its row sets.  The
time of a count (:func:`sampled_estimate`) is measured: random row sets,
drawn in proportion to their modelled work, counted here with all their
half-boards made, sorted and made into tables as in the count, and a
sample of the matcher's buckets visiting them, their time scaled by the
matcher (:func:`parqueens.join.pieces.count_rowsets` with a stride).
"""

import contextlib
import ctypes
import ctypes.util
import functools
import math
import time

import numpy as np

from .configs import JoinUnit, configs
from .kernels import CFG_ROWS_S
from .pieces import (
    PREFIX_WORDS,
    SE,
    SW,
    count_rowsets,
    cycle_count,
    rowset_sizes,
    rowset_work,
    south_rows_used,
    south_table,
    unit_rowsets,
    unit_work,
)
from .south import (
    BASE_BYTES,
    BATCH_BYTES,
    CACHE_BYTES,
    SouthTables,
    batches,
    new_batch,
    process_tables,
)

#: The first board size counted by row sets (the narrow tables serve up to 21).
ROWSET_MIN_N = 22
#: Most half-boards a side in one block (32 MiB of words).
LIMIT = 1 << 22
#: No unit holds more than about 1/CUT of the modelled work.
CUT = 4000
#: Knuth's probes a row set for its size, and their seed.
PROBES = 256
SEED = 1
#: Seconds of measuring an estimate spends at least, and samples at least.
SAMPLE_SECONDS = 5.0
MIN_SAMPLES = 6
#: Past ``seconds``, measuring goes on while the range's ends lie more than
#: RANGE_AIM times apart, for at most MAX_SAMPLE_SECONDS in all (n = 27
#: and 28, whose row sets' times over their model differ 25-fold).
RANGE_AIM = 2.0
MAX_SAMPLE_SECONDS = 300.0
#: South tables drawn and made to cost the distinct ones (:func:`_tables_seconds`).
TABLE_DRAWS = 48
#: A sampled row set's modelled time, below which it is counted whole.
_WHOLE_SECONDS = 0.3
#: Nanoseconds of this project's 2-vCPU machine per unit of the cost model,
#: by board size: the sampled estimates' core-seconds over the plan's
#: modelled work (n = 22's whole count agrees: 3,140 CPU-s for 1.18e15;
#: docs/performance.md has the dates and machines).  The model's unit is
#: not a fixed time (a pair of words costs less where the sieve keeps more
#: of them away); these scale it to this machine, roughly, to cut units
#: and chunks in time and choose a sample's stride, never for a result.
_NS_PER_WORK = {22: 0.0030, 23: 0.0026, 24: 0.00073, 25: 0.00051, 26: 0.00022, 27: 0.00012}
_NS_PER_WORK[28] = 0.000071
#: A unit's aim in core-seconds of this machine (ten minutes: what a worker
#: lost mid-unit loses), met down to a single row set ...
UNIT_SECONDS = 600.0
#: ... unless the count would need more units than this (a plan of more
#: JoinUnits takes more memory and time than it is worth: n = 28's 5.5
#: million units of at most 10 minutes take 2.4 GB and 50 s to plan, and
#: their checkpoint about 900 MB).
MAX_UNITS = 6_000_000
#: A chunk of row-set units run at once holds at most about this many
#: seconds of their modelled work, so that an interrupted count keeps what
#: finished within seconds (n = 22 with 2 jobs had chunks of 1/32 of the
#: work, 3 core-minutes: a Ctrl-C in the first minutes kept nothing).
CHUNK_SECONDS = 10.0


def work_seconds(work, n):
    """Seconds of this project's machine for ``work`` units of the row-set
    cost model of board size ``n`` (:attr:`JoinUnit.work` past n = 21): the
    scale of units, chunks and a sample's stride (rough: the model's error
    at one size stays)."""
    # Below n = 22 (row sets counted in tests only), n = 22's scale.
    return work * _NS_PER_WORK.get(n, _NS_PER_WORK[ROWSET_MIN_N]) * 1e-9


__all__ = [
    "CHUNK_SECONDS",
    "CUT",
    "LIMIT",
    "MAX_UNITS",
    "ROWSET_MIN_N",
    "UNIT_SECONDS",
    "count_units",
    "plan_units",
    "rowset_memory",
    "sampled_estimate",
    "work_seconds",
]


@functools.cache
def _sizes(h):
    """Estimated placements of each row set of an h x h quadrant."""
    return rowset_sizes(h, PROBES, SEED)


def plan_units(n):
    """The units of a row-set join of board size ``n >= ROWSET_MIN_N``:
    configurations ordered by their modelled work (largest first); within
    one, the units whose north-east rows hold as many queens together (their
    row sets have south rows of the same sizes, whose tables a process keeps:
    :mod:`parqueens.join.south`), these classes by their modelled work and
    the units largest first within a class; a unit over ``1 / CUT`` of the
    whole work or over :data:`UNIT_SECONDS` of this machine's time
    (:func:`work_seconds`; but at most :data:`MAX_UNITS` units) split into
    slices of its row sets.  A list of :class:`JoinUnit`."""
    h = n // 2
    sizes = _sizes(h)
    groups = []
    for config in configs(n):
        work, count = unit_work(h, config.cfg, sizes)
        groups.append((config, work, count))
    total = sum(float(work.sum()) for _, work, _ in groups)
    timed = UNIT_SECONDS / work_seconds(1.0, n)
    cap = max(total / MAX_UNITS, min(total / CUT, timed))
    out = []
    for config, work, count in sorted(groups, key=lambda g: -float(g[1].sum())):
        units = []
        for a in np.flatnonzero(count > 0):
            a = int(a)
            if work[a] <= cap:
                units.append(JoinUnit(n, config.name, a, (), float(work[a])))
                continue
            per = np.empty(1 << h)
            nr = rowset_work(h, config.cfg, a, sizes, per)
            bounds = _slices(per[:nr], math.ceil(work[a] / cap))
            if cap == timed < total / CUT:  # in time: no slice past it but a lone row set
                bounds = _within(per[:nr], bounds, cap)
            for lo, hi in zip(bounds, bounds[1:], strict=False):
                units.append(JoinUnit(n, config.name, a, (lo, hi), float(per[lo:hi].sum())))
        classes = {}
        for u in units:
            k = u.rows.bit_count()
            classes[k] = classes.get(k, 0.0) + u.work
        units.sort(key=lambda u: (-classes[u.rows.bit_count()], -u.work, u.rows, u.rowsets))
        out.extend(units)
    return out


def _slices(work, parts):
    """Bounds ``[0, ..., len(work)]`` cutting ``work`` into at most ``parts``
    consecutive slices of about equal sums, none empty."""
    cum = np.cumsum(work)
    total = cum[-1]
    bounds = [0]
    for p in range(1, parts):
        cut = int(np.searchsorted(cum, total * p / parts)) + 1
        if bounds[-1] < cut < len(work):
            bounds.append(cut)
    bounds.append(len(work))
    return bounds


def _within(work, bounds, cap):
    """``bounds`` (see :func:`_slices`) with every slice whose ``work`` sums
    past ``cap`` cut again, greedily, into slices of at most ``cap`` (a row
    set larger than ``cap`` alone)."""
    out = [0]
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        held = 0.0
        for e in range(lo, hi):
            if e > out[-1] and held + work[e] > cap:
                out.append(e)
                held = 0.0
            held += work[e]
        if out[-1] != hi:
            out.append(hi)
    return out


def _args(unit):
    """The kernel's arguments for a unit: its configuration and row sets."""
    config = next(c for c in configs(unit.n) if c.name == unit.config)
    lo, hi = unit.rowsets or (0, 1 << unit.n)
    return config, lo, hi


def count_units(n, units, stop, tables=None):
    """Count row-set units in this thread (see
    :func:`parqueens.join.units.count_join_units`, which checks them): a
    list of ints, meaningless once ``stop[0]`` is set.  ``tables``: the
    :class:`parqueens.join.south.SouthTables` to take the south tables
    from (None: the process's)."""
    tables = process_tables() if tables is None else tables
    clock = np.zeros(2, np.uint64)
    results = []
    for u in units:
        count = _count_unit(u, None, 1, stop, clock, tables)
        if stop[0]:
            return results + [0] * (len(units) - len(results))
        results.append(int(count))
    return results


def _count_unit(unit, rowsets, stride, stop, clock, tables, limit=LIMIT, prefix_words=PREFIX_WORDS):
    """:func:`parqueens.join.pieces.count_rowsets` over a unit's row sets
    (``rowsets``: ``(lo, hi)``, or None for the unit's own), its south
    tables from ``tables`` in batches (:func:`parqueens.join.south.batches`),
    blocks of at most ``limit`` half-boards a side, classes of their top key
    bits past ``prefix_words`` a side.  -1 once ``stop[0]`` is set."""
    config, lo, hi = _args(unit)
    if rowsets is not None:
        lo, hi = rowsets
    c = config
    h = unit.n // 2
    bs = unit_rowsets(h, c.cfg, unit.rows)
    total = 0
    # No row set: the unit's set-up alone (its north tables and buffers).
    parts = [(lo, lo, new_batch())] if lo >= min(hi, len(bs)) else []
    for e0, e1, south in parts or batches(unit.n, c, bs, lo, min(hi, len(bs)), tables, stop):
        count = count_rowsets(
            unit.n,
            h,
            c.cfg,
            unit.rows,
            e0,
            e1,
            c.fixed_wide,
            c.diagonal_symmetry,
            c.layout,
            limit,
            stride,
            stop,
            clock,
            south,
            prefix_words,
        )
        if count < 0 or stop[0]:
            return -1
        total += int(count)
    return total


def _time_rowset(unit, e, stride, stop, rowsets=1):
    """Thread seconds that counting row set ``e`` of ``unit`` takes (with
    ``rowsets=0``, its set-up alone: its north tables and buffers; ``e``
    None: the whole unit), timed
    on a sample of its visits with ``stride`` > 1 (all the rest made as in
    the count, the visits' cycles scaled by the matcher:
    :func:`parqueens.join.pieces.count_rowsets`), the seconds of them
    spent in visits, and those spent making its south tables (made here,
    as a process that has none kept makes them; included in the first)."""
    clock = np.zeros(2, np.uint64)
    tables = SouthTables(budget=0)
    start = time.thread_time()
    began = cycle_count()
    _count_unit(unit, None if e is None else (e, e + rowsets), stride, stop, clock, tables)
    cycles = int(cycle_count() - began)
    spent = time.thread_time() - start
    if cycles <= 0:
        return spent, 0.0, tables.seconds
    scaled, visits = (spent * int(c) / cycles for c in clock)
    return spent - visits + scaled, scaled, tables.seconds


def south_keys(n, units):
    """The distinct south tables that counting ``units`` (of board size
    ``n``) needs: a list of ``(configuration, role, rows)``, each made once
    by a process that keeps them (:mod:`parqueens.join.south`)."""
    h = n // 2
    by_config = {}
    for u in units:
        by_config.setdefault(u.config, set()).add(u.rows)
    keys = []
    for config in configs(n):
        rows = by_config.get(config.name)
        if not rows:
            continue
        used = south_rows_used(h, config.cfg, np.array(sorted(rows), np.int64))
        rows_s = int(config.cfg[CFG_ROWS_S])
        for b in np.flatnonzero(used).tolist():
            keys += [(config, SE, b), (config, SW, rows_s ^ b)]
    return keys


def _tables_seconds(n, units, rng, stop, draws=TABLE_DRAWS):
    """Thread seconds of making the distinct south tables of ``units`` once
    (:func:`south_keys`): the mean of ``draws`` of them drawn at random and
    made here, times their number."""
    keys = south_keys(n, units)
    if not keys:
        return 0.0
    spent = []
    for i in rng.choice(len(keys), size=min(draws, len(keys)), replace=False):
        if stop[0]:
            break
        config, which, rows = keys[int(i)]
        began = time.thread_time()
        south_table(
            n, n // 2, rows, which, config.fixed_wide, config.diagonal_symmetry, config.layout
        )
        spent.append(time.thread_time() - began)
    return float(np.mean(spent)) * len(keys) if spent else 0.0


def _mean_range(values, seed):
    """The 2.5th and 97.5th percentiles of the mean of ``values`` over 2,000
    resamples (seeded): a range that stays positive where a few large
    samples make the mean minus two standard errors negative (the samples
    of n >= 25 are few and far apart)."""
    if len(values) < 2:
        return float(values.mean()), float(values.mean())
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), (2000, len(values)))].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def _measuring(values, seed, spent, seconds):
    """Whether an estimate measures another row set: fewer than
    :data:`MIN_SAMPLES`, or less than ``seconds`` spent, or (but for
    ``seconds`` 0, and at most :data:`MAX_SAMPLE_SECONDS`) a range wider
    than :data:`RANGE_AIM` times."""
    if len(values) < MIN_SAMPLES or spent < seconds:
        return True
    if seconds <= 0 or spent >= max(seconds, MAX_SAMPLE_SECONDS):
        return False
    low, high = _mean_range(np.array(values), seed)
    return not (0 < low and high <= RANGE_AIM * low)


def sampled_estimate(n, units, seconds=SAMPLE_SECONDS, seed=1, stop=None):
    """The core-seconds of a row-set join count, measured on a sample.

    Row sets are drawn in proportion to their modelled work (a unit by its
    work, then a row set of it), and each is counted here: whole when its
    model says it takes under 0.3 s, else with every part of the work done
    as in the count (the words made and sorted, the key bits and the
    sieve's choices made for the whole sides, the tables made) but the
    matcher's visits, made by about one bucket in ``s`` of the side
    streaming by and scaled to all of them by the processor's cycle counter
    (:func:`parqueens.join.pieces.count_rowsets` with a stride).  Each time
    over its row set's probability is an unbiased estimate of the whole;
    their mean is the estimate, its range that of the mean over resamples
    (:func:`_mean_range`).  A unit whose model says it takes under 0.3 s
    is counted whole instead, drawn by its work; a larger one's set-up (its
    north tables and buffers, made once for its row sets) is timed apart
    and counted once a unit;
    a row set's south tables, made once a process for every row set that
    has the same south rows (:mod:`parqueens.join.south`; n = 23's 19.6
    million row sets need 116,000 tables), are timed apart too and costed
    once each (:func:`_tables_seconds`): charged to every row set, they
    made n = 23's estimate four times what its units take in a count.

    Parameters
    ----------
    n : int
        Board size, at least :data:`ROWSET_MIN_N`.
    units : list of JoinUnit
        The count's units (:func:`plan_units`).
    seconds : float
        Measuring goes on until this many seconds have passed, with at least
        :data:`MIN_SAMPLES` row sets, and then while the range is wider than
        :data:`RANGE_AIM` times, for at most :data:`MAX_SAMPLE_SECONDS` in
        all (``seconds`` 0: the least number of row sets, whatever the range).
    seed : int
        The draw's seed.
    stop : numpy.ndarray or None
        As in :func:`count_units`: once set, the estimate returns early, on
        the samples made so far.

    Returns
    -------
    dict
        ``core_seconds``, ``low``, ``high`` (seconds of one core of this
        machine; NaN if ``stop`` was set before the first sample),
        ``samples`` (row sets measured), ``sample_seconds``,
        ``tables_seconds`` (of them: the units' set-ups and the distinct
        south tables, made once by one process).

    Raises
    ------
    ValueError
        If ``units`` is empty or has no modelled work.
    """
    with _freed_memory_kept():
        return _sample(n, units, seconds, seed, stop)


def _sample(n, units, seconds, seed, stop):
    stop = np.zeros(1, np.uint8) if stop is None else stop
    rng = np.random.default_rng(seed)
    work = np.array([u.work for u in units])
    total = float(work.sum())
    if not units or total <= 0:
        raise ValueError("sampled_estimate: no units with work to sample")
    h = n // 2
    sizes = _sizes(h)
    per = np.empty(1 << h)
    values = []
    setups = []
    began = time.perf_counter()
    # A small unit is counted whole: a row set of it alone would weigh the
    # calls and set-up its unit shares among its row sets (n = 23: 1.6
    # times its share, for row sets of a millisecond).
    small = work_seconds(work, n) <= _WHOLE_SECONDS
    while _measuring(values, seed, time.perf_counter() - began, seconds):
        if stop[0]:
            break
        i = int(rng.choice(len(units), p=work / total))
        unit = units[i]
        if small[i]:
            spent, _, made = _time_rowset(unit, None, 1, stop)
            values.append(max(spent - made, 0.0) * total / unit.work)
            continue
        config, _, _ = _args(unit)
        nr = rowset_work(h, config.cfg, unit.rows, sizes, per)
        lo, hi = unit.rowsets or (0, nr)
        mine = per[lo:hi]
        e = lo + int(rng.choice(hi - lo, p=mine / mine.sum()))
        model = float(per[e])
        stride = 1
        while work_seconds(model, n) / stride > _WHOLE_SECONDS:
            stride *= 2
        # A unit's set-up is made once for all its row sets, the south
        # tables once for all the units that need them: both timed apart.
        setup = _time_rowset(unit, e, 1, stop, rowsets=0)[0]
        spent, _, made = _time_rowset(unit, e, stride, stop)
        values.append(max(spent - made - setup, 0.0) * total / model)
        setups.append(setup)
    if not values:  # stopped before the first: no estimate
        nan = float("nan")
        return {
            "core_seconds": nan,
            "low": nan,
            "high": nan,
            "samples": 0,
            "sample_seconds": 0.0,
            "tables_seconds": nan,
        }
    big = len(units) - int(small.sum())
    once = (float(np.mean(setups)) * big if setups else 0.0) + _tables_seconds(n, units, rng, stop)
    mean = float(np.mean(values)) + once
    low, high = _mean_range(np.array(values), seed)
    return {
        "core_seconds": mean,
        "low": low + once,
        "high": high + once,
        "samples": len(values),
        "sample_seconds": time.perf_counter() - began,
        "tables_seconds": once,
    }


#: glibc's mallopt parameters (malloc.h): blocks from this size on are
#: mapped apart (and unmapped when freed); the heap's free top is returned
#: past this size.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


@contextlib.contextmanager
def _freed_memory_kept():
    """While an estimate samples row sets: glibc keeps the large blocks
    freed in its heap (up to 2 GiB) instead of returning them to the
    system.  Each sample makes its buffers afresh (tens of MB), which a
    count makes once for a batch of row sets: their pages touched for the
    first time made n = 23's
    estimate about 1.3 times what its units take in a count (10.0 against
    7.7 core-hours, 2026-12-08).  Afterwards the thresholds are those glibc
    reaches by itself once large blocks have been freed (32 MiB, the heap's
    top trimmed past 64 MiB), and the heap trimmed.  Elsewhere than glibc:
    nothing."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        mallopt, trim = libc.mallopt, libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        yield
        return
    mallopt(_M_MMAP_THRESHOLD, 1 << 30)
    mallopt(_M_TRIM_THRESHOLD, (1 << 31) - 1)  # a C int: at most 2 GiB
    try:
        yield
    finally:
        mallopt(_M_MMAP_THRESHOLD, 32 << 20)
        mallopt(_M_TRIM_THRESHOLD, 64 << 20)
        trim(0)


#: The kept south tables' resident bytes over their own (tables freed and
#: made again leave holes the allocator does not hand back at once).
_CACHE_SLACK = 1.5


#: The largest row sets' placements over their estimate: exact counts of the
#: four largest at h = 11, 13 and 14 came to 0.90 to 0.97 of it.
_SIZE_MARGIN = 1.15


def rowset_memory(n, jobs=1):
    """Estimated peak resident memory of a row-set join count, in bytes: the
    process's base, the south tables it keeps (:data:`CACHE_BYTES`, half as
    much again for the allocator's slack) and, per thread, its blocks of
    half-boards (words as made and as sorted by the sieve, a side each: 32
    bytes a word of :data:`LIMIT`, and the largest table cell), the tables
    of a unit's north rows and of a row set's south rows (each a pair of
    row sets whose rows complete each other, at most the largest such pair
    of :func:`parqueens.join.pieces.rowset_sizes`, :data:`_SIZE_MARGIN` for
    the estimator: role entries of 16 bytes and the words rewritten in the
    row set's key bits, 8 more, and the placements, 16 bytes, of the one
    being made) and a batch of south tables that may have left the kept ones
    while in use (:data:`BATCH_BYTES`).  Measured against it
    (docs/performance.md): n = 22 with 2 jobs peaked at 1,287 MiB where it
    says 1,326; one thread on n = 28's largest pair of row sets, with no
    south tables kept, at 1,276 MiB where it says 2,790 without them."""
    h = n // 2
    sizes = _sizes(h)
    pair = _SIZE_MARGIN * float((sizes + sizes[((1 << h) - 1) ^ np.arange(1 << h)]).max())
    tables = 2 * 24 * pair + 16 * pair
    blocks = 32 * (LIMIT + pair / 4)
    return int(BASE_BYTES + _CACHE_SLACK * CACHE_BYTES + jobs * (tables + blocks + BATCH_BYTES))
