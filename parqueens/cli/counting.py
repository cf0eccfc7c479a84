"""``parqueens count`` and ``parqueens table``: counts planned once by the
library (:func:`parqueens.run.plan.plan_run`), estimated and guarded from that
plan, run (:func:`parqueens.run.runner.run_plan`) and printed.

A long run (an estimate over a day, :data:`parqueens.run.plan.GUARD_SECONDS`)
needs ``--yes`` or a yes at its prompt; boards of
:data:`parqueens.run.plan.ESTIMATED_FROM` rows or more to search are estimated
before they start, and the estimate is said when it is over a minute.
"""

import json
import os
import sys

from .. import checks
from ..errors import ExitStatus
from ..names import TABLE_EXTENSIONS
from ..terminal import above_bars, progress_bar
from .errors import Declined, UsageError
from .options import add_run_options, board_range, board_size, examples, part_of
from .output import format_seconds, note, range_text, say, show_progress, three_digits

__all__ = [
    "add_parsers",
    "estimate_text",
    "print_estimate",
    "guard",
    "cmd_count",
    "print_merged",
    "cmd_table",
]


def add_parsers(sub):
    """The parsers of ``count`` and ``table``."""
    p = sub.add_parser(
        "count",
        help="count the solutions for a board size",
        description="Count the solutions of the n-queens problem (OEIS "
        "A000170); with --unique also the fundamental ones "
        "(OEIS A002562).",
        epilog=examples(
            "parqueens count 16                     # 14772512",
            "parqueens count 16 --unique            # total, fundamental, orbit breakdown",
            "parqueens count 12 --json              # one JSON object",
            "parqueens count 8 --fixed 0:0          # only solutions with a queen on row 0, "
            "column 0: 4",
            "parqueens count 20 --estimate          # only an estimate of the running time",
            "parqueens count 19 --checkpoint c19.db # resumable: run the same command again "
            "after an interruption",
        ),
    )
    p.add_argument("n", type=board_size, metavar="N", help="board size, 0..64")
    add_run_options(p, unique="the fundamental solutions and the orbit breakdown")
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: n, total, method, split_depth, units, jobs, "
        "seconds, run_seconds, nodes (null without --nodes), resumed, rechecked (and "
        "fundamental, orbits, half_turn, quarter_turn with --unique; conflict with "
        "conflicting --fixed queens); with --estimate, the estimate's keys "
        "(docs/cli.md)",
    )
    p.add_argument(
        "--nodes",
        action="store_true",
        help="also count the queens placed by the search (the nodes of its tree), "
        "with a kernel variant that counts them, 5 to 10 %% slower; shown "
        "in --json, else on stderr (a search: the default method is then d4)",
    )
    p.add_argument(
        "--verify",
        action="store_true",
        help="compare the computed counts with the published OEIS values "
        "(n <= 27); exit code 1 on a mismatch",
    )
    p.add_argument(
        "--part",
        type=part_of,
        metavar="I/K",
        help="count only part I of K of the work units (the same parts for every run of "
        "this version), into a --checkpoint of its own; parqueens merge makes the whole "
        "count of the K parts' checkpoints (docs/dask.md)",
    )
    p.set_defaults(func=cmd_count)

    p = sub.add_parser(
        "table",
        help="count a range of board sizes into a table",
        description="One row per n: n, total, fundamental (with --unique), method, units, seconds.",
        epilog=examples(
            "parqueens table 1-16 --unique --out counts.csv",
            "parqueens table 4,6,8-12                           # Markdown on stdout, row by row",
            "parqueens table 1-19 --checkpoint t.db --out t.md  # resumable",
        ),
    )
    p.add_argument(
        "range", type=board_range, metavar="RANGE", help="board sizes, e.g. 1-18, 8 or 4,6,8-12"
    )
    add_run_options(p, fixed=False)
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


# ---------------------------------------------------------------- planning


def _plans(args, ns, fixed=None):
    """The plans of the command's sizes, checked before any file is opened
    or anything printed, then planned again with the checkpoint (opened
    read-only for --estimate, which creates nothing); returns ``(plans,
    store)``, the store to close (or None)."""
    from ..run.plan import plan_run

    plans = [
        plan_run(
            n,
            unique=args.unique,
            method=args.method,
            jobs=args.jobs,
            split_depth=args.split_depth,
            fixed=fixed,
            backend=args.backend,
            nodes=getattr(args, "nodes", False),
            part=getattr(args, "part", None),
        )
        for n in ns
    ]
    checks.check_recheck(args.recheck, args.checkpoint)
    store = _open_store(args, plans)
    try:
        if store is not None and not args.estimate:
            store.check_free()  # a file in use is refused before any estimate or plan
        plans = [p.with_checkpoint(store) for p in plans]
        for p in plans:
            if p.fallback:
                note(args, f"{p.fallback}")
        for p in plans:
            default = p.deep_split()
            if default is not None:
                note(
                    args,
                    f"--split-depth {p.split_depth} is much deeper than n = {p.n} needs "
                    f"(default {default}): the units are built one by one in Python, "
                    f"which can take far longer than the search itself",
                )
                break
    except BaseException:
        if store is not None:
            store.close()
        raise
    return plans, store


def _open_store(args, plans, create=False):
    """The checkpoint of the command (None without --checkpoint): opened to
    write, its parameters the run's identity with the command's name and
    sizes; for --estimate only read, if it exists.  A new file (none there,
    or an empty one) is created only with ``create``, once the run is
    decided (:func:`_with_new_store`): None until then."""
    if args.checkpoint is None:
        return None
    from ..run.checkpoint_file import check_name
    from ..run.store import RunStore

    path = args.checkpoint
    new = not os.path.exists(path) or (os.path.isfile(path) and not os.path.getsize(path))
    if args.estimate:  # only read: its name checked as a run's, a new file not created
        check_name(path, writing=True)
        return None if new else RunStore(path)
    if new and not create:
        return None
    params = {"command": args.command, "n": [p.n for p in plans], **plans[0].identity}
    return RunStore(path, params)


def _with_new_store(args, plans, store):
    """``(plans, store)``: with the checkpoint created now if it is new (after
    the guard of long runs, so that a run refused there creates no file)."""
    if store is not None or args.checkpoint is None:
        return plans, store
    store = _open_store(args, plans, create=True)
    return [p.with_checkpoint(store) for p in plans], store


def _claim(args, plans):
    """Check every size against the checkpoint (reading only: a refusal
    leaves it as it was) and hold it, before any output; then say when the
    checkpoint keeps its own method."""
    for p in plans:
        p.check_checkpoint(args.recheck)
    plans[0].claim(args.recheck)
    _note_kept(args, plans)


def _check_estimated(args, plans, store):
    """--estimate: the checks of :func:`_claim` on the checkpoint, which a
    run would make first (reading only; a file in use or read-only is
    estimated all the same), then its kept method said, and that its
    finished units are not subtracted."""
    for p in plans:
        p.check_checkpoint()
    _note_kept(args, plans)
    if store is not None and any(store.stored_units(p.n) for p in plans):
        note(
            args,
            "(the estimate is for the whole run; units already finished in "
            f"{args.checkpoint} are not subtracted)",
        )


def _note_kept(args, plans):
    for method in sorted({p.kept for p in plans if p.kept}):
        ns = [p.n for p in plans if p.kept == method]
        sizes = "" if len(ns) == len(plans) else f" of n = {', '.join(map(str, ns))}"
        note(args, f"{args.checkpoint} holds a count{sizes} by {method}: going on with {method}")


def _backend(args):
    """The command's backend: a context manager yielding the jobs to run."""
    from ..run.backends import open_backend

    def lost(address):
        note(args, f"the Dask worker {address} left the cluster; its units run again")

    args.dashboard = []  # the Dask dashboard's address, for --json
    return open_backend(
        args.backend,
        args.jobs,
        args.scheduler,
        on_lost=lost,
        scheduler_file=args.scheduler_file,
        dashboard=args.dashboard,
    )


def _jobs(k):
    """``1 job``, ``2 jobs``."""
    return f"{k:,} job{'s' * (k != 1)}"


def estimate_text(plan, asked=True):
    """The sentence of a plan's estimate, led by the time on the jobs asked
    for where they are more than the jobs planned here (``asked`` False:
    by the time here, as the run that starts here takes it)."""
    e = plan.estimate()
    part = " (part {}/{} of its units)".format(*plan.part) if plan.part else ""
    sampled = "core_seconds" in e
    # (time, where, its range): on the jobs planned here, and on those asked for
    here = (e["seconds"], _jobs(e["jobs"]), ("low", "high") if sampled else None)
    there = None
    if "asked_jobs" in e:
        ends = ("asked_low", "asked_high") if "asked_low" in e else None
        there = (e["asked_seconds"], f"{e['asked_jobs']:,} cores like these", ends)

    def about(seconds, where, ends):
        text = f"about {format_seconds(seconds)} on {where}"
        if ends:
            text += f", {format_seconds(e[ends[0]])} to {format_seconds(e[ends[1]])}"
        return text

    if asked and there:
        head, more = about(*there), f"; here {about(*here)}"
    else:
        head, more = about(*here), (f"; {about(*there)}" if there else "")
    head = f"estimate for n = {plan.n}{part}: {head}"
    if not e["units"]:
        return f"{head} (a small board, solved at once without work units)"
    if sampled:
        return (
            f"{head} ({e['samples']} row sets drawn from its {e['units']:,} units, counted here "
            f"in {e['sample_seconds']:.0f} s: {three_digits(e['core_seconds'] / 3600)} "
            f"core-hours in all{more}; its largest unit about "
            f"{format_seconds(e['largest_unit_seconds'])} of a core, a one-thread worker "
            f"about {e['worker_bytes'] / 2**20:,.0f} MiB)"
        )
    from ..run.method import get_method

    if not get_method(e["method"]).splits:  # the join: its cost model
        return (
            f"{head} (the join's cost model of its {e['units']:,} units, scaled by the "
            f"speed of what counts it, measured on units of n = {plan.n}{more})"
        )
    return (
        f"{head} ({e['nodes']:.3g} nodes at {e['rate'] / 1e6:.0f} M nodes/s per job; "
        f"Knuth's random probes, usually within a factor of 2{more})"
    )


def _estimating(args, plan):
    """Say what a sampled estimate does (:attr:`parqueens.run.plan.CountPlan.sampled`)
    before each of its phases, which take minutes for the largest boards:
    its units planned, then a sample of their row sets counted."""
    if not plan.sampled or plan.estimated:
        return
    if not plan.planned:
        note(args, f"n = {plan.n}: planning the join's work units to estimate its time")
    units = len(plan.split.units)
    note(
        args,
        f"n = {plan.n}: {units:,} work units planned in {format_seconds(plan.build_seconds)}; "
        "counting a sample of their row sets (seconds, or minutes until the range is within "
        "2 times)",
    )


def print_estimate(args, plan):
    """--estimate: the plan's estimate on stdout (one JSON object with --json)."""
    _estimating(args, plan)
    if getattr(args, "json", False):
        from ..run.estimate import ASKED_KEYS, rounded

        e = {k: rounded(v) for k, v in plan.estimate().items()}
        keys = ("jobs", "method", "units", "nodes")
        sampled = ("low", "high", "core_seconds", "samples", "asked_jobs", *ASKED_KEYS)
        sampled += ("largest_unit_seconds", "worker_bytes")
        print(
            json.dumps(
                {"n": plan.n, "estimate_seconds": e["seconds"]}
                | ({"part": list(plan.part)} if plan.part else {})
                | {k: e[k] for k in keys}
                | {"nodes_per_second": e["rate"]}
                | {k: e[k] for k in sampled if k in e}
            )
        )
    else:
        print(estimate_text(plan))


def guard(args, what, plans):
    """Estimate the plans worth estimating (:attr:`parqueens.run.plan.CountPlan.long`)
    and ask before a run over a day (``--yes``: don't); say an estimate
    over a minute."""
    from ..run.plan import GUARD_SECONDS

    long = [p for p in plans if p.long]
    if not long:
        return
    # The largest sizes first: once they pass the day, a refusal need not
    # wait for the others' estimates (the join's are sampled for seconds).
    seconds = 0.0
    partial = False
    largest_first = sorted(long, key=lambda p: -p.n)
    for k, p in enumerate(largest_first):
        seconds += p.estimate()["seconds"]
        if seconds > GUARD_SECONDS and not args.yes and k < len(long) - 1:
            partial = True
            break
    jobs = largest_first[0].estimate()["jobs"]
    if seconds > GUARD_SECONDS and not args.yes:
        about = "more than" if partial else "about"
        text = f"{what} would take {about} {format_seconds(seconds)} on {_jobs(jobs)} (estimate)"
        if sys.stdin is not None and sys.stdin.isatty() and sys.stderr.isatty():
            print(f"parqueens: {text}; start it? [y/N] ", end="", file=sys.stderr, flush=True)
            answer = sys.stdin.readline()
            if not answer.endswith("\n"):  # end of input: the line was not ended
                print(file=sys.stderr)
            if answer.strip().lower() not in ("y", "yes"):
                raise Declined("not started: the answer was no")
        else:
            raise UsageError(f"{text}; add --yes to start it anyway")
    if seconds > 60 and len(long) == 1:
        note(args, estimate_text(long[0], asked=False))
    elif seconds > 60:
        note(
            args,
            f"estimate for n = {range_text([p.n for p in long])}: about "
            f"{format_seconds(seconds)} on {_jobs(jobs)}",
        )


# ---------------------------------------------------------------- count


def cmd_count(args):
    if args.verify:
        from .. import oeis

        if args.fixed:
            raise UsageError("--verify compares whole-board counts; it cannot be used with --fixed")
        if args.estimate:
            raise UsageError("--verify compares a count; --estimate makes none")
        if args.part:
            raise UsageError("--verify compares a whole count; --part counts a share of it")
        if args.n not in oeis.KNOWN:
            raise UsageError(
                f"--verify knows the published counts for n <= {max(oeis.KNOWN)}, not n = {args.n}"
            )
    [plan], store = _plans(args, [args.n], args.fixed)
    try:
        with _backend(args) as jobs:
            plan = plan if jobs == args.jobs else plan.with_jobs(jobs)
            if args.estimate:
                _check_estimated(args, [plan], store)
                print_estimate(args, plan)
                return ExitStatus.OK
            guard(args, f"n = {plan.n}", [plan])
            plan.check_part()
            [plan], store = _with_new_store(args, [plan], store)
            plan = plan if jobs == args.jobs else plan.with_jobs(jobs)
            _claim(args, [plan])
            from ..run.runner import run_plan

            result = run_plan(
                plan,
                progress=show_progress(args),
                recheck=args.recheck,
                on_resumed=lambda *counts: _say_resumed(args, [counts]),
            )
            # Said before a Dask cluster closes (a second or so), which a
            # Ctrl-C must not cost.
            code = _print_count(args, result)
            args.finished = True  # for the line of an interrupt (cli.errors)
            return code
    finally:
        if store is not None:
            store.close()


def _say_resumed(args, sizes, ns=None):
    """Say what a run took from its checkpoint, and searched again, before
    it searches anything else: ``sizes``, ``(resumed, units, rechecked)`` of
    each size (of a table: ``ns``, said in one line); nothing if none
    resumed a unit."""
    resumed, units, again = (sum(c) for c in zip(*sizes, strict=True))
    if not resumed:
        return
    text = f"resumed {resumed} of {units} units from {args.checkpoint}"
    if ns:
        text = f"n = {range_text(ns)}: {text}"
    if again:
        text += f"; searched {again} of them again: the same results"
    note(args, text)


def _print_count(args, result):
    code = ExitStatus.OK
    # the squares named as the user gave them (from 1 with --one-based)
    conflict = result.conflict and checks.fixed_conflict(args.fixed, args.one_based)
    if conflict:
        note(args, f"no solution for n = {result.n}: {conflict}")
    if result.part is not None:
        i, k = result.part
        note(
            args,
            f"part {i}/{k} of n = {result.n}: its share of the count"
            + (", without classes" if args.unique else "")
            + (
                f"; parqueens merge makes the whole count of the {k} parts' checkpoints"
                if args.checkpoint
                else "; not stored: give --checkpoint FILE to keep it for parqueens merge"
            ),
        )
    if args.verify:
        from .. import oeis

        ok, message = oeis.check(result.n, result.total, result.fundamental)
        say(message)
        code = ExitStatus.NEGATIVE if ok is False else ExitStatus.OK
    if args.json:
        more = {"conflict": conflict} if conflict else {}
        more |= {"dashboard": args.dashboard[0]} if getattr(args, "dashboard", None) else {}
        print(json.dumps(result.as_dict() | more))
    elif args.unique and result.orbits is not None:
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
        say(
            "nodes unknown: units resumed from the checkpoint were stored without their "
            "count (not counted for the others either)"
        )
    elif args.nodes and not args.json:
        say(f"nodes {result.nodes}")
    return code


def print_merged(args, result):
    """``merge``'s output: the whole count, as :func:`_print_count` prints it."""
    for key in ("verify", "nodes", "fixed", "one_based", "checkpoint"):
        setattr(args, key, None if key in ("fixed", "checkpoint") else False)
    args.checkpoint, args.unique = args.out, result.orbits is not None
    return _print_count(args, result)


# ---------------------------------------------------------------- table


def cmd_table(args):
    from ..io.paths import is_stdio

    fmt = "md"
    if is_stdio(args.out):  # stdout, as without --out
        args.out = None
    if args.out is not None and args.json:
        raise UsageError("--json prints the table on stdout; --out writes it: choose one")
    if args.out is not None and args.estimate:
        raise UsageError("--estimate prints an estimate and writes no table; drop --out")
    if args.out is not None:
        from ..io.atomic import check_output_path

        ext = os.path.splitext(args.out)[1].lower()
        if ext not in TABLE_EXTENSIONS:
            raise UsageError(f"--out must end in {', '.join(TABLE_EXTENSIONS)}, got {args.out!r}")
        fmt = TABLE_EXTENSIONS[ext]
        check_output_path(args.out, args.force)
    # Every size planned and checked before the header is printed.
    plans, store = _plans(args, args.range)
    try:
        with _backend(args) as jobs:
            plans = [p if jobs == args.jobs else p.with_jobs(jobs) for p in plans]
            if args.estimate:
                _check_estimated(args, plans, store)
                for p in plans:
                    print_estimate(args, p)
                return ExitStatus.OK
            guard(args, f"table {range_text(args.range)}", plans)
            plans, store = _with_new_store(args, plans, store)
            plans = [p if jobs == args.jobs else p.with_jobs(jobs) for p in plans]
            _claim(args, plans)
            rows = _table_rows(args, plans)
            _write_table(args, fmt, rows)  # before a Dask cluster closes, as a count's result
            args.finished = True  # for the line of an interrupt (cli.errors)
    finally:
        if store is not None:
            store.close()
    return ExitStatus.OK


def _write_table(args, fmt, rows):
    """The finished table as JSON on stdout (``--json``) or in ``--out`` (in
    ``fmt``); the Markdown on stdout was printed row by row."""
    from ..io.table import table_text, write_table

    if args.json and not args.out:
        print(table_text("json", rows, args.unique), end="")
    if args.out:
        write_table(args.out, fmt, rows, args.unique, args.force)
        note(args, f"wrote {len(rows)} row{'s' * (len(rows) != 1)} to {args.out}")


def _table_rows(args, plans):
    """Run the plans, a row each, streamed as Markdown on stdout unless the
    table goes to a file or JSON (the header with the first row: a table
    stopped before it prints nothing); a bar over the sizes, weighted by their
    estimated work (n = 17 is 80 % of table 10-17), moving as each size's
    units finish (by their shares of its work), above each size's bar, and
    ending at exactly 100 %."""
    from ..io.table import TABLE_FORMATS
    from ..run.estimate import size_weights
    from ..run.runner import run_plan

    show = show_progress(args)
    ns = [p.n for p in plans]
    weights = dict(zip(ns, size_weights(ns) if show else [1.0] * len(ns), strict=True))
    outer = progress_bar(
        total=1.0,
        disable=not show,
        desc="table",
        position=0,
        bar_format="{desc}: {percentage:3.0f}% of the work|{bar}| [{elapsed}<{remaining}{postfix}]",
    )
    done = 0.0  # the work of the sizes finished, as shares of the table's
    at = [0.0]  # where the bar is (a disabled tqdm keeps no count)

    def moved(to):  # the bar forward to the share ``to`` of the table's work
        if to > at[0]:
            outer.update(to - at[0])
            at[0] = to

    streamed = not args.out and not args.json  # Markdown, row by row
    rows = args.table_done = []  # for the line of an interrupt (cli.errors)
    # What the sizes resumed, said in one line before the first unit is
    # searched anew (or at the end), not a line per size.
    resumed = {}

    def took(n, counts):
        if counts[0]:
            resumed[n] = counts
        if counts[0] < counts[1] and resumed:  # units left to search: say it now
            _say_resumed(args, list(resumed.values()), list(resumed))
            resumed.clear()

    try:
        for k, plan in enumerate(plans):
            outer.set_postfix_str(f"n={plan.n}")
            w = weights[plan.n]
            r = run_plan(
                plan,
                progress=show,
                recheck=args.recheck,
                on_work=(lambda share, base=done, w=w: moved(min(1.0, base + w * share))),
                then=plans[k + 1] if k + 1 < len(plans) else None,  # fed ahead on Dask
                on_resumed=lambda *counts, n=plan.n: took(n, counts),
            )
            rows.append(r)
            if k == len(plans) - 1 and resumed:
                _say_resumed(args, list(resumed.values()), list(resumed))
            done = 1.0 if k == len(plans) - 1 else min(1.0, done + w)  # exactly 100 % at the end
            moved(done)
            if streamed:  # the header with the first row: a table stopped before prints nothing
                md = TABLE_FORMATS["md"]
                head = [md.header(args.unique)] if len(rows) == 1 else []
                with above_bars():  # not into the bar's line on a terminal
                    print("\n".join([*head, md.row(r, args.unique)]), flush=True)
    finally:
        outer.close()
    return rows
