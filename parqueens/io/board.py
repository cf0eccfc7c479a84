"""board: a line a row, ``Q`` for the queen and ``.`` for the other squares,
row 0 first; a blank line between solutions.  Read as typed by hand too:
``q``, and squares separated by spaces (``. Q . .``).  To a terminal that
shows colours it is drawn (:mod:`parqueens.io.terminal_board`)."""

from .base import GridFormat
from .terminal_board import PICTURE, terminal_can_show

__all__ = ["BoardFormat", "FORMAT"]


class BoardFormat(GridFormat):
    name = "board"
    queen, empty, gap = "Q", ".", ""

    def cells(self, line, where):
        cells = "".join(line.split()).upper()
        if not cells or not set(cells) <= set("Q."):
            raise ValueError(f"{where}: a board line must be made of 'Q' and '.'")
        return cells

    def sniff(self, line, one_based):
        cells = "".join(line.split()).upper()
        return bool(cells) and set(cells) <= set("Q.")

    def for_stream(self, stream, n, color="auto"):
        return PICTURE if n and terminal_can_show(stream, color) else self


FORMAT = BoardFormat()
