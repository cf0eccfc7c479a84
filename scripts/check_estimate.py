#!/usr/bin/env python3
"""The estimate of a row-set join count (n >= 22) checked on whole units.

For each n: the count's units are planned, the estimator
(``parqueens.join.join_sampled_estimate``, SECONDS of measuring) gives the
core-seconds of the whole count, and so of each unit (its modelled share of
the work); then K units drawn at random (SEED) are counted here whole, in
one thread, and their summed thread time is compared with what the estimate
says of those same units.  A ratio (measured over estimated) near 1 says
that the estimate holds.

How the units are drawn and counted:

- default: in proportion to their modelled work, as the estimator draws row
  sets (so that the ratio checks the estimate of the whole count, not the
  model's split of it among units), each counted alone, with no south
  tables kept from the unit before, the time of making its south tables
  left out: a count makes each once for all the units that share them, and
  the estimate costs each distinct table once (with them, n = 23's units
  took 1.4 to 1.5 times their time without);
- ``--uniform``: each unit alike (small units weigh as much as large ones);
- ``--kept``: as a count runs them, K consecutive units of the plan from a
  random start, the south tables kept from one to the next (the first
  units make theirs).

    python scripts/check_estimate.py -n 22 23 24 -k 20 --seconds 10
"""

import argparse
import time

import numpy as np

from parqueens.join import join_sampled_estimate, join_units
from parqueens.join.rowsets import _args, _count_unit, count_units
from parqueens.join.south import SouthTables


def check(n, k, seconds, seed, how="work", each=None):
    """``(units, estimate dict, [(unit, estimated s, measured s)])`` for n;
    ``how``: "work", "uniform" or "kept" (see the module docstring);
    ``each``: None, or called with each unit's triple as it is counted (a
    check of hours keeps what it measured)."""
    units = join_units(n)
    estimate = join_sampled_estimate(n, 1, units=units, seconds=seconds)
    work = np.array([u.work for u in units])
    per_work = estimate["core_seconds"] / work.sum()
    rng = np.random.default_rng(seed)
    if how == "kept":
        start = int(rng.integers(0, len(units) - k + 1))
        drawn = list(range(start, start + k))
    elif how == "uniform":
        drawn = sorted(int(i) for i in rng.choice(len(units), size=k, replace=False))
    else:
        drawn = sorted(int(i) for i in rng.choice(len(units), size=k, p=work / work.sum()))
    stop = np.zeros(1, np.uint8)
    first = units[drawn[0]]
    lo = _args(first)[1]
    _count_unit(first, (lo, lo), 1, stop, np.zeros(2, np.uint64), SouthTables(budget=0))  # kernels
    kept = SouthTables()
    rows = []
    for i in drawn:
        u = units[i]
        tables = kept if how == "kept" else SouthTables()
        made = tables.seconds
        began = time.thread_time()
        count_units(n, [u], stop, tables)
        spent = time.thread_time() - began
        if how != "kept":  # its own south tables left out (see above)
            spent -= tables.seconds - made
        rows.append((u, u.work * per_work, spent))
        if each is not None:
            each(*rows[-1])
    return units, estimate, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, nargs="+", default=[22])
    ap.add_argument("-k", type=int, default=20, help="units counted whole per size")
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds the estimator measures")
    ap.add_argument("--seed", type=int, default=1)
    way = ap.add_mutually_exclusive_group()
    way.add_argument("--uniform", action="store_true", help="units drawn alike, not by work")
    way.add_argument("--kept", action="store_true", help="consecutive units, tables kept")
    ap.add_argument("--units", action="store_true", help="also a line per unit, as it is counted")
    args = ap.parse_args()
    how = "kept" if args.kept else "uniform" if args.uniform else "work"
    print(
        "| n | units counted | estimated s (range) | measured s | measured / estimated "
        "| estimate: core-hours of the count (row sets) |"
    )
    print("|---|---|---|---|---|---|")
    for n in args.n:
        each = _print_unit if args.units else None
        units, e, rows = check(n, args.k, args.seconds, args.seed, how, each)
        predicted = sum(r[1] for r in rows)
        measured = sum(r[2] for r in rows)
        scale = predicted / e["core_seconds"]
        print(
            f"| {n} | {len(rows)} of {len(units):,} ({how}) "
            f"| {predicted:.3g} ({e['low'] * scale:.3g} to {e['high'] * scale:.3g}) "
            f"| {measured:.3g} | {measured / predicted:.2f} "
            f"| {e['core_seconds'] / 3600:.3g} ({e['samples']}) |",
            flush=True,
        )


def _print_unit(unit, predicted, measured):
    ratio = measured / predicted
    print(f"|  | {unit.id} | {predicted:.3g} | {measured:.3g} | {ratio:.2f} | |", flush=True)


if __name__ == "__main__":
    main()
