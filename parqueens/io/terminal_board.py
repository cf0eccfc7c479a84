"""The terminal picture: a board in colours, for standard output that shows them.

Each square two characters wide with a light or dark background (ANSI
256-colour codes, the top-left square light) and a chess queen glyph.
Solutions written in the board format to a terminal that can show it
(:func:`terminal_can_show`) are drawn so (:data:`PICTURE`), a blank line
between them; never to a file.
"""

import os

from ..checks import check_color
from .base import TextFormat

__all__ = ["terminal_can_show", "terminal_board", "TerminalPicture", "PICTURE"]


# 256-colour backgrounds close to the svg's light and dark squares, and the queen's colour.
_LIGHT_BG, _DARK_BG, _QUEEN_FG = "\x1b[48;5;223m", "\x1b[48;5;137m", "\x1b[38;5;16m"
_RESET = "\x1b[0m"
_GLYPH = "\u265b"  # BLACK CHESS QUEEN


def terminal_can_show(stream, color="auto"):
    """Whether to draw in colours on ``stream``: with ``color`` ``"auto"``
    (:data:`parqueens.names.COLORS`), a terminal that shows colours and the
    queen glyph: a tty, ``TERM`` set and not ``dumb``, ``NO_COLOR`` unset
    (https://no-color.org); ``"always"``: whatever the stream (as ``ls
    --color=always``); ``"never"``: not.  The stream's encoding must have
    the glyph in any case."""
    if check_color(color) == "never":
        return False
    if color == "auto":
        try:
            if not stream.isatty():
                return False
        except (AttributeError, ValueError):
            return False
        if os.environ.get("NO_COLOR") or os.environ.get("TERM", "dumb") == "dumb":
            return False
    try:
        _GLYPH.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def terminal_board(queens):
    """One solution (sequence of int) as lines for a colour terminal: each
    square two characters wide on a light or dark background (the top-left
    one light), the queens as a chess queen glyph; ends with a newline."""
    n = len(queens)
    lines = []
    for r, c in enumerate(queens):
        cells = []
        for k in range(n):
            bg = _LIGHT_BG if (r + k) % 2 == 0 else _DARK_BG
            cells.append(bg + (_QUEEN_FG + _GLYPH + " " if k == c else "  "))
        lines.append("".join(cells) + _RESET + "\n")
    return "".join(lines)


class TerminalPicture(TextFormat):
    """The board format as drawn for a terminal (not in the registry: the
    board format gives it for a stream that shows it)."""

    name = "board"
    picture = True

    def render(self, queens, one_based=False):
        return terminal_board(queens)

    def separator(self, out):
        return "\n" if out.n else ""


PICTURE = TerminalPicture()
