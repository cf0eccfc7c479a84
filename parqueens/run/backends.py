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

:func:`dask_client` connects to an existing scheduler (``tcp://HOST:PORT``)
or starts a ``LocalCluster`` on 127.0.0.1, whose client the runs inside it
submit their chunks to.  The workers import :mod:`parqueens`
themselves, so every machine needs parqueens installed (``pip install
'.[dask]'``); each loads or compiles the numba kernels once.  A watch of the
workers (:func:`_watch_workers`) reports those that leave during a run and,
when none is left, waits :data:`WORKER_WAIT` seconds for one before the run
stops (:class:`ClusterLost`).
"""

import logging
import math
import signal
import threading
import time
from contextlib import contextmanager, nullcontext, suppress

from ..checks import check_backend, check_jobs, check_scheduler, read_scheduler_file
from ..errors import ExitStatus, ParqueensError
from .signals import cluster_start_held, ignore_sigint, uninterrupted

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

#: Seconds a run on Dask waits for a worker when its cluster has none: at the
#: start (a scheduler without workers), or when every worker has left during
#: the run.  Then it stops (:class:`ClusterUnreachable` at the start,
#: :class:`ClusterLost` during the run: exit code 3 on the command line, the
#: finished units kept in a checkpoint).  Read when a client opens (tests
#: lower it); ``dask_client(worker_wait=...)`` sets it per client.
WORKER_WAIT = 60.0

#: Seconds a change in the Dask workers must last, the scheduler still
#: answering, before it is reported (a worker that left, the cluster empty):
#: a cluster that is shut down loses its workers first (1 to 4 s before its
#: scheduler, measured on a LocalCluster), and those departures are no
#: failure of the workers.  The wait for a worker starts after it.
CLUSTER_SETTLE = 10.0

#: Seconds between two looks at the Dask workers during a run.
WATCH_EVERY = 1.0

#: Seconds a local cluster that :func:`dask_client` started waits, at the
#: end of its block, for the tasks still running (a worker's warm-up that
#: outlasted a small count: 0.4 s on a warm numba cache) before it closes.
TASKS_END = 3.0

# The reason given to Dask when the tasks of a run are cancelled because no
# worker was left (read back by worker_failure).
_NO_WORKER = "parqueens-no-worker-left"

_log = logging.getLogger("parqueens")


class BackendError(ParqueensError):
    """The backend cannot be used (missing package, unreachable scheduler)."""


class ClusterUnreachable(BackendError):
    """The Dask cluster is not there when the run starts: its scheduler
    cannot be reached, or has no worker and none joined in time
    (:data:`WORKER_WAIT`).  Exit code 3."""

    exit_code = ExitStatus.NO_CLUSTER


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
            _dask_logs_silenced(),
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
    if getattr(exc, "reason", None) == _NO_WORKER:  # cancelled by _watch_workers
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


def scheduler_of(scheduler=None, scheduler_file=None):
    """The Dask scheduler a run connects to, as Dask's users give it:
    ``scheduler`` (an address), else the address in ``scheduler_file``
    (:func:`parqueens.checks.read_scheduler_file`), else Dask's configured
    ``scheduler-address`` (``DASK_SCHEDULER_ADDRESS``, as ``Client()`` takes
    it), else None: a local cluster.  Returns ``(address, source)``, the
    source a few words where the address was not given (Dask's
    configuration: worth a note), else None.  Raises ``ValueError`` for both
    a scheduler and a file, and as the reading and the check of the address."""
    if scheduler is not None and scheduler_file is not None:
        raise ValueError("give a scheduler's address or its scheduler file, not both")
    if scheduler is not None:
        return check_scheduler(scheduler), None
    if scheduler_file is not None:
        return read_scheduler_file(scheduler_file), None
    import dask

    configured = dask.config.get("scheduler-address", None)
    if configured:
        return check_scheduler(configured), "Dask's configured scheduler-address"
    return None, None


@contextmanager
def _dask_logs_silenced():
    # In this process, for the block; a local cluster's workers silence
    # theirs for their life (dask_setup).
    restore = _silence_dask_logs()
    try:
        yield
    finally:
        restore()


def _silence_dask_logs():
    """Silence Dask's log lines in this process; returns the function that
    gives them back.  Dask's configuration gives its loggers levels of their
    own, so each one is raised, not just ``distributed``."""
    import distributed  # noqa: F401  (its loggers exist once it is imported)

    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "distributed"]
    loggers = [logging.getLogger(n) for n in ["distributed", *names]]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)

    def restore():
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)

    return restore


def dask_setup(worker):
    """What each worker of a local cluster started by :func:`dask_client`
    does at its start (Dask's preload hook: the cluster is started with
    ``preload=["parqueens.run.backends"]``).

    Its output is the caller's terminal, and the client speaks for the run:
    the worker ignores Ctrl-C, which reaches the whole process group (the
    client stops the run and closes the cluster; a worker would print its
    ``KeyboardInterrupt`` traceback and die first); parqueens' notes (the
    compile note of its first use, logger ``parqueens``) are not printed
    here, the client says them once; Dask's log lines are silenced (a
    failure reaches the client as an exception, which the run reports; a
    task cancelled by the cluster's close would be logged).  Returns None.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a held Ctrl-C is dropped here
        # started with both blocked (signals.signals_held); Dask ends workers with SIGTERM
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    logging.getLogger("parqueens").addHandler(logging.NullHandler())
    _silence_dask_logs()


@contextmanager
def dask_client(
    scheduler=None, n_workers=None, timeout=10, on_lost=None, worker_wait=None, scheduler_file=None
):
    """Run the counts of this block (``backend="dask"``) on a Dask cluster:
    its client is Dask's default client inside it, to which their chunks
    are submitted.

    Parameters
    ----------
    scheduler : str or None
        Address of a running scheduler, e.g. ``"tcp://10.0.0.5:8786"`` (see
        :func:`parqueens.checks.check_scheduler`); None: the one of
        ``scheduler_file``, else Dask's configured ``scheduler-address``
        (``DASK_SCHEDULER_ADDRESS``), else a new ``LocalCluster`` on
        127.0.0.1 (closed at the end): :func:`scheduler_of`.
    n_workers : int or None
        Worker processes of the local cluster (one thread each); None for
        dask's default.
    timeout : float
        Seconds to wait for the scheduler.
    on_lost : callable or None
        Called with a worker's address when it has left the cluster during
        the block (from a helper thread, once the scheduler has still
        answered :data:`CLUSTER_SETTLE` seconds later: a cluster being shut
        down loses its workers first); Dask then reschedules its tasks on the
        others.
    scheduler_file : str or None
        A scheduler file (``dask scheduler --scheduler-file``, dask-mpi,
        dask-jobqueue) that holds the scheduler's address.
    worker_wait : float or None
        Seconds to wait for a worker when the cluster has none, at the start
        or during a run (None: :data:`WORKER_WAIT`; ``math.inf``: for ever).
        Waiting is logged (logger ``parqueens``, INFO); when the time is up
        during a run, the run's tasks are cancelled and the run raises
        :class:`ClusterLost`.

    Yields
    ------
    (distributed.Client, int)
        The client and the number of worker threads of the cluster.

    Raises
    ------
    TypeError, ValueError
        For a ``scheduler`` that is not an address.
    ClusterUnreachable
        If the scheduler cannot be reached, or has no worker and none joined
        within ``worker_wait`` seconds (a :class:`BackendError`).
    BackendError
        If dask.distributed is not installed.
    """
    scheduler, source = scheduler_of(scheduler, scheduler_file)
    if source is not None:
        _log.info(f"the Dask scheduler {scheduler} ({source})")
    wait = WORKER_WAIT if worker_wait is None else float(worker_wait)
    client = cluster = watch = None
    try:
        # A Ctrl-C while our own cluster starts is held until it has started
        # (then closed below as any): Dask's start cut short printed tracebacks.
        with cluster_start_held() if not scheduler else nullcontext():
            client, cluster = _start_client(scheduler, n_workers, timeout)
        link = dashboard_link(client)
        if link is not None:  # where every Dask user looks first
            _log.info(f"the Dask dashboard: {link}")
        _wait_for_a_worker(client, scheduler, wait)
        watch = _watch_workers(client, on_lost, wait=wait)
        threads = sum(client.nthreads().values()) or 1
        yield client, threads
        if cluster is not None:  # ended as it should: its last tasks are let end
            _let_tasks_end(client, TASKS_END)
    finally:
        if watch is not None:
            watch.set()
        if client is not None:
            uninterrupted(client.close, *([cluster.close] if cluster is not None else []))


def _let_tasks_end(client, seconds):
    """Wait up to ``seconds`` for the tasks ``client`` still holds before
    its local cluster closes: a worker's warm-up (it loads the kernels while
    the first run builds its units) may outlast a small count, and a worker
    closed while it runs one cancels it, which Dask logs.  A task still
    running after that, or a cluster that fails, is left to the close."""
    from distributed import Future, wait

    futures = [Future(key, client) for key in list(client.futures)]
    if futures:
        with suppress(Exception):  # the time is up, or the cluster is gone
            wait(futures, timeout=seconds)


def dashboard_link(client):
    """The address of the dashboard of ``client``'s scheduler (``http://...
    /status``), or None if it serves none (Dask serves one where bokeh is
    installed) or does not say."""
    try:
        if "dashboard" not in client.scheduler_info().get("services", {}):
            return None
        return client.dashboard_link or None
    except Exception:  # noqa: BLE001  (a scheduler gone or strange: no link, no failure)
        return None


def _start_client(scheduler, n_workers, timeout):
    """A Dask client of the scheduler at ``scheduler``, or of a new
    ``LocalCluster`` of ``n_workers`` processes (one thread each, on
    127.0.0.1) if it is None.  Returns ``(client, cluster)``, the cluster
    None for a scheduler given.  Raises :class:`BackendError` without
    dask.distributed, :class:`ClusterUnreachable` if the scheduler does not
    answer as one (the cluster started here closed again)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise BackendError(
            "the dask backend needs dask.distributed: pip install '.[dask]' in "
            "parqueens' source folder (as it was installed, see README.md)"
        ) from None
    cluster = None
    try:
        if scheduler:
            return _connect(Client, scheduler, timeout), None
        cluster = LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            # on a free port: 8787 (Dask's default, None too) may be another
            # cluster's, and Dask would warn that it is taken; on 127.0.0.1
            # too (":0" listens on every interface)
            dashboard_address="127.0.0.1:0",
            preload=[__name__],  # dask_setup: quiet workers that ignore Ctrl-C
        )
        return Client(cluster, timeout=timeout), cluster
    except Exception as exc:  # what does not answer as a scheduler, however it fails
        if cluster is not None:
            cluster.close()
        detail = " ".join(str(exc).split()) or type(exc).__name__
        if not scheduler:  # our own cluster did not start
            raise BackendError(f"cannot start a local Dask cluster: {detail}") from None
        if "TLS" in detail:  # tls:// without Dask's TLS configuration (its certificates)
            detail = f"{detail} (see distributed.comm.tls in Dask's configuration)"
        elif not isinstance(exc, (OSError, TimeoutError)):  # Dask's reading of a stranger
            detail = "what answers there is not a Dask scheduler"
        raise ClusterUnreachable(f"cannot reach the Dask scheduler {scheduler}: {detail}") from None


def _wait_for_a_worker(client, scheduler, wait):
    """Return once the cluster has a worker; wait up to ``wait`` seconds for
    one (saying so), then raise :class:`ClusterUnreachable`."""
    if client.nthreads():
        return
    where = f"the Dask scheduler {scheduler}" if scheduler else "the local Dask cluster"
    _log.info(f"{where} has no worker: waiting up to {wait:g} s for one to join")
    try:
        client.wait_for_workers(1, timeout=None if math.isinf(wait) else wait)
    except TimeoutError:
        raise ClusterUnreachable(
            f"{where} has no worker, and none joined within {wait:g} s (start some: "
            f"dask worker {scheduler or 'ADDRESS'})"
        ) from None


def _connect(client_type, scheduler, timeout):
    """``Client(scheduler)``, given up after ``timeout`` seconds and a few
    more: a peer that accepts the connection but never answers (not a
    scheduler) would otherwise hold the handshake for ever; one that sends
    something else makes Dask read a message length from it (a
    MemoryError), reported as unreachable too.  A tcp:// address where
    nothing listens is said at once (:func:`_refused`), where Dask would
    retry it until ``timeout`` and say "Timed out"."""
    _refused(scheduler, timeout)
    box = {}

    def connect():
        try:
            box["client"] = client_type(scheduler, timeout=timeout)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=connect, daemon=True, name="parqueens-dask-connect")
    thread.start()
    thread.join(timeout + 5)
    if "error" in box:
        raise box["error"]
    if "client" not in box:
        raise TimeoutError(f"no answer as a Dask scheduler within {timeout + 5} s")
    return box["client"]


def _refused(scheduler, timeout):
    """Raise ``ConnectionRefusedError`` if the system refuses a connection
    to a ``tcp://HOST:PORT`` scheduler (nothing listens there); anything
    else (an answer, no answer yet, another protocol) is Dask's to try."""
    import socket

    protocol, _, where = scheduler.partition("://")
    host, _, port = where.rpartition(":")
    if protocol != "tcp" or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=min(timeout, 5)).close()
    except ConnectionRefusedError:
        raise ConnectionRefusedError(f"connection refused: nothing listens at {where}") from None
    except OSError:  # unresolvable, unreachable, slow: Dask says how, in its time
        pass


def _watch_workers(client, on_lost=None, every=None, settle=None, wait=None):
    """Watch the workers of ``client``'s cluster from a helper thread, every
    ``every`` seconds (None: :data:`WATCH_EVERY`), and act on what
    :class:`_WorkersWatch` decides (``settle``, ``wait``: None for
    :data:`CLUSTER_SETTLE`, :data:`WORKER_WAIT`): call ``on_lost(address)``
    for a worker that left (Dask reschedules its tasks), log the wait when
    none is left, and cancel the client's tasks when the wait is over.
    Stops when the scheduler no longer answers (the run reports that
    itself, and nothing that was about to be reported is).  Returns the
    Event that stops the watch."""
    every = WATCH_EVERY if every is None else every
    settle = CLUSTER_SETTLE if settle is None else settle
    wait = WORKER_WAIT if wait is None else wait
    stop = threading.Event()

    def workers():
        if client.status != "running":
            return None
        try:
            return set(client.nthreads())
        except Exception:  # the scheduler is gone
            return None

    def watch():
        first = workers()
        if first is None:
            return
        state = _WorkersWatch(first, settle, wait)
        while not stop.wait(every):
            now = workers()
            if now is None or stop.is_set():
                return
            for event, address in state.poll(now, time.monotonic()):
                if event == "left" and on_lost is not None:
                    on_lost(address)
                elif event == "waiting":
                    _log.info(
                        f"no Dask worker is left in the cluster: the run waits up to "
                        f"{wait:g} s for one to join"
                    )
                elif event == "joined":
                    _log.info(f"the Dask worker {address} joined the cluster: the run goes on")
                elif event == "give_up":
                    _cancel_tasks(
                        client,
                        f"no Dask worker joined the cluster within {wait:g} s after the last "
                        f"one left",
                    )

    threading.Thread(target=watch, daemon=True, name="parqueens-dask-watch").start()
    return stop


class _WorkersWatch:
    """What the watch of a Dask cluster reports, decided from the workers it
    finds at each look (no clock or thread of its own: :func:`_watch_workers`
    feeds it, and so can a test).

    A worker missing for ``settle`` seconds is reported as ``("left",
    address)``; one back within them (same address) is not.  A cluster
    without workers for ``settle`` seconds gives ``("waiting", None)``; a
    worker joining after that gives ``("joined", address)``; no worker for
    ``wait`` seconds more gives ``("give_up", None)``, and again at every look
    while there is none (so that tasks submitted meanwhile are cancelled too).
    """

    def __init__(self, workers, settle, wait):
        self.seen = set(workers)
        self.settle, self.wait = settle, wait
        self.missing = {}  # address -> when it was first missed
        self.empty_since = None
        self.waiting = False

    def poll(self, workers, now):
        """The events of a look at time ``now`` (seconds) that found the
        worker addresses ``workers``, as a list of ``(event, address)``."""
        workers = set(workers)
        events = []
        for address in self.seen - workers:
            self.missing.setdefault(address, now)
        for address, since in sorted(self.missing.items()):
            if address in workers:
                del self.missing[address]
            elif now - since >= self.settle:
                events.append(("left", address))
                del self.missing[address]
        if workers:
            if self.waiting:
                events.append(("joined", min(workers - self.seen or workers)))
            self.empty_since, self.waiting = None, False
        else:
            if self.empty_since is None:
                self.empty_since = now
            if not self.waiting and now - self.empty_since >= self.settle:
                self.waiting = True
                events.append(("waiting", None))
            if self.waiting and now - self.empty_since >= self.settle + self.wait:
                events.append(("give_up", None))
        self.seen = workers
        return events


def _cancel_tasks(client, text):
    """Cancel every task of ``client``, with :data:`_NO_WORKER` as the reason
    and ``text`` as the message (which :func:`worker_failure` reports)."""
    from distributed import Future

    futures = [Future(key, client) for key in list(client.futures)]
    if not futures:
        return
    try:
        client.cancel(futures, reason=_NO_WORKER, msg=text)
    except TypeError:  # distributed before 2024.7 gives no reason
        client.cancel(futures)
