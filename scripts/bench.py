#!/usr/bin/env python3
"""Benchmark `parqueens count` against itself and external counters.

Every configuration is run REPEAT times, interleaved round by round (so that
a noisy neighbour slows all of them alike), and the median wall time is
reported.  Each run is a fresh `python -m parqueens count N --json` process,
so interpreter start-up and worker start-up are included, as a user sees it.

    python scripts/bench.py                       # n = 12..17, d4, jobs 1 and all cores
    python scripts/bench.py -n 16 17 --methods d4 mirror plain --jobs 1
    python scripts/bench.py -n 16 17 --reference "./ref_nqueens"   # CMD N must print the total

Prints a Markdown table: n, method, jobs, median seconds, solutions,
nodes (queens placed), million nodes per second per job, and with
--reference the reference's median seconds and the ratio
reference / parqueens (above 1: parqueens is faster).
"""

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time

import joblib


def run_parqueens(n, method, jobs, extra):
    cmd = [sys.executable, "-m", "parqueens", "count", str(n), "--json", "--quiet",
           "--method", method, "--jobs", str(jobs), *extra]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, json.loads(out)


def run_reference(cmd, n):
    t = time.perf_counter()
    out = subprocess.run(shlex.split(cmd) + [str(n)], check=True, capture_output=True,
                         text=True).stdout
    return time.perf_counter() - t, out.split()[-1] if out.split() else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, nargs="+", default=list(range(12, 18)))
    ap.add_argument("--methods", nargs="+", default=["d4"], choices=["d4", "mirror", "plain"])
    ap.add_argument("--jobs", type=int, nargs="+", default=None,
                    help="job counts (default: 1 and joblib.cpu_count())")
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration (median)")
    ap.add_argument("--unique", action="store_true", help="pass --unique to parqueens")
    ap.add_argument("--reference", metavar="CMD",
                    help="external counter, run as `CMD N`, timed side by side")
    args = ap.parse_args()
    jobs_list = args.jobs or sorted({1, joblib.cpu_count()})
    extra = ["--unique"] if args.unique else []

    configs = [(n, m, j) for n in args.n for m in args.methods for j in jobs_list]
    times = {c: [] for c in configs}
    ref_times = {n: [] for n in args.n}
    info = {}
    ref_out = {}
    subprocess.run([sys.executable, "-m", "parqueens", "count", "8", "--quiet"], check=True,
                   capture_output=True)  # warm the numba cache
    for _ in range(args.repeat):
        for c in configs:
            dt, d = run_parqueens(*c, extra)
            times[c].append(dt)
            info[c] = d
        if args.reference:
            for n in args.n:
                dt, total = run_reference(args.reference, n)
                ref_times[n].append(dt)
                ref_out[n] = total

    head = "| n | method | jobs | seconds | solutions | nodes | M nodes/s/job |"
    sep = "|---|---|---|---|---|---|---|"
    if args.reference:
        head += " reference s | ratio |"
        sep += "---|---|"
    print(head)
    print(sep)
    for c in configs:
        n, m, j = c
        med = statistics.median(times[c])
        d = info[c]
        rate = d["nodes"] / med / j / 1e6
        row = (f"| {n} | {m} | {j} | {med:.2f} | {d['total']} | {d['nodes']:,} | "
               f"{rate:.0f} |")
        if args.reference:
            rmed = statistics.median(ref_times[n])
            flag = "" if ref_out[n] == str(d["total"]) else " (count differs!)"
            row += f" {rmed:.2f} | {rmed / med:.2f}{flag} |"
        print(row)
    print(f"\nmedian of {args.repeat} runs each, interleaved; "
          f"{joblib.cpu_count()} cores", file=sys.stderr)


if __name__ == "__main__":
    main()
