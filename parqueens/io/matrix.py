"""matrix: a line a row of ``0``/``1`` separated by single spaces, the ``1``
in the queen's column; a blank line between solutions."""

from .base import GridFormat

__all__ = ["MatrixFormat", "FORMAT"]


class MatrixFormat(GridFormat):
    name = "matrix"
    queen, empty, gap = "1", "0", " "

    def cells(self, line, where):
        cells = line.split()
        if not set(cells) <= {"0", "1"}:
            raise ValueError(f"{where}: a matrix line must be 0s and 1s separated by spaces")
        return cells

    def sniff(self, line, one_based):
        tokens = line.split(" ")
        # a perm line of n >= 3 columns holds a 2; n = 2 is ambiguous: perm
        return (
            not one_based
            and set(tokens) <= {"0", "1"}
            and tokens.count("1") == 1
            and len(tokens) != 2
        )


FORMAT = MatrixFormat()
