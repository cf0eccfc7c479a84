"""Parallel runs: split into work units, dispatch with joblib, merge exactly.

The parent builds the work units (:mod:`parqueens.units`), loads the numba
kernels once (so that workers find them in the on-disk cache instead of
compiling them concurrently), and hands chunks of units to
``joblib.Parallel(return_as="generator_unordered")``, which streams results
as chunks finish.  Counts are merged as Python integers, so totals never
overflow; a single unit's count is a ``uint64``, which no search can fill
(2**64 solutions at a billion a second take 585 years).
"""

import functools
import itertools
import signal
import sys
import threading
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from . import symmetry
from .checks import (check_fixed, check_int, check_n, check_unique_fixed, fixed_conflict,
                     resolve_jobs)
from .kernels import _count_batch, _knuth_estimate
from .units import METHODS, auto_depth, make_units, min_depth, unit_masks, work_shares


#: Values of ``backend`` for :func:`run_count`: threads of this process,
#: loky worker processes (None), the active Dask cluster.
BACKENDS = ("threading", None, "dask")
_BACKEND_NAMES = {"threads": "threading", "loky": None}  # the command line's names

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
    nodes : int or None
        Queens placed by the search (0 for n < 3), if asked for (``nodes=True``:
        a kernel variant with a counter, 5 to 10 % slower); else None.
    resumed : int
        Units taken from a checkpoint instead of being searched.
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

    def as_dict(self):
        """The result as a JSON-ready dict (orbit keys as strings)."""
        d = asdict(self)
        if self.conflict is None:
            del d["conflict"]
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
    the queens placed (0: not counted; a counted unit places at least its
    prefix)."""

    solutions: int
    by_stab: tuple = field(default=(0, 0, 0, 0))
    nodes: int = 0


@functools.cache
def warm_up(nodes=False):
    """Load (or compile, the first time) the counting kernel in this process:
    the variant with the node counter if ``nodes``.

    Done in the parent before workers start, so that they load the cached
    machine code instead of all compiling it at once; once per process and
    variant.
    """
    run_chunk(make_units(5, "plain", 1), unique=True, nodes=nodes)


def run_chunk(units, unique, nodes=False):
    """Search a list of work units in this process.

    ``unique``: classify the solutions of ``plain``/``mirror`` units by
    symmetry too; ``nodes``: count the queens placed.  Returns a list of
    :class:`UnitResult`, one per unit, in order.
    """
    if not units:
        return []
    specs = [unit_masks(unit, unique) for unit in units]
    solutions, by_stab, counted = search_specs(units[0].n, specs, nodes)
    if counted is None:
        counted = np.zeros(len(units), np.uint64)
    return [UnitResult(int(s), tuple(int(x) for x in b), int(k))
            for s, b, k in zip(solutions, by_stab, counted)]


def search_specs(n, specs, nodes=False):
    """Run the counting kernel on a list of :class:`parqueens.units.UnitSpec`.

    Returns ``(solutions, by_stab, nodes)`` as
    :func:`parqueens.kernels._count_batch` does, with ``nodes`` (uint64,
    one per spec) only if asked for, else None: counting the queens
    placed takes a kernel variant with a counter in its hot loop.  A spec
    that is not ``ok`` counts nothing.
    """
    count = len(specs)
    allowed = np.zeros((count, n), dtype=np.uint64)
    leaf_mode = np.zeros(count, dtype=np.int64)
    ties = np.zeros((count, 3), dtype=np.int64)
    for i, spec in enumerate(specs):
        if spec.ok:
            allowed[i] = spec.allowed
        leaf_mode[i] = spec.leaf_mode
        ties[i] = spec.tie_row_a, spec.tie_row_b, spec.tie_cols
    counted = np.zeros(count, dtype=np.uint64) if nodes else None
    solutions, by_stab = _count_batch(n, allowed, leaf_mode, ties, counted)
    return solutions, by_stab, counted


def _chunks(units, jobs):
    # Several chunks per job so that the large units, dispatched first,
    # are balanced by the many small ones at the end.
    size = max(1, len(units) // (16 * jobs))
    for i in range(0, len(units), size):
        yield units[i:i + size]


def iter_chunks(units, *, jobs=1, unique=False, backend=None, nodes=False):
    """Yield lists of ``(unit, UnitResult)`` pairs as chunks of units finish.

    ``unique`` and ``nodes`` as in :func:`run_chunk`.
    ``jobs`` = 1 runs in this process; otherwise ``joblib.Parallel`` with
    ``backend`` (``"threading"``: threads of this process; None: loky processes;
    ``"dask"`` inside :func:`dask_client`).  Order is not guaranteed.
    """
    if not units:
        return
    # In a helper thread: loading numba's cache runs through ctypes callbacks,
    # which would swallow a Ctrl-C arriving in the main thread meanwhile.
    call_interruptibly(warm_up, nodes)
    if jobs == 1 and backend in (None, "threading"):
        # Smaller chunks in-process: Ctrl-C is answered between kernel calls.
        for chunk in _chunks(units, 4):
            yield list(zip(chunk, call_interruptibly(run_chunk, chunk, unique, nodes)))
        return
    import joblib  # here: a run of one job does without it (0.1 s of start-up)
    jobs = min(jobs, max(2, len(units) // 4))  # more would only start idle workers
    if backend is None:
        jobs = min(jobs, max_processes())
    chunks = list(_chunks(units, jobs))
    pending = set(range(len(chunks)))
    # The dask backend is the one made active by parallel_config in
    # backends.dask_client: naming it here again would make joblib build a
    # second, misconfigured backend object.
    if backend is None:
        with joblib.parallel_config(backend="loky", initializer=_ignore_sigint):
            parallel = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")
    elif backend == "threading":
        # The kernels release the GIL (nogil=True): threads of this process
        # search in parallel, with no worker start-up and one copy of numba.
        with joblib.parallel_config(backend="threading"):
            parallel = joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")
    else:
        parallel = joblib.Parallel(n_jobs=-1, return_as="generator_unordered")
    calls = (joblib.delayed(_run_chunk_tagged)(i, chunk, unique, nodes)
             for i, chunk in enumerate(chunks))
    try:
        for i, results in (start_workers(parallel, calls) if backend is None
                           else parallel(calls)):
            pending.discard(i)
            yield list(zip(chunks[i], results))
    except Exception as exc:
        ids = [u.id for i in sorted(pending) for u in chunks[i]]
        if type(exc).__name__ in ("TerminatedWorkerError", "BrokenProcessPool"):
            raise WorkerDied(ids) from None
        if type(exc).__module__.startswith("distributed") or \
                type(exc).__name__ in ("CancelledError", "FutureCancelledError"):
            raise WorkerDied(ids, f"the Dask cluster failed ({type(exc).__name__}: "
                                  f"{str(exc)[:120]})") from None
        raise


class WorkerDied(RuntimeError):
    """A worker process died (killed, or out of memory) during a run.

    ``unit_ids`` lists the units not finished when it happened; the one the
    worker was searching is among the first of them.
    """

    def __init__(self, unit_ids, what="a worker process died (killed or out of memory)"):
        self.unit_ids = unit_ids
        shown = ", ".join(unit_ids[:3]) + (", ..." if len(unit_ids) > 3 else "")
        super().__init__(f"{what} while searching one of the {len(unit_ids)} unfinished "
                         f"units ({shown})")


def call_interruptibly(fn, *args):
    """``fn(*args)``, in a helper thread while this thread waits.

    A numba kernel runs to its end once called, and a signal arriving while
    it returns its arrays surfaces as a ``SystemError``.  The kernels release
    the GIL (``nogil=True``), so running them in a daemon thread leaves the
    main thread free to receive Ctrl-C and SIGTERM at once; the process then
    exits without waiting for the thread.
    """
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    box = {}

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True, name="parqueens-kernel")
    thread.start()
    while thread.is_alive():
        thread.join(0.1)
    if "error" in box:
        raise box["error"]
    return box["value"]


def max_processes():
    """The most worker processes started: 4 per core.  Each holds about
    150 MB (numba and LLVM), and more than the cores only share them."""
    import joblib
    return 4 * joblib.cpu_count()


def start_workers(parallel, calls):
    """``parallel(calls)``, with SIGINT ignored while joblib spawns the workers.

    Ctrl-C reaches the whole process group, and a worker still importing
    joblib would print a traceback before its initializer runs.  Processes
    started while SIGINT is ignored keep ignoring it (exec keeps an ignored
    disposition, and Python then installs no handler); a blocked signal
    would not do, since subprocesses unblock all signals.  The window lasts
    the spawning only (about 30 ms); a Ctrl-C inside it is missed.
    """
    if threading.current_thread() is not threading.main_thread():
        return parallel(calls)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return parallel(calls)
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


def _ignore_sigint():
    # Ctrl-C reaches the whole process group: the parent handles it and
    # stops the workers, which must not print tracebacks of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk_tagged(index, units, unique, nodes):
    return index, run_chunk(units, unique, nodes)


def _tiny(n, fixed):
    """n <= 2: every permutation checked directly."""
    total = 0
    orbits = {8: 0, 4: 0, 2: 0, 1: 0}
    for perm in itertools.permutations(range(n)):
        if all(abs(perm[i] - perm[j]) != i - j for i in range(n) for j in range(i)) \
                and all(perm[r] == c for r, c in fixed):
            total += 1
            if symmetry.canonical(perm) == perm:
                orbits[symmetry.orbit_size(perm)] += 1
    return total, orbits


def resolve_method(method, n, fixed=(), unique=False):
    """The method to use: ``None`` means ``d4``, or ``plain`` with fixed
    queens (which break the symmetry) or for n < 4.

    Raises ``ValueError`` for an unknown method, for ``d4``/``mirror``
    asked for together with fixed queens, and for ``unique`` with fixed
    queens (symmetry classes are not defined then).
    """
    if method is not None and method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if fixed:
        check_unique_fixed(unique, fixed)
        if method in ("d4", "mirror"):
            raise ValueError(f"method {method} cannot be used with fixed queens (they break "
                             f"the symmetry); use plain")
        return "plain"
    if method is None:
        method = "d4"
    if method == "d4" and n < 4:
        return "plain"
    return method


def _default_jobs(n, jobs, backend):
    """The number of jobs a run uses: ``jobs`` resolved as in joblib, or
    for ``None`` 1 when n <= SMALL_N runs locally (parallel start-up would
    cost more than the whole search), else all cores."""
    if jobs is None and n <= SMALL_N and backend in (None, "threading"):
        jobs = 1
    return resolve_jobs(jobs)


def choose_depth(n, method, jobs, split_depth):
    """The split depth: ``split_depth`` checked, or :func:`auto_depth`."""
    if split_depth is None:
        return auto_depth(n, method, jobs)
    depth = check_int(split_depth, "split depth")
    if not min_depth(method) <= depth <= n:
        raise ValueError(f"split depth must be {min_depth(method)}..{n} for n = {n} "
                         f"and method {method}, got {depth}")
    return depth


def run_count(n, *, unique=False, method=None, jobs=None, split_depth=None,
              progress=False, fixed=None, checkpoint=None, backend="threading", nodes=False):
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
        Worker processes; None for ``joblib.cpu_count()`` (but 1 for
        n <= SMALL_N = 14, where starting workers costs more than the
        search), negative as in joblib, 1 for none (the search runs in this
        process).
    split_depth : int or None
        Rows pre-placed per work unit; None chooses one with at least 64
        units per job (or, resuming, the depth recorded in the checkpoint).
    progress : bool
        Show a tqdm bar over the work units on stderr.
    fixed : iterable of (int, int) or None
        Queens every counted solution must contain, as 0-based
        ``(row, col)``; the method is then ``plain``.
    checkpoint : RunStore or None
        Store each finished unit there, and skip the units it already holds
        (see :mod:`parqueens.store`).
    backend : str or None
        Where the units run: ``"threading"`` or ``"threads"`` (default) for
        threads of this process (the kernels release the GIL, so they search
        in parallel with no worker start-up), None or ``"loky"`` for loky
        worker processes, ``"dask"`` inside
        :func:`parqueens.backends.dask_client` (elsewhere joblib falls back to
        local processes).
    nodes : bool
        Also count the queens placed (:attr:`CountResult.nodes`), with a
        kernel variant that has a counter in its hot loop (5 to 10 %
        slower).  Units resumed from a checkpoint keep the count stored with
        them; if one was stored without it, ``nodes`` is None (and the
        other units are searched without counting them).

    Returns
    -------
    CountResult

    Raises
    ------
    TypeError, ValueError
        For invalid arguments.
    parqueens.store.CheckpointError
        If the checkpoint belongs to another run.
    """
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    method = resolve_method(method, n, fixed, unique)
    backend = _BACKEND_NAMES.get(backend, backend)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose from 'threads' (or "
                         f"'threading'), 'loky' (or None), 'dask'")
    # Before any kernel is called here (make_units calls some): loading the
    # numba cache in the main thread would swallow a Ctrl-C (ctypes callbacks).
    call_interruptibly(warm_up, bool(nodes))
    jobs = _default_jobs(n, jobs, backend)
    start = time.perf_counter()
    conflict = fixed_conflict(fixed)
    if n < 3 or conflict:
        total, orbits = _tiny(n, fixed) if n < 3 else (0, {8: 0, 4: 0, 2: 0, 1: 0})
        result = CountResult(n, total, method="plain" if n < 3 else method, jobs=jobs,
                             conflict=conflict, nodes=0 if nodes else None)
        result = _finish(result, unique, orbits, start)
        if checkpoint is not None:
            # No work units: record the size as done so that status shows it.
            checkpoint.begin_run(n, 0, 0)
            checkpoint.finish_run(n, result.total, result.fundamental)
        return result
    if checkpoint is not None and split_depth is None:
        split_depth = checkpoint.run_depth(n)
    depth = choose_depth(n, method, jobs, split_depth)
    units = make_units(n, method, depth, fixed)
    done = {} if checkpoint is None else checkpoint.begin_run(n, depth, len(units))
    acc = _Accumulator()
    todo = []
    for unit in units:
        if unit.id in done:
            acc.add(unit, UnitResult(*done[unit.id]))
        else:
            todo.append(unit)
    nodes = nodes and acc.counted  # not for a total that resumed units leave unknown
    finished = len(units) - len(todo)
    share = dict(zip((u.id for u in units), work_shares(units))) if progress else {}
    bar = _progress_bar(progress, f"n={n}", len(units), finished,
                        min(1.0, sum(share.get(u.id, 0.0) for u in units if u.id in done)))
    try:
        t = time.perf_counter()
        for pairs in iter_chunks(todo, jobs=jobs, unique=unique, backend=backend,
                                 nodes=nodes):
            for unit, res in pairs:
                acc.add(unit, res)
            if checkpoint is not None:
                now = time.perf_counter()
                checkpoint.add(n, [(u.id, r.solutions, r.by_stab, r.nodes) for u, r in pairs],
                               now - t)
                t = now
            finished += len(pairs)
            bar.set_description_str(f"n={n} {finished}/{len(units)} units", refresh=False)
            step = sum(share.get(u.id, 0.0) for u, _ in pairs)
            # Float sums must neither pass 1 nor stop short of it at the end.
            bar.update(1.0 - bar.n if finished == len(units) else min(step, 1.0 - bar.n))
    except BaseException as exc:
        if not isinstance(exc, Exception):
            # Ctrl-C or a termination signal: say how far the run got.
            exc.progress = (n, finished, len(units))
        raise
    finally:
        if finished == len(units) and bar.n < 1.0:  # nothing to search
            bar.update(1.0 - bar.n)
        bar.close()
    orbits = {8 >> k: acc.classes[k] for k in range(4)}
    total = acc.total
    if method == "d4":
        total = sum(size * c for size, c in orbits.items())
    result = CountResult(n, total, method=method, split_depth=depth, units=len(units),
                         jobs=jobs, nodes=acc.nodes if nodes and acc.counted else None,
                         resumed=len(units) - len(todo))
    result = _finish(result, unique, orbits, start)
    if checkpoint is not None:
        checkpoint.finish_run(n, result.total, result.fundamental)
    return result


def estimate(n, *, method=None, jobs=None, split_depth=None, fixed=None, probes=20000,
             seed=1):
    """Estimate the time a count will take, without running it.

    The nodes of the search tree are estimated by Knuth's random probes
    (Knuth 1975) over the work units, and divided by this machine's node
    rate, measured on a small board (n = 14, the kernel alone, about 0.05 s)
    in this process, plus twice the time it took to build the work units
    (which a deep ``split_depth`` makes long).  The estimate is rough (it ran
    1.2 to 1.3 times the real time at n = 16..18, and can be up to about
    twice off) but cheap: about a second, or the time to build the units.

    Returns a dict: ``nodes`` (float), ``rate`` (nodes per second per job),
    ``jobs``, ``units``, ``split_depth``, ``method`` and ``seconds`` (the
    estimated wall time).  Raises like :func:`run_count`.
    """
    n = check_n(n)
    fixed = check_fixed(n, fixed)
    method = resolve_method(method, n, fixed)
    jobs = _default_jobs(n, jobs, "threading")
    if n < 3:
        return {"nodes": 0.0, "rate": 0.0, "jobs": jobs, "units": 0, "split_depth": 0,
                "method": method, "seconds": 0.0}
    depth = choose_depth(n, method, jobs, split_depth)
    t = time.perf_counter()
    units = make_units(n, method, depth, fixed)
    # A run builds the units too, and their masks once more when searching:
    # with a deep --split-depth that can outweigh the search.
    build = 2 * (time.perf_counter() - t)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(units), size=min(len(units), 256)) if units else []
    per_unit = max(1, probes // max(1, len(picks)))
    nodes = 0.0
    for i in picks:
        spec = unit_masks(units[i])
        nodes += _knuth_estimate(n, spec.allowed, per_unit, seed + int(i))
    nodes = nodes / max(1, len(picks)) * len(units)
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
    return {"nodes": nodes, "rate": rate, "jobs": jobs, "units": len(units),
            "split_depth": depth, "method": method,
            "seconds": nodes / rate / min(jobs, max(1, len(units))) + build}


class _Accumulator:
    """Exact merge of unit results (Python ints)."""

    def __init__(self):
        self.total = 0
        self.nodes = 0
        self.counted = True  # every unit's nodes were counted
        self.classes = [0, 0, 0, 0]

    def add(self, unit, res):
        self.total += unit.weight * res.solutions
        self.nodes += res.nodes
        self.counted = self.counted and res.nodes > 0
        for k in range(4):
            self.classes[k] += res.by_stab[k]


def _finish(result, unique, orbits, start):
    if unique:
        result.orbits = orbits
        result.fundamental = sum(orbits.values())
        if sum(size * c for size, c in orbits.items()) != result.total:
            raise RuntimeError("internal error: orbit sizes do not add up to the total")
    result.seconds = time.perf_counter() - start
    return result


def _progress_bar(enabled, desc, units, finished, share_done):
    # The bar and its time left follow the estimated share of the work done
    # (units differ a lot in size, and the largest run first).
    from tqdm import tqdm
    return tqdm(total=1.0, initial=share_done, disable=not enabled, file=sys.stderr,
                desc=f"{desc} {finished}/{units} units", dynamic_ncols=True,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]")
