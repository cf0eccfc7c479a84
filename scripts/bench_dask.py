#!/usr/bin/env python3
"""Dask against threads, whole processes side by side, and a worker killed.

    python scripts/bench_dask.py -n 20 --repeat 3          # count 20: --jobs 2 and Dask
    python scripts/bench_dask.py -n 20 --kill-after 20     # a worker killed mid-run: exact?
    python scripts/bench_dask.py --overhead 14 --split-depth 5   # the scheduler's cost per unit
    python scripts/bench_dask.py --table 12-17 --unique -n 17    # a table, then count 17
    python scripts/bench_dask.py --table 12-17 --unique -n 17 --start-scheduler  # on a running one

Each run is `python -m parqueens count N --json` as a user types it: with
`--jobs J` (threads), and with `--backend dask --jobs J` (a local cluster of
J single-thread worker processes on 127.0.0.1, started and closed by the
command; its start-up included).  Runs are interleaved round by round and
the medians reported with their ratio.  `--kill-after S` kills one worker
process of the Dask run S seconds in (psutil) and checks the total against
the threads' run.  `--overhead N` counts board N by the d4 search split
into many small units (`--split-depth`), by threads and by Dask, and
divides the difference by the number of units: the scheduler's cost per
unit on this machine (a lower bound for a remote cluster, where the network
adds its latency).  `--table RANGE` times `parqueens table RANGE` the same
way (with `--unique`), before the count of `-n`.  `PARQUEENS_SOURCE=DIR`
runs the parqueens of that source tree instead (another commit, side by
side).  `--start-scheduler` starts a local scheduler with `--jobs`
single-thread worker processes once, for every Dask run (`--scheduler
ADDRESS`: one already running): the runs then pay neither its start nor its
workers' loading the kernels, as on a cluster that serves many runs (its
workers import the parqueens this script imports).  Check `uptime` first:
the machine may be shared.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def count(n, jobs, dask, extra=(), kill_after=None, command="count", scheduler=None):
    """(wall seconds, the JSON result) of one `parqueens count` (or of
    ``command``, e.g. table, with ``n`` its range)."""
    cmd = [sys.executable, "-m", "parqueens", command, str(n), "--json", "--quiet"]
    cmd += ["--jobs", str(jobs), *extra] + (["--backend", "dask"] if dask else [])
    if dask and scheduler:
        cmd += ["--scheduler", scheduler]
    env = dict(os.environ)
    if os.environ.get("PARQUEENS_SOURCE"):  # another source tree, side by side
        env["PYTHONPATH"] = os.environ["PARQUEENS_SOURCE"]
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    killed = None
    if kill_after is not None:
        killed = _kill_a_worker(p.pid, kill_after)
    out, err = p.communicate()
    dt = time.perf_counter() - t
    if p.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {err.strip()[-300:]}")
    result = json.loads(out)
    if kill_after is not None:
        result["killed"] = killed
    return dt, result


def _kill_a_worker(pid, after):
    """Kill the newest Dask worker process under ``pid`` after ``after``
    seconds; its pid, or None if there was none."""
    import psutil

    time.sleep(after)
    workers = [
        c
        for c in psutil.Process(pid).children(recursive=True)
        if "spawn" in " ".join(c.cmdline()) or "multiprocessing" in " ".join(c.cmdline())
    ]
    if not workers:
        return None
    victim = max(workers, key=lambda c: c.create_time())
    victim.kill()
    return victim.pid


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=20, help="board size (default 20)")
    ap.add_argument("--jobs", type=int, default=2, help="threads, and Dask workers (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (median)")
    ap.add_argument("--kill-after", type=float, help="kill a Dask worker this many seconds in")
    ap.add_argument("--overhead", type=int, metavar="N", help="measure the cost per unit at N")
    ap.add_argument("--split-depth", type=int, default=5, help="with --overhead (default 5)")
    ap.add_argument("--table", metavar="RANGE", help="time `table RANGE` too, first")
    ap.add_argument("--unique", action="store_true", help="--unique for the table")
    ap.add_argument("--scheduler", help="a running Dask scheduler for the Dask runs")
    ap.add_argument(
        "--start-scheduler",
        action="store_true",
        help="start a local scheduler with --jobs single-thread workers for the Dask runs",
    )
    args = ap.parse_args()
    if args.start_scheduler:
        from distributed import LocalCluster

        with LocalCluster(
            n_workers=args.jobs, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
        ) as cluster:
            args.scheduler = cluster.scheduler_address
            return _run(args)
    return _run(args)


def _run(args):
    if args.kill_after is not None:
        _, threads = count(args.n, args.jobs, False)
        dt, dask = count(args.n, args.jobs, True, kill_after=args.kill_after)
        same = dask["total"] == threads["total"]
        print(f"n = {args.n}: worker {dask['killed']} killed after {args.kill_after:g} s; ")
        print(f"Dask total {dask['total']} in {dt:.1f} s, threads {threads['total']}: ", end="")
        print("exact" if same else "DIFFERENT")
        return 0 if same else 1
    n = args.overhead or args.n
    extra = ["--method", "d4", "--split-depth", str(args.split_depth)] if args.overhead else []
    cases = [("table", args.table)] * bool(args.table) + [("count", n)]
    runs = {(c, dask): [] for c in cases for dask in (False, True)}
    results = {}
    for _ in range(args.repeat):
        for case in cases:
            for dask in (False, True):
                more = ["--unique"] * (args.unique and case[0] == "table")
                dt, r = count(
                    case[1],
                    args.jobs,
                    dask,
                    [*extra, *more],
                    command=case[0],
                    scheduler=args.scheduler,
                )
                runs[case, dask].append(dt)
                results[case, dask] = r
    print(f"| run | options | --jobs {args.jobs} | Dask, {args.jobs} workers | Dask / threads |")
    print("|---|---|---|---|---|")
    for case in cases:
        if _totals(results[case, False]) != _totals(results[case, True]):
            raise SystemExit(f"{case[0]} {case[1]}: the results differ")
        a, b = statistics.median(runs[case, False]), statistics.median(runs[case, True])
        what = " ".join(map(str, case)) + " --unique" * (args.unique and case[0] == "table")
        print(f"| {what} | {' '.join(extra) or '–'} | {a:.2f} s | {b:.2f} s | {b / a:.2f} |")
    if args.overhead:
        units = results["count", n, True]["units"]
        a, b = statistics.median(runs["count", n, False]), statistics.median(runs["count", n, True])
        print(f"\n{units} units: {(b - a) / units * 1e3:.2f} ms a unit more on Dask")
    print(f"\nmedians of {args.repeat}, interleaved", file=sys.stderr)
    return 0


def _totals(result):
    """The totals of a count's JSON result, or of a table's rows."""
    return [row["total"] for row in result] if isinstance(result, list) else [result["total"]]


if __name__ == "__main__":
    sys.exit(main())
