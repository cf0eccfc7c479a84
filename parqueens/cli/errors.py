"""How a command ends: every exception mapped to its exit code and its one
line on stderr, in one place (:func:`report`).

parqueens' own errors carry their exit code (:class:`parqueens.errors.ParqueensError`);
the others are mapped here: an invalid argument (``ValueError``,
``TypeError``, ``OverflowError``) and a system error (``OSError``, without
Python's ``[Errno N]``) are bad input (2), a reader of stdout gone away is
141 (quietly, as SIGPIPE), Ctrl-C is 130 and SIGTERM 143 (with how far the
run got and how to resume it).  Anything else is a bug and keeps its
traceback.
"""

import errno
import os
import shlex
import sys

from ..errors import ExitStatus, ParqueensError
from .output import printable, say

__all__ = ["UsageError", "Declined", "report", "resume_hint", "interrupt_message"]


class UsageError(ParqueensError):
    """A bad command line: one line naming the command, exit code 2."""


class Declined(ParqueensError):
    """The user answered no when asked to start a long run: a negative
    answer (exit code 1), not bad input."""

    exit_code = ExitStatus.NEGATIVE
    failure = False


def report(exc, args):
    """Say ``exc`` on stderr in one line (nothing for a closed stdout) and
    return the exit code; re-raise what is not an error of the command
    (a bug)."""
    from ..run.backends import Terminated, WorkerDied

    if isinstance(exc, WorkerDied):
        say(f"error: {exc}; {_kept(args, exc)}")
        return exc.exit_code
    if isinstance(exc, ParqueensError):
        say(f"error: {exc}" if exc.failure else str(exc))
        return exc.exit_code
    if isinstance(exc, (ValueError, TypeError, OverflowError)):
        say(f"error: {exc}")
        return ExitStatus.BAD_INPUT
    if isinstance(exc, BrokenPipeError):
        # The reader went away (`parqueens solutions 12 | head`): stop quietly,
        # with the code of a process killed by SIGPIPE, as other tools do.
        _silence_stdout()
        return ExitStatus.BROKEN_PIPE
    if isinstance(exc, MemoryError):
        say("error: not enough memory for this command")
        return ExitStatus.BAD_INPUT
    if isinstance(exc, OSError):
        say(f"error: {_os_error(exc)}")
        return ExitStatus.BAD_INPUT
    if isinstance(exc, RuntimeError) and "cannot cache function" in str(exc):
        # numba keeps compiled kernels beside the package or in ~/.cache.
        say(
            "error: numba cannot write its cache of compiled kernels here; set "
            "NUMBA_CACHE_DIR to a writable folder"
        )
        return ExitStatus.BAD_INPUT
    if isinstance(exc, (KeyboardInterrupt, Terminated)):
        terminated = isinstance(exc, Terminated) or getattr(exc, "terminated", False)
        code = ExitStatus.TERMINATED if terminated else ExitStatus.INTERRUPTED
        print(printable(interrupt_message(args, exc, code)), file=sys.stderr)
        return code
    raise exc


def _os_error(exc):
    msg = exc.strerror or str(exc)  # without Python's "[Errno N]"
    name = getattr(exc, "filename", None)
    where = f"{name or repr(name)}: " if name is not None else ""
    if not where and exc.errno is not None and exc.strerror:
        where = "writing the output: " if exc.errno == errno.ENOSPC else ""
    return f"{where}{msg}"


def _kept(args, exc):
    """What became of the finished units of a run whose worker died (or
    whose Dask cluster was lost: the checkpoint resumes without it too)."""
    from ..run.backends import ClusterLost

    checkpoint = getattr(args, "checkpoint", None)
    if checkpoint and isinstance(exc, ClusterLost):
        return (
            f"finished units are kept in {checkpoint}: {resume_hint()}, or without "
            "--backend dask to go on on this machine alone"
        )
    if checkpoint:
        return f"finished units are kept in {checkpoint}: {resume_hint()}"
    return "finished units are lost (use --checkpoint FILE to keep them)"


def resume_hint():
    """How to resume: the exact command that was run."""
    if not sys.argv[1:]:
        return "run the same command again to resume"
    return f"run `parqueens {shlex.join(sys.argv[1:])}` again to resume"


def interrupt_message(args, exc, code):
    """The line of a command stopped by Ctrl-C (code 130) or SIGTERM (143):
    how far the run got, and what became of its work."""
    from ..run.backends import RunInterrupted

    what = "terminated" if code == ExitStatus.TERMINATED else "interrupted"
    detail = ""
    if not isinstance(exc, RunInterrupted) and isinstance(exc.__context__, RunInterrupted):
        exc = exc.__context__  # a second Ctrl-C while the first was handled
    if isinstance(exc, RunInterrupted):
        detail = f" during n = {exc.n} with {exc.finished} of {exc.units} units finished"
    checkpoint = getattr(args, "checkpoint", None) if args else None
    command = getattr(args, "command", None)
    if getattr(args, "finished", False):  # its output given: while a Dask cluster closed, say
        return f"parqueens: {what} after the {command} had finished (its output is complete)"
    if checkpoint and not os.path.exists(checkpoint):
        return f"parqueens: {what} before anything was stored in {checkpoint}"
    done = getattr(args, "table_done", None) if command == "table" else None
    if done and not isinstance(exc, RunInterrupted):  # between two sizes of a table
        where = f"{what} after n = {done[-1].n}, before the next size's search started"
        if checkpoint:
            return f"parqueens: {where}; the sizes done are kept in {checkpoint}: {resume_hint()}"
        return f"parqueens: {where}"
    if checkpoint and not isinstance(exc, RunInterrupted):
        return (
            f"parqueens: {what} before the search started; nothing new was stored in "
            f"{checkpoint}: {resume_hint()}"
        )
    if checkpoint and not exc.finished:
        return (
            f"parqueens: {what}{detail}; nothing of n = {exc.n} is stored in {checkpoint} yet: "
            f"{resume_hint()}"
        )
    if checkpoint:
        return (
            f"parqueens: {what}{detail}; finished units are kept in {checkpoint}: {resume_hint()}"
        )
    if command in ("count", "table") and not isinstance(exc, RunInterrupted):
        return f"parqueens: {what} before the search started"
    if command in ("count", "table"):
        return (
            f"parqueens: {what}{detail}; the finished units are lost (use --checkpoint "
            f"FILE to keep them)"
        )
    if args is not None and getattr(args, "out", None):
        return f"parqueens: {what}; nothing was written to {args.out}"
    return f"parqueens: {what}"


def _silence_stdout():
    # Python flushes stdout at exit; a broken pipe would then print an error.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
