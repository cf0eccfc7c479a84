#!/usr/bin/env python3
"""The Dask scheduler's cost and memory for many chunks of one unit each.

From n = 26 a chunk of the join holds a single unit (units of minutes,
chunks of at most 10 s of work), so that a count sends as many tasks as it
has units: 37,798 at 26, 652,724 at 27, 5.5 million at 28.  This sends the
d4 units of board N (split depth D: tiny units, so that what is measured is
the scheduler's and the client's part) one per chunk through parqueens'
own submission to a local cluster of J single-thread workers, and prints
the wall time a chunk and the peak resident memory of the client process
(which runs the local scheduler too):

- ``batched``: as a count submits them (at most ``AHEAD_PER_THREAD`` a
  thread in flight, the rest as they finish: :mod:`parqueens.run.chunks`);
- ``all-at-once``: every chunk submitted in one map (the window made larger
  than the run).

Each mode runs in a process of its own (its peak memory its own), the
total checked against the count's.  Check ``uptime`` first.

    python scripts/bench_dask_tasks.py -n 14 --split-depth 5 --jobs 2
"""

import argparse
import json
import resource
import subprocess
import sys
import time


def child(n, depth, jobs, mode):
    """Run the chunks in this process; print a JSON line of its figures."""
    from parqueens.run import chunks
    from parqueens.run.backends import dask_client
    from parqueens.run.plan import plan_run
    from parqueens.run.tally import Tally

    plan = plan_run(n, method="d4", split_depth=depth, backend="dask", jobs=jobs)
    units = list(plan.split.units)
    # One unit a chunk, as n = 26 to 28 send them.
    chunks._chunks = lambda units, jobs, least=0.0: ([u] for u in units)
    if mode == "all-at-once":
        chunks.AHEAD_MIN = len(units) + 1
    with dask_client(None, n_workers=jobs) as (client, threads):
        chunks.warm_workers(False, "d4")
        began = time.perf_counter()
        tally = Tally("d4")
        for done in chunks.iter_chunks(units, jobs=threads, backend="dask"):
            for _, result in done:
                tally.add(result)
        seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    figures = {"chunks": len(units), "seconds": seconds, "total": tally.total, "peak": peak}
    print(json.dumps(figures))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=14, help="board size (default 14)")
    ap.add_argument("--split-depth", type=int, default=5, help="d4 split depth (default 5)")
    ap.add_argument("--jobs", type=int, default=2, help="Dask workers (default 2)")
    ap.add_argument("--child", choices=["batched", "all-at-once"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.n, args.split_depth, args.jobs, args.child)
    from parqueens.oeis import KNOWN

    print("| mode | chunks | seconds | ms a chunk | peak memory (client and scheduler) |")
    print("|---|---|---|---|---|")
    for mode in ("batched", "all-at-once"):
        argv = [sys.executable, __file__, "-n", str(args.n), "--split-depth"]
        argv += [str(args.split_depth), "--jobs", str(args.jobs), "--child", mode]
        out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        if r["total"] != KNOWN[args.n][0]:
            raise SystemExit(f"{mode}: total {r['total']}, not {KNOWN[args.n][0]}")
        print(
            f"| {mode} | {r['chunks']:,} | {r['seconds']:.1f} | "
            f"{r['seconds'] / r['chunks'] * 1e3:.2f} | {r['peak']:.0f} MiB |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
