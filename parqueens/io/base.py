"""The format object: what reading, writing and sizing know of one format.

Each solution format is one object, an instance of a :class:`Format`
subclass defined in its own module of :mod:`parqueens.io` (``perm.py``,
``board.py``, ...) as ``FORMAT``; :mod:`parqueens.io.registry` finds it by
the name that :data:`parqueens.names.FORMAT_TRAITS` declares (with its
extensions and traits, read by the command line without this package).
Adding a format is writing its module and naming it there.

A format object holds no state: what one output needs (board size,
numbering, labels) comes as an :class:`Output`.  Writing is ``header``,
then ``encode_rows``/``encode_block`` for the solutions in order (``first``
is the index of the first one given, for what goes between solutions),
then ``footer``; a format whose header states the count
(``counted_header``) has it rewritten at the end of a file, or the whole
output held until then on a stream.  Reading is ``open_reader`` of a
:class:`parqueens.io.reading.Source`; guessing it, ``magic`` (binary) or
``sniff`` (text).  Rows reach a format checked
(:func:`parqueens.checks.check_rows`): lists of int, or integer arrays of
shape ``(count, n)`` with columns in ``range(n)``.

:class:`LineFormat` (a solution a line of numbers: perm, jsonl) and
:class:`GridFormat` (a line a row: board, matrix) write whole arrays with
numpy (a lookup table of the numbers' text, gathered), and are read by
:class:`parqueens.io.reading.LineReader`.
"""

import functools
from dataclasses import dataclass

from .reading import LineReader

__all__ = [
    "BLOCK_BYTES",
    "Output",
    "Format",
    "TextFormat",
    "LineFormat",
    "GridFormat",
    "digit_total",
]


#: Bytes of text rendered per numpy block: bounds the temporary memory.
BLOCK_BYTES = 1 << 23

# Rows rendered per block of a format written row by row (pictures, leetcode).
_LIST_ROWS = 1 << 14


@dataclass(frozen=True)
class Output:
    """What one output is: board size ``n`` (int >= 0), columns counted
    from 1 (``one_based``: perm and jsonl numbers, svg labels), ``labels``
    (svg: rows and columns numbered)."""

    n: int
    one_based: bool = False
    labels: bool = False


class Format:
    """A solution format (see the module docstring); the defaults are
    those of a format with nothing before, between or after its solutions.

    Attributes
    ----------
    name : str
        As in :data:`parqueens.names.FORMATS`.
    magic : bytes or None
        First bytes that tell a binary file of this format.
    counted_header : bool
        The header states the number of solutions (npy, svg).
    picture : bool
        Drawn for a terminal (see :meth:`for_stream`).
    """

    name: str | None = None
    magic: bytes | None = None
    counted_header = False
    picture = False

    def sniff(self, line, one_based):
        """Whether ``line`` (str), the first non-blank line of a text input,
        stripped, is in this format (``one_based``: as reading is asked)."""
        return False

    def open_reader(self, source, n, one_based):
        """A :class:`parqueens.io.reading.SolutionReader` of ``source``
        (``n``: the board size expected, or None).  Raises ``ValueError``
        for a format that is not read back, or malformed data found now."""
        raise NotImplementedError

    def render(self, queens: list[int], one_based: bool = False) -> str:
        """The text of one solution on its own (``queens``: a list of int
        on the board), as :func:`parqueens.io.registry.render` gives it."""
        raise NotImplementedError

    def header(self, out, count, fixed):
        """Bytes before the solutions of ``out``: ``count`` of them;
        ``fixed``: of the size it has for any count (rewritten at close)."""
        return b""

    def encode_rows(self, out, rows, first):
        """Bytes of the solutions ``rows`` (lists of int), the first of them
        solution ``first`` of the output."""
        raise NotImplementedError

    def encode_block(self, out, array, first):
        """Bytes of the rows of the integer array ``array``, shape ``(k, n)``,
        as :meth:`encode_rows` gives them, in pieces of bounded size (an
        iterator of bytes-like objects)."""
        for i in range(0, array.shape[0], _LIST_ROWS):
            yield self.encode_rows(out, array[i : i + _LIST_ROWS].tolist(), first + i)

    def footer(self, out, count):
        """Bytes after the ``count`` solutions of ``out``."""
        return b""

    def size(self, n, count, one_based=False):
        """Bytes of an output of ``count`` solutions of an n-board, exact
        for solutions that are permutations (int)."""
        raise NotImplementedError

    def for_stream(self, stream, n, color="auto"):
        """The format to write to ``stream`` (a text file such as
        ``sys.stdout``): this one, or a picture that the stream shows
        (``color``: :func:`parqueens.io.terminal_board.terminal_can_show`)."""
        return self


class TextFormat(Format):
    """A text format: a piece of ASCII text per solution, and a separator
    between them.  ``empty_line``: whether a blank line of the input can
    be the empty solution (n = 0; see :func:`parqueens.io.read_solutions`)."""

    empty_line = True

    #: ``parse_lines(lines, n, offset)``: the rows of the leading lines (a
    #: list of bytes) as parqueens writes them, parsed in bulk (an int64
    #: array, shape ``(k, n)``, columns less ``offset``); None: read line by line.
    parse_lines = None

    def piece(self, out, queens, index):
        """The text of solution number ``index`` of ``out`` in a file."""
        return self.render(queens, out.one_based)

    def separator(self, out):
        """The text between two solutions of ``out``."""
        return ""

    def encode_rows(self, out, rows, first):
        sep = self.separator(out)
        texts = [sep * bool(first + i) + self.piece(out, q, first + i) for i, q in enumerate(rows)]
        return "".join(texts).encode("utf-8")  # ASCII but for a terminal picture


class LineFormat(TextFormat):
    """One solution a line: ``prefix``, the columns in decimal separated by
    ``sep``, then ``end`` (which holds the newline); read by :meth:`parse`."""

    grid = False
    prefix, sep, end = "", " ", "\n"

    def parse(self, line, where):
        """The columns on ``line`` (str, without its newline) as written
        (list of int); ``ValueError`` naming ``where`` if malformed."""
        raise NotImplementedError

    def open_reader(self, source, n, one_based):
        return LineReader(self, n, source, one_based)

    def render(self, queens: list[int], one_based: bool = False) -> str:
        off = 1 if one_based else 0
        return self.prefix + self.sep.join([str(c + off) for c in queens]) + self.end

    def encode_block(self, out, array, first):
        k, n = array.shape
        rows = max(1, BLOCK_BYTES // (max(1, n) * 8))
        for i in range(0, k, rows):
            block = array[i : i + rows]
            yield _render_numbers(block, out.one_based, self.prefix, self.sep, self.end)

    def size(self, n, count, one_based=False):
        off = 1 if one_based else 0
        chars = len(self.prefix) + len(self.sep) * max(n - 1, 0) + len(self.end)
        return count * (digit_total(off, n + off) + chars)


class GridFormat(TextFormat):
    """A line a row, a blank line between solutions: the ``queen`` symbol in
    the queen's column and ``empty`` in the others, joined by ``gap``; an
    n = 0 solution is one empty line.  Read by :meth:`cells`."""

    grid = True
    queen, empty, gap = "Q", ".", ""

    def cells(self, line, where):
        """The squares of ``line`` (a sequence of str, each ``queen`` or
        ``empty``); ``ValueError`` naming ``where`` for another symbol."""
        raise NotImplementedError

    def open_reader(self, source, n, one_based):
        return LineReader(self, n, source, one_based)

    @functools.lru_cache(maxsize=16)  # noqa: B019  (the format objects live as long)
    def lines(self, n):
        """The text of each row of an n-board, by the queen's column (a tuple
        of n str, without newline)."""
        e, g = self.empty, self.gap
        return tuple((e + g) * c + self.queen + (g + e) * (n - 1 - c) for c in range(n))

    def render(self, queens: list[int], one_based: bool = False) -> str:
        if not queens:
            return "\n"
        lines = self.lines(len(queens))
        return "".join([lines[c] + "\n" for c in queens])

    def separator(self, out):
        return "\n" if out.n else ""

    def encode_block(self, out, array, first):
        k, n = array.shape
        if n == 0:  # no separator: an n = 0 board is one empty line, as in perm
            yield b"\n" * k
            return
        lines = max(1, BLOCK_BYTES // (2 * n + 2))
        flat = array.ravel()
        for i in range(0, flat.shape[0], lines):
            yield self._render_lines(flat[i : i + lines], n, first * n + i)

    def _render_lines(self, cols, n, first_line):
        """Bytes of the lines of the flat integer column array ``cols``.

        Line ``i`` starts a solution when ``(first_line + i) % n == 0``;
        such a line gets a blank line before it unless it is the very first.
        """
        import numpy as np

        cols = cols.astype(np.intp, copy=False)  # step * cols must not wrap
        m, step = cols.shape[0], 1 + len(self.gap)
        g = np.empty((m, step * n - len(self.gap) + 2), dtype=np.uint8)
        g[:, 0] = 0
        index = np.arange(first_line, first_line + m)
        g[(index % n == 0) & (index > 0), 0] = ord("\n")
        if self.gap:
            g[:, 1:-1] = ord(self.gap)
        g[:, 1:-1:step] = ord(self.empty)
        g[np.arange(m), 1 + step * cols] = ord(self.queen)
        g[:, -1] = ord("\n")
        out = g.ravel()
        return out[out != 0].tobytes()

    def size(self, n, count, one_based=False):
        if n == 0:
            return count  # one empty line per solution
        width = len(self.lines(n)[0]) + 1
        return count * n * width + max(count - 1, 0)


def digit_total(lo, hi):
    """Number of decimal digits written for all of the integers lo..hi-1 (lo >= 0)."""
    total = 0
    start = 0
    d = 1
    while start < hi:
        end = 10**d
        a, b = max(lo, start), min(hi, end)
        if b > a:
            total += d * (b - a)
        start, d = end, d + 1
    return total


def _number_table(n, offset, end):
    """uint8 table, shape ``(n, w)``: row c is ``str(c + offset) + end``,
    right-aligned with NUL bytes in front (dropped after the gather)."""
    import numpy as np

    v = np.arange(offset, n + offset, dtype=np.int64)
    maxd = len(str(max(n - 1 + offset, 0)))
    ndig = np.ones(n, dtype=np.int64)
    for k in range(1, maxd):
        ndig += v >= 10**k
    power = 10 ** np.arange(maxd - 1, -1, -1, dtype=np.int64)
    digits = (v[:, None] // power) % 10 + ord("0")
    digits[np.arange(maxd)[None, :] < (maxd - ndig)[:, None]] = 0
    tail = np.frombuffer(end.encode(), dtype=np.uint8)
    table = np.empty((n, maxd + tail.size), dtype=np.uint8)
    table[:, :maxd] = digits
    table[:, maxd:] = tail
    return table


def _render_numbers(a, one_based, prefix, sep, end):
    """Bytes of ``prefix + sep.join(row) + end`` for each row of integer ``a``."""
    import numpy as np

    k, n = a.shape
    if n == 0:
        return (prefix + end).encode() * k
    a = a.astype(np.intp, copy=False)  # indices; a narrow dtype would wrap below
    off = 1 if one_based else 0
    mid = _number_table(n, off, sep)
    last = _number_table(n, off, end)
    parts = [mid[a[:, :-1]].reshape(k, -1), last[a[:, -1]]]
    if prefix:
        head = np.frombuffer(prefix.encode(), np.uint8)
        parts.insert(0, np.broadcast_to(head, (k, head.size)))
    out = np.concatenate(parts, axis=1).ravel()
    return out[out != 0].tobytes()
