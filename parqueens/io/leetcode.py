"""leetcode: the output of LeetCode 51 ("N-Queens"): one JSON array of
boards, each an array of row strings of ``Q`` and ``.``, written
``[[".Q..","...Q","Q...","..Q."],`` then one board a line, the last
followed by ``]``; no solutions: ``[`` and ``]`` on two lines (``[]`` alone
is read as jsonl's n = 0 solution).  Read in any layout (one line,
pretty-printed), a board at a time."""

import functools
import json

from .base import TextFormat
from .board import FORMAT as BOARD
from .reading import TextReader

__all__ = ["LeetcodeFormat", "FORMAT", "LeetCodeReader"]


#: The end of a leetcode file: after its boards, and for none: ``[`` and
#: ``]`` on two lines, since ``[]`` alone is the jsonl of the n = 0 solution.
_END = (b"]\n", b"\n]\n")


class LeetcodeFormat(TextFormat):
    name = "leetcode"

    def sniff(self, line, one_based):
        # '[["', '[ "' or a lone '[' (pretty-printed); '[1,3,0,2]' and '[]' are jsonl
        rest = line[1:].lstrip()
        return line.startswith("[") and (not rest or rest[0] in '["')

    def open_reader(self, source, n, one_based):
        return LeetCodeReader(n, source)

    def render(self, queens, one_based=False):
        return self.piece(None, queens, 0) + "\n"

    def piece(self, out, queens, index):
        # one board a line, the lines joined by commas
        rows = _quoted(len(queens))
        return "[" + ",".join([rows[c] for c in queens]) + "]"

    def separator(self, out):
        return ",\n"

    def header(self, out, count, fixed):
        return b"["

    def footer(self, out, count):
        return _END[not count]

    def size(self, n, count, one_based=False):
        # "[" + boards joined by ",\n" + "]\n" ("[\n]\n" for none)
        return 3 + count * (2 + n * (n + 2) + max(n - 1, 0)) + 2 * max(count - 1, 0) + (not count)


@functools.lru_cache(maxsize=16)
def _quoted(n):
    """The JSON strings of the rows of an n-board, by the queen's column."""
    return tuple('"' + line + '"' for line in BOARD.lines(n))


FORMAT = LeetcodeFormat()


class LeetCodeReader(TextReader):
    """The reader of the leetcode format: one JSON array of boards, read a
    board at a time (any layout: one line, a board a line, pretty-printed).
    Each board is an array of n row strings, read as board lines are
    (``q``, spaces); a row without exactly one queen reads as column n and
    is recorded in ``bad_rows``, as for board files."""

    #: Bytes of input decoded at a time.
    chunk = 1 << 20

    def __init__(self, n, source):
        super().__init__("leetcode", n, source.name)
        self._source = source
        self._rows = self._solutions()

    def _solutions(self):
        import codecs

        decoder = json.JSONDecoder()
        utf8 = codecs.getincrementaldecoder("utf-8")()
        with self._source.binary() as f:
            chunks = iter(lambda: f.read(self.chunk), b"")
            buf, pos, eof, opened = "", 0, False, False

            def more():  # more text into buf; False at the end of the input
                nonlocal buf, pos, eof
                if eof:
                    return False
                chunk = next(chunks, None)
                try:
                    text = utf8.decode(chunk or b"", final=chunk is None)
                except UnicodeDecodeError:
                    raise ValueError(f"{self._name}: not UTF-8 text") from None
                eof = chunk is None
                buf, pos = buf[pos:] + text, 0
                return True

            def skip(chars=" \t\r\n\ufeff"):  # to the next other character, or None
                nonlocal pos
                while True:
                    while pos < len(buf) and buf[pos] in chars:
                        pos += 1
                    if pos < len(buf):
                        return buf[pos]
                    if not more():
                        return None

            if skip() != "[":
                raise ValueError(f"{self._name}: a leetcode file is a JSON array of boards")
            pos += 1
            while True:
                c = skip()
                if c == "]" or c is None:
                    if c is None:
                        raise ValueError(f"{self._name}: the array of boards is not closed by ']'")
                    pos += 1
                    if skip() is not None:
                        raise ValueError(f"{self._name}: text after the array of boards")
                    return
                if opened:
                    if c != ",":
                        raise ValueError(
                            f"{self._name}, after board {self.solutions_read}: expected ',' or ']'"
                        )
                    pos += 1
                    skip()
                while True:  # one board: decoded once its text is all in buf
                    try:
                        board, end = decoder.raw_decode(buf, pos)
                        break
                    except ValueError:
                        if not more():
                            where = f"{self._name}, board {self.solutions_read + 1}"
                            raise ValueError(f"{where}: not valid JSON") from None
                pos, opened = end, True
                yield self._board(board)

    def _board(self, board):
        """The columns of one decoded board."""
        where = f"{self._name}, board {self.solutions_read + 1}"
        if not isinstance(board, list) or not all(isinstance(r, str) for r in board):
            raise ValueError(f"{where}: expected an array of row strings")
        if self.n is None:
            self.n = len(board)
        if len(board) != self.n:
            rows = f"{len(board)} row{'s' * (len(board) != 1)}"
            raise ValueError(f"{where}: {rows}, expected {self.n}")
        queens = []
        n = self.n
        for r, row in enumerate(board):
            c = row.find("Q")
            if len(row) == n and c >= 0 and row.count(".") == n - 1:  # as parqueens writes it
                queens.append(c)
                continue
            cells = BOARD.cells(row, f"{where}, row {r}") if self.n else ""
            if len(cells) != self.n:
                raise ValueError(f"{where}, row {r}: {len(cells)} squares, expected {self.n}")
            queens.append(self._queen_column(r, cells, "Q"))
        self.solutions_read += 1
        return tuple(queens)
