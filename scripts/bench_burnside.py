#!/usr/bin/env python3
"""Time the counts of solutions fixed by the rotations beside a total count.

For each board size: the median seconds of ``count_half_turn`` (P) and
``count_quarter_turn`` (R) over REPEAT rounds (one core, kernels loaded
first), and with ``--total`` the seconds of one total count
(``parqueens.count(n, jobs=JOBS)``) run in the same process, with the share of
P + R in it.  Prints a Markdown table.

    python scripts/bench_burnside.py -n 18 19 20 21
    python scripts/bench_burnside.py -n 16 17 18 --total --jobs 2
"""

import argparse
import statistics
import time

import parqueens
from parqueens.join.burnside import MAX_SYMMETRIC_N, count_half_turn, count_quarter_turn


def median_seconds(fn, n, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn(n)
        times.append(time.perf_counter() - t)
    return value, statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, nargs="+", default=[18, 19, 20, 21], help="board sizes")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (median; default 3)")
    ap.add_argument("--total", action="store_true", help="also count the total once")
    ap.add_argument("--jobs", type=int, default=None, help="jobs of the total count")
    args = ap.parse_args()
    if args.repeat < 1 or not all(4 <= n <= MAX_SYMMETRIC_N for n in args.n):
        ap.error(f"need --repeat >= 1 and 4 <= n <= {MAX_SYMMETRIC_N}")
    count_half_turn(8), count_quarter_turn(8)  # load the kernels
    print("| n | P | P s | R | R s | total s | (P + R) / total |")
    print("|---|---|---|---|---|---|---|")
    for n in args.n:
        p, tp = median_seconds(count_half_turn, n, args.repeat)
        r, tr = median_seconds(count_quarter_turn, n, args.repeat)
        total = share = "-"
        if args.total:
            t = time.perf_counter()
            parqueens.count(n, jobs=args.jobs)
            seconds = time.perf_counter() - t
            total, share = f"{seconds:.2f}", f"{(tp + tr) / seconds:.4%}"
        print(f"| {n} | {p} | {tp:.4f} | {r} | {tr:.5f} | {total} | {share} |", flush=True)


if __name__ == "__main__":
    main()
