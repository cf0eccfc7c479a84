#!/usr/bin/env python3
"""Compare the symmetry methods on one core, in one process, without start-up.

Each method's work units are built once; then the kernel searches all of
them, method after method, REPEAT rounds interleaved (so that a noisy
neighbour slows all alike).  Prints a Markdown table: n, method, median
seconds, nodes (queens placed), time and nodes relative to the mirror method.

    python scripts/bench_methods.py -n 16 17
    python scripts/bench_methods.py -n 15 --methods d4 d4-lex mirror plain

``d4-lex`` is the d4 method with Takaken's ranking (the one the listing
uses), to show what the counting ranking gains.
"""

import argparse
import statistics
import time

from parqueens.run.chunks import search_specs, warm_up
from parqueens.search.units import iter_units


def specs_of(n, method, depth):
    base = "d4" if method.startswith("d4") else method
    return [spec for _, spec in iter_units(n, base, depth, lexicographic=method == "d4-lex")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "-n", type=int, nargs="+", default=[16, 17], help="board sizes, 5 or more (default 16 17)"
    )
    ap.add_argument(
        "--methods",
        nargs="+",
        default=["d4", "d4-lex", "mirror"],
        choices=["d4", "d4-lex", "mirror", "plain"],
    )
    ap.add_argument("--depth", type=int, default=3, help="split depth (default 3)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (median; default 3)")
    args = ap.parse_args()
    if args.repeat < 1 or args.depth < 1 or min(args.n) < 5 or args.depth > min(args.n) - 2:
        ap.error("need --repeat >= 1, n >= 5 and 1 <= --depth <= n - 2")
    warm_up()
    warm_up(True)
    rows = []
    for n in args.n:
        specs = {m: specs_of(n, m, args.depth) for m in args.methods}
        times = {m: [] for m in args.methods}
        nodes = {}
        for m in args.methods:  # nodes from the counting variant, not timed
            nodes[m] = int(search_specs(n, specs[m], nodes=True)[2].sum())
        for _ in range(args.repeat):
            for m in args.methods:
                t = time.perf_counter()
                search_specs(n, specs[m])
                times[m].append(time.perf_counter() - t)
        med = {m: statistics.median(times[m]) for m in args.methods}
        for m in args.methods:
            rel = ""
            if "mirror" in med and med["mirror"] > 0 and nodes["mirror"] > 0:
                rel = f" {med[m] / med['mirror']:.3f} | {nodes[m] / nodes['mirror']:.3f} |"
            rows.append(f"| {n} | {m} | {med[m]:.2f} | {nodes[m]:,} |{rel}")
    head = "| n | method | seconds | nodes |"
    sep = "|---|---|---|---|"
    if "mirror" in args.methods:
        head += " time / mirror | nodes / mirror |"
        sep += "---|---|"
    print(head)
    print(sep)
    print("\n".join(rows))
    print(f"\nmedian of {args.repeat} rounds, one core, in-process (no start-up)")


if __name__ == "__main__":
    main()
