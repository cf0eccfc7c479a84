"""Where the work units run: local processes (joblib's loky, the default)
or a Dask cluster through joblib's dask backend.

:func:`dask_client` connects to an existing scheduler (``tcp://HOST:PORT``)
or starts a ``LocalCluster`` on 127.0.0.1, and makes joblib send the
``Parallel`` calls of :mod:`parqueens.runner` to its workers.  The workers
import :mod:`parqueens` themselves, so every machine needs parqueens
installed (``pip install 'parqueens[dask]'``); each loads or compiles the
numba kernels once.
"""

from contextlib import contextmanager


class BackendError(Exception):
    """The backend cannot be used (missing package, unreachable scheduler)."""


@contextmanager
def dask_client(scheduler=None, n_workers=None, timeout=10):
    """Run joblib's ``Parallel`` calls on a Dask cluster inside this block.

    Parameters
    ----------
    scheduler : str or None
        Address of a running scheduler, e.g. ``"tcp://10.0.0.5:8786"``; None
        starts a ``LocalCluster`` on 127.0.0.1 (closed at the end).
    n_workers : int or None
        Worker processes of the local cluster (one thread each); None for
        dask's default.
    timeout : float
        Seconds to wait for the scheduler.

    Yields
    ------
    (distributed.Client, int)
        The client and the number of worker threads of the cluster.

    Raises
    ------
    BackendError
        If dask.distributed is not installed or the scheduler cannot be
        reached.
    """
    try:
        import joblib
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise BackendError("the dask backend needs dask.distributed: "
                           "pip install 'parqueens[dask]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout=timeout)
        else:
            cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None)
            client = Client(cluster, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise BackendError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    try:
        threads = sum(client.nthreads().values()) or 1
        with joblib.parallel_config(backend="dask"):
            yield client, threads
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
