"""The command line: ``parqueens COMMAND ...`` (see ``parqueens --help``).

Every usage error is one line on stderr and exit code 2; a verification
failure exits 1; an interrupt exits 130.  Nothing but results goes to stdout.
"""

import argparse
import json
import sys

from . import __version__


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line, no usage dump: the user asked for `--help` if they want it.
        raise UsageError(f"{self.prog}: {message}")


class UsageError(Exception):
    """A bad command line: reported in one line, exit code 2."""


def board_size(text):
    """argparse type for a board size: a non-negative decimal integer."""
    text = text.strip()
    if not text.lstrip("+").isdigit():
        raise argparse.ArgumentTypeError(f"board size must be a non-negative integer, got {text!r}")
    return int(text)


def job_count(text):
    """argparse type for --jobs: a non-zero integer (negative as in joblib)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs must be an integer, got {text!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError("--jobs must not be 0 (1: no parallelism, -1: all cores)")
    return value


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _add_run_options(p):
    p.add_argument("-j", "--jobs", type=job_count, default=None, metavar="J",
                   help="worker processes (default: all cores, as joblib.cpu_count(); "
                        "1: run in this process; -1: all cores, -2: all but one)")
    p.add_argument("--split-depth", type=positive_int, default=None, metavar="K",
                   help="rows pre-placed per work unit (default: automatic, >= 64 units per job)")
    p.add_argument("--method", choices=("d4", "mirror", "plain"), default=None,
                   help="symmetry reduction: d4 (default, whole symmetry group), mirror "
                        "(left-right only) or plain (none); all give the same counts")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None,
                     help="show a progress bar on stderr (default: when stderr is a terminal)")
    bar.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def build_parser():
    parser = _Parser(prog="parqueens",
                     description="Count and list the solutions of the n-queens problem, "
                                 "in parallel.")
    parser.add_argument("--version", action="version", version=f"parqueens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("count", help="count the solutions for a board size",
                       description="Count the solutions of the n-queens problem (OEIS A000170); "
                                   "with --unique also the fundamental ones (OEIS A002562).")
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    _add_run_options(p)
    p.add_argument("--unique", action="store_true",
                   help="also count the fundamental solutions (distinct up to rotation and "
                        "reflection) and the orbit breakdown")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: n, total, method, units, jobs, seconds, nodes "
                        "(and fundamental, orbits with --unique)")
    p.add_argument("--verify", action="store_true",
                   help="compare the computed counts with the published OEIS values "
                        "(n <= 27); exit code 1 on a mismatch")
    p.set_defaults(func=cmd_count)
    return parser


def _show_progress(args):
    if args.quiet:
        return False
    if args.progress:
        return True
    return sys.stderr.isatty()


def cmd_count(args):
    from .runner import run_count
    result = run_count(args.n, unique=args.unique, method=args.method, jobs=args.jobs,
                       split_depth=args.split_depth, progress=_show_progress(args))
    code = 0
    if args.verify:
        from . import oeis
        ok, message = oeis.check(result.n, result.total, result.fundamental)
        print(message, file=sys.stderr)
        code = 1 if ok is False else 0
    if args.json:
        print(json.dumps(result.as_dict()))
    elif args.unique:
        print(f"total {result.total}")
        print(f"fundamental {result.fundamental}")
        print("orbits " + " ".join(f"{size}:{k}" for size, k in result.orbits.items()
                                   if size > 1 or k))
    else:
        print(result.total)
    return code


def main(argv=None):
    """Entry point of the ``parqueens`` command; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.func(args)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    except (ValueError, TypeError, OverflowError) as exc:
        print(f"parqueens: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("parqueens: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


def console_main():
    """Console-script wrapper: exits with :func:`main`'s code."""
    sys.exit(main())
