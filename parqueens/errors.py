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

import enum

__all__ = ["ExitStatus", "ParqueensError", "exit_codes_text"]


class ExitStatus(enum.IntEnum):
    """Exit codes of the command line, by what ended it (after httpie's
    ``ExitStatus``): ``--help``'s epilog is made from it and a test checks
    docs/cli.md's table against it."""

    OK = 0
    NEGATIVE = 1
    BAD_INPUT = 2
    NO_CLUSTER = 3
    INTERRUPTED = 130
    BROKEN_PIPE = 141
    TERMINATED = 143

    @property
    def summary(self) -> str:
        """What the code says, in the words of ``--help``."""
        return _SUMMARIES[self]


_SUMMARIES = {
    ExitStatus.OK: "ok",
    ExitStatus.NEGATIVE: "negative answer (or a run declined at its prompt)",
    ExitStatus.BAD_INPUT: "bad input",
    ExitStatus.NO_CLUSTER: "Dask cluster unreachable or lost",
    ExitStatus.INTERRUPTED: "interrupted",
    ExitStatus.BROKEN_PIPE: "stdout closed by its reader",
    ExitStatus.TERMINATED: "terminated",
}


def exit_codes_text() -> str:
    """The exit codes in one sentence, as ``parqueens --help`` ends."""
    return "Exit codes: " + ", ".join(f"{int(s)} {s.summary}" for s in ExitStatus) + "."


class ParqueensError(Exception):
    """Base of parqueens' own errors.

    ``exit_code``: the command line's exit code for it (class attribute);
    ``failure``: its line reads ``parqueens: error: ...`` (a failure), or
    only ``parqueens: ...`` (a negative answer, such as a declined run).
    """

    exit_code: ExitStatus = ExitStatus.BAD_INPUT
    failure = True
