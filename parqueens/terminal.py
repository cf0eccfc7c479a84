"""Results and progress bars on one terminal.

tqdm draws its bars on stderr, redrawing a line in place with ``\\r`` (and
moving the cursor up for nested bars).  When stdout is the same terminal,
a result printed while a bar is shown starts in the bar's line and the next
redraw overwrites it: ``n=6:   0%|...| 0.00/4.00 [00:00<?, ?sol/s]1`` and
then `` 3 5 0 2 4``.  :func:`above_bars` clears the bars before results are
written and draws them again below, only in that case: to a pipe, a file or
another terminal, stdout gets the same bytes and stderr no redraws.

A terminal that does not say its size (0 x 0: ``script``, ``docker exec
-t``, some CI runners) would get bars of no width, each a blank line, inside
a table's Markdown too: :func:`size_unknown` tells it, and the bars there
are drawn 80 columns wide (:func:`bar_width`) when shown at all (the command
line shows none there unless asked).
"""

import os
import sys
from contextlib import contextmanager

__all__ = [
    "same_terminal",
    "DEFAULT_COLUMNS",
    "DEFAULT_ROWS",
    "size_unknown",
    "bar_width",
    "above_bars",
    "TIME_LEFT_AFTER",
    "TIME_LEFT_AFTER_S",
    "progress_bar",
]


def same_terminal(a, b):
    """Whether the streams ``a`` and ``b`` are one terminal (both ttys, one
    device): what is written to one lands among the lines of the other."""
    try:
        return (
            a.isatty()
            and b.isatty()
            and os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno()))
        )
    except (AttributeError, OSError, ValueError):  # no file behind it, or closed
        return False


#: The size assumed for a terminal that does not say its own (tqdm would
#: draw bars of no width, and hide those below its 0 rows).
DEFAULT_COLUMNS, DEFAULT_ROWS = 80, 24


def size_unknown(stream):
    """Whether ``stream`` is a terminal that reports a size of 0 columns."""
    try:
        return stream.isatty() and os.get_terminal_size(stream.fileno()).columns == 0
    except (AttributeError, OSError, ValueError):
        return False


def bar_width(stream):
    """tqdm's size arguments for a bar on ``stream``: its own (the
    terminal's width, followed as it changes), or :data:`DEFAULT_COLUMNS`
    and :data:`DEFAULT_ROWS` on a terminal of unknown size."""
    if size_unknown(stream):
        return {"ncols": DEFAULT_COLUMNS, "nrows": DEFAULT_ROWS, "dynamic_ncols": False}
    return {"dynamic_ncols": True}


@contextmanager
def above_bars(active=True):
    """Inside this block, results written to ``sys.stdout`` go above the
    progress bars shown on the same terminal (tqdm's
    ``external_write_mode``: the bars are cleared, the results written and
    flushed, the bars drawn again below them); elsewhere, or unless
    ``active`` (say, when the results go to a file), a no-op."""
    tqdm = sys.modules.get("tqdm")  # not loaded: no bar is shown
    if (
        not active
        or tqdm is None
        or not getattr(tqdm.tqdm, "_instances", None)
        or not same_terminal(sys.stdout, sys.stderr)
    ):
        yield
        return
    with tqdm.tqdm.external_write_mode(file=sys.stdout):
        try:
            yield
        finally:
            sys.stdout.flush()  # before the bars come back


#: The share of its total a bar moves, and the seconds it runs, before it
#: shows a time left: an estimate from less extrapolates from almost
#: nothing (a table ending in a second showed 06:28 left at its start).
TIME_LEFT_AFTER, TIME_LEFT_AFTER_S = 0.01, 1.0

#: tqdm's own format for a bar with a total, given whole so that its time
#: left can be hidden like that of any other bar.
_DEFAULT_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"


def progress_bar(notebook=False, **kwargs):
    """A tqdm bar on ``sys.stderr``, sized by :func:`bar_width`, whose time
    left is shown as ``?`` until it has moved :data:`TIME_LEFT_AFTER` of its
    total (from its ``initial``: a resumed run's bar starts ahead) and run
    :data:`TIME_LEFT_AFTER_S` seconds.

    ``notebook``: tqdm.auto's class (a notebook's widget, else the text
    bar; it may import IPython), else tqdm's text bar.  ``kwargs``: tqdm's
    arguments, which override the defaults.  Returns the bar.
    """
    if notebook:
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm  # only when shown: 0.02 s of start-up

    class Bar(tqdm):
        @property
        def format_dict(self):
            d = super().format_dict
            total, moved = d.get("total"), d.get("n", 0) - (d.get("initial") or 0)
            early = d.get("elapsed", 0) < TIME_LEFT_AFTER_S
            if total and (early or moved < TIME_LEFT_AFTER * total):
                d["bar_format"] = (d.get("bar_format") or _DEFAULT_FORMAT).replace(
                    "{remaining}", "?"
                )
            return d

    return Bar(**{"file": sys.stderr, **bar_width(sys.stderr), **kwargs})
