"""The command line's parser: one ``argparse`` sub-parser per command, each
built by its command's module (``add_parsers``), from the option groups and
argument types of :mod:`parqueens.cli.options`.

No abbreviated options (``--uniq`` is not ``--unique``); every usage error is one line
(:class:`parqueens.cli.errors.UsageError`), naming the command.  Nothing
here loads numba, numpy or joblib: ``--help`` and usage errors answer at once.
"""

import argparse

from ..names import VERSION
from .errors import UsageError


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        # --uniq is not taken for --unique: an abbreviation would change
        # meaning when an option is added (Python's default guesses).
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        # One line, no usage dump: `--help` gives the usage.  The subcommand
        # is named after the common prefix ("count: argument N: ...").
        command = self.prog.removeprefix("parqueens").strip()
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser():
    """The parser of ``parqueens``: its commands, each from its module."""
    from . import counting, listing, status, verifying

    parser = _Parser(
        prog="parqueens",
        description="Count and list the solutions of the n-queens problem, in parallel.",
        epilog="Exit codes: 0 ok, 1 negative answer (or a run declined at its prompt), 2 bad "
        "input, 3 Dask cluster unreachable or lost, 130 interrupted, 141 stdout closed by "
        "its reader, 143 terminated.",
    )
    parser.add_argument("--version", action="version", version=f"parqueens {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in (counting, status, listing, verifying):
        module.add_parsers(sub)
    return parser
