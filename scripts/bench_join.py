#!/usr/bin/env python3
"""Time parqueens' join counter beside Kluev's quadrant-join counter.

Each measurement is a whole process, as a user sees it: a fresh Python that
imports parqueens, counts with :func:`parqueens.join.count_join` (numba's
cached kernels loaded, the quadrant tables built) and exits; and Kluev's
program for that board size, run by ``../shared/anchors/run.sh kluev N T``.
Every configuration runs REPEAT times, interleaved round by round (a noisy
neighbour slows all alike); the tables give medians.

    python scripts/bench_join.py                      # n = 16 17 18, jobs 1 2, Kluev 1 2 threads
    python scripts/bench_join.py -n 19 --jobs 2 --kluev 1 --repeat 1
    python scripts/bench_join.py -n 18 --no-anchor    # parqueens only

Kluev's counter is built per board size by ``../shared/anchors/build.sh``
(with its third argument) into $ANCHORS_BUILD (default ~/anchors/build);
sizes it was not built for are skipped, with a note, as is every anchor
when the folder or run.sh is missing.  Each count is checked against OEIS
A000170 (``parqueens.oeis``); a wrong count stops the benchmark.

Prints a Markdown table: per n the median seconds of each configuration,
parqueens' peak resident memory (MB), the ratio of each parqueens job count
to Kluev's best of its thread counts (below 1: parqueens is faster), and the
speed-up of the largest job count over one job.  Check ``uptime`` first: the
machine is shared.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_SH = os.path.join(HERE, "..", "..", "shared", "anchors", "run.sh")

CHILD = """
import json, resource, sys
from parqueens.join import count_join
n, jobs = int(sys.argv[1]), int(sys.argv[2])
count = count_join(n, jobs)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"count": count, "rss": rss}))
"""


def run_parqueens(n, jobs):
    """(wall seconds, count, peak RSS bytes) of one whole process."""
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), str(jobs)], check=True, capture_output=True, text=True
    ).stdout
    wall = time.perf_counter() - t
    data = json.loads(out.strip().splitlines()[-1])
    return wall, data["count"], data["rss"]


def kluev_built(n):
    build = os.environ.get("ANCHORS_BUILD", os.path.expanduser("~/anchors/build"))
    return os.path.exists(RUN_SH) and os.access(os.path.join(build, "kluev", f"kluev{n}"), os.X_OK)


def run_kluev(n, threads):
    """(wall seconds, count) of Kluev's counter, as run.sh times it."""
    out = subprocess.run(
        ["bash", RUN_SH, "kluev", str(n), str(threads)], capture_output=True, text=True
    ).stdout
    wall = re.search(r"wall_s=([0-9.]+)", out)
    count = re.search(r"count=([0-9]+)", out)
    if not (wall and count):
        raise RuntimeError(f"run.sh kluev {n} {threads} printed: {out!r}")
    return float(wall.group(1)), int(count.group(1))


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", type=int, nargs="+", default=[16, 17, 18], help="board sizes")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="parqueens threads")
    parser.add_argument("--kluev", type=int, nargs="+", default=[1, 2], help="Kluev's threads")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (medians over them)")
    parser.add_argument("--no-anchor", action="store_true", help="time parqueens only")
    args = parser.parse_args(argv)

    sys.path.insert(0, os.path.join(HERE, ".."))
    from parqueens.oeis import KNOWN

    print(f"# bench_join: {os.uname().nodename}, load {os.getloadavg()[0]:.2f}", flush=True)
    rows = []
    for n in args.n:
        anchor = not args.no_anchor and kluev_built(n)
        if not args.no_anchor and not anchor:
            print(f"note: Kluev's counter for n = {n} is not built; parqueens only", flush=True)
        configs = [("parqueens", j) for j in args.jobs]
        configs += [("kluev", t) for t in args.kluev] if anchor else []
        times = {c: [] for c in configs}
        rss = {}
        for _ in range(args.repeat):
            for c in configs:
                if c[0] == "parqueens":
                    wall, count, rss[c] = run_parqueens(n, c[1])
                else:
                    wall, count = run_kluev(n, c[1])
                if count != KNOWN[n][0]:
                    raise SystemExit(f"{c[0]} {c[1]} counted {count} for n = {n}")
                times[c].append(wall)
                print(f"  n={n} {c[0]} x{c[1]}: {wall:.3f} s", flush=True)
        med = {c: statistics.median(v) for c, v in times.items()}
        rows.append((n, configs, med, rss))

    print(f"\nload after: {os.getloadavg()[0]:.2f}\n")
    for n, configs, med, rss in rows:
        print(f"## n = {n} (medians of {args.repeat})\n")
        print("| configuration | seconds | peak MB | / Kluev best |")
        print("|---|---|---|---|")
        best = min((med[c] for c in configs if c[0] == "kluev"), default=None)
        for c in configs:
            ratio = f"{med[c] / best:.2f}" if best and c[0] == "parqueens" else ""
            mb = f"{rss[c] / 2**20:.0f}" if c in rss else ""
            print(f"| {c[0]} {c[1]} | {med[c]:.3f} | {mb} | {ratio} |")
        ours = [c for c in configs if c[0] == "parqueens"]
        if len(ours) > 1:
            one, most = ours[0], ours[-1]
            print(f"\nspeed-up of {most[1]} jobs over {one[1]}: {med[one] / med[most]:.2f}")
        print()


if __name__ == "__main__":
    main()
