#!/usr/bin/env python3
"""Benchmark handling solutions against counting, side by side in one run.

Every command is a whole process (`python -m parqueens ...`, start-up
included), run REPEAT times interleaved round by round (a noisy neighbour
slows all alike); the table gives medians, peak resident memory (from
wait4's ru_maxrss) and the ratios the targets of issue 12 are stated in:

    python scripts/bench_solutions.py                 # n = 16, the fixed listings, small boards
    python scripts/bench_solutions.py --n17           # also solutions 17 to npy (1.6 GB)
    python scripts/bench_solutions.py --repeat 5 --dir /tmp/bench

Files are written to --dir (default: a temporary folder, removed at the end).
"""

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Fixed queens from the issue: n = 20 with rows 10..19 fixed; n = 24 and
# n = 33 with rows of a solution given by `parqueens construct` fixed.
F20 = "10:2,11:0,12:6,13:8,14:10,15:12,16:14,17:16,18:18,19:4"


def fixed_rows(n, rows):
    from parqueens import construct

    q = construct(n)
    return ",".join(f"{r}:{q[r]}" for r in rows)


def timed(args):
    """(seconds, peak RSS in MB) of ``python -m parqueens ARGS``.  An output
    file is removed first: the command runs as a user's first run would
    (with its free-space check, which ``--force`` would skip)."""
    if "--out" in args:
        with contextlib.suppress(FileNotFoundError):
            os.remove(args[args.index("--out") + 1])
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "parqueens", *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed: parqueens {' '.join(args)}")
    return seconds, usage.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per command (median)")
    ap.add_argument("--n17", action="store_true", help="also list n = 17 to npy (1.6 GB)")
    ap.add_argument("--dir", help="folder for the files written (default: temporary)")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be >= 1")
    folder = a.dir or tempfile.mkdtemp(prefix="pq-bench-")
    os.makedirs(folder, exist_ok=True)
    s16 = os.path.join(folder, "s16.npy")
    txt = os.path.join(folder, "s16.perm")
    f24, f33 = fixed_rows(24, range(12, 24)), fixed_rows(33, range(9, 33))
    cmds = {
        "count 16 -j2": ["count", "16", "--jobs", "2"],
        "solutions 16 npy -j2": [
            "solutions",
            "16",
            "--format",
            "npy",
            "--out",
            s16,
            "--jobs",
            "2",
            "-q",
        ],
        "verify s16.npy --complete": ["verify", s16, "--complete", "--jobs", "2"],
        "solutions 16 perm -j2": ["solutions", "16", "--out", txt, "--jobs", "2", "-q"],
        "count 20 fixed": ["count", "20", "--fixed", F20],
        "solutions 20 fixed": ["solutions", "20", "--fixed", F20],
        "count 24 fixed": ["count", "24", "--fixed", f24],
        "solutions 24 fixed": ["solutions", "24", "--fixed", f24],
        "count 33 fixed": ["count", "33", "--fixed", f33],
        "solutions 33 fixed --limit 5": ["solutions", "33", "--fixed", f33, "--limit", "5"],
        "count 8": ["count", "8"],
        "solutions 8": ["solutions", "8"],
        "first 8": ["first", "8"],
        "--help": ["--help"],
    }
    if a.n17:
        s17 = os.path.join(folder, "s17.npy")
        cmds["count 17 -j2"] = ["count", "17", "--jobs", "2"]
        cmds["solutions 17 npy -j2"] = [
            "solutions",
            "17",
            "--format",
            "npy",
            "--out",
            s17,
            "--jobs",
            "2",
            "-q",
        ]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "parqueens",
            "solutions",
            "8",
            "--out",
            os.path.join(folder, "s8.perm"),
            "--force",
            "-q",
        ],
        check=True,
    )
    cmds["verify 92 lines"] = ["verify", os.path.join(folder, "s8.perm")]
    times = {k: [] for k in cmds}
    peak = dict.fromkeys(cmds, 0.0)
    timed(["count", "10"])  # compile or load the kernels before timing
    for _ in range(a.repeat):
        for key, args in cmds.items():
            seconds, mb = timed(args)
            times[key].append(seconds)
            peak[key] = max(peak[key], mb)
    # one text verify: slow (the text is parsed line by line)
    seconds, mb = timed(["verify", txt, "--complete", "--jobs", "2"])
    times["verify s16.perm --complete (once)"] = [seconds]
    peak["verify s16.perm --complete (once)"] = mb
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"load: {os.getloadavg()[0]:.2f}; median of {a.repeat}; files in {folder}\n")
    print("| command | seconds | peak MB |\n|---|---|---|")
    for key in med:
        print(f"| `{key}` | {med[key]:.2f} | {peak[key]:.0f} |")
    size = os.path.getsize(s16) / 2**20
    ratios = [
        (
            "solutions 16 npy / count 16 (target <= 2.5)",
            med["solutions 16 npy -j2"],
            med["count 16 -j2"],
        ),
        (
            "verify s16.npy / writing it (target <= 1.5)",
            med["verify s16.npy --complete"],
            med["solutions 16 npy -j2"],
        ),
        (
            "verify s16.perm / writing it (target <= 3)",
            med["verify s16.perm --complete (once)"],
            med["solutions 16 perm -j2"],
        ),
        (
            "solutions 20 fixed / count (target <= 2)",
            med["solutions 20 fixed"],
            med["count 20 fixed"],
        ),
        (
            "solutions 24 fixed / count (target <= 2)",
            med["solutions 24 fixed"],
            med["count 24 fixed"],
        ),
        (
            "solutions 33 fixed / count (target <= 2)",
            med["solutions 33 fixed --limit 5"],
            med["count 33 fixed"],
        ),
    ]
    if a.n17:
        ratios.append(
            ("solutions 17 npy / count 17", med["solutions 17 npy -j2"], med["count 17 -j2"])
        )
    print("\n| ratio | value |\n|---|---|")
    for name, x, y in ratios:
        print(f"| {name} | {x / y:.2f} |")
    print(
        f"| verify s16.npy peak MB / file MB (target <= 2) | "
        f"{peak['verify s16.npy --complete'] / size:.2f} |"
    )
    if not a.dir:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
