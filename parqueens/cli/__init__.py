"""The command line: ``parqueens COMMAND ...`` (see ``parqueens --help``).

It parses, calls the library and prints: each command in its module
(``counting``: count and table; ``status``; ``listing``: solutions, first,
construct; ``verifying``: verify), the parser built from them
(:mod:`parqueens.cli.parser`), what goes to stderr in one place
(:mod:`parqueens.cli.output`), and how a command ends, exit code and line,
in one table (:mod:`parqueens.cli.errors`).  Nothing but results goes to
stdout.  Importing it loads no numba, numpy or joblib, so that ``--help``,
``--version`` and usage errors answer at once.
"""

import os
import sys
import warnings

from ..errors import ExitStatus
from .errors import UsageError, report
from .output import log_notes, note, show_warning

__all__ = ["main", "console_main"]


def main(argv=None):
    """Entry point of the ``parqueens`` command; returns the exit code."""
    from ..run.backends import raise_on_sigterm
    from .parser import build_parser

    parser = build_parser()
    args = None
    try:
        with raise_on_sigterm(), warnings.catch_warnings():
            # joblib warns when an interrupted or limited run cancels its
            # tasks: that is what the user asked for, and the message says
            # what happened.  Only while main runs: a caller keeps its filters.
            warnings.filterwarnings(
                "ignore", message=r".*tasks which were still being processed", category=UserWarning
            )
            warnings.showwarning = show_warning
            if not (sys.argv[1:] if argv is None else argv):
                from .parser import no_command

                raise UsageError(no_command(parser))
            args, extra = parser.parse_known_args(argv)
            if args.command is None:  # options only (`parqueens -q`): argparse's own words
                parser.error("the following arguments are required: COMMAND")
            if extra:  # named with its command, as the other usage errors
                raise UsageError(f"{args.command}: unrecognized arguments: {' '.join(extra)}")
            return _run(args)
    except BaseException as exc:  # noqa: BLE001  (every end, mapped in one place)
        if isinstance(exc, SystemExit):
            if exc.code in (0, None):  # --help, --version: said only once it is written
                try:
                    sys.stdout.flush()
                except BaseException as failed:  # noqa: BLE001  (a full disk, a closed pipe)
                    return report(failed, args)
            raise
        return report(exc, args)


def _run(args):
    """Run the parsed command."""
    from .. import checks
    from ..io.paths import is_stdio

    log_notes(args)
    if getattr(args, "fixed", None) and args.one_based:
        # --fixed from 1: made 0-based once, checked with 1-based messages
        args.fixed = list(checks.check_fixed(checks.check_n(args.n), args.fixed, one_based=True))
    to_file = not is_stdio(getattr(args, "out", None)) and args.command != "verify"
    if (sys.stdout is None or sys.stdout.closed) and not to_file:
        raise UsageError("standard output is closed; nowhere to print the result")
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # notes go to stderr; nothing is lost
    _check_jobs(args)
    code = args.func(args)
    sys.stdout.flush()  # here, where a reader gone away is exit code 141
    return code


def _check_jobs(args):
    """Refuse a negative --jobs that leaves no core, before any output; say
    when --jobs asks for more than the cores (the library runs no more;
    an estimate gives the time on them too, but on Dask)."""
    jobs = getattr(args, "jobs", None)
    if jobs is None or jobs == 1:
        return
    from ..run.backends import get_backend

    runs_on = get_backend(getattr(args, "backend", "threads"))  # the backend's rules, asked
    remote = getattr(args, "scheduler", None) or getattr(args, "scheduler_file", None)
    if runs_on.cluster and remote:
        return
    if getattr(args, "estimate", False) and not runs_on.cluster and jobs > 1:
        return
    used = runs_on.local_jobs(jobs)
    if used < jobs:
        note(
            args,
            f"--jobs {jobs}: this machine has {used} core{'s' * (used > 1)}, so at most "
            f"{used} job{'s' * (used > 1)} run (more would only share them)",
        )


def console_main():
    """Console-script wrapper: exits with :func:`main`'s code."""
    if sys.stderr is None:
        # Started with stderr closed (2>&-): notes and errors go nowhere, and
        # the result still reaches stdout (print(file=None) would send them
        # there, and a None stream breaks warnings and the exit).
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the process's life)
    try:
        code = main()
    except KeyboardInterrupt:  # before main's own handler is in place
        print("parqueens: interrupted", file=sys.stderr)
        code = ExitStatus.INTERRUPTED
    _exit(code)


def _exit(code):
    """Exit with ``code``, at once when nothing needs an orderly shutdown.

    Tearing down an interpreter that has loaded numba takes about 0.08 s
    (module and LLVM finalisers), a sixth of a small count.  The commands
    close their files and checkpoints themselves; once the output is
    flushed and no child process (loky workers, a local Dask cluster) is
    alive, ``os._exit`` skips the teardown (and so does a second Ctrl-C
    meanwhile).  Otherwise, or if flushing fails, the usual ``sys.exit``.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        import psutil

        if not psutil.Process().children():
            os._exit(code)
    except KeyboardInterrupt:  # a second Ctrl-C while leaving: leave at once
        os._exit(code)
    except Exception:  # a closed stream, say: let Python exit as usual
        pass
    sys.exit(code)
