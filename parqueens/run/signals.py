"""Signals around the processes a run starts: Ctrl-C (SIGINT) reaches the
whole process group, the parent stops the run, and a worker still starting
must neither print a traceback nor die first.  Used by
:mod:`parqueens.run.backends` (joblib's loky workers, a local Dask
cluster's start and close) and :mod:`parqueens.run.chunks`."""

import signal
import threading
from contextlib import contextmanager

__all__ = ["start_workers", "ignore_sigint", "uninterrupted", "cluster_start_held", "signals_held"]


def start_workers(parallel, calls):
    """``parallel(calls)``, with SIGINT ignored while joblib spawns processes.

    Ctrl-C reaches the whole process group, and a worker still importing
    joblib would print a traceback before its initializer runs.  Processes
    started while SIGINT is ignored keep ignoring it (exec keeps an ignored
    disposition, and Python then installs no handler); a blocked signal
    did not reach loky's workers when tried (a resource tracker started by
    the first spawn unblocks it: :func:`cluster_start_held`).  The window lasts
    the spawning only (about 30 ms); a Ctrl-C inside it is missed.
    """
    if threading.current_thread() is not threading.main_thread():
        return parallel(calls)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return parallel(calls)
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


def ignore_sigint():
    """Worker initializer: Ctrl-C reaches the whole process group; the parent
    handles it and stops the workers, which must not print tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def uninterrupted(*calls):
    """Make the ``calls`` in turn, to their end even if Ctrl-C or SIGTERM
    arrives meanwhile (:func:`signals_held`).

    A local cluster's close stopped half way stays "closing", and Dask's
    exit handler then waits 10 s for it before the process can end."""
    with signals_held():
        for call in calls:
            call()


@contextmanager
def cluster_start_held():
    """:func:`signals_held` for the start of a local cluster, whose workers
    inherit the blocked signals.

    Python's resource tracker (a process that multiprocessing's "spawn",
    Dask's default, starts with the first worker) unblocks SIGINT and
    SIGTERM in the thread that starts it, which would then start the
    workers with them unblocked: it is started first, here."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    with signals_held():
        yield


@contextmanager
def signals_held():
    """Hold Ctrl-C and SIGTERM inside this block: the first one to arrive is
    delivered at its end (to the handler it had: a ``KeyboardInterrupt``,
    say), raised from the ``with`` statement.

    In the main thread both are blocked (``pthread_sigmask``), and recorded
    by a handler if another thread receives one.  Threads started inside
    inherit the blocked mask, and so do the processes they start (across
    exec): a local Dask cluster starts its workers from its own new threads,
    and a worker still importing would print the ``KeyboardInterrupt`` of
    the terminal's Ctrl-C (the process group's) before :func:`parqueens.run.cluster.dask_setup`
    makes it ignore it.  Elsewhere (signals go to the main thread) a no-op.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signums = {signal.SIGINT, signal.SIGTERM}
    held = []
    previous = {}
    try:
        for signum in signums:
            previous[signum] = signal.signal(signum, lambda signum, frame: held.append(signum))
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, signums)
        try:
            yield
        finally:
            # a pending signal is delivered here, to the recording handler
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        if held:
            signal.raise_signal(held[0])
