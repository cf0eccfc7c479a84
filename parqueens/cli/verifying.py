"""``parqueens verify FILE``: a file of solutions checked (valid, no
duplicates, canonical, complete) by the library (:mod:`parqueens.verify`),
whose report (:class:`parqueens.verify.VerifyReport`) decides the exit
code and is printed as a line or one JSON object."""

import json
import sys

from .. import checks
from ..errors import ExitStatus
from ..names import READABLE_FORMATS
from ..terminal import progress_bar
from .errors import UsageError
from .options import add_jobs, add_one_based, add_progress, add_yes, board_size, examples
from .output import command_line_words, counted, printable, say, show_progress

__all__ = ["add_parsers", "cmd_verify"]


def add_parsers(sub):
    """The parser of ``verify``."""
    p = sub.add_parser(
        "verify",
        help="check a file of solutions",
        description="Check that every solution in FILE is a valid placement, "
        "find duplicates and report the count; --complete also "
        "checks that the file holds exactly all solutions (all "
        "classes with --unique).  Exit code 0 if all is well, 1 "
        "if not.",
        epilog=examples(
            "parqueens verify s16.npy --complete        # valid, no duplicates, and exactly "
            "all 14772512?",
            "parqueens solutions 8 --unique --out u8.txt && parqueens verify u8.txt --unique "
            "--complete",
        ),
    )
    p.add_argument("file", metavar="FILE", help="a file in any format (or - for stdin)")
    p.add_argument(
        "--n", type=board_size, default=None, help="board size (default: from the first solution)"
    )
    p.add_argument(
        "--format",
        choices=READABLE_FORMATS,
        default=None,
        help="the file's format (default: from its extension or content)",
    )
    add_one_based(
        p, "perm/jsonl columns count from 1, and the report counts rows and columns from 1"
    )
    p.add_argument(
        "--complete", action="store_true", help="also check that the file holds all the solutions"
    )
    p.add_argument(
        "--unique", action="store_true", help="the file lists one canonical form per class"
    )
    p.add_argument(
        "--allow-empty",
        action="store_true",
        help="an input without solutions passes (by default it fails: exit code 1)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: file, n, solutions, invalid, duplicates, empty_lines, "
        "not_canonical (with --unique), expected and distinct (with --complete), ok, "
        "first_problem",
    )
    add_jobs(p, "threads for the count of --complete")
    add_yes(p)
    add_progress(p)
    p.set_defaults(func=cmd_verify)


def cmd_verify(args):
    from ..io.paths import is_stdio

    if is_stdio(args.file) and (sys.stdin is None or sys.stdin.closed):
        raise UsageError("standard input is closed; nothing to verify")
    if args.format:
        checks.check_one_based(args.format, args.one_based)
    report = _check(args)
    if report.n is None and args.complete:
        raise UsageError(f"{args.file}: cannot tell n from a file without solutions; give --n")
    if args.complete:
        report.compare(_expected(args, report.n))
    if args.json:
        d = report.as_dict(args.file)
        if d["first_problem"]:
            d["first_problem"] = command_line_words(d["first_problem"])
        print(json.dumps(d))
    else:
        print(printable(command_line_words(report.summary(args.file))))
        if report.first_problem:
            say(f"first problem: {report.first_problem}")
    return ExitStatus.OK if report.ok else ExitStatus.NEGATIVE


def _check(args):
    """The report of the file's solutions, read block by block (a bar of the
    solutions checked with --progress)."""
    from ..io.registry import read_solutions
    from ..verify import check_blocks

    reader = read_solutions(args.file, args.format, args.n, one_based=args.one_based)
    blocks = reader.blocks()
    bar = None
    if show_progress(args):
        total = len(reader.array) if reader.array is not None else None
        bar = progress_bar(total=total, unit="sol", unit_scale=True, desc="verify")
        blocks = counted(blocks, bar)
    try:
        report = check_blocks(
            blocks,
            reader.n,
            args.unique,
            reader.array,
            bad_rows=getattr(reader, "bad_rows", None),
            one_based=args.one_based,
            allow_empty=args.allow_empty,
        )
    finally:
        if bar is not None:
            bar.close()
    if report.n is None:
        report.n = reader.n
    report.note_empty_lines(
        getattr(reader, "empty_lines", []), getattr(reader, "empty_lines_more", 0)
    )
    return report


def _expected(args, n):
    """--complete: the number of solutions (classes with --unique) of n,
    counted as ``count`` would count it, with the same guard of long runs."""
    from ..run.plan import plan_run
    from ..run.runner import run_plan
    from .counting import guard

    plan = plan_run(n, unique=args.unique, jobs=args.jobs)
    guard(args, f"the count of n = {n} (verify --complete)", [plan])
    r = run_plan(plan, progress=show_progress(args))
    return r.fundamental if args.unique else r.total
