"""Reading solutions: the readers, and the input they read.

:class:`SolutionReader` is what :func:`parqueens.io.read_solutions` returns:
an iterator of 0-based ``queens`` tuples with the attributes ``fmt`` and
``n``, and :meth:`SolutionReader.blocks` for integer arrays.  Text is read
as solutions are asked for: :class:`LineReader` reads the formats of a
solution a line (perm, jsonl) and of a line a row (board, matrix), as
their format objects (:mod:`parqueens.io.base`) parse a line; it checks the
structure only.  A column off the board, or a board line without exactly
one queen, reads as column n, and :attr:`TextReader.bad_rows` says what was
there (:func:`parqueens.verify.check_blocks` reports such rows as invalid).
:class:`Source` is the input: a file, or standard input.
"""

import contextlib
import itertools
import os
import sys

from .paths import is_stdio

__all__ = ["Source", "SolutionReader", "gather", "TextReader", "LineReader"]


class Source:
    """An input of solutions: a file, or standard input.

    Parameters
    ----------
    path : str or os.PathLike
        The file, or ``"-"`` (or None) for ``sys.stdin`` (its binary buffer).

    Attributes
    ----------
    path : str or None
        The file; None for standard input.
    name : str
        The input in messages: the path, or ``<stdin>``.

    Raises
    ------
    FileNotFoundError, OSError
        If the file cannot be found (at once, not at the first read).
    """

    def __init__(self, path):
        self.path = None if is_stdio(path) else os.fspath(path)
        self.name = "<stdin>" if self.path is None else self.path
        if self.path is not None:
            os.stat(self.path)
        self._head = []  # stdin: the lines that head() read, read again first

    def head(self):
        """The raw lines up to the first non-blank one (all if none is),
        to guess the format from; standard input gives them again."""
        if self.path is None:
            self._head = _head(sys.stdin.buffer)
            return self._head
        with open(self.path, "rb") as f:
            return _head(f)

    def lines(self):
        """A context manager of the raw lines (bytes, with their line ends)."""
        if self.path is None:
            return contextlib.nullcontext(itertools.chain(self._head, sys.stdin.buffer))
        return open(self.path, "rb")

    def binary(self):
        """A context manager of a binary file object (``read(size)``)."""
        if self.path is None:
            return contextlib.nullcontext(_LineFile(self.lines().enter_result))
        return open(self.path, "rb")

    def read_stdin(self):
        """All of standard input (bytes), the lines of :meth:`head` included."""
        return b"".join(self._head) + sys.stdin.buffer.read()


def _head(f):
    """The lines of binary file ``f`` up to the first non-blank one (all if none is)."""
    head = []
    for raw in f:
        head.append(raw)
        if raw.strip():
            break
    return head


class _LineFile:
    """``read(size)`` over an iterator of byte lines (stdin after sniffing)."""

    def __init__(self, lines):
        self._lines = lines

    def read(self, size):
        return b"".join(itertools.islice(self._lines, 1 << 10))


class SolutionReader:
    """The iterator that :func:`parqueens.io.read_solutions` returns.

    Attributes
    ----------
    fmt : str
        The format read (given or guessed).
    n : int or None
        The board size: as given, else from the ``.npy`` shape (at once) or
        from the first solution read.  None while it is unknown, and after
        the end of a text input without any solution (e.g. an empty file).
    array : numpy.ndarray or None
        npy: the whole (memory-mapped) array, shape ``(count, n)``; None for text.
    """

    array = None

    def __init__(self, fmt, n, name, rows=()):
        self.fmt = fmt
        self.n = n
        self._name = name  # for the error messages
        self._rows = iter(rows)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._rows)

    def blocks(self, size=1 << 16):
        """The solutions not read yet, as integer arrays of shape ``(k, n)``
        (``k <= size``), in order: ``.npy`` data a block at a time (memory
        mapped), text parsed line by line and gathered.  Raises as iterating
        does."""
        yield from gather(self, size)


def gather(solutions, size):
    """Tuples of equal length gathered into int64 arrays of at most ``size`` rows."""
    import numpy as np

    solutions = iter(solutions)
    while chunk := list(itertools.islice(solutions, size)):
        yield np.array(chunk, dtype=np.int64).reshape(len(chunk), len(chunk[0]))


class TextReader(SolutionReader):
    """A reader of text, which reads the structure only.

    Attributes
    ----------
    solutions_read : int
        Solutions read so far.
    bad_rows : dict
        Solution index (from 0) -> ``(row, columns)`` of its first board
        line without exactly one queen, or ``(row, column)`` of its first
        column off the board (perm, jsonl; 0-based); such a row reads as
        column n.  The first 100 such solutions.
    """

    def __init__(self, fmt, n, name):
        super().__init__(fmt, n, name)
        self.solutions_read = 0
        self.bad_rows = {}

    def _bad_row(self, row, what):
        """Record why the solution being read is not a placement on the
        board: ``what`` is the columns of a board line without exactly one
        queen, or a column off the board (first 100 solutions)."""
        if len(self.bad_rows) < 100:
            self.bad_rows.setdefault(self.solutions_read, (row, what))

    def _queen_column(self, row, cells, queen):
        """The column of a board line's queen; with no queen or several, an
        invalid solution (as two queens of one column are): column n, and
        :meth:`_bad_row` says why."""
        if cells.count(queen) == 1:
            return cells.index(queen)
        self._bad_row(row, [c for c, cell in enumerate(cells) if cell == queen])
        return self.n


class LineReader(TextReader):
    """The reader of a format of lines: a solution a line
    (:class:`parqueens.io.base.LineFormat`) or a line a row
    (:class:`parqueens.io.base.GridFormat`), read as solutions are asked for.

    ``fmt`` is the format object; ``source`` a :class:`Source`, opened when
    iteration starts and closed when the lines run out or the reading fails.
    ``n`` is the board size: as given, else set by the first content line,
    or set to 0 at the end of an input of blank lines only.

    Attributes
    ----------
    empty_lines : list of int
        Lines skipped as empty among solutions of n > 0 columns (perm,
        jsonl), the first 100 (``empty_lines_more``: how many beyond).
    """

    #: Perm inputs of this many lines or more are parsed in bulk (numba).
    bulk_from = 2048

    def __init__(self, fmt, n, source, one_based):
        super().__init__(fmt.name, n, source.name)
        self._format = fmt
        self._source = source
        self._offset = 1 if one_based and not fmt.grid else 0
        self._zero_given = n == 0  # then each blank line is an empty solution, as it comes
        self._lineno = 0  # of the line being read, from 1
        self._grid = []  # queen columns of the board/matrix solution being read
        self._grid_start = None  # line number of its first line
        self._blanks = 0  # blank lines before any content: empty solutions if none follows
        self.empty_lines = []
        self._blank_lines = []  # those before any content
        self.empty_lines_more = 0
        self._rows = self._solutions()

    def _solutions(self):
        """Generator of the solutions, in input order."""
        with self._source.lines() as lines:
            yield from self._solutions_of(lines)

    def _solutions_of(self, lines):
        """The solutions of ``lines`` (raw), read after those before."""
        for raw in lines:
            self._lineno += 1
            solution = self._read_line(self._decode(raw))
            if solution is not None:
                yield solution
        if self._grid:
            yield self._end_grid()
        if self.n is None and self._blanks:
            # only blank lines: the n = 0 output of SolutionWriter, one line per solution
            self.n = 0
            self.solutions_read += self._blanks
            yield from [()] * self._blanks

    def blocks(self, size=1 << 16):
        """As :meth:`SolutionReader.blocks`; lines as parqueens writes them
        are parsed in bulk where the format can (perm:
        :func:`parqueens.io.perm_parse.perm_lines`), from the first other
        line on one by one as iterating does (with the same messages)."""
        parse_lines = self._format.parse_lines
        if parse_lines is None:
            yield from super().blocks(size)
            return
        self._rows = iter(())  # the lines are read here
        with self._source.lines() as lines:
            lines = iter(lines)
            chunk = list(itertools.islice(lines, self.bulk_from))
            if len(chunk) < self.bulk_from:  # a short input: not worth loading numba
                yield from gather(self._solutions_of(chunk), size)
                return
            lines = itertools.chain(chunk, lines)
            while chunk := list(itertools.islice(lines, size)):
                # n as given or read, else guessed from the first line (the
                # kernel parses a line only if it has exactly n columns)
                n = self.n if self.n is not None else chunk[0].count(b" ") + 1
                rows = 0
                if n and (self.n is not None or self._lineno == 0):
                    out = parse_lines(chunk, n, self._offset)
                    rows = len(out)
                    self._lineno += rows
                    self.solutions_read += rows
                    if rows:
                        self.n = n
                        yield out
                if rows < len(chunk):
                    rest = itertools.chain(chunk[rows:], lines)
                    yield from gather(self._solutions_of(rest), size)
                    return

    def _where(self, lineno=None):
        return f"{self._name}, line {lineno or self._lineno}"

    def _decode(self, raw):
        """The text of a raw line, without its line end (trailing ``\\r``/``\\n``)."""
        try:
            text = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            raise ValueError(f"{self._where()}: not UTF-8 text") from None
        # A byte order mark, which some editors put first: not text.
        return text[1:] if self._lineno == 1 and text.startswith("\ufeff") else text

    def _read_line(self, line):
        """The solution that ``line`` completes, or None."""
        if not line.strip():
            return self._blank()
        if self._format.grid:
            return self._grid_line(line)
        return self._numbers_line(line)

    def _blank(self):
        """The solution a blank line completes: the board/matrix being read, or an
        empty one (n = 0 given); else None (counted while n is unknown)."""
        if self._grid:
            return self._end_grid()
        if self._format.empty_line:
            if self._zero_given:
                self.solutions_read += 1
                return ()
            if self.n is None:
                self._blanks += 1
                self._blank_lines.append(self._lineno)
                return None
        if not self._format.grid:
            if len(self.empty_lines) < 100:  # skipped; verify reports them
                self.empty_lines.append(self._lineno)
            else:
                self.empty_lines_more += 1
        return None

    def _check_length(self, length):
        """The first solution sets n; the others must have length n."""
        if self.n is None:
            self.n = length
            if length and not self._format.grid:
                self.empty_lines.extend(self._blank_lines[:100])
        if length != self.n:
            raise ValueError(f"{self._where()}: expected {self.n} columns, got {length}")

    def _numbers_line(self, line):
        """The solution on a perm/jsonl line, 0-based; a column off the
        board reads as column n (an invalid solution, which verify reports)."""
        where, off = self._where(), self._offset
        cols = self._format.parse(line, where)
        self._check_length(len(cols))
        n = self.n
        queens = tuple(c - off for c in cols) if off else tuple(cols)
        if not all(0 <= c < n for c in queens):  # kept as column n (any size fits in int64)
            r = next(r for r, c in enumerate(queens) if not 0 <= c < n)
            self._bad_row(r, queens[r])
            queens = tuple(c if 0 <= c < n else n for c in queens)
        self.solutions_read += 1
        return queens

    def _grid_line(self, line):
        """Add the queen of a board/matrix line to the solution being read; None."""
        where, queen = self._where(), self._format.queen
        cells = self._format.cells(line, where)
        if not self._grid:
            self._grid_start = self._lineno
            self._check_length(len(cells))
        elif len(cells) != self.n:
            raise ValueError(f"{where}: line has {len(cells)} squares, expected {self.n}")
        if len(self._grid) == self.n:
            raise ValueError(
                f"{where}: solution has more rows than columns "
                "(missing blank line between solutions?)"
            )
        self._grid.append(self._queen_column(len(self._grid), cells, queen))
        return None

    def _end_grid(self):
        """The board/matrix solution read so far, checked to have n rows."""
        rows, self._grid = self._grid, []
        self.solutions_read += 1
        if len(rows) != self.n:
            raise ValueError(
                f"{self._where(self._grid_start)}: solution has {len(rows)} "
                f"row{'s' * (len(rows) != 1)} but lines of {self.n} squares"
            )
        return tuple(rows)
