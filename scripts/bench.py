#!/usr/bin/env python3
"""Benchmark `parqueens count` against itself and the fastest public CPU counters.

Every configuration is run REPEAT times, interleaved round by round (so that
a noisy neighbour slows all of them alike), and the median wall time is
reported.  Each run is a whole process, as a user sees it: a fresh
`python -m parqueens count N --json` (interpreter start-up included), and
the anchors' own programs (the JVM's start-up included for NQueensFAF).

    python scripts/bench.py -n 16 17 18                    # the join, jobs 1 and 2, every anchor
    python scripts/bench.py -n 19 --jobs 2 --kluev-threads 1 2 --anchors kluev --unique
    python scripts/bench.py -n 17 --methods d4 mirror --nodes --anchors faf mq
    python scripts/bench.py -n 16 --anchors --reference ./ref_nqueens   # CMD N: the total
    python scripts/bench.py -n 16 17 18 --jobs 2 --save race.json        # then scripts/race.py

Anchors (built from their public sources by ../shared/anchors/build.sh into
$ANCHORS_BUILD, default ~/anchors/build; the missing ones are skipped with a
note): NQueensFAF (`faf`, Java) and m-queens (`mq`, C; its single-threaded
build for 1 thread, OpenMP for more), timed with the same thread counts as
parqueens' jobs; Kluev's quadrant-join counter (`kluev`, C++, one build per
board size), timed with the thread counts of --kluev-threads, and compared
with its best of them (its threads meet at a barrier per piece of work,
which on a few shared cores can make two threads slower than one).

Prints Markdown tables: parqueens' configurations (median seconds, peak
resident memory, with --nodes the queens placed by a search method and the
nanoseconds per queen per job); the anchors' medians; the ratios parqueens /
anchor (below 1: parqueens is faster); the speed-up of J jobs over one job;
with --unique, `count N --unique` over `count N`.  Check `uptime` first:
the machine may be shared.
"""

import argparse
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_SH = os.path.join(HERE, "..", "..", "shared", "anchors", "run.sh")
ANCHORS = ("faf", "mq", "kluev")


def timed(cmd, env=None):
    """(wall seconds, stdout) of a whole process."""
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        raise SystemExit(f"{shlex.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return time.perf_counter() - t, p.stdout


def run_parqueens(n, method, jobs, extra):
    """(seconds, peak bytes, the JSON result) of `parqueens count`."""
    cmd = [sys.executable, "-m", "parqueens", "count", str(n), "--json", "--quiet"]
    cmd += ["--method", method, "--jobs", str(jobs), *extra]
    # Popen + wait4: the peak memory of this child alone (its output is one
    # short line, which the pipe holds until it is read).
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    out, err = p.stdout.read(), p.stderr.read()
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{shlex.join(cmd)} failed: {err.decode().strip()[-300:]}")
    return dt, usage.ru_maxrss * 1024, json.loads(out)


class Anchors:
    """The anchors built by ../shared/anchors/build.sh in ``folder``."""

    def __init__(self, folder, wanted):
        self.folder = folder
        self.mq_st = os.path.join(folder, "mq", "m-queens-st")
        self.mq_omp = os.path.join(folder, "mq", "m-queens-omp")
        self.mq_nodes = os.path.join(folder, "mq", "m-queens-nodes")
        self.faf = os.path.join(folder, "faf", "classes")
        self.kryo = os.environ.get("KRYO_CP") or next(
            iter(glob.glob("/usr/share/java/kryo*.jar")), ""
        )
        found = {
            "faf": os.path.exists(os.path.join(self.faf, "FafMain.class")) and bool(self.kryo),
            "mq": os.access(self.mq_st, os.X_OK) and os.access(self.mq_omp, os.X_OK),
            "kluev": os.path.isdir(os.path.join(folder, "kluev")) and os.path.exists(RUN_SH),
        }
        self.names = [a for a in wanted if found[a]]
        for a in wanted:
            if not found[a]:
                print(f"anchor {a} not found in {folder}: skipped", file=sys.stderr)

    def kluev_built(self, n):
        return bool(glob.glob(os.path.join(self.folder, "kluev", f"*{n}*")))

    def time(self, anchor, n, threads):
        """(seconds, the total it printed) of one anchor's run."""
        if anchor == "faf":
            cmd = ["java", "-cp", f"{self.faf}:{self.kryo}", "FafMain", str(n), str(threads)]
            dt, out = timed(cmd)
            return dt, out.split("solutions=")[1].split()[0]
        if anchor == "mq":
            env = dict(os.environ, OMP_NUM_THREADS=str(threads))
            dt, out = timed([self.mq_st if threads == 1 else self.mq_omp, str(n)], env)
            return dt, out.split("Solutions")[1].split(",")[0].strip()
        env = dict(os.environ, ANCHORS_BUILD=self.folder)
        _, out = timed(["bash", RUN_SH, "kluev", str(n), str(threads)], env)
        fields = dict(re.findall(r"(\w+)=(\S+)", out))
        return float(fields["wall_s"]), fields["count"]

    def mq_queens(self, n):
        """Queens m-queens places: its counting build's bit picks plus the
        two start rows (see faf-study.md)."""
        if "mq" not in self.names or not os.access(self.mq_nodes, os.X_OK):
            return None
        out = timed([self.mq_nodes, str(n)])[1]
        fields = dict(f.split("=") for f in out.split()[1:4] if "=" in f)
        return int(fields["bitpicks"]) + int(fields["first_two_rows"])


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, nargs="+", default=[16, 17, 18], help="board sizes, 4..64")
    ap.add_argument(
        "--methods",
        nargs="+",
        default=["join"],
        choices=["join", "d4", "mirror", "plain"],
        help="parqueens' methods (default: join)",
    )
    ap.add_argument(
        "--jobs", type=int, nargs="+", default=None, help="job counts (default: 1 and the cores)"
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration (median)")
    ap.add_argument("--save", help="append the medians to this JSON file (for scripts/race.py)")
    ap.add_argument(
        "--unique", action="store_true", help="also time `count N --unique`, against `count N`"
    )
    ap.add_argument(
        "--nodes",
        action="store_true",
        help="count the queens a search method places (one untimed --nodes run each)",
    )
    ap.add_argument(
        "--anchors",
        nargs="*",
        default=list(ANCHORS),
        choices=ANCHORS,
        help="the anchors to time (default: all that are built; none: parqueens alone)",
    )
    ap.add_argument(
        "--kluev-threads", type=int, nargs="+", default=[1, 2], help="Kluev's thread counts"
    )
    ap.add_argument(
        "--anchors-dir",
        metavar="DIR",
        default=os.environ.get("ANCHORS_BUILD", os.path.expanduser("~/anchors/build")),
        help="folder of the anchors built by ../shared/anchors/build.sh "
        "(default: $ANCHORS_BUILD or ~/anchors/build)",
    )
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
    return args


def main():
    args = parse_args()
    jobs_list = args.jobs or sorted({1, os.cpu_count() or 1})
    anchors = Anchors(args.anchors_dir, args.anchors) if args.anchors else None
    if anchors is not None and max(args.n) > 29:
        print("the anchors count up to n = 29; timing parqueens alone", file=sys.stderr)
        anchors = None
    variants = [[]] + ([["--unique"]] if args.unique else [])
    configs = [
        (n, m, j, tuple(v))
        for n in args.n
        for m in args.methods
        for j in jobs_list
        for v in variants
    ]
    runs = {c: [] for c in configs}
    anchor_runs = {}
    ref = {n: [] for n in args.n}
    printed = {}
    # Warm the numba cache outside the timing.
    for method in args.methods:
        run_parqueens(14, method, 1, [])
    nodes = {}
    if args.nodes:
        for c in configs:
            if c[1] != "join":
                nodes[c] = run_parqueens(c[0], c[1], c[2], [*c[3], "--nodes"])[2]["nodes"]
    mq_queens = {n: anchors.mq_queens(n) for n in args.n} if anchors else {}
    for _ in range(args.repeat):
        for c in configs:
            runs[c].append(run_parqueens(c[0], c[1], c[2], list(c[3])))
        for n in args.n:
            for anchor in anchors.names if anchors else ():
                if anchor == "kluev" and not anchors.kluev_built(n):
                    continue
                for threads in args.kluev_threads if anchor == "kluev" else jobs_list:
                    dt, total = anchors.time(anchor, n, threads)
                    anchor_runs.setdefault((anchor, n, threads), []).append(dt)
                    printed[anchor, n] = total
            if args.reference:
                dt, out = timed(shlex.split(args.reference) + [str(n)])
                ref[n].append(dt)
                printed["reference", n] = out.split()[-1] if out.split() else "?"
    report(args, jobs_list, configs, runs, anchor_runs, ref, printed, nodes, mq_queens)
    if args.save:
        save(args.save, configs, runs, anchor_runs)


def save(path, configs, runs, anchor_runs):
    """Append this run's medians to the JSON list in ``path`` (for
    scripts/race.py): parqueens by method and jobs, Kluev's counter by its
    best thread count, the other anchors by thread count."""
    day = time.strftime("%Y-%m-%d")
    out = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            out = json.load(f)
    for n, m, j, v in configs:
        if not v:
            secs = statistics.median(r[0] for r in runs[n, m, j, v])
            tool = f"parqueens {m}, {j} job{'s' if j > 1 else ''}"
            out.append({"tool": tool, "n": n, "seconds": secs, "kind": "measured", "date": day})
    best = {}
    for (anchor, n, t), v in anchor_runs.items():
        secs = statistics.median(v)
        if anchor == "kluev":
            best[n] = min(best.get(n, secs), secs)
        else:
            tool = f"{'NQueensFAF' if anchor == 'faf' else 'm-queens'}, {t} threads"
            out.append({"tool": tool, "n": n, "seconds": secs, "kind": "measured", "date": day})
    for n, secs in best.items():
        out.append(
            {
                "tool": "Kluev's counter, best",
                "n": n,
                "seconds": secs,
                "kind": "measured",
                "date": day,
            }
        )
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)


def report(args, jobs_list, configs, runs, anchor_runs, ref, printed, nodes, mq_queens):
    med = {c: statistics.median(r[0] for r in runs[c]) for c in configs}
    print("| n | method | jobs | options | seconds | peak MB | total | nodes | ns/node/job |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in configs:
        n, m, j, v = c
        peak = max(r[1] for r in runs[c]) / 2**20
        total = runs[c][-1][2]["total"]
        k = nodes.get(c)
        per = f"{med[c] * j / k * 1e9:.2f}" if k else "–"
        row = f"| {n} | {m} | {j} | {' '.join(v) or '–'} | {med[c]:.2f} | {peak:.0f} | {total} |"
        print(row + f" {f'{k:,}' if k else '–'} | {per} |")
        for (what, size), value in printed.items():
            if size == n and value != str(total):
                print(f"warning: {what} printed {value} for n = {n}", file=sys.stderr)
    amed = {key: statistics.median(v) for key, v in anchor_runs.items()}
    if amed:
        print("\n| n | anchor | threads | seconds |\n|---|---|---|---|")
        for (anchor, n, t), s in sorted(amed.items(), key=lambda kv: (kv[0][1], kv[0])):
            print(f"| {n} | {anchor} | {t} | {s:.2f} |")
        print("\n| n | method | jobs | ÷ FAF | ÷ m-queens | ÷ Kluev's best | ns/node ÷ m-queens' |")
        print("|---|---|---|---|---|---|---|")
        for c in configs:
            n, m, j, v = c
            if v:
                continue
            faf, mq = amed.get(("faf", n, j)), amed.get(("mq", n, j))
            kluev = [s for (a, size, _), s in amed.items() if a == "kluev" and size == n]
            q, k = mq_queens.get(n), nodes.get(c)
            node_ratio = (med[c] * j / k) / (mq * j / q) if q and k and mq else None
            cells = [med[c] / x if x else None for x in (faf, mq, min(kluev, default=None))]
            cells.append(node_ratio)
            print(
                f"| {n} | {m} | {j} | " + " | ".join(f"{x:.2f}" if x else "–" for x in cells) + " |"
            )
    if len(jobs_list) > 1 and jobs_list[0] == 1:
        print("\n| n | method | " + " | ".join(f"{j} jobs ÷ 1" for j in jobs_list[1:]) + " |")
        print("|---|---|" + "---|" * (len(jobs_list) - 1))
        for n in args.n:
            for m in args.methods:
                speed = [med[n, m, 1, ()] / med[n, m, j, ()] for j in jobs_list[1:]]
                print(f"| {n} | {m} | " + " | ".join(f"{x:.2f}" for x in speed) + " |")
    if args.unique:
        print("\n| n | method | jobs | --unique ÷ count |\n|---|---|---|---|")
        for n, m, j, v in configs:
            if v:
                print(f"| {n} | {m} | {j} | {med[n, m, j, v] / med[n, m, j, ()]:.2f} |")
    if args.reference:
        print("\n| n | reference s |\n|---|---|")
        for n in args.n:
            print(f"| {n} | {statistics.median(ref[n]):.2f} |")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nmedian of {args.repeat} runs each, interleaved; {os.cpu_count()} cores; "
        f"load average {load:.2f} at the end",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
