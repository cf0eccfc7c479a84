"""Work units run: in this process, or in chunks on a backend.

:func:`run_chunk` counts a list of work units here (a search's, by the
counting kernel, or the join's, :func:`parqueens.join.units.count_join_units`);
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

from ..names import ORBIT_SIZES
from .backends import call_interruptibly, parallel, worker_failure
from .checkpoint_file import worker_name
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
def warm_up(nodes=False, join=False):
    """Load (or compile, the first time) the counting kernel in this process:
    the variant with the node counter if ``nodes``; the join's kernels if
    ``join``.

    Done in the parent before workers start, so that they load the cached
    machine code instead of all compiling it at once; once per process and
    variant.
    """
    if join:
        import numpy as np

        from ..join import rowsets
        from ..join.units import join_units

        run_chunk(join_units(8), unique=False)
        # The kernels of n >= 22 (tables per row set), on a board of 8.
        rowsets.count_units(8, rowsets.plan_units(8)[:1], np.zeros(1, np.uint8))
        return
    from ..search.units import make_units

    run_chunk(make_units(5, "plain", 1), unique=True, nodes=nodes)


def _is_join(units):
    from ..join.units import JoinUnit

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

    worker = worker_name()  # where it was computed: a Dask worker's, a loky process's
    if _is_join(units):  # each unit's share of the total; no classes, no nodes
        from ..join.units import count_join_units

        counts = count_join_units(units[0].n, units, stop)
        if stop is not None and stop[0]:
            raise Stopped
        return [UnitResult(c, worker=worker) for c in counts]
    from ..search.units import unit_masks

    specs = [unit_masks(unit, unique) for unit in units]
    solutions, by_stab, counted = search_specs(units[0].n, specs, nodes, stop)
    if stop is not None and stop[0]:
        raise Stopped
    if counted is None:
        counted = np.zeros(len(units), np.uint64)
    results = [
        UnitResult(int(s), tuple(int(x) for x in b), int(k), worker)
        for s, b, k in zip(solutions, by_stab, counted, strict=True)
    ]
    if units[0].method == "d4":
        # A d4 unit's share of the total is its classes weighed by their
        # orbits (its search finds other members of them too): stored
        # beside the classes, so that each checks the other.
        for res in results:
            res.solutions = sum(size * c for size, c in zip(ORBIT_SIZES, res.by_stab, strict=True))
    return results


def search_specs(n, specs, nodes=False, stop=None):
    """Run the counting kernel on a list of :class:`parqueens.search.units.UnitSpec`.

    Returns ``(solutions, by_stab, nodes)`` as
    :func:`parqueens.search.kernels.count_batch` does, with ``nodes`` (uint64,
    one per spec) only if asked for, else None: counting the queens
    placed takes a kernel variant with a counter in its hot loop.  A spec
    that is not ``ok`` counts nothing.  ``stop``: see :func:`run_chunk`.
    """
    import numpy as np

    from ..search.kernels import count_batch
    from ..search.units import kernel_args

    counted = np.zeros(len(specs), dtype=np.uint64) if nodes else None
    solutions, by_stab = count_batch(n, *kernel_args(n, specs), counted, stop)
    return solutions, by_stab, counted


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
    from ..join.rowsets import CHUNK_SECONDS, ROWSET_MIN_N, work_seconds
    from ..search.units import work_shares

    target = 1.0 / (16 * jobs)
    most = max(1, len(units) // (16 * jobs))
    if _is_join(units) and units[0].n >= ROWSET_MIN_N:
        # A count of hours: chunks of seconds, so that an interruption keeps them.
        seconds = work_seconds(sum(u.work for u in units), units[0].n)
        target = min(target, CHUNK_SECONDS / seconds) if seconds > 0 else target
    if least and _is_join(units):
        total = sum(u.work for u in units)
        floor = min(1.0, least / total) if total > 0 else 1.0
        if floor > target:
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
    if backend == "dask":  # the workers load their kernels; the client runs none
        yield from _dask_chunks(units, jobs, unique, nodes, then)
        return
    # In a helper thread: loading numba's cache runs through ctypes callbacks,
    # which would swallow a Ctrl-C arriving in the main thread meanwhile.
    call_interruptibly(warm_up, nodes, _is_join(units))
    # Threads of this process stop at their next unit once the run ends
    # early (Ctrl-C, an error, the caller closing this generator).
    stop = _stop_flag() if backend == "threads" else None
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
        if _is_join(units):
            # The south tables this process kept for the run (up to 512 MiB).
            from ..join.south import process_tables

            process_tables().clear()


# Chunks submitted to Dask ahead of the run that takes them (:func:`feed`):
# {(unit ids, unique, nodes): (chunks, futures)}.
_fed: dict[tuple, tuple[list, list]] = {}

# The order of submission, as Dask priorities (higher first): a size's
# chunks run before the next size's fed behind them.
_submitted = itertools.count()


def feed(units, *, jobs, unique=False, nodes=False):
    """Submit the chunks of ``units`` to the active Dask client now, behind
    those already submitted, for the :func:`iter_chunks` call of the same
    units (``unique``, ``nodes``) to take: a table's next size, so that the
    workers go on with it while the client merges and stores the last
    chunks of a size (about 0.3 s a size on a local cluster before).
    Chunks fed and not taken are cancelled when another run starts."""
    key = _fed_key(units, unique, nodes)
    if units and key not in _fed:
        chunks = list(_chunks(units, jobs, DASK_CHUNK_WORK))
        _fed[key] = (chunks, _submit(chunks, unique, nodes))


# The Dask workers asked to load a kind of kernels: {(address, nodes, join)};
# the tasks still running (each dropped when done: a result held would stay
# in the worker's memory, and Dask warns of it when the worker goes).
_warmed: set[tuple[str, bool, bool]] = set()
_warming: set = set()


def warm_workers(nodes=False, join=False):
    """On Dask: have each worker of the active client load the kernels
    (:func:`warm_up`: the node-counting variant if ``nodes``, the join's if
    ``join``) now, a task each ahead of any chunk, so that they load while
    this process builds the work units rather than after (0.3 to 0.5 s of
    a small count on a local cluster); once per worker and kind."""
    from distributed import get_client

    client = get_client()
    for address in client.nthreads():
        if (address, nodes, join) not in _warmed:
            _warmed.add((address, nodes, join))
            task = client.submit(
                warm_up, nodes, join, workers=[address], allow_other_workers=True, pure=False
            )
            _warming.add(task)
            task.add_done_callback(_warming.discard)


def _fed_key(units, unique, nodes):
    return tuple(u.id for u in units), bool(unique), bool(nodes)


def _submit(chunks, unique, nodes):
    from distributed import get_client

    # One graph, in order (Dask runs a graph's independent tasks in the
    # order given), behind every graph submitted before (lower priority).
    k = len(chunks)
    return get_client().map(
        _run_chunk_tagged,
        range(k),
        chunks,
        [unique] * k,
        [nodes] * k,
        pure=False,
        priority=-next(_submitted),
    )


def _cancel_fed():
    futures = [f for _, fs in _fed.values() for f in fs]
    _fed.clear()
    _cancel(futures)


def _cancel(futures):
    # Best effort: a cluster that is gone has nothing left to cancel, and
    # the run reports why it stopped.
    with contextlib.suppress(Exception):
        if futures:
            futures[0].client.cancel(futures)


def _dask_chunks(units, jobs, unique, nodes, then=None):
    """:func:`iter_chunks` on Dask: the chunks fed for these units
    (:func:`feed`), else submitted now, fewer of them for a small size
    (:data:`DASK_CHUNK_WORK`); ``then()`` once they are.  Unfinished
    chunks, and any fed, are cancelled if the run ends early."""
    from distributed import as_completed

    chunks, futures = _fed.pop(_fed_key(units, unique, nodes), (None, None))
    _cancel_fed()  # fed for another run than this one
    try:
        if futures is None:
            chunks = list(_chunks(units, jobs, DASK_CHUNK_WORK))
            futures = _submit(chunks, unique, nodes)
    except Exception as exc:
        died = worker_failure(exc, [u.id for u in units])
        if died is None:
            raise
        raise died from None
    pending = set(range(len(chunks)))
    try:
        if then is not None:
            then()
        # with_results: fetched as they finish, not one round trip each here
        for future, result in as_completed(futures, with_results=True):
            if future.status == "cancelled":  # its reason said (worker_failure)
                raise result
            i, results = result
            pending.discard(i)
            yield list(zip(chunks[i], results, strict=True))
    except Exception as exc:
        died = worker_failure(exc, [u.id for i in sorted(pending) for u in chunks[i]])
        if died is None:
            raise
        raise died from None
    finally:
        if pending:  # stopped early: nothing of this run goes on on the cluster
            _cancel_fed()
            _cancel([futures[i] for i in pending])


def _stop_flag():
    import numpy as np

    return np.zeros(1, np.uint8)


def _run_chunk_tagged(index, units, unique, nodes, stop=None):
    return index, run_chunk(units, unique, nodes, stop)
