"""The errors parqueens reports itself, each with the exit code the command
line gives it: one table, here and in :class:`ParqueensError`'s subclasses.

======  ============================================================
code    meaning
======  ============================================================
0       success
1       a negative answer: no solution, a failed ``verify`` or
        ``--verify``, a long run declined at its prompt; a worker
        process died (:class:`parqueens.run.backends.WorkerDied`)
2       bad input: a usage error, an invalid argument (``ValueError``,
        ``TypeError``), an unusable file
        (:class:`parqueens.run.store.CheckpointError`), an unusable backend
        (:class:`parqueens.run.backends.BackendError`), a system error
3       the Dask cluster is not there
        (:class:`parqueens.run.backends.ClusterUnreachable`,
        :class:`parqueens.run.backends.ClusterLost`)
130     interrupted (Ctrl-C); 143: terminated (SIGTERM)
141     the reader of standard output went away (as SIGPIPE)
======  ============================================================

The command line maps exceptions to these codes in one place
(:func:`parqueens.cli.errors.report`).
"""

#: Exit codes of the command line, by what ended it.
OK, NEGATIVE, BAD_INPUT, NO_CLUSTER = 0, 1, 2, 3
INTERRUPTED, BROKEN_PIPE, TERMINATED = 130, 141, 143


class ParqueensError(Exception):
    """Base of parqueens' own errors.

    ``exit_code``: the command line's exit code for it (class attribute);
    ``failure``: its line reads ``parqueens: error: ...`` (a failure), or
    only ``parqueens: ...`` (a negative answer, such as a declined run).
    """

    exit_code = BAD_INPUT
    failure = True
