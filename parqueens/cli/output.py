"""What the command line writes to stderr, and how it words times and sizes.

Results go to stdout; everything else to stderr, each line starting with
``parqueens: `` (a failure goes on with ``error: ``), but the progress bars.
The library's notes (logger ``parqueens``: kernels compiling on their first
use, a Dask cluster waiting for workers) are shown as notes unless
``--quiet``, and a library's warning as one line.
"""

import logging
import os
import sys


def say(message):
    """One line on stderr, with the prefix; written above an active progress
    bar (tqdm.write), not into it."""
    text = f"parqueens: {message}"
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
    terminal; never with ``--quiet``."""
    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", None):
        return True
    return sys.stderr.isatty()


def log_notes(args):
    """Show the library's notes (logger ``parqueens``, INFO) as notes on
    stderr, unless --quiet; a handler installed by an earlier call in this
    process (tests call main again) is replaced."""
    logger = logging.getLogger("parqueens")
    for handler in [h for h in logger.handlers if getattr(h, "parqueens_cli", False)]:
        logger.removeHandler(handler)
    if getattr(args, "quiet", False):
        return
    handler = logging.StreamHandler(_Notes())
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
    """A duration for people: s, min, h, days or years."""
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    years = seconds / (365 * 86400)
    return f"{years:.3g} years" if years < 1000 else f"{years:,.0f} years"


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
