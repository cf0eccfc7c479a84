#!/usr/bin/env python3
"""Draw the race: counting time against board size, log scale, as an SVG.

    python scripts/race.py scripts/race-data.json --out docs/race.svg
    python scripts/race.py scripts/race-data.json --estimate 23-28 --jobs 2 --out docs/race.svg

Reads records saved by `scripts/bench.py --save FILE` (or written by hand
from a benchmark's tables, with their date): a JSON list of objects with
`tool`, `n`, `seconds`, `kind` ("measured" or "estimate"), `date`, and for
estimates `low` and `high`.  `--estimate A-B` adds parqueens' own estimates
for those sizes (`parqueens count N --estimate --json --jobs J`, measured
on a sample of units on this machine) as a dashed line with its range.
Measured points are filled and joined by solid lines, estimates hollow and
dashed, so that the picture never shows an estimate as a measurement.

Needs matplotlib (`pip install '.[bench]'`), which the tool itself does not.
"""

import argparse
import json
import subprocess
import sys


def parqueens_estimates(sizes, jobs, tool):
    """Records of `parqueens count N --estimate` for each size, as ``tool``."""
    out = []
    for n in sizes:
        cmd = [sys.executable, "-m", "parqueens", "count", str(n), "--estimate", "--json"]
        p = subprocess.run([*cmd, "--jobs", str(jobs)], capture_output=True, text=True, check=True)
        e = json.loads(p.stdout)
        rec = {"tool": tool, "n": n, "kind": "estimate"}
        rec["seconds"] = e["estimate_seconds"]
        rec["low"], rec["high"] = e.get("low", rec["seconds"]), e.get("high", rec["seconds"])
        out.append(rec)
    return out


def draw(records, path, title):
    """Write the picture of ``records`` to ``path`` (SVG)."""
    import matplotlib

    matplotlib.use("svg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text: a smaller file
    import matplotlib.pyplot as plt

    tools = list(dict.fromkeys(r["tool"] for r in records))
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for i, tool in enumerate(tools):
        colour = f"C{i}"
        mine = sorted((r for r in records if r["tool"] == tool), key=lambda r: r["n"])
        done = [r for r in mine if r["kind"] == "measured"]
        guess = [r for r in mine if r["kind"] == "estimate"]
        if done:
            ax.plot(
                [r["n"] for r in done],
                [r["seconds"] for r in done],
                "o-",
                color=colour,
                label=f"{tool}, measured",
            )
        if guess:
            # The estimate's line starts at the last measured point.
            xs = ([done[-1]["n"]] if done else []) + [r["n"] for r in guess]
            ys = ([done[-1]["seconds"]] if done else []) + [r["seconds"] for r in guess]
            ax.plot(xs, ys, "--", color=colour)
            ax.plot(
                [r["n"] for r in guess],
                [r["seconds"] for r in guess],
                "o",
                color=colour,
                markerfacecolor="white",
                label=f"{tool}, estimated",
            )
            lows = [r.get("low", r["seconds"]) for r in guess]
            highs = [r.get("high", r["seconds"]) for r in guess]
            ax.fill_between([r["n"] for r in guess], lows, highs, color=colour, alpha=0.15)
    ax.set_yscale("log")
    ax.set_xlabel("board size n")
    ax.set_ylabel("wall time")
    day = 86400
    marks = [
        (1, "1 s"),
        (60, "1 min"),
        (3600, "1 h"),
        (day, "1 day"),
        (30 * day, "30 days"),
        (365 * day, "1 year"),
        (3650 * day, "10 years"),
        (36500 * day, "100 years"),
    ]
    lo = min(r.get("low", r["seconds"]) for r in records)
    hi = max(r.get("high", r["seconds"]) for r in records)
    shown = [(s, t) for s, t in marks if lo / 3 <= s <= hi * 3]
    ax.set_yticks([s for s, _ in shown], [t for _, t in shown])
    ax.minorticks_off()
    ax.set_xticks(sorted({r["n"] for r in records}))
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})  # the same picture for the same data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="JSON files of records (bench.py --save)")
    ap.add_argument("--out", required=True, help="the SVG to write")
    ap.add_argument("--estimate", help="sizes A-B to add parqueens' own estimates for")
    ap.add_argument("--jobs", type=int, default=2, help="jobs of those estimates (default 2)")
    ap.add_argument(
        "--label", help="the tool the estimates extend (a tool of the records: its colour)"
    )
    ap.add_argument("--title", default="counting the solutions of the n-queens problem, 2 vCPUs")
    args = ap.parse_args()
    records = []
    for path in args.data:
        with open(path, encoding="utf-8") as f:
            records += [r for r in json.load(f) if isinstance(r, dict) and "tool" in r]
    if args.estimate:
        a, _, b = args.estimate.partition("-")
        tool = args.label or f"parqueens, {args.jobs} jobs"
        records += parqueens_estimates(range(int(a), int(b or a) + 1), args.jobs, tool)
    draw(records, args.out, args.title)


if __name__ == "__main__":
    main()
