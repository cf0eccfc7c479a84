"""What the command line writes to stderr, and how it words times and sizes.

Results go to stdout; everything else to stderr, each line starting with
``parqueens: `` (a failure goes on with ``error: ``), but the progress bars.
The library's notes (logger ``parqueens``: kernels compiling on their first
use, a Dask cluster waiting for workers) are shown as notes unless
``--quiet``, and a library's warning as one line.  The library's messages
name its arguments as a caller writes them (``method="d4"``, ``force=True``);
every line here names them as the options of the command line instead
(:func:`command_line_words`: ``--method d4``, ``--force``), the one place that
decides the wording.
"""

import logging
import os
import re
import shlex
import sys

__all__ = [
    "OPTIONS",
    "command_line_words",
    "say",
    "note",
    "show_warning",
    "show_progress",
    "log_notes",
    "format_seconds",
    "three_digits",
    "range_text",
    "counted",
]


#: The library's keyword arguments that its messages name (``name=value``,
#: or ``split_depth`` alone) and the options that stand for them here.
OPTIONS = {
    "method": "--method",
    "split_depth": "--split-depth",
    "nodes": "--nodes",
    "unique": "--unique",
    "recheck": "--recheck",
    "checkpoint": "--checkpoint",
    "one_based": "--one-based",
    "labels": "--labels",
    "force": "--force",
    "path": "--out",
    "backend": "--backend",
    "allow_empty": "--allow-empty",
}

_ARGUMENT = re.compile(
    rf"\b({'|'.join(OPTIONS)})=(True\b|'[^']*'|\"[^\"]*\"|[A-Z]+\b|[0-9.]*[0-9])|\bsplit_depth\b"
)


def command_line_words(message):
    """A library message as the command line says it: each argument named
    as the library takes it (``method="d4"``, ``force=True``, ``recheck=1``,
    ``checkpoint='c.db'``, ``split_depth``) as its option (``--method d4``,
    ``--force``, ``--recheck 1``, ``--checkpoint c.db``, ``--split-depth``)."""

    def option(m):
        if m.group(1) is None:
            return OPTIONS["split_depth"]
        flag, value = OPTIONS[m.group(1)], m.group(2)
        if value == "True":
            return flag
        quoted = value[0] in "'\""
        return f"{flag} {shlex.quote(value[1:-1]) if quoted else value}"

    return _ARGUMENT.sub(option, message)


def printable(text):
    """``text`` as any terminal or pipe takes it: the bytes of a file name
    that are not UTF-8 (which Python keeps as lone surrogates, ``\\udcfe``)
    written as ``\\xfe``, any other lone surrogate as its escape."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def say(message):
    """One line on stderr, with the prefix; written above an active progress
    bar (tqdm.write), not into it; names of any bytes shown (:func:`printable`)."""
    text = printable(f"parqueens: {command_line_words(message)}")
    tqdm = sys.modules.get("tqdm")
    try:
        if tqdm is not None and getattr(tqdm.tqdm, "_instances", None):
            tqdm.tqdm.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)
    except OSError:
        # stderr cannot be written (a full disk): nothing can be said, and
        # the command still ends with its own exit code, not Python's 1.
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the process's life)


def note(args, message):
    """A note (:func:`say`), unless --quiet."""
    if not getattr(args, "quiet", False):
        say(message)


def show_warning(message, category, filename, lineno, file=None, line=None):
    """A library's warning while a command runs, as one line with the prefix
    (installed as ``warnings.showwarning``)."""
    say("warning: " + " ".join(str(message).split()))


def show_progress(args):
    """Whether the command shows progress bars: ``--progress``, or stderr is a
    terminal that says its size (not 0 x 0:
    :func:`parqueens.terminal.size_unknown`); never with ``--quiet``."""
    from ..terminal import size_unknown

    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", None):
        return True
    return sys.stderr.isatty() and not size_unknown(sys.stderr)


def log_notes(args):
    """Show the library's notes (logger ``parqueens``, INFO and up: the
    compile note is a WARNING, which Python would print itself with no
    handler) as notes on stderr; with --quiet, none.  A handler installed by
    an earlier call in this process (tests call main again) is replaced."""
    logger = logging.getLogger("parqueens")
    for old in [h for h in logger.handlers if getattr(h, "parqueens_cli", False)]:
        logger.removeHandler(old)
    # --quiet: a handler that drops them, so that Python's last resort does not print them
    quiet = getattr(args, "quiet", False)
    handler = logging.NullHandler() if quiet else logging.StreamHandler(_Notes())
    handler.parqueens_cli = True
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


class _Notes:
    """Where the log notes go: :func:`say`."""

    def write(self, text):
        if text.strip():
            say(text.strip())

    def flush(self):
        sys.stderr.flush()


def format_seconds(seconds):
    """A duration for people: s (two significant digits under 0.1 s), min,
    h, days or years, to three significant digits past a thousand years
    (an estimate has no more: ``1,410,000 years``), in powers of ten past
    a trillion."""
    if 0 < seconds < 0.1:  # not "0.0 s"
        return f"{seconds:.2g} s"
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    years = seconds / (365 * 86400)
    return f"{three_digits(years)} years"


def three_digits(x):
    """``x`` to three significant digits, as people read them: ``1.13``,
    ``10,100``, ``1,410,000``, in powers of ten past a trillion (an
    estimate has no more digits)."""
    if 1000 <= abs(x) < 1e12:
        return f"{float(f'{x:.3g}'):,.0f}"
    return f"{x:.3g}"


def range_text(ns):
    """Board sizes as a range text, e.g. ``4,6,8-11`` (what
    :func:`parqueens.checks.parse_range` reads)."""
    runs = []
    for n in sorted(ns):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def counted(blocks, bar):
    """The blocks, each counted on the progress bar as it goes by."""
    for block in blocks:
        bar.update(len(block))
        yield block
