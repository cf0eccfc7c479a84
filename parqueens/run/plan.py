"""A count decided once, before it runs.

:func:`plan_run` checks a count's arguments once (at the library's door,
:func:`parqueens.methods.check_count`), decides its method (the
checkpoint's own, when none is asked for), its jobs
(:func:`parqueens.run.backends.plan_jobs`) and whether a small board is solved
in Python at once (:mod:`parqueens.search.small`).  The :class:`CountPlan` it
returns builds its work units when first asked (:attr:`CountPlan.split`)
and estimates its time (:meth:`CountPlan.estimate`); the guard of long
runs, ``--estimate``, the progress bar and the run
(:func:`parqueens.run.runner.run_plan`) all use that one plan.
"""

import functools
import time
from dataclasses import dataclass, field

from ..checks import check_backend, check_part, fixed_conflict
from ..methods import check_count, resolve_method
from ..names import METHODS, UNITS_FROM
from ..search import small
from .backends import call_interruptibly, get_backend, plan_jobs
from .method import get_method, units_classified, work_shares

__all__ = [
    "ESTIMATED_FROM",
    "GUARD_SECONDS",
    "CountPlan",
    "plan_run",
    "Split",
    "split_count",
    "part_units",
    "PART_JOBS",
    "run_identity",
    "method_of",
]


#: Counts with fewer rows to search take under a minute: not estimated
#: before they start (:attr:`CountPlan.long`).
ESTIMATED_FROM = 18

#: Counts estimated to take longer than this (seconds) are started only when
#: asked to (the command line's ``--yes``, or a yes at its prompt).
GUARD_SECONDS = 86400


@dataclass
class CountPlan:
    """How a count will run.

    Attributes
    ----------
    n : int
        Board size.
    unique : bool
        The symmetry classes are counted too.
    asked : str or None
        The method as asked for (None: the default), or as kept from the
        checkpoint (see :func:`method_of`); names the run in the checkpoint.
    method : str
        The method that counts n (:func:`parqueens.methods.resolve_method`).
    fixed : tuple of (int, int)
        The fixed queens, 0-based, sorted.
    jobs : int
        The jobs planned (:func:`parqueens.run.backends.plan_jobs`); the run
        uses no more than its units.
    split_depth : int or None
        As asked, or as recorded in the checkpoint for n; None: automatic.
    backend : str
        Where the units run.
    nodes : bool
        The queens placed are counted.
    checkpoint : parqueens.run.store.RunStore or None
        The store of the run.
    kept : str or None
        The checkpoint's method, when it was kept for a run that named none
        and the default would have counted n otherwise (worth a note).
    fallback : str or None
        Why n is counted by another method than asked: by d4 rather than
        the default's join, whose tables would not fit in the memory
        available; by plain rather than d4, which needs n >= 4 (worth a note).
    direct : bool
        A small board, solved in Python without work units.
    part : (int, int) or None
        Part ``I`` of ``K`` of the units (:func:`part_units`), or None: all.
    """

    n: int
    unique: bool
    asked: str
    method: str
    fixed: tuple
    jobs: int
    split_depth: int
    backend: str
    nodes: bool
    checkpoint: object = None
    kept: str | None = None
    fallback: str | None = None
    direct: bool = False
    part: tuple[int, int] | None = None
    asked_jobs: int | None = field(default=None, repr=False)
    asked_depth: int | None = field(default=None, repr=False)
    build_seconds: float = field(default=0.0, repr=False)
    _estimate: dict | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def split(self):
        """The work units (a :class:`Split`), built on first
        use; the time it took is :attr:`build_seconds`.  Raises ValueError
        for a split depth out of range."""
        from .chunks import warm_up

        # Building units calls kernels: loading them is not the build's time.
        # Both in a helper thread: a Ctrl-C in the main thread while a kernel
        # or numba's cache loader runs there would be swallowed or garbled.
        # Not for Dask: its workers run the kernels, and compiling them here
        # too (10 s on a cold cache) would only delay the run.
        if not get_backend(self.backend).cluster:
            call_interruptibly(warm_up, self.nodes, self.method)
        t = time.perf_counter()
        args = (self.n, self.method, self.jobs, self.split_depth, self.fixed, self.part)
        split = call_interruptibly(split_count, *args)
        self.build_seconds = time.perf_counter() - t
        return split

    def estimate(self):
        """The estimated time of the run: a dict (see
        :func:`parqueens.run.estimate.estimate_split`), computed once; a small
        board's is 0."""
        if self._estimate is None:
            self._estimate = self._make_estimate()
        return self._estimate

    def _make_estimate(self):
        from .estimate import estimate_split

        if self.direct:
            return {
                "nodes": 0.0,
                "rate": 0.0,
                "jobs": 1,
                "units": 0,
                "split_depth": 0,
                "method": "plain",
                "seconds": 0.0,
            }
        split = self.split
        return estimate_split(
            split, self.build_seconds, asked_jobs=self.asked_jobs, backend=self.backend
        )

    def with_checkpoint(self, store):
        """This count planned again with its checkpoint (a
        :class:`parqueens.run.store.RunStore`, opened once the arguments were
        checked): the store may keep its own method and split depth.
        Returns a new :class:`CountPlan` (this one if ``store`` is None)."""
        if store is None:
            return self
        plan = plan_run(
            self.n,
            unique=self.unique,
            method=self.asked,
            jobs=self.asked_jobs,
            split_depth=self.asked_depth,
            fixed=self.fixed,
            checkpoint=store,
            backend=self.backend,
            nodes=self.nodes,
            part=self.part,
        )
        built = self.__dict__.get("split")
        same = (self.method, self.split_depth, self.jobs) == (
            plan.method,
            plan.split_depth,
            plan.jobs,
        )
        if built is not None and same:  # the units built already (a part's, checked)
            plan.__dict__["split"], plan.build_seconds = built, self.build_seconds
        return plan

    def check_part(self):
        """For a count of a part: build the units now (:attr:`split`), so
        that a part past the number of units is refused (ValueError) before
        any checkpoint is made; nothing for a whole count."""
        if self.part is not None and not self.direct:
            self.split  # noqa: B018 (built for its check, kept for the run)

    def with_jobs(self, jobs):
        """This count planned for ``jobs`` (a Dask cluster's threads, known
        once it is reached); a new :class:`CountPlan`."""
        from dataclasses import replace

        if self.direct:
            return self
        jobs_planned = plan_jobs(jobs, self.backend, self.n - len(self.fixed))
        return replace(self, jobs=jobs_planned, asked_jobs=jobs, _estimate=None)

    @property
    def long(self):
        """A count worth estimating before it starts: at least
        :data:`ESTIMATED_FROM` rows to search (smaller ones take under a
        minute)."""
        return not self.direct and self.n - len(self.fixed) >= ESTIMATED_FROM

    @property
    def planned(self):
        """Whether the work units are built (:attr:`split`)."""
        return "split" in self.__dict__

    @property
    def estimated(self):
        """Whether the estimate is made (:meth:`estimate`)."""
        return self._estimate is not None

    @property
    def sampled(self):
        """Whether the estimate counts a sample of the run's units (the join
        past n = 21): its units are planned first (minutes for millions of
        them), then row sets counted for seconds or more."""
        return not self.direct and get_method(self.method).sampled(self.n)

    @property
    def identity(self):
        """What makes the checkpoint belong to this count (:func:`run_identity`)."""
        search = self.asked_depth is not None or self.nodes
        return run_identity(self.asked, self.unique, self.fixed, search, self.part)

    def check_checkpoint(self, recheck=None):
        """Refuse, by reading only, a checkpoint that cannot serve this count
        of n: another run's, n counted by another method, at another split
        depth, or without the classes ``unique`` needs; its stored rows of n
        are checked against their checksums, and if all are stored, their
        sums as a run's end checks them (but with ``recheck`` 1, which
        searches every unit again and names a wrong one).  A refusal leaves
        the file as it was.  Raises :class:`parqueens.run.store.CheckpointError`."""
        store = self.checkpoint
        if store is None or self.direct:
            return
        store.check_identity(self.identity, (self.n, self.method))
        stored = store.check_size(self.n)
        store.check_can_run(self.n)
        store.check_method(self.n, self.method)
        if self.split_depth is not None:
            store.check_depth(self.n, self.split_depth)
        store.check_classified(self.n, units_classified(self.method, self.n, self.unique))
        if recheck is None or recheck < 1:
            self._check_sums(*stored)

    def _check_sums(self, units_total, classified, stored):
        """A size whose units are all stored must add up as a run's end
        checks it (:func:`parqueens.run.tally.classes`, and the totals
        recorded), so that a table is refused before its first line.
        Raises :class:`parqueens.run.store.ResultMismatch`."""
        if not units_total or len(stored) < units_total:
            return
        from .tally import classes, tally_stored

        method = next(iter(stored)).split("/", 1)[0]
        tally, fundamental = tally_stored(method, stored), None
        # A part's units are a share of the count: its classes need all of it.
        if self.part is None and (classified or get_method(method).classes_by_burnside):
            orbits = classes(method, self.n, tally, self.checkpoint, whole=not self.fixed)
            fundamental = sum(orbits.values()) if classified else None
        self.checkpoint.check_total(self.n, tally.total, fundamental)

    def claim(self, recheck=None):
        """Check the checkpoint (:meth:`check_checkpoint`, with ``recheck``)
        and hold it for this run (:meth:`parqueens.run.store.RunStore.claim`);
        nothing without one.  Raises :class:`parqueens.run.store.CheckpointError`
        (and :class:`parqueens.run.store.CheckpointInUse`)."""
        if self.checkpoint is not None and not self.direct:
            self.check_checkpoint(recheck)
            self.checkpoint.claim(self.identity, (self.n, self.method))

    def deep_split(self):
        """The default split depth of n when the split depth asked for is
        far deeper (more than 2 rows; the units are built one by one in
        Python, which can take far longer than the search), else None."""
        if self.direct or self.split_depth is None or self.n < 10:
            return None
        from ..search.units import auto_depth

        default = auto_depth(self.n, self.method, self.jobs, self.fixed)
        return default if self.split_depth > default + 2 else None


def plan_run(
    n,
    *,
    unique=False,
    method=None,
    jobs=None,
    split_depth=None,
    fixed=None,
    checkpoint=None,
    backend="threads",
    nodes=False,
    part=None,
):
    """The :class:`CountPlan` of a count (the arguments as
    :func:`parqueens.run.runner.run_count`'s; ``checkpoint`` a
    :class:`parqueens.run.store.RunStore` or None), decided in this order:

    1. the arguments, checked once (:func:`parqueens.methods.check_count`);
    2. a small board, solved in Python at once (:func:`parqueens.search.small.serves`);
    3. the jobs (:func:`parqueens.run.backends.plan_jobs`);
    4. the method: as asked, else the checkpoint's, else the default
       (:func:`_method`);
    5. the split depth: as asked, else as the checkpoint recorded it, else
       automatic when the units are built (:func:`_split_depth`, :func:`split_count`);
    6. the memory: the join where its tables fit, else d4 (:func:`_memory`).

    Raises TypeError, ValueError for invalid arguments, and
    :class:`parqueens.run.store.CheckpointError` if the checkpoint cannot be
    read.  Nothing is claimed or written."""
    backend = check_backend(backend)
    n, resolved, fixed = check_count(n, method, unique, fixed, split_depth, nodes)
    common = {"n": n, "unique": bool(unique), "fixed": fixed, "backend": backend}
    common |= {"nodes": bool(nodes), "checkpoint": checkpoint}
    common |= {"asked_jobs": jobs, "asked_depth": split_depth}
    common["part"] = part = None if part is None else check_part(part)
    # nothing asked of the machinery: one job in this process, no checkpoint, no part
    machinery = jobs not in (None, 1) or checkpoint is not None or part is not None
    machinery = machinery or not get_backend(backend).in_process
    if not machinery and small.serves(
        n, fixed, method=method, split_depth=split_depth, nodes=nodes
    ):
        return CountPlan(
            **common, asked=method, method="plain", jobs=1, split_depth=None, direct=True
        )
    jobs = _jobs(jobs, backend, n - len(fixed))
    asked, resolved, kept = _method(
        checkpoint, n, method, resolved, unique, fixed, split_depth, nodes
    )
    split_depth = _split_depth(checkpoint, n, split_depth, resolved)
    resolved, fallback = _memory(checkpoint, n, resolved, jobs, backend, asked)
    why = get_method(asked).small_n_reason if asked else ""
    if why and asked != resolved and not fixed:
        fallback = (
            f"n = {n}: counted by {resolved}, since {asked} needs n >= "
            f"{get_method(asked).min_n} ({why})"
        )
    return CountPlan(
        **common,
        asked=asked,
        method=resolved,
        jobs=jobs,
        split_depth=split_depth,
        kept=kept,
        fallback=fallback,
    )


def _method(checkpoint, n, method, resolved, unique, fixed, split_depth, nodes):
    """The method of a count: ``(asked, resolved, kept)``, the method as
    asked (or as the checkpoint's run keeps it, :func:`method_of`), the
    method that counts n, and the checkpoint's method where it was kept for
    a run that named none and the default would have counted n otherwise.
    ``resolved``: the method as checked for what was asked."""
    if checkpoint is None or method is not None:
        return method, resolved, None
    asked = method = method_of(checkpoint, None)  # the checkpoint keeps its method
    if fixed and method is not None and get_method(method).classifies:
        # A run with fixed queens is another run than the file's, which the
        # identity check says (keeping d4 would refuse fixed queens instead).
        return None, resolved, None
    if method is None and (split_depth is not None or nodes) and not fixed:
        _refuse_search_on_join(checkpoint)
    if method is None:  # the file's run is the default's: n may have kept d4
        method = _size_method(checkpoint, n, resolved)
    if method is None:
        return asked, resolved, None
    _, resolved, _ = check_count(n, method, unique, fixed, split_depth, nodes)
    default = resolve_method(None, n, fixed, unique, split_depth, nodes)
    return asked, resolved, method if resolved != default else None


def _split_depth(checkpoint, n, split_depth, method):
    """The split depth of a search: as asked, else as the checkpoint's first
    run of n chose it; None: automatic (:func:`split_count`)."""
    if checkpoint is not None and split_depth is None and get_method(method).splits:
        return checkpoint.run_depth(n) or None
    return split_depth


def _memory(checkpoint, n, method, jobs, backend, asked):
    """The method once the memory is known: ``(method, fallback)``, d4 with
    why (the fallback) where the default's join would not fit
    (:func:`_short_of_memory`; not checked on a Dask cluster, whose workers'
    memory is their own).  Raises CheckpointError where the checkpoint's
    units of n are the join's, which d4 cannot go on with."""
    if not get_method(method).needs_memory or get_backend(backend).cluster:
        return method, None
    short = _short_of_memory(n, method, jobs or 1, backend, asked=asked)
    if short is None:
        return method, None
    if checkpoint is not None and checkpoint.unit_method(n):
        from .store import CheckpointError

        raise CheckpointError(  # its units are the join's: d4 cannot go on with them
            f"{checkpoint.path}: n = {n} was counted there by the join, and {short}: run "
            f"it where more memory is free{', with fewer jobs' * (jobs > 1)}, or use "
            f"another file"
        )
    return "d4", f"{short}: counted by d4 (a search, in little memory)"


@dataclass(frozen=True)
class Split:
    """How a count is split: decided once, before any search.

    Attributes
    ----------
    n : int
        Board size.
    method : str
        The method used (see :func:`parqueens.methods.resolve_method`).
    depth : int
        Rows pre-placed per work unit (0 without units, and for ``join``).
    units : tuple of parqueens.search.units.WorkUnit (of parqueens.join.JoinUnit for ``join``)
        Largest first; empty for n < :data:`parqueens.names.UNITS_FROM` and for fixed queens
        that attack each other.
    jobs : int
        Parallel jobs the run uses: the jobs planned
        (:func:`parqueens.run.backends.plan_jobs`), but no more than the units.
    tiny : tuple of tuple or None
        The solutions, for n < :data:`~parqueens.names.UNITS_FROM` (solved directly).
    conflict : str or None
        Why the fixed queens admit no solution.
    """

    n: int
    method: str
    depth: int
    units: tuple
    jobs: int
    tiny: tuple | None = None
    conflict: str | None = None


def split_count(n, method, jobs, split_depth=None, fixed=(), part=None):
    """The :class:`Split` of a count: its work units, built now.

    ``n``, ``fixed``: checked; ``method``: resolved
    (:func:`parqueens.methods.resolve_method`);
    ``jobs``: as planned by :func:`parqueens.run.backends.plan_jobs`;
    ``split_depth``: None for :func:`parqueens.search.units.auto_depth`
    (for :data:`PART_JOBS` jobs when ``part`` is given, so that every part
    of a count splits it alike); ``part``: ``(I, K)`` for part I of K of the
    units (:func:`part_units`), or None.  Raises ``ValueError`` for a split
    depth out of range, or a part of a count with fewer than K units.
    """
    counter = get_method(method)
    if not counter.splits:  # the join plans its own units, whatever the size
        _, units = counter.split(n, jobs)
        units = part_units(units, part, n)
        return Split(n, method, 0, units, max(1, min(jobs, len(units))))
    conflict = fixed_conflict(fixed)
    if n < UNITS_FROM or conflict:
        if part is not None:
            part_units((), part, n)  # refused: nothing to cut
        tiny = tuple(small.solutions(n, fixed)) if n < UNITS_FROM else ()
        return Split(n, "plain" if n < UNITS_FROM else method, 0, (), 1, tiny, conflict)
    depth_jobs = jobs if part is None else PART_JOBS
    depth, units = counter.split(n, jobs, split_depth, fixed, depth_jobs)
    units = part_units(units, part, n)
    return Split(n, method, depth, units, max(1, min(jobs, len(units))))


#: The jobs a search's split depth is chosen for when a count runs in parts:
#: every part splits the count alike, whatever jobs it runs on.
PART_JOBS = 64


def part_units(units, part, n):
    """Part ``I`` of ``K`` (``part``, or None for all) of a count's work
    units: the I-th of K consecutive runs of ``units`` (in the plan's
    order, which keeps a join's units of one class together) holding
    about equal shares of the modelled work
    (:func:`parqueens.run.method.work_shares`), none empty.  The parts
    are disjoint and together hold every unit, the same for every run of
    the same version.  A tuple; raises ValueError if there are fewer units
    than parts."""
    units = tuple(units)
    if part is None:
        return units
    i, k = part
    if len(units) < k:
        raise ValueError(
            f"n = {n} has {len(units):,} work unit{'s' * (len(units) != 1)}, too few "
            f"for {k:,} parts"
        )
    import numpy as np

    cum = np.cumsum(work_shares(units))
    cuts = [0] + [int(np.searchsorted(cum, j / k)) for j in range(1, k)] + [len(units)]
    # none empty: each cut at least one unit past the one before, and room
    # left for the parts after it
    for j in range(1, k):
        cuts[j] = min(max(cuts[j], cuts[j - 1] + 1), len(units) - (k - j))
    return units[cuts[i - 1] : cuts[i]]


def _size_method(checkpoint, n, resolved):
    """The search method n's stored units were counted by, where the
    default (``resolved``) is the join: a size the join left to d4 for want
    of memory goes on with d4 (None otherwise)."""
    stored = checkpoint.unit_method(n) if resolved == METHODS[0] else None
    return stored if stored in METHODS and stored != METHODS[0] else None


def _short_of_memory(n, method, jobs, backend, asked):
    """Whether ``method`` (the join) counts n in the memory available now
    (:meth:`parqueens.methods.Method.memory`: its tables, once per process
    with threads, in each worker process with loky): None if it does; else,
    when it was the default, why it does not (the memory needed and free);
    raises ValueError when it was asked for by name."""
    import psutil

    from ..io.space import format_bytes

    threads, processes = get_backend(backend).processes(jobs)
    need = processes * get_method(method).memory(n, threads)
    available = psutil.virtual_memory().available
    if need <= available:
        return None
    text = (
        f"the {method} of n = {n} needs about {format_bytes(need)} of memory, "
        f"{format_bytes(available)} are available"
    )
    if asked == method:
        raise ValueError(f'{text}; use method="d4"' + ", or fewer jobs" * (jobs > 1))
    return text


def _refuse_search_on_join(checkpoint):
    """A split depth or node count (a search) asked of a checkpoint made by
    the default, the join: refused, unless the file holds no run yet."""
    from .store import CheckpointError

    if checkpoint.recorded_method() == METHODS[0]:
        raise CheckpointError(
            f"{checkpoint.path} holds a count by the join, which has no split depth and "
            f"places no queens row by row: leave out split_depth and nodes=True, or use "
            f"another file"
        )


def _jobs(jobs, backend, rows):
    """The jobs a count plans (:func:`parqueens.run.backends.plan_jobs`); None on
    a Dask cluster not reached yet, whose threads decide
    (:meth:`CountPlan.with_jobs`)."""
    from .backends import BackendError

    try:
        return plan_jobs(jobs, backend, rows)
    except BackendError:
        if not get_backend(backend).cluster:
            raise
        return None


def run_identity(method, unique, fixed, search=False, part=None):
    """What makes a checkpoint belong to a count: the method asked for (None
    named as the default it stands for, so that naming the default makes no
    other run: ``plain`` with fixed queens, ``d4`` when a ``search`` was
    asked for (a split depth, a node count), else ``join``, the join where
    it serves and ``d4`` elsewhere), ``unique`` and the fixed queens.  A
    JSON-ready dict, checked by :meth:`parqueens.run.store.RunStore.claim`; the
    split depth is checked per board size, the version when the file is
    opened.  A count of part I of K (``part``) names it (``part: [I, K]``):
    each part has a file of its own."""
    fixed = sorted({(int(r), int(c)) for r, c in fixed or ()})
    method = method or ("plain" if fixed else "d4" if search else METHODS[0])
    identity = {"method": method, "unique": bool(unique), "fixed": [list(q) for q in fixed]}
    if part is not None:
        identity["part"] = list(part)
    return identity


def method_of(checkpoint, asked):
    """The method a count asks for (``asked``, None for the default), given
    its checkpoint (a :class:`parqueens.run.store.RunStore` or None): what was
    asked, or when nothing was, the method the checkpoint's run recorded,
    so that a file keeps its method (one made with ``--method d4``, or by
    parqueens 0.2, whose default was ``d4``, goes on with ``d4``)."""
    if asked is not None or checkpoint is None:
        return asked
    recorded = checkpoint.recorded_method()
    return recorded if recorded in METHODS and recorded != METHODS[0] else asked
