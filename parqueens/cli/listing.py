"""``parqueens solutions``, ``first`` and ``construct``: solutions out, in
any format (:mod:`parqueens.io`), to stdout or a file written atomically."""

import os

from .. import checks
from ..errors import ExitStatus
from ..io.paths import extension_formats, is_stdio
from ..names import FORMATS
from ..terminal import above_bars, progress_bar
from .errors import UsageError
from .options import (
    add_fixed,
    add_jobs,
    add_output,
    add_progress,
    add_quiet,
    board_size,
    examples,
    positive_int,
)
from .output import note, say, show_progress

__all__ = ["add_parsers", "cmd_solutions", "cmd_first", "cmd_construct"]


def add_parsers(sub):
    """The parsers of ``solutions``, ``first`` and ``construct``."""
    p = sub.add_parser(
        "solutions",
        help="list the solutions (streamed, lexicographic order)",
        description="List every solution (with --unique one canonical form "
        "per symmetry class) in lexicographic order, the same "
        "whatever --jobs is.",
        epilog=examples(
            "parqueens solutions 8                              # 92 lines: 0 4 7 5 2 6 1 3 ...",
            "parqueens solutions 8 --unique --format board      # the 12 canonical forms as boards",
            "parqueens solutions 16 --format npy --out s16.npy  # 14772512 x 16 uint8, "
            "written as it goes",
            "parqueens solutions 12 --fixed 0:0 --limit 5",
        ),
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    p.add_argument(
        "--unique",
        action="store_true",
        help="only the canonical form (smallest member) of each symmetry class",
    )
    p.add_argument("--limit", type=positive_int, metavar="K", help="stop after K solutions")
    add_fixed(p, "only solutions containing these queens")
    add_jobs(p, "threads that list the solutions")
    add_output(p, FORMATS, "perm")
    add_progress(p)
    p.set_defaults(func=cmd_solutions)

    p = sub.add_parser(
        "first",
        help="the lexicographically first solution",
        description="Print the lexicographically first solution, found by "
        "backtracking.  For some large n this takes long (the "
        "first solution lies deep in the tree): `parqueens "
        "construct N` gives a solution for any n at once.",
        epilog=examples("parqueens first 8  # 0 4 7 5 2 6 1 3"),
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    add_fixed(p, "the first solution containing these queens")
    add_output(p, FORMATS, "perm")
    add_quiet(p)
    p.set_defaults(func=cmd_first)

    p = sub.add_parser(
        "construct",
        help="a solution for any n, at once (explicit formula)",
        description="Print a solution for any n but 2 and 3, which have none (n = 0: the "
        "empty placement), in O(n) time, by the construction of Hoffman, Loessi & Moore "
        "(1969); checked before it is printed.",
        epilog=examples("parqueens construct 1000000 --out big.npy  # a solution of n = 1,000,000"),
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, any n >= 0")
    add_output(p, FORMATS, "perm", fixed=False)
    add_quiet(p)
    p.set_defaults(func=cmd_construct)


def _output_format(args, default="perm"):
    """The output's format, from --format or --out's extension, checked
    against --one-based and the destination before any work."""
    fmt = _named_format(args, default)
    checks.check_one_based(fmt, args.one_based)
    checks.check_labels(fmt, args.labels)
    checks.check_destination(fmt, not is_stdio(args.out))
    return fmt


def _named_format(args, default):
    named = None if is_stdio(args.out) else extension_formats(args.out)
    if args.format and named and args.format not in named:
        raise UsageError(
            f"--format {args.format} contradicts the extension of "
            f"{args.out} ({named[0]}); rename the file or drop --format"
        )
    return args.format or (named[0] if named else default)


def _writer(args, n, fmt, expected, estimated=False, reserve=0):
    from ..io.writer import SolutionWriter

    return SolutionWriter(
        args.out,
        fmt,
        n,
        one_based=args.one_based,
        force=args.force,
        expected_count=expected,
        estimated=estimated,
        reserve=reserve,
        labels=args.labels,
        color=args.color,
    )


def cmd_solutions(args):
    fmt = _output_format(args)
    fixed = checks.check_fixed(checks.check_n(args.n), args.fixed)
    checks.check_unique_fixed(args.unique, fixed)
    from ..run.listing import iter_blocks, planned_count, spill_bytes

    to_file = not is_stdio(args.out)
    expected, exact = None, False

    def spill(count):  # the listing's temporary file, beside the output
        return spill_bytes(args.n, count, unique=args.unique, fixed=fixed) if to_file else 0

    if (to_file and not args.force) or show_progress(args):
        fits = None
        if to_file and not args.force:
            from ..io.registry import fits as fits_on_disk

            def fits(count):
                return fits_on_disk(
                    args.out, fmt, args.n, count, one_based=args.one_based, reserve=spill(count)
                )

        expected, exact = planned_count(
            args.n, unique=args.unique, fixed=fixed, limit=args.limit, jobs=args.jobs, fits=fits
        )
    reserve = spill(expected) if expected is not None else 0
    with _writer(args, args.n, fmt, expected, estimated=not exact, reserve=reserve) as w:
        if checks.fixed_conflict(fixed):  # after the writer, whose refusal must come alone
            conflict = checks.fixed_conflict(fixed, args.one_based)
            note(args, f"no solution for n = {args.n}: {conflict}")
        bar = None  # after the writer, whose refusal must come alone
        if show_progress(args):
            bar = progress_bar(total=expected, unit="sol", unit_scale=True, desc=f"n={args.n}")
        try:
            for block in iter_blocks(
                args.n,
                unique=args.unique,
                fixed=fixed,
                jobs=args.jobs,
                limit=args.limit,
                arrays=False,
                spill_dir=os.path.dirname(w.path) if w.path else None,
            ):
                with above_bars(w.path is None):  # not into the bar's line on a terminal
                    w.write_many(block)
                if bar is not None:
                    bar.update(len(block))
            if bar is not None:
                bar.total = bar.n  # an estimated total ends at the real one
        finally:
            if bar is not None:
                bar.close()
    if not w.count and not checks.fixed_conflict(fixed):  # said above when they conflict
        note(
            args,
            f"no solutions for n = {args.n}" + (" with these fixed queens" if fixed else ""),
        )
    if not is_stdio(args.out):
        ext = os.path.splitext(args.out)[1].lower()
        unknown = not args.format and extension_formats(args.out) == ()
        hint = f"; {ext} is the extension of no solution format: --format chooses one"
        note(
            args,
            f"wrote {w.count} solution{'s' * (w.count != 1)} to {args.out} "
            f"({fmt}{hint if unknown else ''})",
        )
    return ExitStatus.OK


def cmd_first(args):
    fmt = _output_format(args)
    fixed = checks.check_fixed(checks.check_n(args.n), args.fixed)
    from ..run.listing import first_solution

    sol = first_solution(args.n, fixed=fixed)
    if sol is None:
        conflict = checks.fixed_conflict(fixed, args.one_based)
        say(
            f"no solution for n = {args.n}"
            + (f": {conflict}" if conflict else " with these fixed queens" if fixed else "")
        )
        return ExitStatus.NEGATIVE
    with _writer(args, args.n, fmt, 1) as w:
        w.write(sol)
    return ExitStatus.OK


def cmd_construct(args):
    fmt = _output_format(args)
    from ..construction import construct

    _check_construct_memory(args.n, fmt, not is_stdio(args.out))
    queens = construct(args.n)  # NoSolution: a negative answer, as `first` says it (exit 1)
    with _writer(args, args.n, fmt, 1) as w:
        w.write_many(queens.reshape(1, -1))
    return ExitStatus.OK


def _check_construct_memory(n, fmt, to_file):
    """Refuse a construction that cannot fit in memory, before trying it."""
    import psutil

    from ..io.space import format_bytes

    # Measured: about 64 bytes per row to build and check the solution, and
    # about 150 per row when it is rendered as text for stdout.
    need = n * (64 if to_file or fmt == "npy" else 160)
    available = psutil.virtual_memory().available
    if need > available:
        raise UsageError(
            f"construct {n} needs about {format_bytes(need)} of "
            f"memory, and {format_bytes(available)} are available"
            + ("; --out FILE needs less" if n * 64 <= available and not to_file else "")
        )
