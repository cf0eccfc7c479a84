"""The Dask cluster of a run: its scheduler found (:func:`scheduler_of`),
connected to or started on this machine (:func:`dask_client`), its workers
set up (:func:`dask_setup`) and watched during a run (:func:`_watch_workers`:
those that leave are reported, and a cluster left without any is waited for
:data:`WORKER_WAIT` seconds before the run stops), Dask's own log lines
silenced for a command (:func:`dask_logs_silenced`).

Below :mod:`parqueens.run.backends`, whose ``dask`` backend
(:class:`parqueens.run.backends.DaskBackend`) opens the client here and
re-exports its public names.
"""

import logging
import math
import signal
import threading
import time
from contextlib import contextmanager, nullcontext, suppress

from ..checks import check_scheduler, read_scheduler_file
from ..errors import ExitStatus, ParqueensError
from .signals import cluster_start_held, uninterrupted

__all__ = [
    "WORKER_WAIT",
    "CLUSTER_SETTLE",
    "WATCH_EVERY",
    "TASKS_END",
    "NO_WORKER_LEFT",
    "BackendError",
    "ClusterUnreachable",
    "scheduler_of",
    "dask_logs_silenced",
    "dask_setup",
    "dask_client",
    "dashboard_link",
]

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
# worker was left (read back by parqueens.run.backends.worker_failure).
NO_WORKER_LEFT = "parqueens-no-worker-left"


_log = logging.getLogger("parqueens")


class BackendError(ParqueensError):
    """The backend cannot be used (missing package, unreachable scheduler)."""


class ClusterUnreachable(BackendError):
    """The Dask cluster is not there when the run starts: its scheduler
    cannot be reached, or has no worker and none joined in time
    (:data:`WORKER_WAIT`).  Exit code 3."""

    exit_code = ExitStatus.NO_CLUSTER


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
def dask_logs_silenced():
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
    own, so each one is raised, not just ``distributed``.  Without dask
    installed, nothing (:func:`dask_client` says what to install)."""
    try:
        import distributed  # noqa: F401  (its loggers exist once it is imported)
    except ImportError:
        return lambda: None

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
    ``preload=["parqueens.run.cluster"]``).

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
    """Cancel every task of ``client``, with :data:`NO_WORKER_LEFT` as the reason
    and ``text`` as the message (which :func:`worker_failure` reports)."""
    from distributed import Future

    futures = [Future(key, client) for key in list(client.futures)]
    if not futures:
        return
    try:
        client.cancel(futures, reason=NO_WORKER_LEFT, msg=text)
    except TypeError:  # distributed before 2024.7 gives no reason
        client.cancel(futures)
