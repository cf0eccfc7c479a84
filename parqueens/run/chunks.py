"""Work units run: in this process, or in chunks on a backend.

:func:`run_chunk` counts a list of work units here, by their method
(:meth:`parqueens.methods.Method.count_chunk`, :mod:`parqueens.run.method`);
:func:`iter_chunks` hands chunks of units sized by work to
:func:`parqueens.run.backends.parallel` (or, on Dask, to the client's
futures, where :func:`feed` submits a table's next size ahead) and yields
their results as they finish; :func:`warm_up` loads the kernels once per
process first, so that workers find them in numba's cache instead of
compiling them concurrently (:func:`warm_workers` on Dask's workers).
Below both the plan and the runner: planning (its estimate, its units) and
running use these, and this module imports neither.
"""

import contextlib
import functools
import itertools

from ..search.method import search_specs
from .backends import call_interruptibly, get_backend, parallel, worker_failure
from .checkpoint_file import worker_name
from .method import get_method, units_method, work_shares
from .signals import start_workers
from .tally import UnitResult

# numpy, the numba kernels and the work units are imported where they are
# used: a small board (parqueens.search.small) is counted without them, at once.


__all__ = [
    "warm_up",
    "Stopped",
    "run_chunk",
    "search_specs",
    "DASK_CHUNK_WORK",
    "iter_chunks",
    "feed",
    "warm_workers",
]


@functools.cache
def warm_up(nodes=False, method="d4"):
    """Load (or compile, the first time) the kernels of ``method`` (a name)
    in this process: the search's variant with the node counter if
    ``nodes``.

    Done in the parent before workers start, so that they load the cached
    machine code instead of all compiling it at once; once per process and
    variant.
    """
    get_method(method).load_kernels(nodes)


class Stopped(Exception):
    """A chunk abandoned because its run was stopped (see :func:`run_chunk`)."""


def run_chunk(units, unique, nodes=False, stop=None):
    """Count a list of work units (of one method) in this process.

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
    worker = worker_name()  # where it was computed: a Dask worker's, a loky process's
    results = units_method(units).count_chunk(units, unique, nodes, stop)
    if stop is not None and stop[0]:
        raise Stopped
    return [UnitResult(s, b, k, worker) for s, b, k in results]


#: On Dask, a chunk of join units holds at least this much of their
#: modelled work (:attr:`parqueens.join.JoinUnit.work`, seconds of its
#: reference machine): each chunk costs scheduler round trips (3 to 6 ms on
#: a local cluster of 2 cores, more over a network), which a small size's
#: 36 to 54 chunks of milliseconds each multiplied (n = 14: 0.30 s in 54
#: chunks, 0.03 s in 6).
DASK_CHUNK_WORK = 0.05


def _chunks(units, jobs, least=0.0):
    # Chunks of about 1/(16 jobs) of the estimated work each, so that the
    # large units, dispatched first, are balanced by the many small ones at
    # the end.  By work, not by count: the first units hold most of it (at
    # n = 18 the first 9 of 304 d4 units 24 %, which took 20 s before
    # anything could be stored); a unit above the share is a chunk of its
    # own, so the first results are stored within seconds.  Nor more units
    # than a 16th per job: the estimates underrate the many small units.
    # ``least``: join units' modelled work a chunk holds at the least
    # (:data:`DASK_CHUNK_WORK`), for fewer chunks of a small size.
    if not units:
        return
    target = 1.0 / (16 * jobs)
    most = max(1, len(units) // (16 * jobs))
    target, floor = units_method(units).chunk_share(units, target, least)
    if floor is not None and floor > target:
        target, most = floor, max(1, int(len(units) * floor))
    chunk, share = [], 0.0
    for unit, s in zip(units, work_shares(units), strict=True):
        if chunk and (share + s > target or len(chunk) == most):
            yield chunk
            chunk, share = [], 0.0
        chunk.append(unit)
        share += s
    if chunk:
        yield chunk


def iter_chunks(units, *, jobs=1, unique=False, backend="threads", nodes=False, then=None):
    """Yield lists of ``(unit, UnitResult)`` pairs as chunks of units finish.

    ``unique`` and ``nodes`` as in :func:`run_chunk`.  ``jobs`` (as
    planned: :func:`parqueens.run.backends.plan_jobs`) = 1 runs in this process;
    otherwise :func:`parqueens.run.backends.parallel` with ``backend``, or on
    ``dask`` the active client's futures (:func:`_dask_chunks`; ``then``:
    None, or called once the chunks are submitted, to :func:`feed` the
    next run's behind them).  Order is not guaranteed.  Raises
    :class:`parqueens.run.backends.WorkerDied` if a worker or the cluster is lost.
    """
    if not units:
        return
    runs_on = get_backend(backend)
    if runs_on.cluster:  # the workers load their kernels; the client runs none
        yield from _dask_chunks(units, jobs, unique, nodes, then)
        return
    # In a helper thread: loading numba's cache runs through ctypes callbacks,
    # which would swallow a Ctrl-C arriving in the main thread meanwhile.
    method = units_method(units)
    call_interruptibly(warm_up, nodes, method.name)
    # Threads of this process stop at their next unit once the run ends
    # early (Ctrl-C, an error, the caller closing this generator).
    stop = _stop_flag() if runs_on.in_process else None
    try:
        if jobs == 1:
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
        method.release()


# Chunks submitted to Dask ahead of the run that takes them (:func:`feed`):
# {(unit ids, unique, nodes): _Submission}.
_fed: dict[tuple, "_Submission"] = {}

# The order of submission, as Dask priorities (higher first): a size's
# chunks run before the next size's fed behind them.
_submitted = itertools.count()

#: On Dask, a run's chunks in flight (submitted and not finished) at most:
#: AHEAD_PER_THREAD for each thread of the cluster, at least AHEAD_MIN; the
#: others are submitted in batches as those finish.  Submitted all at once,
#: the scheduler held about 11 kB a chunk (50,000 on a local cluster: 696
#: MiB), and n = 28's 5.5 million chunks (a unit each) would have needed
#: some 60 GB.
AHEAD_PER_THREAD = 4
AHEAD_MIN = 256


def feed(units, *, jobs, unique=False, nodes=False):
    """Submit the chunks of ``units`` to the active Dask client now, behind
    those already submitted, for the :func:`iter_chunks` call of the same
    units (``unique``, ``nodes``) to take: a table's next size, so that the
    workers go on with it while the client merges and stores the last
    chunks of a size (about 0.3 s a size on a local cluster before).
    Chunks fed and not taken are cancelled when another run starts.  Only
    a first batch is submitted now (:class:`_Submission`), the rest by
    the run that takes them."""
    key = _fed_key(units, unique, nodes)
    if units and key not in _fed:
        submission = _Submission(list(_chunks(units, jobs, DASK_CHUNK_WORK)), unique, nodes)
        submission.top_up()
        _fed[key] = submission


# The Dask workers asked to load a kind of kernels: {(address, nodes, join)};
# the tasks still running (each dropped when done: a result held would stay
# in the worker's memory, and Dask warns of it when the worker goes).
_warmed: set[tuple[str, bool, bool]] = set()
_warming: set = set()


def warm_workers(nodes=False, method="d4"):
    """On Dask: have each worker of the active client load the kernels
    (:func:`warm_up`: ``method``'s, the node-counting variant if ``nodes``)
    now, a task each ahead of any chunk, so that they load while this
    process builds the work units rather than after (0.3 to 0.5 s of a small
    count on a local cluster); once per worker and kind."""
    from distributed import get_client

    client = get_client()
    for address in client.nthreads():
        if (address, nodes, method) not in _warmed:
            _warmed.add((address, nodes, method))
            task = client.submit(
                warm_up, nodes, method, workers=[address], allow_other_workers=True, pure=False
            )
            _warming.add(task)
            task.add_done_callback(_warming.discard)


def _fed_key(units, unique, nodes):
    return tuple(u.id for u in units), bool(unique), bool(nodes)


class _Submission:
    """A run's chunks on Dask, submitted in batches: at most
    :data:`AHEAD_PER_THREAD` per thread of the cluster (at least
    :data:`AHEAD_MIN`) in flight, all with the run's priority (a run fed
    behind this one waits for all of its chunks, not only those
    submitted)."""

    def __init__(self, chunks, unique, nodes):
        self.chunks = chunks
        self.unique = unique
        self.nodes = nodes
        self.priority = -next(_submitted)
        self.futures = {}  # chunk index -> future, while in flight
        self.sent = 0  # chunks submitted so far (a prefix)
        self.ahead = 0  # the window, as of the last batch

    def top_up(self):
        """Submit the next chunks once at most half the window is in flight
        (a batch, not a round trip for each chunk); returns their futures."""
        from distributed import get_client

        if self.sent == len(self.chunks) or len(self.futures) > self.ahead // 2:
            return []
        # The cluster's threads now (a batch system may have added workers).
        threads = sum(get_client().nthreads().values())
        self.ahead = max(AHEAD_MIN, AHEAD_PER_THREAD * threads)
        lo, hi = self.sent, min(len(self.chunks), self.sent + self.ahead - len(self.futures))
        futures = _submit(self.chunks[lo:hi], lo, self.unique, self.nodes, self.priority)
        self.futures.update(zip(range(lo, hi), futures, strict=True))
        self.sent = hi
        return futures

    def cancel(self):
        _cancel(list(self.futures.values()))
        self.futures.clear()


def _submit(chunks, first, unique, nodes, priority):
    from distributed import get_client

    # One graph, in order (Dask runs a graph's independent tasks in the
    # order given); its priority that of its run.
    k = len(chunks)
    return get_client().map(
        _run_chunk_tagged,
        range(first, first + k),
        chunks,
        [unique] * k,
        [nodes] * k,
        pure=False,
        priority=priority,
    )


def _cancel_fed():
    submissions = list(_fed.values())
    _fed.clear()
    for submission in submissions:
        submission.cancel()


def _cancel(futures):
    # Best effort: a cluster that is gone has nothing left to cancel, and
    # the run reports why it stopped.
    with contextlib.suppress(Exception):
        if futures:
            futures[0].client.cancel(futures)


def _dask_chunks(units, jobs, unique, nodes, then=None):
    """:func:`iter_chunks` on Dask: the chunks fed for these units
    (:func:`feed`), else submitted now, fewer of them for a small size
    (:data:`DASK_CHUNK_WORK`), in batches (:class:`_Submission`); ``then()``
    once the first batch is.  Unfinished chunks, and any fed, are cancelled
    if the run ends early."""
    from distributed import as_completed

    submission = _fed.pop(_fed_key(units, unique, nodes), None)
    _cancel_fed()  # fed for another run than this one
    try:
        if submission is None:
            submission = _Submission(list(_chunks(units, jobs, DASK_CHUNK_WORK)), unique, nodes)
            submission.top_up()
    except Exception as exc:
        died = worker_failure(exc, [u.id for u in units])
        if died is None:
            raise
        raise died from None
    chunks = submission.chunks
    pending = set(range(len(chunks)))
    try:
        if then is not None:
            then()
        # with_results: fetched as they finish, not one round trip each here
        finished = as_completed(list(submission.futures.values()), with_results=True)
        for future, result in finished:
            if future.status == "cancelled":  # its reason said (worker_failure)
                raise result
            i, results = result
            pending.discard(i)
            submission.futures.pop(i, None)
            for added in submission.top_up():
                finished.add(added)
            yield list(zip(chunks[i], results, strict=True))
    except Exception as exc:
        died = worker_failure(exc, [u.id for i in sorted(pending) for u in chunks[i]])
        if died is None:
            raise
        raise died from None
    finally:
        if pending:  # stopped early: nothing of this run goes on on the cluster
            _cancel_fed()
            submission.cancel()


def _stop_flag():
    import numpy as np

    return np.zeros(1, np.uint8)


def _run_chunk_tagged(index, units, unique, nodes, stop=None):
    return index, run_chunk(units, unique, nodes, stop)
