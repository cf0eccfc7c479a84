#!/usr/bin/env python3
"""Benchmark `parqueens count` against itself and the fastest public CPU counters.

Every configuration is run REPEAT times, interleaved round by round (so that
a noisy neighbour slows all of them alike), and the median wall time is
reported.  Each run is a whole process, as a user sees it: a fresh
`python -m parqueens count N --json` (interpreter start-up included), and
the anchors' own programs (the JVM's start-up included for NQueensFAF).

    python scripts/bench.py                         # n = 12..17, d4, jobs 1 and all cores
    python scripts/bench.py -n 17 18 --methods d4 mirror --jobs 1 2
    python scripts/bench.py -n 16 --no-anchors --reference ./ref_nqueens   # CMD N: the total

Anchors: NQueensFAF (Java) and m-queens (C), built from their public sources
by ../shared/anchors/build.sh into $ANCHORS_BUILD (default ~/anchors/build);
when that folder holds them they are timed with the same thread counts as
parqueens' jobs (m-queens: its single-threaded build for 1, OpenMP for more).
The queens m-queens places come from its counting build (run once per n,
not timed); parqueens' from one untimed `--nodes` run per configuration.

Prints a Markdown table per configuration: median seconds, the queens placed
(nodes), nanoseconds per queen per job, and against the anchors the ratios
parqueens / anchor (below 1: parqueens is faster) and parqueens' time per
queen over m-queens'; then the speed-up of each job count over one job (the
time of one job over the time of J jobs).  With --reference: that command's
median seconds and reference / parqueens.
"""

import argparse
import glob
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_parqueens(n, method, jobs, extra):
    cmd = [
        sys.executable,
        "-m",
        "parqueens",
        "count",
        str(n),
        "--json",
        "--quiet",
        "--method",
        method,
        "--jobs",
        str(jobs),
        *extra,
    ]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, json.loads(out)


def run_command(cmd, env=None):
    """(wall seconds, stdout) of a whole process."""
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return time.perf_counter() - t, out


class Anchors:
    """The anchors built by ../shared/anchors/build.sh in ``folder``."""

    def __init__(self, folder):
        self.folder = folder
        self.mq_st = os.path.join(folder, "mq", "m-queens-st")
        self.mq_omp = os.path.join(folder, "mq", "m-queens-omp")
        self.mq_nodes = os.path.join(folder, "mq", "m-queens-nodes")
        self.faf = os.path.join(folder, "faf", "classes")
        self.kryo = os.environ.get("KRYO_CP") or next(
            iter(glob.glob("/usr/share/java/kryo*.jar")), ""
        )

    def available(self):
        return (
            os.path.exists(os.path.join(self.faf, "FafMain.class"))
            and bool(self.kryo)
            and os.access(self.mq_st, os.X_OK)
            and os.access(self.mq_omp, os.X_OK)
        )

    def faf_time(self, n, threads):
        dt, out = run_command(
            ["java", "-cp", f"{self.faf}:{self.kryo}", "FafMain", str(n), str(threads)]
        )
        return dt, out.split("solutions=")[1].split()[0]

    def mq_time(self, n, threads):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        dt, out = run_command([self.mq_st if threads == 1 else self.mq_omp, str(n)], env)
        return dt, out.split("Solutions")[1].split(",")[0].strip()

    def mq_queens(self, n):
        """Queens m-queens places: its counting build's bit picks plus the
        two start rows (see faf-study.md)."""
        if not os.access(self.mq_nodes, os.X_OK):
            return None
        out = run_command([self.mq_nodes, str(n)])[1]
        fields = dict(f.split("=") for f in out.split()[1:4] if "=" in f)
        return int(fields["bitpicks"]) + int(fields["first_two_rows"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "-n",
        type=int,
        nargs="+",
        default=list(range(12, 18)),
        help="board sizes, 4..64 (default 12..17; the anchors up to 29)",
    )
    ap.add_argument("--methods", nargs="+", default=["d4"], choices=["d4", "mirror", "plain"])
    ap.add_argument(
        "--jobs",
        type=int,
        nargs="+",
        default=None,
        help="job counts (default: 1 and os.cpu_count())",
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration (median)")
    ap.add_argument("--unique", action="store_true", help="pass --unique to parqueens")
    ap.add_argument(
        "--anchors",
        metavar="DIR",
        default=os.environ.get("ANCHORS_BUILD", os.path.expanduser("~/anchors/build")),
        help="folder of the anchors built by ../shared/anchors/build.sh "
        "(default: $ANCHORS_BUILD or ~/anchors/build)",
    )
    ap.add_argument("--no-anchors", action="store_true", help="do not time the anchors")
    ap.add_argument(
        "--reference",
        metavar="CMD",
        help="another counter, run as `CMD N` (printing the total last), timed side by side",
    )
    args = ap.parse_args()
    if args.repeat < 1 or not all(4 <= n <= 64 for n in args.n):
        ap.error("need --repeat >= 1 and 4 <= n <= 64")
    if args.jobs and min(args.jobs) < 1:
        ap.error("--jobs must be 1 or more")
    jobs_list = args.jobs or sorted({1, os.cpu_count() or 1})
    extra = ["--unique"] if args.unique else []
    anchors = None if args.no_anchors else Anchors(args.anchors)
    if anchors is not None and max(args.n) > 29:
        print(
            "the anchors count up to n = 29 (m-queens' limit); timing parqueens alone",
            file=sys.stderr,
        )
        anchors = None
    if anchors is not None and not anchors.available():
        print(
            f"anchors not found in {args.anchors} (build them with "
            f"../shared/anchors/build.sh); timing parqueens alone",
            file=sys.stderr,
        )
        anchors = None

    configs = [(n, m, j) for n in args.n for m in args.methods for j in jobs_list]
    times = {c: [] for c in configs}
    info = {}
    anchor_cfg = [(n, j) for n in args.n for j in jobs_list]
    faf = {c: [] for c in anchor_cfg}
    mq = {c: [] for c in anchor_cfg}
    ref = {n: [] for n in args.n}
    totals = {}
    # Warm the numba cache, then the queens placed, outside the timing.
    subprocess.run(
        [sys.executable, "-m", "parqueens", "count", "8", "--quiet", "--nodes"],
        check=True,
        capture_output=True,
    )
    nodes = {c: run_parqueens(*c, extra + ["--nodes"])[1]["nodes"] for c in configs}
    mq_queens = {n: anchors.mq_queens(n) for n in args.n} if anchors else {}
    for _ in range(args.repeat):
        for c in configs:
            dt, d = run_parqueens(*c, extra)
            times[c].append(dt)
            info[c] = d
        for n, j in anchor_cfg if anchors else ():
            dt, total = anchors.faf_time(n, j)
            faf[n, j].append(dt)
            totals["NQueensFAF", n] = total
            dt, total = anchors.mq_time(n, j)
            mq[n, j].append(dt)
            totals["m-queens", n] = total
        for n in args.n if args.reference else ():
            dt, out = run_command(shlex.split(args.reference) + [str(n)])
            ref[n].append(dt)
            totals["reference", n] = out.split()[-1] if out.split() else "?"

    head = "| n | method | jobs | seconds | solutions | nodes | ns/node/job |"
    sep = "|---|---|---|---|---|---|---|"
    if anchors:
        head += " FAF s | ÷ FAF | m-queens s | ÷ m-queens | m-queens nodes | ns/node ÷ m-queens' |"
        sep += "---|---|---|---|---|---|"
    if args.reference:
        head += " reference s | reference ÷ |"
        sep += "---|---|"
    print(head)
    print(sep)
    med = {c: statistics.median(times[c]) for c in configs}
    for c in configs:
        n, m, j = c
        d = info[c]
        per_node = med[c] * j / nodes[c] * 1e9
        row = f"| {n} | {m} | {j} | {med[c]:.2f} | {d['total']} | {nodes[c]:,} | {per_node:.2f} |"
        if anchors:
            fs, ms = statistics.median(faf[n, j]), statistics.median(mq[n, j])
            q = mq_queens.get(n)
            mq_per = ms * j / q * 1e9 if q else None
            row += f" {fs:.2f} | {med[c] / fs:.2f} | {ms:.2f} | {med[c] / ms:.2f} | " + (
                f"{q:,} | {per_node / mq_per:.2f} |" if q else "– | – |"
            )
        if args.reference:
            rs = statistics.median(ref[n])
            row += f" {rs:.2f} | {rs / med[c]:.2f} |"
        print(row)
    for (what, n), total in sorted(totals.items()):
        if total != str(info[n, args.methods[0], jobs_list[0]]["total"]):
            print(f"warning: {what} printed {total} for n = {n}", file=sys.stderr)
    if len(jobs_list) > 1 and jobs_list[0] == 1:
        print()
        print("| n | method | " + " | ".join(f"speed-up, {j} jobs" for j in jobs_list[1:]) + " |")
        print("|---|---|" + "---|" * (len(jobs_list) - 1))
        for n in args.n:
            for m in args.methods:
                print(
                    f"| {n} | {m} | "
                    + " | ".join(f"{med[n, m, 1] / med[n, m, j]:.2f}" for j in jobs_list[1:])
                    + " |"
                )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nmedian of {args.repeat} runs each, interleaved; {os.cpu_count()} cores; "
        f"load average {load:.2f} at the end",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
