"""Counting runs: plan, resume, dispatch, merge exactly.

:func:`run_count` plans a count (the jobs by
:func:`parqueens.backends.plan_jobs`, the method, split depth and work units
by :func:`parqueens.units.plan_count`), takes the units a checkpoint already
holds (:mod:`parqueens.store`, which checks that the file belongs to this
run), loads the numba kernels once (so that workers find them in the on-disk
cache instead of compiling them concurrently), and hands chunks of the other
units to :func:`parqueens.backends.parallel`, which streams results as chunks
finish.  A :class:`Tally` merges them as Python integers, so totals never
overflow; a single unit's count is a ``uint64``, which no search can fill
(2**64 solutions at a billion a second take 585 years).
"""

import contextlib
import functools
import math
import random
import sys
import time
from dataclasses import asdict, dataclass, field

from . import small
from .backends import (
    RunInterrupted,
    Terminated,
    WorkerDied,
    call_interruptibly,
    parallel,
    plan_jobs,
    start_workers,
    worker_failure,
)
from .checks import check_backend, check_recheck, check_share, fixed_conflict
from .methods import check_count, units_classified
from .names import METHODS, ORBIT_SIZES, UNITS_FROM, WEIGHTS
from .store import CheckpointError, forget_unit_hint

# numpy, the numba kernels and the work units are imported where they are
# used: a small board (parqueens.small) is counted without them, at once.


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
        Work time of the count, in seconds: this run's wall-clock time, plus
        with a checkpoint the time stored with the units it resumed (so a
        resumed size reports the time of all its units).
    run_seconds : float
        Wall-clock time of this run alone.
    nodes : int or None
        Queens placed by the search (0 for n < 3), if asked for (``nodes=True``:
        a kernel variant with a counter, 5 to 10 % slower); else None.
    resumed : int
        Units taken from a checkpoint instead of being searched.
    rechecked : int
        Units taken from a checkpoint that were searched again and found
        equal (see ``recheck``).
    half_turn, quarter_turn : int or None
        With ``unique``: the solutions fixed by the half turn (OEIS A032522)
        and by the quarter turn (OEIS A033148), from which the join's
        classes follow by Burnside's lemma (:mod:`parqueens.burnside`); for
        the search methods, from their classes.
    conflict : str or None
        Why fixed queens admit no solution (then ``total`` is 0).
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
    nodes: int = None
    resumed: int = 0
    conflict: str = None
    run_seconds: float = 0.0
    rechecked: int = 0
    half_turn: int = None
    quarter_turn: int = None

    def as_dict(self):
        """The result as a JSON-ready dict (orbit keys as strings)."""
        d = asdict(self)
        if self.conflict is None:
            del d["conflict"]
        if self.orbits is None:
            for key in ("orbits", "fundamental", "half_turn", "quarter_turn"):
                del d[key]
        else:
            d["orbits"] = {str(k): v for k, v in self.orbits.items()}
        return d


@dataclass
class UnitResult:
    """Result of one work unit: its solutions found (before weighting),
    canonical classes by stabiliser size (``by_stab[k]`` for ``2**k``), and
    the queens placed (0: not counted; a counted unit places at least its
    prefix)."""

    solutions: int
    by_stab: tuple = field(default=(0, 0, 0, 0))
    nodes: int = 0


@functools.cache
def warm_up(nodes=False, join=False):
    """Load (or compile, the first time) the counting kernel in this process:
    the variant with the node counter if ``nodes``; the join's kernels if
    ``join``.

    Done in the parent before workers start, so that they load the cached
    machine code instead of all compiling it at once; once per process and
    variant.
    """
    if join:
        from .join import join_units

        run_chunk(join_units(8), unique=False)
        return
    from .units import make_units

    run_chunk(make_units(5, "plain", 1), unique=True, nodes=nodes)


def _is_join(units):
    from .join import JoinUnit

    return bool(units) and isinstance(units[0], JoinUnit)


class Stopped(Exception):
    """A chunk abandoned because its run was stopped (see :func:`run_chunk`)."""


def run_chunk(units, unique, nodes=False, stop=None):
    """Search a list of work units in this process.

    ``unique``: classify the solutions of ``plain``/``mirror`` units by
    symmetry too; ``nodes``: count the queens placed; ``stop``: None, or a
    uint8 numpy array of 1 that the kernel reads before each unit: once it
    is set (``stop[0] = 1``, by another thread), the chunk is abandoned
    (:class:`Stopped`), so that the threads of an interrupted run stop
    within a unit.  Returns a list of :class:`UnitResult`, one per unit, in
    order.
    """
    if not units:
        return []
    import numpy as np

    if _is_join(units):  # each unit's share of the total; no classes, no nodes
        from .join import count_join_units

        counts = count_join_units(units[0].n, units, stop)
        if stop is not None and stop[0]:
            raise Stopped
        return [UnitResult(c) for c in counts]
    from .units import unit_masks

    specs = [unit_masks(unit, unique) for unit in units]
    solutions, by_stab, counted = search_specs(units[0].n, specs, nodes, stop)
    if stop is not None and stop[0]:
        raise Stopped
    if counted is None:
        counted = np.zeros(len(units), np.uint64)
    return [
        UnitResult(int(s), tuple(int(x) for x in b), int(k))
        for s, b, k in zip(solutions, by_stab, counted, strict=True)
    ]


def search_specs(n, specs, nodes=False, stop=None):
    """Run the counting kernel on a list of :class:`parqueens.units.UnitSpec`.

    Returns ``(solutions, by_stab, nodes)`` as
    :func:`parqueens.kernels._count_batch` does, with ``nodes`` (uint64,
    one per spec) only if asked for, else None: counting the queens
    placed takes a kernel variant with a counter in its hot loop.  A spec
    that is not ``ok`` counts nothing.  ``stop``: see :func:`run_chunk`.
    """
    import numpy as np

    from .kernels import _count_batch
    from .units import kernel_args

    counted = np.zeros(len(specs), dtype=np.uint64) if nodes else None
    solutions, by_stab = _count_batch(n, *kernel_args(n, specs), counted, stop)
    return solutions, by_stab, counted


def _chunks(units, jobs):
    # Chunks of about 1/(16 jobs) of the estimated work each, so that the
    # large units, dispatched first, are balanced by the many small ones at
    # the end.  By work, not by count: the first units hold most of it (at
    # n = 18 the first 9 of 304 d4 units 24 %, which took 20 s before
    # anything could be stored); a unit above the share is a chunk of its
    # own, so the first results are stored within seconds.  Nor more units
    # than a 16th per job: the estimates underrate the many small units.
    from .units import work_shares

    target = 1.0 / (16 * jobs)
    most = max(1, len(units) // (16 * jobs))
    chunk, share = [], 0.0
    for unit, s in zip(units, work_shares(units), strict=True):
        if chunk and (share + s > target or len(chunk) == most):
            yield chunk
            chunk, share = [], 0.0
        chunk.append(unit)
        share += s
    if chunk:
        yield chunk


def iter_chunks(units, *, jobs=1, unique=False, backend="threads", nodes=False):
    """Yield lists of ``(unit, UnitResult)`` pairs as chunks of units finish.

    ``unique`` and ``nodes`` as in :func:`run_chunk`.  ``jobs`` (as
    planned: :func:`parqueens.backends.plan_jobs`) = 1 runs in this process;
    otherwise :func:`parqueens.backends.parallel` with ``backend``.  Order
    is not guaranteed.  Raises :class:`parqueens.backends.WorkerDied` if a
    worker or the cluster is lost.
    """
    if not units:
        return
    # In a helper thread: loading numba's cache runs through ctypes callbacks,
    # which would swallow a Ctrl-C arriving in the main thread meanwhile.
    call_interruptibly(warm_up, nodes, _is_join(units))
    # Threads of this process stop at their next unit once the run ends
    # early (Ctrl-C, an error, the caller closing this generator).
    stop = _stop_flag() if backend == "threads" else None
    try:
        if jobs == 1 and backend != "dask":
            # Smaller chunks in-process: Ctrl-C is answered between kernel calls.
            for chunk in _chunks(units, 4):
                results = call_interruptibly(run_chunk, chunk, unique, nodes, stop)
                yield list(zip(chunk, results, strict=True))
            return
        import joblib

        chunks = list(_chunks(units, jobs))
        pending = set(range(len(chunks)))
        calls = (
            joblib.delayed(_run_chunk_tagged)(i, chunk, unique, nodes, stop)
            for i, chunk in enumerate(chunks)
        )
        try:
            for i, results in start_workers(parallel(backend, jobs), calls):
                pending.discard(i)
                yield list(zip(chunks[i], results, strict=True))
        except Exception as exc:
            died = worker_failure(exc, [u.id for i in sorted(pending) for u in chunks[i]])
            if died is None:
                raise
            raise died from None
    finally:
        if stop is not None:
            stop[0] = 1


def _stop_flag():
    import numpy as np

    return np.zeros(1, np.uint8)


def _run_chunk_tagged(index, units, unique, nodes, stop=None):
    return index, run_chunk(units, unique, nodes, stop)


class Tally:
    """The exact merge of the unit results of one board size and method
    (Python ints, never overflowing): for a run, a resume and ``status``.

    Attributes: ``classes`` (canonical classes by stabiliser, indexed like
    ``by_stab``), ``nodes`` (queens placed), ``counted`` (every unit's nodes
    were counted), ``units`` (results added).
    """

    def __init__(self, method):
        self.method = method
        self.weight = WEIGHTS[method]
        self.solutions = 0
        self.nodes = 0
        self.counted = True
        self.units = 0
        self.classes = [0, 0, 0, 0]

    def add(self, res):
        """Add one :class:`UnitResult`."""
        self.solutions += res.solutions
        self.nodes += res.nodes
        self.counted = self.counted and res.nodes > 0
        self.units += 1
        for k in range(4):
            self.classes[k] += res.by_stab[k]

    @property
    def orbits(self):
        """``{orbit size: classes}`` (see :data:`parqueens.names.ORBIT_SIZES`)."""
        return dict(zip(ORBIT_SIZES, self.classes, strict=True))

    @property
    def fundamental(self):
        """Canonical classes found (meaningful for ``d4``, or with ``unique``)."""
        return sum(self.classes)

    @property
    def total(self):
        """The solutions: weighted by method, or for ``d4`` each class by its
        orbit size (its units search one representative per class)."""
        if self.method == "d4":
            return sum(size * c for size, c in self.orbits.items())
        return self.weight * self.solutions


def tally_stored(method, stored):
    """A :class:`Tally` of units read from a checkpoint: ``stored`` maps unit
    ids to ``(solutions, by_stab, nodes)`` (see
    :meth:`parqueens.store.RunStore.begin_run`)."""
    tally = Tally(method)
    for res in stored.values():
        tally.add(UnitResult(*res))
    return tally


def run_identity(method, unique, fixed):
    """What makes a checkpoint belong to a count: the method asked for (None
    named as the default it stands for, ``join`` (the join where it serves,
    ``d4`` elsewhere) or ``plain`` with fixed queens, so that naming the
    default makes no other run), ``unique`` and the fixed queens.  A
    JSON-ready dict, checked by :meth:`parqueens.store.RunStore.claim`; the
    split depth is checked per board size, the version when the file is
    opened."""
    fixed = sorted({(int(r), int(c)) for r, c in fixed or ()})
    method = method or ("plain" if fixed else METHODS[0])
    return {"method": method, "unique": bool(unique), "fixed": [list(q) for q in fixed]}


def run_count(
    n,
    *,
    unique=False,
    method=None,
    jobs=None,
    split_depth=None,
    progress=False,
    fixed=None,
    checkpoint=None,
    backend="threads",
    nodes=False,
    recheck=None,
):
    """Count the solutions of the n-queens problem, in parallel.

    Parameters
    ----------
    n : int
        Board size, ``0 <= n <= 64`` (n = 0 counts the empty placement: 1).
    unique : bool
        Also count the symmetry classes (fundamental solutions, OEIS A002562)
        and their orbit sizes.
    method : str or None
        ``"d4"`` (the default, None: about 1/8 of the full tree),
        ``"mirror"`` (1/2) or ``"plain"`` (all of it); see
        :mod:`parqueens.units`.
    jobs : int or None
        Parallel jobs (threads by default); None for all cores (but 1 for
        at most 14 rows to search, fixed queens not counted, where starting
        jobs costs more than the search), negative
        as in joblib, 1 for none (the search runs in this thread).  No more
        than the cores, nor than the work units, run: see
        :func:`parqueens.backends.plan_jobs`; :attr:`CountResult.jobs` says
        how many ran.
    split_depth : int or None
        Rows pre-placed per work unit; None chooses one with at least 64
        units per job (or, resuming, the depth recorded in the checkpoint).
    progress : bool
        Show a tqdm bar over the work units on stderr.
    fixed : iterable of (int, int) or None
        Queens every counted solution must contain, as 0-based
        ``(row, col)``; the method is then ``plain``.
    checkpoint : parqueens.store.RunStore, str, os.PathLike or None
        Store each finished unit there, and skip the units it already holds;
        a file that holds another run (:func:`run_identity`), or that another
        live process uses, is refused.  A path is opened (created if
        missing) and closed again by this call.
    backend : str or None
        Where the units run: ``"threads"`` (default, as on the command line;
        also ``"threading"`` and None),
        ``"loky"`` for worker processes, ``"dask"`` inside
        :func:`parqueens.backends.dask_client`.
    nodes : bool
        Also count the queens placed (:attr:`CountResult.nodes`), with a
        kernel variant that has a counter in its hot loop (5 to 10 %
        slower).  Units resumed from a checkpoint keep the count stored with
        them; if one was stored without it, ``nodes`` is None (and the
        other units are searched without counting them).
    recheck : float or None
        With a checkpoint: the share (0 to 1) of the units taken from it
        that are searched again and compared with what it holds, before
        the others run; None: :data:`RECHECK_UNITS` of them at random, 0:
        none.  A stored result that a faulty machine computed wrong passes
        its checksum; only recomputing finds it.

    Returns
    -------
    CountResult

    Raises
    ------
    TypeError, ValueError
        For invalid arguments (``checkpoint`` neither a store nor a path:
        TypeError).
    parqueens.store.CheckpointError
        If the checkpoint belongs to another run, is in use by another live
        process (:class:`parqueens.store.CheckpointInUse`), holds a row that
        fails its checksum, or cannot be written.
    ResultMismatch
        If a rechecked unit's result differs from the stored one (the unit
        is named; nothing more runs).
    parqueens.backends.WorkerDied
        If a worker process or the Dask cluster is lost.
    RunInterrupted
        On Ctrl-C or SIGTERM (:class:`parqueens.backends.Terminated`) during
        the search; the units finished are in the checkpoint.
    """
    backend = check_backend(backend)
    recheck = check_recheck(recheck, checkpoint)
    asked = method
    n, method, fixed = check_count(n, method, unique, fixed, split_depth, nodes)
    if small.serves(
        n,
        fixed,
        jobs=jobs,
        method=asked,
        split_depth=split_depth,
        nodes=nodes,
        checkpoint=checkpoint,
        backend=backend,
    ):
        return _direct(n, fixed, unique)
    jobs = plan_jobs(jobs, backend, n - len(fixed))
    store = _open_checkpoint(checkpoint, n, run_identity(asked, unique, fixed))
    try:
        if store is not None and asked is None:  # the checkpoint keeps its method
            asked = method_of(store, asked)
            n, method, fixed = check_count(n, asked, unique, fixed, split_depth, nodes)
        identity = run_identity(asked, unique, fixed)  # as asked, not resolved
        return _run(
            n,
            unique,
            method,
            jobs,
            split_depth,
            progress,
            fixed,
            store,
            backend,
            nodes,
            recheck,
            identity,
        )
    finally:
        if store is not None and store is not checkpoint:
            store.close()


def method_of(checkpoint, asked):
    """The method a count asks for (``asked``, None for the default), given
    its checkpoint (a :class:`parqueens.store.RunStore` or None): what was
    asked, or when nothing was, the method the checkpoint's run recorded,
    so that a file keeps its method (one made with ``--method d4``, or by
    parqueens 0.2, whose default was ``d4``, goes on with ``d4``)."""
    if asked is not None or checkpoint is None:
        return asked
    recorded = checkpoint.recorded_method()
    return recorded if recorded in METHODS and recorded != METHODS[0] else asked


def _open_checkpoint(checkpoint, n, identity):
    """``checkpoint`` as a :class:`parqueens.store.RunStore`: a store as it
    is, a path opened (created if missing) for this count; TypeError else."""
    import os

    from .store import RunStore

    if checkpoint is None or isinstance(checkpoint, RunStore):
        return checkpoint
    if isinstance(checkpoint, (str, os.PathLike)):
        return RunStore(checkpoint, {"command": "run_count", "n": [n], **identity})
    raise TypeError(
        f"checkpoint must be a file path or a parqueens.store.RunStore, got "
        f"{type(checkpoint).__name__}"
    )


def _run(
    n,
    unique,
    method,
    jobs,
    split_depth,
    progress,
    fixed,
    checkpoint,
    backend,
    nodes,
    recheck,
    identity,
):
    """:func:`run_count` once its arguments are checked and its checkpoint open."""
    from .units import plan_count

    # Before any kernel is called here (make_units and join_units call some):
    # loading the numba cache in the main thread would swallow a Ctrl-C
    # (ctypes callbacks).
    call_interruptibly(warm_up, bool(nodes), method == "join")
    start = time.perf_counter()
    if checkpoint is not None:
        # What can be refused by reading, before the claim (a refusal then
        # leaves the file as it was).
        checkpoint.check_identity(identity)
        if split_depth is None:
            split_depth = checkpoint.run_depth(n)
        checkpoint.check_method(n, method)
        checkpoint.check_depth(n, split_depth)
        checkpoint.check_classified(n, units_classified(method, n, unique))
        checkpoint.claim(identity)
    plan = plan_count(n, method, jobs, split_depth, fixed)
    tally, todo, held = _resume(plan, checkpoint, unique)
    rechecked = 0
    if held:
        rechecked = _recheck(plan, held, checkpoint.path, unique, recheck, jobs, backend)
    nodes = bool(nodes) and tally.counted  # not for a total resumed units leave unknown
    run_jobs = max(1, min(plan.jobs, len(todo)))  # what runs: no more than the units left
    _dispatch(
        plan,
        todo,
        run_jobs,
        tally,
        unique=unique,
        backend=backend,
        nodes=nodes,
        checkpoint=checkpoint,
        progress=progress,
    )
    result = CountResult(
        n,
        tally.total,
        method=plan.method,
        split_depth=plan.depth,
        units=len(plan.units),
        jobs=max(run_jobs, min(plan.jobs, rechecked)),  # the recheck's threads too
        nodes=tally.nodes if nodes else None,
        resumed=len(plan.units) - len(todo),
        conflict=plan.conflict,
        rechecked=rechecked,
    )
    if unique or plan.method == "join":  # the join's classes check its total, always
        orbits = classes(plan.method, n, tally)
    if unique:
        result.orbits, result.fundamental = orbits, sum(orbits.values())
        result.half_turn, result.quarter_turn = fixed_by_turns(orbits)
    result.seconds = result.run_seconds = time.perf_counter() - start
    if checkpoint is not None:
        checkpoint.finish_run(n, result.total, result.fundamental)
        # The stored chunks' time of every run of n, this one's included:
        # the same figure however many runs it took.
        result.seconds = checkpoint.work_seconds(n)
    return result


def classes(method, n, tally):
    """The symmetry classes of a complete count of board size n, by orbit
    size (see :attr:`CountResult.orbits`): for ``join``, from the total and
    the solutions fixed by the rotations, by Burnside's lemma
    (:func:`parqueens.burnside.orbits_from_counts`); else from the classes
    the units found (``tally``, a :class:`Tally`).

    Raises RuntimeError (an internal error: a wrong count detected, never
    printed) if they do not add up to the total."""
    if method == "join":
        from .burnside import count_half_turn, count_quarter_turn, orbits_from_counts

        return orbits_from_counts(n, tally.total, count_half_turn(n), count_quarter_turn(n))
    if sum(size * c for size, c in tally.orbits.items()) != tally.total:
        raise RuntimeError(f"internal error: orbit sizes of n = {n} do not add up to the total")
    return tally.orbits


def fixed_by_turns(orbits):
    """``(half_turn, quarter_turn)``: the solutions fixed by the half turn and
    by the quarter turn, from the classes by orbit size (a class of 2 is
    fixed by both, of 4 by the half turn only; n <= 1: the one solution)."""
    return 4 * orbits[4] + 2 * orbits[2] + orbits[1], 2 * orbits[2] + orbits[1]


def _direct(n, fixed, unique):
    """The :class:`CountResult` of a small board, searched in Python
    (:mod:`parqueens.small`): method ``plain``, no work units, one job."""
    start = time.perf_counter()
    found = small.solutions(n, fixed)
    result = CountResult(n, len(found), method="plain", conflict=fixed_conflict(fixed))
    if unique:
        result.orbits = dict.fromkeys(ORBIT_SIZES, 0)
        for queens in found:
            if small.canonical(queens) == queens:
                result.orbits[small.orbit_size(queens)] += 1
        result.fundamental = sum(result.orbits.values())
        result.half_turn, result.quarter_turn = fixed_by_turns(result.orbits)
    result.seconds = result.run_seconds = time.perf_counter() - start
    return result


def _resume(plan, checkpoint, unique):
    """The tally of the units stored in ``checkpoint`` (or of a tiny board's
    solutions), the units left to search, and the stored results
    (``{unit_id: (solutions, by_stab, nodes)}``)."""
    tally = Tally(plan.method)
    if plan.tiny is not None:
        for queens in plan.tiny:  # each solution a unit of its own
            k = (
                ORBIT_SIZES.index(small.orbit_size(queens))
                if small.canonical(queens) == queens
                else None
            )
            tally.add(UnitResult(1, tuple(int(i == k) for i in range(4)), 0))
        tally.counted = True  # no search: 0 queens placed, and that is known
    classified = units_classified(plan.method, plan.n, unique)
    done = (
        {}
        if checkpoint is None
        else checkpoint.begin_run(plan.n, plan.depth, len(plan.units), classified)
    )
    todo = []
    for unit in plan.units:
        if unit.id in done:
            tally.add(UnitResult(*done[unit.id]))
        else:
            todo.append(unit)
    return tally, todo, done


#: Units searched again on resume when ``recheck`` is None.
RECHECK_UNITS = 2


class ResultMismatch(CheckpointError):
    """A unit searched again gave another result than its stored one."""


def _recheck(plan, held, path, unique, share, jobs, backend):
    """Search a sample of the units ``held`` by the checkpoint at ``path``
    again and compare (see :func:`run_count`'s ``recheck``); returns how
    many were searched (all equal, else :class:`ResultMismatch`)."""
    stored = [u for u in plan.units if u.id in held]
    if share is None:
        k = min(RECHECK_UNITS, len(stored))
    else:
        k = math.ceil(check_share(share, "recheck") * len(stored))
    if not k:
        return 0
    sample = random.Random().sample(stored, k)
    # Units stored with their classes may serve a run without them: then
    # the solutions alone are compared.
    classes = units_classified(plan.method, plan.n, unique)
    chunks = iter_chunks(sample, jobs=min(jobs, k), unique=unique, backend=backend)
    for pairs in _retold(chunks, [u.id for u in plan.units if u.id not in held]):
        for unit, res in pairs:
            solutions, by_stab, _ = held[unit.id]
            if res.solutions != solutions or (classes and res.by_stab != by_stab):
                raise ResultMismatch(
                    f"{path}: n = {plan.n}, unit {unit.id}: stored {solutions} "
                    f"solutions (classes {list(by_stab)}), searched again {res.solutions} "
                    f"(classes {list(res.by_stab)}); the stored result is wrong (a faulty "
                    f"machine, or a file edited with its checksum), so the run stops: "
                    f"{forget_unit_hint(path, plan.n, unit.id)}; --recheck 1 checks them all"
                )
    return k


def _retold(chunks, unit_ids):
    """The ``chunks`` of a recheck (:func:`iter_chunks`); a lost worker is
    reported with the run's unfinished units ``unit_ids``, not the sample's."""
    try:
        yield from chunks
    except WorkerDied as exc:
        raise exc.retold(unit_ids, "while searching stored units again to check them") from None


def _dispatch(plan, todo, jobs, tally, *, unique, backend, nodes, checkpoint, progress):
    """Search the units ``todo`` of ``plan``, adding their results to
    ``tally`` and to ``checkpoint``, with a progress bar if ``progress``."""
    from .units import work_shares

    units = plan.units
    finished = len(units) - len(todo)
    share = dict(zip((u.id for u in units), work_shares(units), strict=True)) if progress else {}
    left = {u.id for u in todo}
    bar = _progress_bar(
        progress,
        f"n={plan.n}",
        len(units),
        finished,
        min(1.0, sum(share.get(u.id, 0.0) for u in units if u.id not in left)),
    )
    try:
        t = time.perf_counter()
        for pairs in iter_chunks(todo, jobs=jobs, unique=unique, backend=backend, nodes=nodes):
            for _, res in pairs:
                tally.add(res)
            if checkpoint is not None:
                now = time.perf_counter()
                checkpoint.add(
                    plan.n, [(u.id, r.solutions, r.by_stab, r.nodes) for u, r in pairs], now - t
                )
                t = now
            finished += len(pairs)
            bar.set_description_str(f"n={plan.n} {finished}/{len(units)} units", refresh=False)
            step = sum(share.get(u.id, 0.0) for u, _ in pairs)
            # Float sums must neither pass 1 nor stop short of it at the end.
            bar.update(1.0 - bar.n if finished == len(units) else min(step, 1.0 - bar.n))
    except (KeyboardInterrupt, Terminated) as exc:
        if checkpoint is not None:  # the truth, if the signal landed right after a save
            with contextlib.suppress(CheckpointError):
                finished = checkpoint.stored_units(plan.n)
        raise RunInterrupted(plan.n, finished, len(units), isinstance(exc, Terminated)) from exc
    finally:
        if finished == len(units) and bar.n < 1.0:  # nothing to search
            bar.update(1.0 - bar.n)
        bar.close()


def estimate(
    n,
    *,
    method=None,
    jobs=None,
    split_depth=None,
    fixed=None,
    backend="threads",
    probes=20000,
    seed=1,
):
    """Estimate the time a count will take, without running it.

    The nodes of the search tree are estimated by Knuth's random probes
    (Knuth 1975) over the work units, and divided by this machine's node
    rate, measured on a small board (n = 14, the kernel alone, about 0.05 s)
    in this process, plus twice the time it took to build the work units
    (which a deep ``split_depth`` makes long).  The estimate is rough (it ran
    1.2 to 1.3 times the real time at n = 16..18, and can be up to about
    twice off) but cheap: about a second, or the time to build the units.

    The join (``method`` ``join``, the default where it serves) is estimated
    by the cost model of its units instead, scaled by this machine's speed
    on a small board.

    Returns a dict: ``nodes`` (float; None for the join), ``rate`` (nodes
    per second per job; None for the join), ``jobs`` (as a run would use
    them), ``units``, ``split_depth``, ``method`` and ``seconds`` (the
    estimated wall time).  Raises like :func:`run_count`.
    """
    from .units import make_units, plan_count, unit_masks

    backend = check_backend(backend)
    n, method, fixed = check_count(n, method, False, fixed, split_depth)
    jobs = plan_jobs(jobs, backend, n - len(fixed))
    if method == "join":
        return _estimate_join(n, jobs)
    warm_up()  # building units calls kernels: their loading is not the build's time
    t = time.perf_counter()
    plan = plan_count(n, method, jobs, split_depth, fixed)
    # A run builds the units too, and their masks once more when searching:
    # with a deep --split-depth that can outweigh the search.
    build = 2 * (time.perf_counter() - t)
    units = plan.units
    if not units:
        return {
            "nodes": 0.0,
            "rate": 0.0,
            "jobs": plan.jobs,
            "units": 0,
            "split_depth": 0,
            "method": plan.method,
            "seconds": 0.0,
        }
    nodes, _ = probe_units(units, probes, seed)
    warm_up()
    warm_up(True)
    # The kernel alone is timed: the per-unit set-up in Python weighs on a
    # board this small far more than on the boards worth estimating.  Its
    # nodes come from the counting variant, its time from the one a run uses.
    calib_specs = [unit_masks(u) for u in make_units(14, method, 2)]
    _, _, calib_nodes = search_specs(14, calib_specs, nodes=True)
    t = time.perf_counter()
    search_specs(14, calib_specs)
    rate = int(calib_nodes.sum()) / max(time.perf_counter() - t, 1e-9)
    return {
        "nodes": nodes,
        "rate": rate,
        "jobs": plan.jobs,
        "units": len(units),
        "split_depth": plan.depth,
        "method": plan.method,
        "seconds": nodes / rate / plan.jobs + build,
    }


def _estimate_join(n, jobs):
    """:func:`estimate` for the join: the cost model of its units
    (:attr:`parqueens.join.JoinUnit.work`, seconds of a reference machine)
    scaled by this machine's speed, measured on n = 14 (a few hundredths of
    a second)."""
    from .join import count_join_units, join_units

    call_interruptibly(warm_up, False, True)
    units = join_units(n)
    calib = join_units(14)
    count_join_units(14, calib)  # builds its tables: not timed
    t = time.perf_counter()
    count_join_units(14, calib)
    scale = (time.perf_counter() - t) / sum(u.work for u in calib)
    jobs = max(1, min(jobs, len(units)))
    return {
        "nodes": None,
        "rate": None,
        "jobs": jobs,
        "units": len(units),
        "split_depth": 0,
        "method": "join",
        "seconds": sum(u.work for u in units) * scale / jobs,
    }


def probe_units(units, probes, seed):
    """Knuth's estimates over work units (:func:`parqueens.kernels._knuth_estimate`):
    ``(nodes, solutions)``, floats, the solutions weighted by the units'
    weights.  ``probes`` random walks in all, spread over at most 256 units
    (all of them when there are no more; else a random sample, scaled up)."""
    import numpy as np

    from .kernels import _knuth_estimate
    from .units import unit_masks

    if not units:
        return 0.0, 0.0
    if len(units) <= 256:
        picks = np.arange(len(units))
    else:
        picks = np.random.default_rng(seed).integers(0, len(units), size=256)
    per_unit = max(1, probes // len(picks))
    nodes = solutions = 0.0
    for i in picks:
        unit = units[int(i)]
        node_mean, leaf_mean = _knuth_estimate(
            unit.n, unit_masks(unit).allowed, per_unit, seed + int(i)
        )
        nodes += node_mean
        solutions += leaf_mean * unit.weight
    scale = len(units) / len(picks)
    return nodes * scale, solutions * scale


def size_weights(ns):
    """The relative work of counting each board size of ``ns``: Knuth's
    estimate of the nodes of its whole search tree (:func:`probe_units`
    over the units of two rows, 20,000 probes, about 0.01 s a size), for a
    progress bar over several sizes.  Returns a list of floats, one per
    size, summing to 1."""
    from .units import iter_units

    nodes = []
    for n in ns:
        units = [u for u, _ in iter_units(n, "plain", 2)] if n >= UNITS_FROM else []
        nodes.append(probe_units(units, 20_000, 1)[0] + 1.0)
    total = sum(nodes)
    return [x / total for x in nodes]


def _progress_bar(enabled, desc, units, finished, share_done):
    # The bar and its time left follow the estimated share of the work done
    # (units differ a lot in size, and the largest run first).
    from tqdm import tqdm

    return tqdm(
        total=1.0,
        initial=share_done,
        disable=not enabled,
        file=sys.stderr,
        desc=f"{desc} {finished}/{units} units",
        dynamic_ncols=True,
        leave=None,  # below another bar (a table's), cleared when done
        bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]",
    )
