"""svg: pictures of solutions (files, notebooks, README), written only.

A solution is ``queens[row] = col`` (0-based), row 0 drawn at the top and
column 0 at the left, as in every format.  One board, or a grid of boards
(``columns`` per row, :data:`COLUMNS` in a file), in user units of one
square; squares alternate light and dark with the top-left one light, as on
a chess board; each queen is one ``<use>`` of a crown drawn once in
``<defs>``, so a board costs about 43 bytes a queen (n = 12).  Optional
labels number the rows at the left and the columns at the top, from 0 (from
1 with ``one_based``).  :class:`SvgLayout` places board ``i`` of a stream
without knowing how many follow; the document's size is in its header,
written with a fixed size and rewritten last (:func:`svg_header`), which
lets :class:`parqueens.io.SolutionWriter` stream pictures of any length to
a file (to a stream, the picture is held until its end).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..checks import check_positive, check_row
from .base import TextFormat, digit_total

__all__ = [
    "LIGHT",
    "DARK",
    "INK",
    "SQUARE_PX",
    "COLUMNS",
    "SVG_HEADER_SIZE",
    "SVG_FOOTER",
    "SvgLayout",
    "svg_header",
    "svg",
    "SvgFormat",
    "FORMAT",
]


#: Colours of the light and dark squares and of the queens.
LIGHT, DARK, INK = "#f0d9b5", "#b58863", "#1d1d1d"

#: Pixels per square in the SVG's width and height (its view box is in squares).
SQUARE_PX = 24

#: Boards per row of a grid when not given.
COLUMNS = 8

# A crown in a unit square: five points on a band (our own drawing).
_CROWN = (
    "M.2 .8L.12 .38L.32 .56L.38 .28L.5 .52L.62 .28L.68 .56L.88 .38L.8 .8Z"
    "M.2 .84H.8V.9H.2Z"
    "M.07 .36a.05 .05 0 1 0 .1 0a.05 .05 0 1 0-.1 0Z"
    "M.33 .26a.05 .05 0 1 0 .1 0a.05 .05 0 1 0-.1 0Z"
    "M.57 .26a.05 .05 0 1 0 .1 0a.05 .05 0 1 0-.1 0Z"
    "M.83 .36a.05 .05 0 1 0 .1 0a.05 .05 0 1 0-.1 0Z"
)

_DEFS = (
    '<defs><pattern id="pq-squares" width="2" height="2" patternUnits="userSpaceOnUse">'
    f'<rect width="2" height="2" fill="{LIGHT}"/>'
    f'<path d="M1 0h1v1H1zM0 1h1v1H0z" fill="{DARK}"/></pattern>'
    f'<path id="pq-queen" d="{_CROWN}" fill="{INK}" stroke="#fff" stroke-width=".02"/>'
    "</defs>\n"
)

#: Bytes reserved for :func:`svg_header`, so that a file can be started
#: before its size is known and the header rewritten in place at the end.
SVG_HEADER_SIZE = 192

SVG_FOOTER = "</svg>\n"


@dataclass(frozen=True)
class SvgLayout:
    """Where each board of a grid goes.

    Attributes
    ----------
    n : int
        Board size (squares per side), >= 0.
    columns : int
        Boards per row of the grid, >= 1.
    labels : bool
        Number the rows and columns (a margin of one square at the left and top).
    one_based : bool
        Labels count from 1.
    """

    n: int
    columns: int = COLUMNS
    labels: bool = False
    one_based: bool = False

    @property
    def margin(self):
        """Squares before each board: one for the labels, else none."""
        return 1 if self.labels else 0

    @property
    def step(self):
        """Squares from one board to the next (the board, its margin and a gap)."""
        return self.n + self.margin + 1

    def size(self, count):
        """``(width, height)`` in squares of a grid of ``count`` boards (one
        blank square for none: renderers refuse a picture without size)."""
        if not count:
            return 1, 1
        across = max(1, min(count, self.columns))
        down = max(1, -(-count // self.columns))
        # n = 0 boards are empty: still one square, as no board at all
        return max(1, across * self.step - 1), max(1, down * self.step - 1)

    def board(self, i, queens):
        """The SVG text of board ``i`` (from 0) of the grid: a group placed
        at its cell, the squares as one pattern-filled rectangle, the
        labels, a ``<use>`` per queen; one line."""
        x = (i % self.columns) * self.step + self.margin
        y = (i // self.columns) * self.step + self.margin
        n = self.n
        parts = [
            f'<g transform="translate({x} {y})">',
            f'<rect width="{n}" height="{n}" fill="url(#pq-squares)"/>',
        ]
        if self.labels and n:
            off = 1 if self.one_based else 0
            parts.append('<g font-size=".5" font-family="sans-serif" text-anchor="middle">')
            parts += [f'<text x="{k}.5" y="-.25">{k + off}</text>' for k in range(n)]
            parts += [f'<text x="-.5" y="{k}.68">{k + off}</text>' for k in range(n)]
            parts.append("</g>")
        parts += [f'<use href="#pq-queen" x="{c}" y="{r}"/>' for r, c in enumerate(queens)]
        parts.append("</g>\n")
        return "".join(parts)


def svg_header(width, height, pad=False):
    """The opening of an SVG document ``width`` x ``height`` squares, with
    its definitions; padded with spaces inside the root tag to
    :data:`SVG_HEADER_SIZE` bytes if ``pad`` (ValueError if it cannot be)."""
    tag = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * SQUARE_PX}" '
        f'height="{height * SQUARE_PX}" viewBox="0 0 {width} {height}"'
    )
    if pad:
        if len(tag) + 2 > SVG_HEADER_SIZE:
            raise ValueError(f"a picture of {width} x {height} squares is too large")
        tag = tag.ljust(SVG_HEADER_SIZE - 2)
    return tag + ">\n" + _DEFS


def svg(
    solutions: Iterable[Sequence[int]],
    *,
    columns: int | None = None,
    labels: bool = False,
    one_based: bool = False,
) -> str:
    """An SVG document picturing ``solutions``.

    Parameters
    ----------
    solutions : sequence of sequences of int
        Each ``queens[row] = col``, 0-based, all of one length n (a single
        solution: pass ``[queens]``).
    columns : int or None
        Boards per row of the grid, >= 1 (None: :data:`COLUMNS`; fewer when
        there are fewer boards).
    labels : bool
        Number the rows and columns.
    one_based : bool
        The labels count from 1.

    Returns
    -------
    str
        The document, ending with a newline.

    Raises
    ------
    TypeError, ValueError
        For solutions that are not rows of one length with columns in
        ``range(n)``, or ``columns`` that is not a positive int.
    """
    columns = COLUMNS if columns is None else check_positive(columns, "columns")
    rows = list(solutions)
    n = len(check_row(rows[0])) if rows else 0
    rows = [check_row(q, n) for q in rows]
    layout = SvgLayout(n, columns, bool(labels), bool(one_based))
    body = "".join(layout.board(i, q) for i, q in enumerate(rows))
    return svg_header(*layout.size(len(rows))) + body + SVG_FOOTER


class SvgFormat(TextFormat):
    """The picture as a format: the boards of a file in a grid of
    :data:`COLUMNS`, a board's text placed by its index; one board alone
    (:meth:`render`) has its labels."""

    name = "svg"
    counted_header = True

    def sniff(self, line, one_based):
        return line.startswith("<")

    def open_reader(self, source, n, one_based):
        raise ValueError(f"{source.name}: svg is a picture, which parqueens does not read back")

    def render(self, queens, one_based=False):
        return svg([queens], labels=True, one_based=one_based)

    def encode_rows(self, out, rows, first):
        layout = _layout(out)
        return "".join([layout.board(first + i, q) for i, q in enumerate(rows)]).encode("ascii")

    def header(self, out, count, fixed):
        return svg_header(*_layout(out).size(count), pad=fixed).encode("ascii")

    def footer(self, out, count):
        return SVG_FOOTER.encode("ascii")

    def size(self, n, count, one_based=False):
        """At most: labels included, and the digits of a board's place vary."""
        layout = SvgLayout(n, labels=True)
        width, height = layout.size(count)
        corner = max(width, height)  # a board's place has no more digits than this
        board = len(layout.board(0, [])) + 2 * len(str(corner)) - 2
        queens = n * len('<use href="#pq-queen" x="" y=""/>') + 2 * digit_total(0, n)
        head = len(svg_header(width, height, pad=True))
        return head + len(SVG_FOOTER) + count * (board + queens)


def _layout(out):
    return SvgLayout(out.n, labels=out.labels, one_based=out.one_based)


FORMAT = SvgFormat()
