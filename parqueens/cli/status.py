"""``parqueens status FILE``: what a checkpoint holds, as the library
computes it (:func:`parqueens.run.status.checkpoint_status`), printed as text or
one JSON object."""

import json
import socket

from ..errors import ExitStatus
from .options import add_one_based, add_quiet, examples
from .output import format_seconds, printable, range_text

__all__ = ["add_parsers", "cmd_status"]


def add_parsers(sub):
    """The parser of ``status``."""
    p = sub.add_parser(
        "status",
        help="show the progress stored in a checkpoint file",
        description="Show what a checkpoint file holds: its run, the process using it, and "
        "the progress of each size (units stored, the total so far, the work left). It "
        "reads a file in use and writes nothing.",
        epilog=examples("parqueens status c19.db"),
    )
    p.add_argument("file", metavar="FILE", help="a checkpoint file")
    add_one_based(p, "show the fixed squares from 1 (--json keeps them 0-based, as stored)")
    add_quiet(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: file, method, fixed, part (null for a whole count), "
        "holder, and per size n, method, "
        "units_done, units_total, done, total, fundamental, seconds, seconds_left, "
        "largest_unit_seconds",
    )
    p.set_defaults(func=cmd_status)


def cmd_status(args):
    from ..run.status import checkpoint_status

    status = checkpoint_status(args.file)
    if args.json:
        print(json.dumps(status))
        return ExitStatus.OK
    o = 1 if args.one_based else 0
    fixed_text = ",".join(f"{r + o}:{c + o}" for r, c in status["fixed"])
    sizes = status["sizes"]
    print(
        printable(f"checkpoint {args.file}: method={status['method']}")
        + (f" fixed={fixed_text}" if fixed_text else "")
        + (" part={}/{}".format(*status["part"]) if status.get("part") else "")
        + (f", n = {range_text([z['n'] for z in sizes])}" if sizes else "")
    )
    holder = status["holder"]
    if holder is not None:
        where = "" if holder["host"] == socket.gethostname() else f" on {holder['host']}"
        print(
            printable(
                f"in use by process {holder['pid']}{where} since {holder['since']}: "
                f"{holder['command']}"
            )
        )
    for z in sizes:
        print(_size_line(z))
    return ExitStatus.OK


def _size_line(z):
    """One size of the status, as a line."""
    if not z["started"]:
        return f"n = {z['n']}: not started"
    if "units_total" not in z:
        return (
            f"n = {z['n']}: {z['units_done']} units stored, without the size's record "
            "(the next run resumes them)"
        )
    line = f"n = {z['n']} ({z['method']}): {z['units_done']}/{z['units_total']} units"
    if not z["done"] and not z["units_done"]:
        return line + ", started: no unit finished yet (no total so far, no time left known)"
    if z["done"]:
        line += f", done: total {z['total']}"
    else:
        line += f", total so far {z['total']}"
        if z["seconds_left"] is not None:
            left = format_seconds(z["seconds_left"])
            line += f", about {left} of work left at the rate so far"
        if z["largest_unit_seconds"] is not None:
            line += f", its largest unit about {format_seconds(z['largest_unit_seconds'])}"
    if z["fundamental"] is not None:
        line += f", fundamental {z['fundamental']}"
    return line + f" ({format_seconds(z['seconds'])} of work stored)"
