"""``parqueens merge PART.db ... --out ALL.db``: the checkpoints of the K parts
of a count (``count N --part I/K``) checked and merged by the library
(:func:`parqueens.run.merge.merge_parts`) into the whole count's checkpoint,
whose count is printed as ``count`` prints it."""

from .options import add_quiet, examples, share

__all__ = ["add_parsers", "cmd_merge"]


def add_parsers(sub):
    """The parser of ``merge``."""
    p = sub.add_parser(
        "merge",
        help="merge the checkpoints of the parts of a count (--part)",
        description="Check that the files are the K finished parts of one count (one board "
        "size, method and version; each part once, none missing, each holding exactly "
        "the units of its part), write their units into a new checkpoint and print the "
        "count as count prints it (with the classes where the parts were counted with "
        "--unique). count N --checkpoint ALL.db then answers from it.",
        epilog=examples(
            "parqueens count 20 --part 1/2 --checkpoint p1.db   # on one machine",
            "parqueens count 20 --part 2/2 --checkpoint p2.db   # on another",
            "parqueens merge p1.db p2.db --out c20.db           # 39029188884",
        ),
    )
    p.add_argument("parts", nargs="+", metavar="PART", help="the parts' checkpoint files")
    p.add_argument(
        "-o", "--out", required=True, metavar="FILE", help="the merged checkpoint: a new file"
    )
    p.add_argument(
        "--recheck",
        type=share,
        default=0.0,
        metavar="SHARE",
        help="search this share (0 to 1) of the merged units again before answering "
        "(default 0: the parts were checked where they ran)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object, as count --json does",
    )
    add_quiet(p)
    p.set_defaults(func=cmd_merge)


def cmd_merge(args):
    from ..run.merge import merge_parts
    from .counting import print_merged

    result = merge_parts(args.parts, args.out, recheck=args.recheck)
    return print_merged(args, result)
