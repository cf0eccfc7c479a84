"""The command line: ``parqueens COMMAND ...`` (see ``parqueens --help``).

Exit codes: 0 success; 1 a negative answer (no solution, a failed verify or
--verify); 2 a usage error, bad input or an unusable file (one line on
stderr, never a traceback); 130 interrupted (Ctrl-C); 143 terminated
(SIGTERM).  Nothing but results goes to stdout.
"""

import argparse
import errno
import json
import os
import re
import sys
import warnings

from . import checks, methods
from .io.paths import extension_formats, is_stdio
from .names import BACKENDS, FORMATS, METHODS, READABLE_FORMATS, TABLE_EXTENSIONS, VERSION
from .terminal import above_bars


class UsageError(Exception):
    """A bad command line: reported in one line, exit code 2."""


class Declined(Exception):
    """The user answered no when asked to start a long run: said in one
    line, exit code 1 (a negative answer, not bad input)."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        # --uniq is not taken for --unique: an abbreviation would change
        # meaning when an option is added (Python's default guesses).
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        # One line, no usage dump: `--help` gives the usage.  The subcommand
        # is named after the common prefix ("count: argument N: ...").
        command = self.prog.removeprefix("parqueens").strip()
        raise UsageError(f"{command}: {message}" if command else message)


# ---------------------------------------------------------------- arg types
# Each type parses the text and hands the value to the library's own check
# (parqueens.checks), whose message argparse prints.


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


def _add_quiet(p, group=None):
    (group or p).add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar or notes on stderr"
    )


def _add_progress(p):
    """--progress and --quiet, for the commands whose work has a measure."""
    bar = p.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    _add_quiet(p, bar)


def _add_jobs(
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


def _add_run_options(p, *, fixed=True):
    _add_jobs(p)
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
        help="symmetry reduction: d4 (default, whole symmetry group), mirror "
        "(left-right only) or plain (none); all give the same counts",
    )
    p.add_argument(
        "--unique",
        action="store_true",
        help="also count the fundamental solutions (distinct up to rotation and "
        "reflection) and the orbit breakdown",
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
        "and stop if one differs (default: 2 units at random on resume; 0: none)",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default=BACKENDS[0],
        help="where the work units run: threads of this process (default; the "
        "kernels release the GIL), local worker processes (loky) or a Dask "
        "cluster",
    )
    p.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help="with --backend dask: address of a running scheduler, e.g. "
        "tcp://HOST:8786 (default: start a local cluster)",
    )
    p.add_argument(
        "--estimate",
        action="store_true",
        help="only print an estimate of the running time, and exit",
    )
    _add_yes(p)
    if fixed:
        _add_fixed(p, "count only solutions containing these queens")
        _add_one_based(p, "--fixed squares count from 1")
    _add_progress(p)


def _add_yes(p):
    p.add_argument(
        "-y",
        "--yes",
        action="store_true",
        help="start a count estimated to take more than a day without asking (otherwise "
        "it is asked on a terminal, and refused elsewhere)",
    )


def _add_fixed(p, what):
    p.add_argument(
        "--fixed",
        type=fixed_queens,
        action=_Extend,
        metavar="ROW:COL[,ROW:COL...]",
        help=f"{what} (rows and columns from 0; from 1 with --one-based)",
    )


def _add_one_based(p, what):
    p.add_argument("--one-based", action="store_true", help=what)


def _add_output(p, formats, default_help):
    p.add_argument(
        "--format",
        choices=formats,
        default=None,
        help=f"output format (default: from the --out extension, else {default_help})",
    )
    _add_one_based(
        p,
        "count from 1: the columns of perm and jsonl, --fixed squares, svg labels "
        "(board, matrix and leetcode have no numbers; npy is 0-based)",
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


def build_parser():
    parser = _Parser(
        prog="parqueens",
        description="Count and list the solutions of the n-queens problem, in parallel.",
        epilog="Exit codes: 0 ok, 1 negative answer (or a run declined at its prompt), 2 bad "
        "input, 3 Dask cluster unreachable or lost, 130 interrupted, 141 stdout closed by "
        "its reader, 143 terminated.",
    )
    parser.add_argument("--version", action="version", version=f"parqueens {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser(
        "count",
        help="count the solutions for a board size",
        description="Count the solutions of the n-queens problem (OEIS "
        "A000170); with --unique also the fundamental ones "
        "(OEIS A002562).",
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    _add_run_options(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: n, total, method, split_depth, units, jobs, "
        "seconds, nodes (null without --nodes), resumed (and fundamental, "
        "orbits with --unique; conflict with conflicting --fixed queens)",
    )
    p.add_argument(
        "--nodes",
        action="store_true",
        help="also count the queens placed by the search (the nodes of its tree), "
        "with a kernel variant that counts them, 5 to 10 %% slower; shown "
        "in --json, else on stderr",
    )
    p.add_argument(
        "--verify",
        action="store_true",
        help="compare the computed counts with the published OEIS values "
        "(n <= 27); exit code 1 on a mismatch",
    )
    p.set_defaults(func=cmd_count)

    p = sub.add_parser(
        "table",
        help="count a range of board sizes into a table",
        description="One row per n: n, total, fundamental (with --unique), method, units, seconds.",
    )
    p.add_argument(
        "range", type=board_range, metavar="RANGE", help="board sizes, e.g. 1-18, 8 or 4,6,8-12"
    )
    _add_run_options(p, fixed=False)
    p.add_argument(
        "-o",
        "--out",
        metavar="FILE",
        help="write the table to FILE (.csv, .json or .md); default: Markdown on "
        "stdout, row by row",
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing FILE")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the table on stdout as JSON (a list of objects, as --out x.json), "
        "when it is complete",
    )
    p.set_defaults(func=cmd_table)

    p = sub.add_parser("status", help="show the progress stored in a checkpoint file")
    p.add_argument("file", metavar="FILE")
    _add_one_based(p, "show the fixed squares from 1 (--json keeps them 0-based, as stored)")
    _add_quiet(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: file, method, fixed, and per size n, units_done, "
        "units_total, done, total, fundamental, seconds, seconds_left",
    )
    p.set_defaults(func=cmd_status)

    p = sub.add_parser(
        "solutions",
        help="list the solutions (streamed, lexicographic order)",
        description="List every solution (with --unique one canonical form "
        "per symmetry class) in lexicographic order, the same "
        "whatever --jobs is.",
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    p.add_argument(
        "--unique",
        action="store_true",
        help="only the canonical form (smallest member) of each symmetry class",
    )
    p.add_argument("--limit", type=positive_int, metavar="K", help="stop after K solutions")
    _add_fixed(p, "only solutions containing these queens")
    _add_jobs(p, "threads that list the solutions")
    _add_output(p, FORMATS, "perm")
    _add_progress(p)
    p.set_defaults(func=cmd_solutions)

    p = sub.add_parser(
        "first",
        help="the lexicographically first solution",
        description="Print the lexicographically first solution, found by "
        "backtracking.  For some large n this takes long (the "
        "first solution lies deep in the tree): `parqueens "
        "construct N` gives a solution for any n at once.",
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    _add_fixed(p, "the first solution containing these queens")
    _add_output(p, FORMATS, "perm")
    _add_quiet(p)
    p.set_defaults(func=cmd_first)

    p = sub.add_parser(
        "construct",
        help="a solution for any n, at once (explicit formula)",
        description="Print a solution for any n >= 4 (and n = 1) in O(n) "
        "time, by the construction of Hoffman, Loessi & Moore "
        "(1969); checked before it is printed.",
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, any n >= 4")
    _add_output(p, FORMATS, "perm")
    _add_quiet(p)
    p.set_defaults(func=cmd_construct)

    p = sub.add_parser(
        "verify",
        help="check a file of solutions",
        description="Check that every solution in FILE is a valid placement, "
        "find duplicates and report the count; --complete also "
        "checks that the file holds exactly all solutions (all "
        "classes with --unique).  Exit code 0 if all is well, 1 "
        "if not.",
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
    _add_one_based(
        p, "perm/jsonl columns count from 1, and the report counts rows and columns from 1"
    )
    p.add_argument(
        "--complete", action="store_true", help="also check that the file holds all the solutions"
    )
    p.add_argument(
        "--unique", action="store_true", help="the file lists one canonical form per class"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: file, n, solutions, invalid, duplicates, empty_lines, "
        "not_canonical (with --unique), expected (with --complete), ok, first_problem",
    )
    _add_jobs(p, "threads for the count of --complete")
    _add_yes(p)
    _add_progress(p)
    p.set_defaults(func=cmd_verify)
    return parser


# ---------------------------------------------------------------- helpers


def _show_progress(args):
    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", None):
        return True
    return sys.stderr.isatty()


def _check_jobs(args):
    """Refuse a negative --jobs that leaves no core, before any output; say
    when --jobs asks for more than the cores (the library runs no more)."""
    jobs = getattr(args, "jobs", None)
    backend = getattr(args, "backend", "threads")
    if jobs is None or jobs == 1 or (backend == "dask" and args.scheduler is not None):
        return
    from .backends import plan_jobs

    used = plan_jobs(jobs, "loky" if backend == "dask" else backend)  # a local cluster too
    if used < jobs:
        _note(
            args,
            f"--jobs {jobs}: this machine has {used} core{'s' * (used > 1)}, so at most "
            f"{used} job{'s' * (used > 1)} run (more would only share them)",
        )


def _check_split_depth(args):
    """Warn when --split-depth is far deeper than the default for some n."""
    depth = getattr(args, "split_depth", None)
    # --estimate too: it builds the units as the run would
    if depth is None or args.command not in ("count", "table"):
        return
    ns = [args.n] if args.command == "count" else args.range
    fixed = getattr(args, "fixed", None) or ()
    try:
        for n in ns:
            methods.check_count(n, args.method, args.unique, fixed, depth)
    except (ValueError, TypeError):
        return  # the command reports it
    # Small boards build their units at once, whatever the depth.
    ns = [n for n in ns if n >= 10]
    if not ns:
        return
    from .backends import plan_jobs
    from .units import auto_depth

    try:
        jobs = plan_jobs(args.jobs, args.backend if args.backend != "dask" else "threads")
        for n in ns:
            method = methods.resolve_method(args.method, n, fixed, args.unique, depth)
            default = auto_depth(n, method, jobs, fixed)
            if depth > default + 2:
                _note(
                    args,
                    f"--split-depth {depth} is much deeper than n = {n} needs (default "
                    f"{default}): the units are built one by one in Python, which can "
                    f"take far longer than the search itself",
                )
                return
    except (ValueError, TypeError):
        return  # the command reports it


def _say(message):
    """One line on stderr.  Every line parqueens writes there, but the
    progress bars, starts with ``parqueens: ``; a failure (exit 2 or 3)
    goes on with ``error: ``."""
    text = f"parqueens: {message}"
    tqdm = sys.modules.get("tqdm")
    if tqdm is not None and getattr(tqdm.tqdm, "_instances", None):
        tqdm.tqdm.write(text, file=sys.stderr)  # above a progress bar, not into it
    else:
        print(text, file=sys.stderr)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A library's warning while a command runs, as one line with the prefix."""
    _say("warning: " + " ".join(str(message).split()))


def _note(args, message):
    """A note (:func:`_say`), unless --quiet."""
    if not getattr(args, "quiet", False):
        _say(message)


def _format_bytes(count):
    from .io.space import format_bytes

    return format_bytes(count)


def _format_seconds(seconds):
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365 * 86400):.3g} years"


def _backend(args):
    """The command's backend (a context manager yielding the jobs to run)."""
    from .backends import open_backend

    def lost(address):
        _note(args, f"the Dask worker {address} left the cluster; its units run again")

    return open_backend(args.backend, args.jobs, args.scheduler, on_lost=lost)


def _open_store(args, command, ns):
    """The checkpoint of a count or table (None without --checkpoint): the
    command's parameters are the run's identity, plus its name and sizes.
    Every size's stored rows, split depth and classes are checked before
    the file is claimed (a refusal then leaves it as it was) and before
    any output."""
    if args.checkpoint is None:
        return None
    from .runner import run_identity
    from .store import RunStore

    fixed = getattr(args, "fixed", None) or ()
    identity = run_identity(args.method, args.unique, fixed)
    store = RunStore(args.checkpoint, {"command": command, "n": ns, **identity})
    try:
        store.check_identity(identity)
        for n in ns:
            store.check_size(n)
            method = methods.resolve_method(
                args.method, n, fixed, args.unique, args.split_depth, getattr(args, "nodes", False)
            )
            store.check_method(n, method)
            if args.split_depth is not None:
                store.check_depth(n, args.split_depth)
            store.check_classified(n, methods.units_classified(method, n, args.unique))
        store.claim(identity)  # another run's file is refused before any output
    except BaseException:
        store.close()
        raise
    return store


def _keep_checkpoint_method(args):
    """Without --method, a count or table goes on with the method of its
    checkpoint (one made with --method d4, or by parqueens 0.2, whose
    default was d4): set it, and say so when it is not the default's."""
    path = args.checkpoint
    if args.method is not None or not path or not os.path.isfile(path):
        return
    if not os.path.getsize(path):
        return
    from .runner import method_of
    from .store import CheckpointError, RunStore

    try:
        with RunStore(path) as store:  # read only: --estimate creates nothing
            method = method_of(store, None)
    except CheckpointError:
        return  # refused with the run's own words when the run opens it
    if method is None:
        return
    args.method = method
    ns = [args.n] if args.command == "count" else args.range
    search = args.split_depth, getattr(args, "nodes", False)
    try:
        same = all(methods.resolve_method(None, n, (), False, *search) == method for n in ns)
    except ValueError:
        same = False
    if not same:  # the default would count some size otherwise
        _note(args, f"{path} holds a count by {method}: going on with {method}")


def _maybe_estimate(args, n, jobs, fixed=None):
    """--estimate: print it and return True; otherwise warn about long runs."""
    from .runner import estimate

    if not args.estimate and n - len(set(fixed or ())) < _ESTIMATED_FROM:
        return False
    e = estimate(
        n,
        method=args.method,
        jobs=jobs,
        split_depth=args.split_depth,
        fixed=fixed,
        backend=args.backend,
    )
    text = _estimate_text(n, e)
    if not args.estimate:
        _guard(args, f"n = {n}", e["seconds"], e["jobs"])
    if args.estimate:
        if getattr(args, "json", False):
            print(
                json.dumps(
                    {
                        "n": n,
                        "estimate_seconds": e["seconds"],
                        "jobs": e["jobs"],
                        "method": e["method"],
                        "units": e["units"],
                        "nodes": e["nodes"],
                        "nodes_per_second": e["rate"],
                    }
                )
            )
        else:
            print(text)
        if getattr(args, "checkpoint", None):
            _note(
                args,
                "(the estimate is for the whole run; units already finished in "
                f"{args.checkpoint} are not subtracted)",
            )
        return True
    if e["seconds"] > 60:
        _note(args, text)
    return False


def _estimate_text(n, e):
    """The sentence of an estimate (a dict of :func:`parqueens.runner.estimate`)."""
    if e["method"] == "join":
        return (
            f"estimate for n = {n}: about {_format_seconds(e['seconds'])} on {e['jobs']} "
            f"job(s) (the join's cost model of its {e['units']} units, scaled by this "
            f"machine's speed on n = 14)"
        )
    return (
        f"estimate for n = {n}: about {_format_seconds(e['seconds'])} on {e['jobs']} "
        f"job(s) ({e['nodes']:.3g} nodes at {e['rate'] / 1e6:.0f} M nodes/s per job; "
        f"Knuth's random probes, usually within a factor of 2)"
    )


#: Runs with fewer rows to search take under a minute: not estimated first
#: (count and table alike).
_ESTIMATED_FROM = 18

#: Runs estimated to take longer than this need --yes (or a yes on a terminal).
_GUARD_SECONDS = 86400


def _guard(args, what, seconds, jobs):
    """Ask before a run estimated to take more than a day (--yes: don't)."""
    if seconds <= _GUARD_SECONDS or args.yes:
        return
    text = f"{what} would take about {_format_seconds(seconds)} on {jobs} job(s) (estimate)"
    if sys.stdin is not None and sys.stdin.isatty() and sys.stderr.isatty():
        print(f"parqueens: {text}; start it? [y/N] ", end="", file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() in ("y", "yes"):
            return
        raise Declined("not started: the answer was no")
    raise UsageError(f"{text}; add --yes to start it anyway")


# ---------------------------------------------------------------- commands


def cmd_count(args):
    # The library's checks first: a usage error answers before numba loads.
    methods.check_count(args.n, args.method, args.unique, args.fixed, args.split_depth)
    if args.verify:
        from . import oeis

        if args.fixed:
            raise UsageError("--verify compares whole-board counts; it cannot be used with --fixed")
        if args.n not in oeis.KNOWN:
            raise UsageError(
                f"--verify knows the published counts for n <= {max(oeis.KNOWN)}, not n = {args.n}"
            )
    _keep_checkpoint_method(args)
    with _backend(args) as jobs:
        if _maybe_estimate(args, args.n, jobs, args.fixed):
            return 0
        from .runner import run_count

        store = _open_store(args, "count", [args.n])
        try:
            result = run_count(
                args.n,
                unique=args.unique,
                method=args.method,
                jobs=jobs,
                split_depth=args.split_depth,
                progress=_show_progress(args),
                fixed=args.fixed,
                checkpoint=store,
                backend=args.backend,
                nodes=args.nodes,
                recheck=args.recheck,
            )
        finally:
            if store is not None:
                store.close()
    code = 0
    # the squares named as the user gave them (from 1 with --one-based)
    conflict = result.conflict and checks.fixed_conflict(args.fixed, args.one_based)
    if conflict:
        _note(args, f"no solution: {conflict}")
    if result.resumed:
        again = result.rechecked
        _note(
            args,
            f"resumed {result.resumed} of {result.units} units from {args.checkpoint}"
            + (f"; searched {again} of them again: the same results" if again else ""),
        )
    if args.verify:
        from . import oeis

        ok, message = oeis.check(result.n, result.total, result.fundamental)
        _say(message)
        code = 1 if ok is False else 0
    if args.json:
        print(json.dumps(result.as_dict() | ({"conflict": conflict} if conflict else {})))
    elif args.unique:
        print(f"total {result.total}")
        print(f"fundamental {result.fundamental}")
        print(
            "orbits "
            + " ".join(f"{size}:{k}" for size, k in result.orbits.items() if size > 1 or k)
        )
    else:
        print(result.total)
    # After the result, which a failing stderr must not cost; shown even with
    # --quiet, since it was asked for.
    if args.nodes and result.nodes is None:
        _say(
            "nodes unknown: units resumed from the checkpoint were stored without their "
            "count (not counted for the others either)"
        )
    elif args.nodes and not args.json:
        _say(f"nodes {result.nodes}")
    return code


def cmd_table(args):
    from .io.table import TABLE_FORMATS, table_text, write_table

    fmt = "md"
    if is_stdio(args.out):  # stdout, as without --out
        args.out = None
    if args.out is not None and args.json:
        raise UsageError("--json prints the table on stdout; --out writes it: choose one")
    if args.out is not None and args.estimate:
        raise UsageError("--estimate prints an estimate and writes no table; drop --out")
    if args.out is not None:
        ext = os.path.splitext(args.out)[1].lower()
        if ext not in TABLE_EXTENSIONS:
            raise UsageError(f"--out must end in {', '.join(TABLE_EXTENSIONS)}, got {args.out!r}")
        fmt = TABLE_EXTENSIONS[ext]
        _check_out_path(args.out, args.force)
    ns = args.range
    rows = []
    # Before the header is printed: the library's checks of every size.
    for n in ns:
        methods.check_count(n, args.method, args.unique, None, args.split_depth)
    checks.check_recheck(args.recheck, args.checkpoint)
    _keep_checkpoint_method(args)
    with _backend(args) as jobs:
        if args.estimate:
            for n in ns:
                _maybe_estimate(args, n, jobs)
            return 0
        _table_estimate(args, ns, jobs)
        from .runner import run_count, size_weights

        store = _open_store(args, "table", ns)  # refused before the header is printed
        from tqdm import tqdm

        show = _show_progress(args)
        # Weighted by each size's estimated work: n = 17 is 80 % of table 10-17.
        weights = dict(zip(ns, size_weights(ns) if show else [1.0] * len(ns), strict=True))
        outer = tqdm(
            total=1.0,
            disable=not show,
            file=sys.stderr,
            desc="table",
            position=0,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]",
        )
        streamed = not args.out and not args.json  # Markdown, row by row
        try:
            if streamed:
                with above_bars():  # not into the bar's line on a terminal
                    print(TABLE_FORMATS["md"].header(args.unique), flush=True)
            for n in ns:
                outer.set_postfix_str(f"n={n}")
                r = run_count(
                    n,
                    unique=args.unique,
                    method=args.method,
                    jobs=jobs,
                    split_depth=args.split_depth,
                    progress=show,
                    checkpoint=store,
                    backend=args.backend,
                    recheck=args.recheck,
                )
                rows.append(r)
                outer.update(min(weights[n], 1.0 - outer.n))
                if streamed:
                    with above_bars():
                        print(TABLE_FORMATS["md"].row(r, args.unique), flush=True)
        finally:
            outer.close()
            if store is not None:
                store.close()
    if args.json and not args.out:
        print(table_text("json", rows, args.unique), end="")
    if args.out:
        write_table(args.out, fmt, rows, args.unique, args.force)
        _note(args, f"wrote {len(rows)} row{'s' * (len(rows) != 1)} to {args.out}")
    return 0


def _table_estimate(args, ns, jobs):
    """Before a table starts: its estimated time, if it is more than a
    minute (sizes of 18 rows or more; the others take seconds), and the
    guard of long runs."""
    from .runner import estimate

    long = [n for n in ns if n >= _ESTIMATED_FROM]
    if not long:
        return
    e = [estimate(n, method=args.method, jobs=jobs, backend=args.backend) for n in long]
    seconds = sum(x["seconds"] for x in e)
    _guard(args, f"table {_range_text(ns)}", seconds, e[0]["jobs"])
    if seconds > 60:
        _note(
            args,
            f"estimate for n = {_range_text(long)}: about {_format_seconds(seconds)} on "
            f"{e[0]['jobs']} job(s) (Knuth's random probes, usually within a factor of 2)",
        )


def _check_out_path(path, force):
    """The output path, checked before any work (see io.check_output_path)."""
    from .io.atomic import check_output_path

    return check_output_path(path, force)


def cmd_status(args):
    from .status import checkpoint_status

    status = checkpoint_status(args.file)
    method, fixed, holder, sizes = (status[k] for k in ("method", "fixed", "holder", "sizes"))
    if args.json:
        print(json.dumps(status))
        return 0
    o = 1 if args.one_based else 0
    fixed_text = ",".join(f"{r + o}:{c + o}" for r, c in fixed)
    print(
        f"checkpoint {args.file}: method={method}"
        + (f" fixed={fixed_text}" if fixed else "")
        + (f", n = {_range_text([z['n'] for z in sizes])}" if sizes else "")
    )
    if holder is not None:
        import socket

        where = "" if holder["host"] == socket.gethostname() else f" on {holder['host']}"
        print(
            f"in use by process {holder['pid']}{where} since {holder['since']}: {holder['command']}"
        )
    for z in sizes:
        if not z["started"]:
            print(f"n = {z['n']}: not started")
            continue
        if "units_total" not in z:
            print(
                f"n = {z['n']}: {z['units_done']} units stored, without the size's record "
                "(the next run resumes them)"
            )
            continue
        line = f"n = {z['n']} ({z['method']}): {z['units_done']}/{z['units_total']} units"
        if z["done"]:
            line += f", done: total {z['total']}"
        else:
            line += f", total so far {z['total']}"
            if z["seconds_left"] is not None:
                left = _format_seconds(z["seconds_left"])
                line += f", about {left} of work left at the rate so far"
        if z["fundamental"] is not None:
            line += f", fundamental {z['fundamental']}"
        line += f" ({_format_seconds(z['seconds'])} of work stored)"
        print(line)
    return 0


def _range_text(ns):
    """Board sizes as a range text, e.g. ``4,6,8-11`` (what parse_range reads)."""
    runs = []
    for n in sorted(ns):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


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
    from .io.writer import SolutionWriter

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
    )


def cmd_solutions(args):
    fmt = _output_format(args)
    fixed = checks.check_fixed(checks.check_n(args.n), args.fixed)
    checks.check_unique_fixed(args.unique, fixed)
    from .listing import iter_blocks, planned_count, spill_bytes

    if checks.fixed_conflict(fixed):
        _note(args, f"no solution: {checks.fixed_conflict(fixed, args.one_based)}")
    to_file = not is_stdio(args.out)
    expected, exact = None, False

    def spill(count):  # the listing's temporary file, beside the output
        return spill_bytes(args.n, count, unique=args.unique, fixed=fixed) if to_file else 0

    if (to_file and not args.force) or _show_progress(args):
        fits = None
        if to_file and not args.force:
            from .io.registry import fits as fits_on_disk

            def fits(count):
                return fits_on_disk(
                    args.out, fmt, args.n, count, one_based=args.one_based, reserve=spill(count)
                )

        expected, exact = planned_count(
            args.n, unique=args.unique, fixed=fixed, limit=args.limit, jobs=args.jobs, fits=fits
        )
    reserve = spill(expected) if expected is not None else 0
    with _writer(args, args.n, fmt, expected, estimated=not exact, reserve=reserve) as w:
        bar = None  # after the writer, whose refusal must come alone
        if _show_progress(args):
            from tqdm import tqdm  # only here: 0.02 s of start-up

            bar = tqdm(
                total=expected, file=sys.stderr, unit="sol", unit_scale=True, desc=f"n={args.n}"
            )
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
        _note(
            args,
            f"no solutions for n = {args.n}" + (" with these fixed queens" if fixed else ""),
        )
    if not is_stdio(args.out):
        ext = os.path.splitext(args.out)[1].lower()
        unknown = not args.format and extension_formats(args.out) == ()
        hint = f"; {ext} is the extension of no solution format: --format chooses one"
        _note(
            args,
            f"wrote {w.count} solution{'s' * (w.count != 1)} to {args.out} "
            f"({fmt}{hint if unknown else ''})",
        )
    return 0


def cmd_first(args):
    fmt = _output_format(args)
    fixed = checks.check_fixed(checks.check_n(args.n), args.fixed)
    from .listing import first_solution

    sol = first_solution(args.n, fixed=fixed)
    if sol is None:
        conflict = checks.fixed_conflict(fixed, args.one_based)
        _say(
            f"no solution for n = {args.n}"
            + (f": {conflict}" if conflict else " with these fixed queens" if fixed else "")
        )
        return 1
    with _writer(args, args.n, fmt, 1) as w:
        w.write(sol)
    return 0


def cmd_construct(args):
    fmt = _output_format(args)
    from .construct import NoSolution, construct

    _check_construct_memory(args.n, fmt, not is_stdio(args.out))
    try:
        queens = construct(args.n)
    except NoSolution as exc:  # as `first` says it: a negative answer, exit 1
        _say(str(exc))
        return 1
    with _writer(args, args.n, fmt, 1) as w:
        w.write_many(queens.reshape(1, -1))
    return 0


def _check_construct_memory(n, fmt, to_file):
    """Refuse a construction that cannot fit in memory, before trying it."""
    import psutil

    # Measured: about 64 bytes per row to build and check the solution, and
    # about 150 per row when it is rendered as text for stdout.
    need = n * (64 if to_file or fmt == "npy" else 160)
    available = psutil.virtual_memory().available
    if need > available:
        raise UsageError(
            f"construct {n} needs about {_format_bytes(need)} of "
            f"memory, and {_format_bytes(available)} are available"
            + ("; --out FILE needs less" if n * 64 <= available and not to_file else "")
        )


def cmd_verify(args):
    if is_stdio(args.file) and (sys.stdin is None or sys.stdin.closed):
        raise UsageError("standard input is closed; nothing to verify")

    if args.format:
        checks.check_one_based(args.format, args.one_based)
    from .io.registry import read_solutions

    reader = read_solutions(args.file, args.format, args.n, one_based=args.one_based)
    from .verify import check_blocks

    blocks = reader.blocks()
    bar = None
    if _show_progress(args):
        from tqdm import tqdm

        total = len(reader.array) if reader.array is not None else None
        bar = tqdm(total=total, file=sys.stderr, unit="sol", unit_scale=True, desc="verify")
        blocks = _counted(blocks, bar)
    try:
        report = check_blocks(
            blocks,
            reader.n,
            args.unique,
            reader.array,
            bad_rows=getattr(reader, "bad_rows", None),
            one_based=args.one_based,
        )
    finally:
        if bar is not None:
            bar.close()
    n = report.n if report.n is not None else reader.n
    count, invalid, duplicates = report.count, report.invalid, report.duplicates
    not_canonical, good, first_bad = report.not_canonical, report.distinct, report.first_problem
    if n is None and args.complete:
        raise UsageError(f"{args.file}: cannot tell n from a file without solutions; give --n")
    what = "classes" if args.unique else "solutions"
    parts = [
        f"{args.file}: {count} solution{'' if count == 1 else 's'}"
        + (f" of n = {n}" if n is not None else "")
    ]
    parts.append("all valid" if not invalid else f"{invalid} INVALID")
    parts.append(
        "no duplicates" if not duplicates else f"{duplicates} DUPLICATE{'S' * (duplicates > 1)}"
    )
    if args.unique:
        parts.append("all canonical" if not not_canonical else f"{not_canonical} NOT CANONICAL")
    # Empty lines the reader skipped among solutions: a line blanked out
    # would otherwise pass unnoticed.
    empty = getattr(reader, "empty_lines", [])
    if empty:
        k = len(empty) + reader.empty_lines_more
        parts.append(f"{k} EMPTY LINE{'S' * (k > 1)}")
        first_bad = first_bad or f"line {empty[0]} is empty (not a solution of n = {n})"
    ok = not (invalid or duplicates or not_canonical or empty)
    want = None
    if args.complete:
        from .runner import estimate, run_count

        if n >= _ESTIMATED_FROM:  # the guard of every long count
            e = estimate(n, jobs=args.jobs)
            _guard(args, f"the count of n = {n} (verify --complete)", e["seconds"], e["jobs"])
            if e["seconds"] > 60:
                _note(args, _estimate_text(n, e))
        r = run_count(n, unique=args.unique, jobs=args.jobs, progress=_show_progress(args))
        want = r.fundamental if args.unique else r.total
        if want == 1:
            what = what[:-2] if args.unique else what[:-1]  # "class", "solution"
        if good != want:
            ok = False
            parts.append(f"INCOMPLETE: {good} distinct of {want} {what}")
        elif ok:
            parts.append(f"complete: all {want} {what}")
        else:
            parts.append(f"all {want} {what} present")
    if args.json:
        report = {
            "file": args.file,
            "n": n,
            "solutions": count,
            "invalid": invalid,
            "duplicates": duplicates,
            "empty_lines": len(empty) + (reader.empty_lines_more if empty else 0),
        }
        if args.unique:
            report["not_canonical"] = not_canonical
        if args.complete:
            report["expected"] = want
            report["distinct"] = good
        report["ok"] = ok
        report["first_problem"] = first_bad or None
        print(json.dumps(report))
        return 0 if ok else 1
    print(", ".join(parts))
    if first_bad:
        _say(f"first problem: {first_bad}")
    return 0 if ok else 1


def _log_notes(args):
    """The library's notes (logger ``parqueens``, INFO: kernels compiling on
    their first use) as notes on stderr, unless --quiet."""
    import logging

    logger = logging.getLogger("parqueens")
    for handler in [h for h in logger.handlers if getattr(h, "parqueens_cli", False)]:
        logger.removeHandler(handler)  # main() called again in one process (tests)
    if getattr(args, "quiet", False):
        return
    handler = logging.StreamHandler(_Stderr())
    handler.parqueens_cli = True
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


class _Stderr:
    """Where the log notes go: :func:`_say` (its prefix is in the handler's format)."""

    def write(self, text):
        if text.strip():
            _say(text.strip())

    def flush(self):
        sys.stderr.flush()


def _counted(blocks, bar):
    """The blocks, each counted on the progress bar as it is read."""
    for block in blocks:
        bar.update(len(block))
        yield block


# ---------------------------------------------------------------- main


def main(argv=None):
    """Entry point of the ``parqueens`` command; returns the exit code."""
    from .backends import (
        BackendError,
        ClusterLost,
        ClusterUnreachable,
        Terminated,
        WorkerDied,
        raise_on_sigterm,
    )
    from .store import CheckpointError

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
            warnings.showwarning = _show_warning
            args, extra = parser.parse_known_args(argv)
            if extra:  # named with its command, as the other usage errors
                raise UsageError(f"{args.command}: unrecognized arguments: {' '.join(extra)}")
            return _run(args)
    except UsageError as exc:
        _say(f"error: {exc}")
        return 2
    except Declined as exc:
        _say(str(exc))
        return 1
    except ClusterUnreachable as exc:
        print(f"parqueens: error: {exc}", file=sys.stderr)
        return 3
    except (ValueError, TypeError, OverflowError, CheckpointError, BackendError) as exc:
        print(f"parqueens: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`parqueens solutions 12 | head`): stop quietly,
        # with the code of a process killed by SIGPIPE, as other tools do.
        _silence_stdout()
        return 141
    except MemoryError:
        print("parqueens: error: not enough memory for this command", file=sys.stderr)
        return 2
    except OSError as exc:
        msg = exc.strerror or str(exc)  # without Python's "[Errno N]"
        name = getattr(exc, "filename", None)
        where = f"{name or repr(name)}: " if name is not None else ""
        if not where and exc.errno is not None and exc.strerror:
            where = "writing the output: " if exc.errno == errno.ENOSPC else ""
        _say(f"error: {where}{msg}")
        return 2
    except WorkerDied as exc:
        checkpoint = getattr(args, "checkpoint", None)
        keep = (
            f"finished units are kept in {checkpoint}: {_resume_hint()}"
            if checkpoint
            else "finished units are lost (use --checkpoint FILE to keep them)"
        )
        print(f"parqueens: error: {exc}; {keep}", file=sys.stderr)
        return 3 if isinstance(exc, ClusterLost) else 1
    except RuntimeError as exc:
        if "cannot cache function" not in str(exc):
            raise
        # numba keeps compiled kernels beside the package or in ~/.cache.
        print(
            "parqueens: error: numba cannot write its cache of compiled kernels here; set "
            "NUMBA_CACHE_DIR to a writable folder",
            file=sys.stderr,
        )
        return 2
    except (KeyboardInterrupt, Terminated) as exc:
        terminated = isinstance(exc, Terminated) or getattr(exc, "terminated", False)
        code = 143 if terminated else 130
        print(_interrupt_message(args, exc, code), file=sys.stderr)
        return code


def _run(args):
    """Run the parsed command."""
    _log_notes(args)
    if getattr(args, "fixed", None) and args.one_based:
        # --fixed from 1: made 0-based once, checked with 1-based messages
        args.fixed = list(checks.check_fixed(checks.check_n(args.n), args.fixed, one_based=True))
    to_file = not is_stdio(getattr(args, "out", None)) and args.command != "verify"
    if (sys.stdout is None or sys.stdout.closed) and not to_file:
        raise UsageError("standard output is closed; nowhere to print the result")
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # notes go to stderr; nothing is lost
    _check_jobs(args)
    _check_split_depth(args)
    code = args.func(args)
    sys.stdout.flush()  # here, where a reader gone away is exit code 141
    return code


def _resume_hint():
    """How to resume: the exact command that was run."""
    import shlex

    if not sys.argv[1:]:
        return "run the same command again to resume"
    return f"run `parqueens {shlex.join(sys.argv[1:])}` again to resume"


def _interrupt_message(args, exc, code):
    what = "terminated" if code == 143 else "interrupted"
    detail = ""
    from .backends import RunInterrupted

    if not isinstance(exc, RunInterrupted) and isinstance(exc.__context__, RunInterrupted):
        exc = exc.__context__  # a second Ctrl-C while the first was handled
    if isinstance(exc, RunInterrupted):
        detail = f" during n = {exc.n} with {exc.finished} of {exc.units} units finished"
    checkpoint = getattr(args, "checkpoint", None) if args else None
    if checkpoint and not os.path.exists(checkpoint):
        return f"parqueens: {what} before anything was stored in {checkpoint}"
    if checkpoint:
        return (
            f"parqueens: {what}{detail}; finished units are kept in {checkpoint}: {_resume_hint()}"
        )
    if getattr(args, "command", None) in ("count", "table") and not isinstance(exc, RunInterrupted):
        return f"parqueens: {what} before the search started"
    if args is not None and getattr(args, "command", None) in ("count", "table"):
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
        code = 130
    _exit(code)


def _exit(code):
    """Exit with ``code``, at once when nothing needs an orderly shutdown.

    Tearing down an interpreter that has loaded numba takes about 0.08 s
    (module and LLVM finalisers), a sixth of a small count.  The commands
    close their files and checkpoints themselves; once the output is
    flushed and no child process (loky workers, a local Dask cluster) is
    alive, ``os._exit`` skips the teardown.  Otherwise, or if flushing
    fails, the usual ``sys.exit``.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        import psutil

        if not psutil.Process().children():
            os._exit(code)
    except Exception:  # a closed stream, say: let Python exit as usual
        pass
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
