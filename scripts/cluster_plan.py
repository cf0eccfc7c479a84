#!/usr/bin/env python3
"""The plan of a row-set join count for a cluster, per board size.

For each n (22 to 28): the units planned (and the seconds planning took),
the largest unit's core-minutes (its modelled share of the estimate), a sampled estimate of the
core-seconds (``parqueens.join.join_sampled_estimate``, SECONDS of
measuring, with its range), the mean seconds per unit, the wall time on 100
and 1,000 cores like this machine's, the core-seconds per 10**9 solutions
(where the total is published: ``parqueens.oeis``, used here only to size
the work), the estimated peak memory of a single-threaded worker
(``parqueens.join.rowsets.rowset_memory``) and the checkpoint's size at
BYTES_PER_UNIT.  Prints a Markdown table.

    python scripts/cluster_plan.py -n 22 23 24 25 26 27 28 --seconds 10
"""

import argparse
import time

from parqueens.cli.output import format_seconds
from parqueens.join import join_sampled_estimate, join_units
from parqueens.join.rowsets import rowset_memory
from parqueens.oeis import KNOWN

#: A finished unit in a checkpoint, at most (SQLite; docs/checkpoints.md).
BYTES_PER_UNIT = 170


def plan_row(n, seconds):
    """One line of the table for board size ``n``."""
    start = time.perf_counter()
    units = join_units(n)
    planning = time.perf_counter() - start
    e = join_sampled_estimate(n, 1, units=units, seconds=seconds)
    core = e["core_seconds"]

    def on(cores):
        return planning + max(core / cores, core * e["largest"])

    per_billion = f"{core / (KNOWN[n][0] / 1e9):.3g}" if n in KNOWN else "-"
    return (
        f"| {n} | {len(units):,} ({planning:.1f} s) | {core * e['largest'] / 60:.3g} min "
        f"| {core / 3600:.3g} ({e['low'] / 3600:.3g} to {e['high'] / 3600:.3g}; "
        f"{e['samples']} row sets) | {core / len(units):.3g} s "
        f"| {format_seconds(on(100))} | {format_seconds(on(1000))} | {per_billion} "
        f"| {rowset_memory(n, 1) / 2**20:,.0f} MiB | {len(units) * BYTES_PER_UNIT / 2**20:.1f} MB |"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, nargs="+", default=[22, 23, 24])
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds of measuring a size")
    args = ap.parse_args()
    print(
        "| n | units (planning) | largest unit (core) | core-hours (range; sample) | per unit "
        "| 100 cores | 1,000 cores | core-s per 10**9 solutions | memory a worker | checkpoint |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in args.n:
        print(plan_row(n, args.seconds), flush=True)


if __name__ == "__main__":
    main()
