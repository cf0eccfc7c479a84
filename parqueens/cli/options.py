"""The command line's options: the argument types and the option groups
that the commands' modules add to their sub-parsers (``add_parsers``).

Each argument type parses the text and hands the value to the library's own
check (:mod:`parqueens.checks`), whose message argparse prints.  This module
imports no command module (they import it; :mod:`parqueens.cli.parser`
imports them), and nothing that loads numba, numpy or joblib.
"""

import argparse
import re

from .. import checks
from ..names import BACKENDS, COLORS, METHODS

# ---------------------------------------------------------------- arg types
# Each type parses the text and hands the value to the library's own check
# (parqueens.checks), whose message argparse prints.


__all__ = [
    "board_size",
    "job_count",
    "positive_int",
    "share",
    "fixed_queens",
    "board_range",
    "scheduler_address",
    "examples",
    "add_quiet",
    "add_progress",
    "add_jobs",
    "add_run_options",
    "add_yes",
    "add_fixed",
    "add_one_based",
    "add_output",
]


def _checked(check, parse=None, name="the value"):
    """An argparse type: ``check(parse(text))``, its ValueError reported;
    ``parse`` None reads a decimal integer (``name`` says which in the
    message; Python's int() would also take ``2_0``)."""

    def convert(text):
        try:
            if parse is None and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
                raise ValueError(text)
            value = parse(text) if parse else int(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(
                str(exc) if parse else f"{name} must be an integer, got {text!r}"
            ) from None
        try:
            return check(value)
        except (ValueError, TypeError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def board_size(text):
    """argparse type for a board size: a non-negative decimal integer."""
    text = text.strip()
    if not re.fullmatch(r"\+?[0-9]+", text):
        raise argparse.ArgumentTypeError(f"board size must be a non-negative integer, got {text!r}")
    return int(text)


#: argparse type for --jobs: a non-zero integer (negative as in joblib).
job_count = _checked(checks.check_jobs, name="jobs")

#: argparse type for --split-depth and --limit: an integer in 1..2**63-1.
positive_int = _checked(lambda v: checks.check_positive(v, "the value"))


#: argparse type for --part: ``I/K``, part I of K.
part_of = _checked(checks.check_part, str)

#: argparse type for --recheck: a share from 0 to 1.
share = _checked(lambda v: checks.check_share(v, "the share"), checks.parse_share)

#: argparse type for --fixed ROW:COL[,ROW:COL...].
fixed_queens = _checked(lambda v: v, checks.parse_fixed)

#: argparse type for a table's range: ``1-18``, ``8``, ``4,6,8-12``.
board_range = _checked(lambda v: v, checks.parse_range)

#: argparse type for --scheduler: a Dask scheduler's address.
scheduler_address = _checked(checks.check_scheduler, str)


class _Extend(argparse.Action):
    """Repeated --fixed options add up: ``--fixed 0:0 --fixed 1:4``."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, (getattr(namespace, self.dest) or []) + list(values))


# ---------------------------------------------------------------- parser


def examples(*lines):
    """A help's epilog of examples: the lines as they are, under
    ``examples:`` (docs/cli.md shows each of them, tests/test_docs.py holds
    them alike)."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def add_quiet(p, group=None, bar=False):
    """-q/--quiet: no notes (and no progress bar, for a command with one: ``bar``)."""
    (group or p).add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bar or notes on stderr" if bar else "no notes on stderr",
    )


def add_progress(p):
    """--progress and --quiet, for the commands whose work has a measure."""
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    add_quiet(p, group, bar=True)


def add_jobs(
    p, what="parallel jobs: threads of this process, worker processes with --backend loky"
):
    p.add_argument(
        "-j",
        "--jobs",
        type=job_count,
        default=None,
        metavar="J",
        help=f"{what} (default: all cores, as joblib.cpu_count(), but 1 for at most 14 "
        "rows to search; 1: run in this process; -1: all cores, -2: all but one; no "
        "more run than the cores)",
    )


def add_run_options(p, *, fixed=True, unique="the fundamental solutions"):
    add_jobs(p)
    p.add_argument(
        "--split-depth",
        type=positive_int,
        default=None,
        metavar="K",
        help="rows pre-placed per work unit (default: automatic, >= 64 units per job)",
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default=None,
        help="how the total is counted: join (matching half-boards; the default for "
        "n = 4..28) or a search reduced by symmetry, d4 (the whole group; the default "
        "elsewhere), mirror (left-right only) or plain (none); all give the same counts",
    )
    p.add_argument(
        "--unique",
        action="store_true",
        help=f"also count {unique} (distinct up to rotation and reflection)",
    )
    p.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="keep finished work units in this SQLite file; re-running the same "
        "command with it resumes",
    )
    p.add_argument(
        "--recheck",
        type=share,
        default=None,
        metavar="SHARE",
        help="with --checkpoint: search this share (0 to 1) of the stored units again "
        "and stop if one differs (default on resume: a unit of each process that computed "
        "units, then units at random for 2 %% of the stored work time; 0: none)",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default=BACKENDS[0],
        help="where the work units run: threads of this process (default; the "
        "kernels release the GIL), local worker processes (loky) or a Dask "
        "cluster",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help="with --backend dask: address of a running scheduler, e.g. "
        "tcp://HOST:8786 (default: DASK_SCHEDULER_ADDRESS if set, else start a local cluster)",
    )
    where.add_argument(
        "--scheduler-file",
        metavar="FILE",
        help="with --backend dask: the scheduler's address from this file, as `dask "
        "scheduler --scheduler-file`, dask-mpi and dask-jobqueue write it",
    )
    p.add_argument(
        "--estimate",
        action="store_true",
        help="only print an estimate of the running time, and exit (the join from "
        "n = 22: its units planned, then a sample of their row sets counted for 5 s "
        "or more, until its range is within 2 times: up to 5 minutes at n = 27 and 28)",
    )
    add_yes(p)
    if fixed:
        add_fixed(p, "count only solutions containing these queens")
        add_one_based(p, "--fixed squares count from 1")
    add_progress(p)


def add_yes(p):
    p.add_argument(
        "-y",
        "--yes",
        action="store_true",
        help="start a count estimated to take more than a day without asking (otherwise "
        "it is asked on a terminal, and refused elsewhere)",
    )


def add_fixed(p, what):
    p.add_argument(
        "--fixed",
        type=fixed_queens,
        action=_Extend,
        metavar="ROW:COL[,ROW:COL...]",
        help=f"{what} (rows and columns from 0; from 1 with --one-based)",
    )


def add_one_based(p, what):
    p.add_argument("--one-based", action="store_true", help=what)


def add_output(p, formats, default_help, fixed=True):
    p.add_argument(
        "--format",
        choices=formats,
        default=None,
        help=f"output format (default: from the --out extension, else {default_help})",
    )
    add_one_based(
        p,
        "count from 1: the columns of perm and jsonl, "
        + ("--fixed squares, " if fixed else "")
        + "svg labels (board, matrix and leetcode have no numbers; npy is 0-based)",
    )
    p.add_argument(
        "--labels",
        action="store_true",
        help="number the rows and columns of an svg picture",
    )
    p.add_argument(
        "-o",
        "--out",
        metavar="FILE",
        help="write to FILE (atomically: complete or not at all); default stdout",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="overwrite an existing FILE, and skip the free-space check",
    )
    p.add_argument(
        "--color",
        choices=COLORS,
        default="auto",
        help="draw the board format in colours on stdout: auto (on a terminal, NO_COLOR "
        "unset; the default), always, never",
    )
