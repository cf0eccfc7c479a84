"""Where the work units run, and on how many jobs.

Three backends (:data:`parqueens.names.BACKENDS`): ``threads`` of this
process (the default: the numba kernels release the GIL, so threads search in
parallel with no worker start-up), ``loky`` worker processes (both through
joblib), and ``dask``, a Dask cluster whose client's futures run the chunks
(:func:`parqueens.run.chunks.iter_chunks`).

Each is one object behind one base, :class:`Backend` (after joblib's own
backends): :class:`ThreadsBackend`, :class:`LokyBackend`, :class:`DaskBackend`,
chosen once by name (:func:`get_backend`); the plan, the runner and the
command line ask it (the jobs it runs, whether it shares this process or
runs on a cluster, how its jobs share processes, starting it), and nothing
outside this module compares a backend's name.

This module decides, once per run, how many jobs run (:func:`plan_jobs`),
builds every ``joblib.Parallel`` of parqueens (:func:`parallel`), keeps the
signal helpers (a Ctrl-C must stop a run at once, and workers must not print
tracebacks of their own) and turns a lost worker into :class:`WorkerDied`.

The Dask cluster itself (:func:`dask_client`: a scheduler reached or a
``LocalCluster`` started on 127.0.0.1, its workers set up and watched) is
:mod:`parqueens.run.cluster`, below this module; its public names are
importable from here too.  A lost cluster is :class:`ClusterLost`.
"""

import logging
import os
import signal
import threading
from contextlib import contextmanager

from ..checks import check_backend, check_jobs, check_scheduler
from ..errors import ExitStatus, ParqueensError
from .cluster import (
    CLUSTER_SETTLE,
    NO_WORKER_LEFT,
    TASKS_END,
    WATCH_EVERY,
    WORKER_WAIT,
    BackendError,
    ClusterUnreachable,
    dashboard_link,
    dask_client,
    dask_logs_silenced,
    dask_setup,
    scheduler_of,
)
from .signals import ignore_sigint

__all__ = [
    "SMALL_N",
    "WORKER_WAIT",
    "CLUSTER_SETTLE",
    "WATCH_EVERY",
    "TASKS_END",
    "BackendError",
    "ClusterUnreachable",
    "Terminated",
    "RunInterrupted",
    "WorkerDied",
    "ClusterLost",
    "cpu_count",
    "plan_jobs",
    "Backend",
    "ThreadsBackend",
    "LokyBackend",
    "DaskBackend",
    "THREADS",
    "LOKY",
    "DASK",
    "REGISTRY",
    "get_backend",
    "parallel",
    "raise_on_sigterm",
    "call_interruptibly",
    "worker_failure",
    "open_backend",
    "scheduler_of",
    "dask_setup",
    "dask_client",
    "dashboard_link",
]


#: With the default ``jobs=None``, boards with up to this many rows to search
#: (fixed queens' rows not counted) are searched in the calling thread:
#: starting parallel jobs would take longer than the search.
SMALL_N = 14

_log = logging.getLogger("parqueens")


class Terminated(BaseException):
    """SIGTERM arrived (raised by :func:`raise_on_sigterm`'s handler); handled
    like Ctrl-C, which it is not a subclass of, so that callers can tell them
    apart (exit code 143 rather than 130)."""


class RunInterrupted(KeyboardInterrupt):
    """A count stopped by Ctrl-C (or, with ``terminated``, by SIGTERM; see
    :class:`Terminated`): how far it got.  A
    KeyboardInterrupt, so that callers catching Ctrl-C catch it too; the
    signal's own exception is its ``__cause__``.

    Attributes: ``n``, ``finished`` and ``units`` (work units finished and
    in all), ``terminated`` (bool); its message says what became of the
    finished units (``checkpoint``: the path of the run's checkpoint, or
    None) and how to resume.
    """

    def __init__(self, n, finished, units, terminated=False, checkpoint=None):
        text = f"interrupted during n = {n} with {finished} of {units} units finished"
        if checkpoint is None:
            text += "; they are lost without a checkpoint (checkpoint=FILE keeps them)"
        elif finished:
            text += (
                f"; they are kept in {checkpoint}: the same count with "
                f"checkpoint={checkpoint!r} resumes it"
            )
        else:
            text += f"; nothing of n = {n} is stored in {checkpoint} yet"
        super().__init__(text)
        self.n, self.finished, self.units, self.terminated = n, finished, units, terminated


class WorkerDied(ParqueensError, RuntimeError):
    """A worker process died (killed, or out of memory) during a run, or the
    Dask cluster failed; exit code 1 (the finished units are kept with a
    checkpoint, and the run can be resumed).

    ``unit_ids`` lists the units of the run not finished when it happened;
    ``what`` says what happened; ``during`` None: while searching one of
    those units (the first of them, most likely), else what the run was
    doing ("" for nothing to add).
    """

    exit_code = ExitStatus.NEGATIVE

    def __init__(
        self, unit_ids, what="a worker process died (killed or out of memory)", during=None
    ):
        self.unit_ids, self.what, self.during = list(unit_ids), what, during
        k = len(self.unit_ids)
        shown = ", ".join(self.unit_ids[:3]) + (", ..." if k > 3 else "")
        if during is None:
            text = f"{what} while searching one of the {k} unfinished units ({shown})"
        else:
            text = f"{what}{' ' * bool(during)}{during}; {k} units unfinished ({shown})"
        super().__init__(text)

    def retold(self, unit_ids, during):
        """The same failure for the run's unfinished units ``unit_ids``, when
        it happened ``during`` something else than searching them (e.g.
        searching stored units again); a ``during`` of its own is kept."""
        return type(self)(unit_ids, self.what, during if self.during is None else self.during)


class ClusterLost(WorkerDied):
    """The Dask cluster was lost during a run: its scheduler, or every worker
    for longer than :data:`WORKER_WAIT`.  Exit code 3."""

    exit_code = ExitStatus.NO_CLUSTER


def cpu_count():
    """The cores this process may use: ``joblib.cpu_count()``, which respects
    CPU affinity and container quotas."""
    import joblib  # here: a run of one job does without it (0.1 s of start-up)

    return joblib.cpu_count()


def plan_jobs(jobs, backend="threads", n=None):
    """The number of jobs a run uses: decided here once, and reported as run.

    Parameters
    ----------
    jobs : int or None
        As asked for (see :func:`parqueens.checks.check_jobs`): None for all
        cores, except 1 for boards up to :data:`SMALL_N` on a local backend
        (starting jobs costs more than such a search); negative counts back
        from the cores as in joblib (-1 all, -2 all but one).
    backend : str
        One of :data:`parqueens.names.BACKENDS` (or an alias).
    n : int or None
        The rows left to search (the board size less the fixed queens), for
        the small-board default.

    Returns
    -------
    int
        At least 1.  Local backends use at most the cores: more threads or
        processes would only share them (and split the search finer for
        nothing).  On ``dask`` a positive ``jobs`` is taken as it is (the
        cluster's threads are elsewhere); otherwise the threads of the
        active cluster.

    Raises
    ------
    TypeError, ValueError
        For a bad ``jobs`` or ``backend``, or a negative ``jobs`` that leaves
        no core.
    BackendError
        ``dask`` with ``jobs`` None or negative outside :func:`dask_client`.
    """
    jobs = check_jobs(jobs)
    return get_backend(backend).plan_jobs(jobs, n)


class Backend:
    """Where a count's chunks run, after joblib's own backends: one object
    per name of :data:`parqueens.names.BACKENDS`, chosen once
    (:func:`get_backend`) and asked by the plan, the runner and the command
    line; nothing outside this module compares a backend's name."""

    #: its name, as ``backend=`` and ``--backend`` take it
    name = ""
    #: runs in this process's threads: a stop flag reaches them, and they
    #: share one process's tables
    in_process = False
    #: runs on a cluster's workers: this process loads no kernels, and the
    #: workers' memory is their own
    cluster = False

    def __repr__(self):
        return f"{type(self).__name__}()"

    def plan_jobs(self, jobs, n=None):
        """The jobs it runs (``jobs`` checked; :func:`plan_jobs`)."""
        if jobs == 1 or (jobs is None and n is not None and n <= SMALL_N):
            return 1
        cores = cpu_count()
        if jobs is None:
            return cores
        if jobs < 0:
            if cores + 1 + jobs < 1:
                raise ValueError(f"jobs = {jobs} leaves no core on this machine ({cores} cores)")
            return cores + 1 + jobs
        return min(jobs, cores)

    def local_jobs(self, jobs):
        """The jobs that would run on this machine's cores (``jobs`` checked)."""
        return self.plan_jobs(jobs)

    def processes(self, jobs):
        """``(threads, processes)``: how its ``jobs`` share processes, each
        process with its own tables."""
        return 1, jobs

    def parallel(self, jobs):
        """Its ``joblib.Parallel`` (:func:`parallel`)."""
        raise NotImplementedError

    @contextmanager
    def open(self, jobs, scheduler=None, on_lost=None, scheduler_file=None, dashboard=None):
        """Start it for a command; yields the jobs to pass to the runs
        (:func:`open_backend`)."""
        if scheduler is not None or scheduler_file is not None:
            raise ValueError('a scheduler needs the dask backend (backend="dask")')
        yield jobs


class _Joblib(Backend):
    #: joblib's name for it, and the keywords of its workers
    joblib_name = ""
    joblib_extra: dict = {}

    def parallel(self, jobs):
        import joblib

        # batch_size=1: the chunks are sized by their work already; joblib's
        # automatic batching would hold finished chunks back from the checkpoint.
        with joblib.parallel_config(backend=self.joblib_name, **self.joblib_extra):
            return joblib.Parallel(n_jobs=jobs, return_as="generator_unordered", batch_size=1)


class ThreadsBackend(_Joblib):
    """Threads of this process (the default): the numba kernels release the
    GIL, so threads search in parallel with no worker start-up."""

    name = "threads"
    in_process = True
    joblib_name = "threading"

    def processes(self, jobs):
        return jobs, 1


class LokyBackend(_Joblib):
    """loky's worker processes, which ignore SIGINT (:func:`ignore_sigint`)."""

    name = "loky"
    joblib_name = "loky"
    joblib_extra = {"initializer": ignore_sigint}

    def parallel(self, jobs):
        _quiet_tracker_relaunches()
        return super().parallel(jobs)


def _quiet_tracker_relaunches():
    """Start loky's resource tracker now (on this process's stderr, as loky
    would) and have any later start of it, a relaunch, write to /dev/null.

    A tracker that dies (killed) is relaunched by the next process to write
    to it, here this one, with loky's one-line warning.  The new tracker
    never saw the resources registered before, and prints a KeyError
    traceback for each one this process then unregisters, on the stderr it
    inherits: fd 2, so it is pointed at /dev/null while a relaunch starts
    (a few milliseconds; other threads' writes to stderr meanwhile are
    lost).  The count does not depend on the tracker."""
    from joblib.externals.loky.backend import resource_tracker

    tracker = resource_tracker._resource_tracker
    tracker.ensure_running()
    if "_launch" in vars(tracker):  # done before in this process
        return
    launch = tracker._launch

    def relaunch():
        try:
            saved = os.dup(2)
        except OSError:  # no stderr: the new tracker has none either
            return launch()
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, 2)
            finally:
                os.close(devnull)
            return launch()
        finally:
            os.dup2(saved, 2)
            os.close(saved)

    tracker._launch = relaunch


class DaskBackend(Backend):
    """A Dask cluster, whose client's futures run the chunks
    (:func:`parqueens.run.chunks.iter_chunks`), inside :func:`dask_client`."""

    name = "dask"
    cluster = True

    def plan_jobs(self, jobs, n=None):
        return jobs if jobs is not None and jobs > 0 else _cluster_threads()

    def local_jobs(self, jobs):
        # A local cluster's workers are processes of this machine: planned as loky's.
        return LOKY.plan_jobs(jobs)

    @contextmanager
    def open(self, jobs, scheduler=None, on_lost=None, scheduler_file=None, dashboard=None):
        if scheduler is not None:
            scheduler = check_scheduler(scheduler)
        given = scheduler is not None or scheduler_file is not None
        workers = None if given or jobs is None else self.local_jobs(jobs)
        with (
            dask_logs_silenced(),
            dask_client(scheduler, workers, on_lost=on_lost, scheduler_file=scheduler_file) as (
                client,
                threads,
            ),
        ):
            link = dashboard_link(client)
            if dashboard is not None and link is not None:
                dashboard.append(link)
            yield threads


THREADS, LOKY, DASK = ThreadsBackend(), LokyBackend(), DaskBackend()

#: The backends by name, in the order of :data:`parqueens.names.BACKENDS`.
REGISTRY = {b.name: b for b in (THREADS, LOKY, DASK)}


def get_backend(backend):
    """The backend object of a name (or an alias; checked: TypeError,
    ValueError)."""
    return REGISTRY[check_backend(backend)]


def _cluster_threads():
    try:
        from distributed import get_client

        return sum(get_client().nthreads().values()) or 1
    except (ImportError, ValueError):
        raise BackendError(
            "the dask backend runs inside parqueens.run.backends.dask_client(); none is active"
        ) from None


def parallel(backend, jobs):
    """The ``joblib.Parallel`` of a count on this machine: results as a
    generator, as they finish (a count's results are small, and merged as
    they come).

    ``backend``: ``"threads"`` or ``"loky"`` with ``jobs`` workers (loky's
    ignore SIGINT, see :func:`ignore_sigint`); Dask's runs submit to its
    client (:func:`parqueens.run.chunks.iter_chunks`).  Call the result
    through :func:`start_workers`.
    """
    return get_backend(backend).parallel(jobs)


def _raise_terminated(signum, frame):
    raise Terminated()


@contextmanager
def raise_on_sigterm():
    """Inside this block SIGTERM raises :class:`Terminated` in the main thread
    (so that a run stops like on Ctrl-C, keeping its checkpoint)."""
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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


def worker_failure(exc, unit_ids):
    """The :class:`WorkerDied` for an exception from ``Parallel`` that means
    a lost worker or cluster, or None for any other exception.

    ``unit_ids``: the ids of the units not finished.
    """
    name = type(exc).__name__
    if name in ("TerminatedWorkerError", "BrokenProcessPool"):
        return WorkerDied(unit_ids)
    if getattr(exc, "reason", None) == NO_WORKER_LEFT:  # cancelled by the watch of the workers
        return ClusterLost(unit_ids, getattr(exc, "msg", None) or "no Dask worker was left", "")
    if type(exc).__module__.startswith("distributed") or name in (
        "CancelledError",
        "FutureCancelledError",
    ):
        detail = " ".join(str(exc).split())  # one line: Dask's messages span several
        if "scheduler-connection-lost" in detail:
            return ClusterLost(unit_ids, "the connection to the Dask scheduler was lost")
        return ClusterLost(unit_ids, f"the Dask cluster was lost ({name}: {detail[:120]})")
    return None


@contextmanager
def open_backend(
    backend="threads", jobs=None, scheduler=None, on_lost=None, scheduler_file=None, dashboard=None
):
    """The backend of a command: a no-op for ``threads`` and ``loky``; for
    ``dask`` a :func:`dask_client` (``jobs``: workers of a local cluster;
    ``on_lost``: as there), with Dask's own log lines silenced (the command
    reports failures in its own words).

    Yields the ``jobs`` to pass to the runs: as given locally, the cluster's
    threads on Dask (a local cluster has at most one worker per core).
    ``dashboard``: None, or a list to which the Dask dashboard's address is
    appended (:func:`dashboard_link`; for ``--json``).
    Raises ``ValueError`` for a scheduler (or ``scheduler_file``) without the
    dask backend, or an address that is none
    (:func:`parqueens.checks.check_scheduler`); :class:`BackendError` as
    :func:`dask_client`.
    """
    with get_backend(backend).open(jobs, scheduler, on_lost, scheduler_file, dashboard) as jobs:
        yield jobs
