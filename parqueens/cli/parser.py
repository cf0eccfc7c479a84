"""The command line's parser: one ``argparse`` sub-parser per command, each
built by its command's module (``add_parsers``), from the option groups and
argument types of :mod:`parqueens.cli.options`.

No abbreviated options (``--uniq`` is not ``--unique``); every usage error is one line
(:class:`parqueens.cli.errors.UsageError`), naming the command.  Nothing
here loads numba, numpy or joblib: ``--help`` and usage errors answer at once.
"""

import argparse
import sys

from ..errors import exit_codes_text
from ..names import VERSION
from .errors import UsageError
from .options import examples

__all__ = ["build_parser", "no_command", "commands"]


class _Formatter(argparse.HelpFormatter):
    """argparse's help, with the commands in one column (argparse measures
    them without their indent, so ``solutions`` and ``construct`` went to a
    line of their own) and the examples of an epilog kept as written."""

    def add_argument(self, action):
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS and hasattr(action, "_get_subactions"):
            indent = self._current_indent + self._indent_increment
            for sub in action._get_subactions():
                length = len(self._format_action_invocation(sub)) + indent
                self._action_max_length = max(self._action_max_length, length)

    def _fill_text(self, text, width, indent):
        # a paragraph with indented lines (examples) as it is; the others filled
        paragraphs = text.split("\n\n")
        return "\n\n".join(
            "\n".join(indent + line for line in p.splitlines())
            if "\n " in p
            else super(_Formatter, self)._fill_text(p, width, indent)
            for p in paragraphs
        )


class _Completion(argparse.Action):
    """--print-completion SHELL: the completion script that shtab generates
    from this parser (commands, options, choices), on stdout."""

    def __call__(self, parser, namespace, values, option_string=None):
        try:
            import shtab
        except ImportError:
            raise UsageError("shell completion needs shtab: pip install shtab") from None
        parser._print_message(shtab.complete(parser, shell=values), sys.stdout)
        parser.exit()


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        # --uniq is not taken for --unique: an abbreviation would change
        # meaning when an option is added (Python's default guesses).
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def _print_message(self, message, file=None):
        # argparse drops a failed write (--help > /dev/full would say nothing
        # and exit 0): raised instead, it ends as any output error does (cli.errors)
        if message:
            (file or sys.stderr).write(message)

    def error(self, message):
        # One line, no usage dump: `--help` gives the usage.  The subcommand
        # is named after the common prefix ("count: argument N: ...").
        command = self.prog.removeprefix("parqueens").strip()
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser():
    """The parser of ``parqueens``: its commands, each from its module."""
    from . import counting, listing, merging, status, verifying

    parser = _Parser(
        prog="parqueens",
        description="Count and list the solutions of the n-queens problem, in parallel.",
        epilog=examples(
            "parqueens count 16 --unique",
            "parqueens table 1-16 --unique --out counts.csv",
            "parqueens solutions 8 --unique --format board",
            "parqueens COMMAND --help                # a command's options",
        )
        + "\n\n"
        + exit_codes_text(),
    )
    parser.add_argument("--version", action="version", version=f"parqueens {VERSION}")
    parser.add_argument(
        "--print-completion",
        choices=("bash", "zsh"),
        action=_Completion,
        help="print the shell's completion script for parqueens, and exit (needs shtab: "
        "pip install shtab)",
    )
    # not required: a bare `parqueens` gets its usage and where to read more (cli.main)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (counting, merging, status, listing, verifying):
        module.add_parsers(sub)
    return parser


def no_command(parser):
    """The one line of a bare ``parqueens``: its usage, and where to read more."""
    usage = " ".join(parser.format_usage().split()).removeprefix("usage: ")
    return (
        f"usage: {usage}; COMMAND is one of {', '.join(commands(parser))}; "
        "`parqueens --help` says what each does, `parqueens COMMAND --help` its options"
    )


def commands(parser):
    """The names of the commands, in the order of ``--help``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []
