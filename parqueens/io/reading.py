"""Render, write and read solutions in text and NumPy formats.

A solution is a permutation ``queens[row] = col`` (0-based; row 0 is the top
line, column 0 the left character).  The formats:

=========  ==================================================================
 name       content
=========  ==================================================================
 perm       one solution per line, columns separated by single spaces,
            0-based (1-based with ``one_based=True``)
 board      n lines of ``Q`` and ``.`` per solution, row 0 first; a blank
            line between solutions
 matrix     n lines of ``0``/``1`` separated by single spaces per solution;
            a blank line between solutions
 jsonl      one JSON array of columns per line, e.g. ``[1,3,0,2]``, 0-based
            (1-based with ``one_based=True``)
 leetcode   the output of LeetCode 51 ("N-Queens"): one JSON array of boards,
            each an array of row strings of ``Q`` and ``.``, e.g.
            ``[[".Q..","...Q","Q...","..Q."],`` then one board per line,
            the last followed by ``]``; no solutions: ``[`` and ``]`` on
            two lines (``[]`` alone is read as jsonl's n = 0 solution)
 npy        a NumPy ``.npy`` file, shape ``(count, n)``, C order, dtype
            ``uint8`` for n <= 255, ``uint16`` for n <= 65535, else
            ``uint32`` (:func:`npy_dtype`); always 0-based
 svg        a picture (:mod:`parqueens.pictures`): the boards in a grid of
            eight per row; written only, not read back
=========  ==================================================================

Text is ASCII with ``\\n`` line ends.  The board, matrix and leetcode
formats hold no numbers, so ``one_based`` changes nothing there; in svg it
numbers the labels of :func:`parqueens.pictures.svg` (the writer draws
none).  :class:`SolutionWriter` writes to a temporary file next to the
target and renames it into place only when the writing succeeded, so a
failed or interrupted run leaves no partial output.  The ``.npy`` header
has a fixed size (:data:`NPY_HEADER_SIZE` bytes), so the count can be
filled in at close after streaming the rows; so has an svg file's.

The empty solution (n = 0) is ``[]`` in ``jsonl``, a row of length 0 in
``npy`` and one empty line in the other formats; such a line is read back
as a solution when ``n=0`` is given, or when n is not given and no line of
the input has any content (see :func:`read_solutions`).
"""

import contextlib
import errno
import functools
import io
import itertools
import json
import os
import shutil
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass

from ..checks import (
    check_destination,
    check_format,
    check_int,
    check_labels,
    check_one_based,
    check_row,
    check_rows,
)
from ..names import (  # noqa: F401  (public here too)
    EXTENSIONS,
    FORMATS,
    READABLE_FORMATS,
    SHARED_EXTENSIONS,
    TEXT_FORMATS,
)
from ..tempfiles import remove_stale, temp_prefix

# ---------------------------------------------------------------- the formats
# A format is named, with its extensions, in parqueens.names (which the
# command line reads without importing numpy); what reading needs to know of
# it is here, in one registry (_FORMATS).


def _perm_columns(line, where):
    """The numbers of a perm line: integers separated by whitespace (a
    negative one is off the board, as in jsonl)."""
    out = []
    for tok in line.split():
        digits = tok[1:] if tok.startswith("-") else tok
        if not digits.isascii() or not digits.isdigit():
            raise ValueError(f"{where}: {tok!r} is not an integer")
        out.append(int(tok))
    return out


def _jsonl_columns(line, where):
    """The numbers of a jsonl line: a JSON array of integers."""
    try:
        cols = json.loads(line)
    except ValueError as e:
        raise ValueError(f"{where}: not valid JSON ({e})") from None
    if not isinstance(cols, list) or any(
        isinstance(c, bool) or not isinstance(c, int) for c in cols
    ):
        raise ValueError(f"{where}: expected a JSON array of integers")
    return cols


def _board_cells(line, where):
    """The squares of a board line: its characters, each ``Q`` or ``.``; as
    typed by hand, ``q`` too, and squares separated by spaces (``. Q . .``)."""
    cells = "".join(line.split()).upper()
    if not cells or not set(cells) <= set("Q."):
        raise ValueError(f"{where}: a board line must be made of 'Q' and '.'")
    return cells


def _looks_like_board(line, one_based):
    cells = "".join(line.split()).upper()
    return bool(cells) and set(cells) <= set("Q.")


def _matrix_cells(line, where):
    """The squares of a matrix line: its words, each ``0`` or ``1``."""
    cells = line.split()
    if not set(cells) <= {"0", "1"}:
        raise ValueError(f"{where}: a matrix line must be 0s and 1s separated by spaces")
    return cells


def _looks_like_matrix(line, one_based):
    tokens = line.split(" ")
    # a perm line of n >= 3 columns holds a 2; n = 2 is ambiguous: perm
    return (
        not one_based and set(tokens) <= {"0", "1"} and tokens.count("1") == 1 and len(tokens) != 2
    )


def _looks_like_leetcode(line, one_based):
    # '[["', '[ "' or a lone '[' (pretty-printed); '[1,3,0,2]' and '[]' are jsonl
    rest = line[1:].lstrip()
    return line.startswith("[") and (not rest or rest[0] in '["')


@dataclass(frozen=True, kw_only=True)
class _Format:
    """A format.  ``sniff(line, one_based)``: whether ``line`` (str), the
    first non-blank line of an input, stripped, is in this format; None: not
    guessed from that line (npy has its magic bytes, perm is
    :data:`_SNIFF_DEFAULT`)."""

    sniff: Callable | None = None


@dataclass(frozen=True, kw_only=True)
class _TextFormat(_Format):
    """A text format.  ``empty_line``: whether a blank line can be the empty
    solution (n = 0; see :func:`read_solutions`), else it is always skipped."""

    empty_line: bool = True


@dataclass(frozen=True, kw_only=True)
class _LineFormat(_TextFormat):
    """One solution per line.  ``parse(line, where)``: the columns as written
    (list of int, 1-based with ``one_based``); ValueError naming ``where``
    if malformed."""

    parse: Callable


@dataclass(frozen=True, kw_only=True)
class _GridFormat(_TextFormat):
    """One line per row, a blank line between solutions.
    ``cells(line, where)``: the squares of a line (a sequence of str);
    ValueError naming ``where`` for another symbol.  ``queen``: the square
    that holds the queen."""

    cells: Callable
    queen: str


_FORMATS = {
    "perm": _LineFormat(parse=_perm_columns),
    "board": _GridFormat(cells=_board_cells, queen="Q", sniff=_looks_like_board),
    "matrix": _GridFormat(cells=_matrix_cells, queen="1", sniff=_looks_like_matrix),
    # the empty solution is [], so an empty line is nothing
    # before jsonl, whose lines start with '[' too
    "leetcode": _Format(sniff=_looks_like_leetcode),
    "jsonl": _LineFormat(
        parse=_jsonl_columns, sniff=lambda line, one_based: line.startswith("["), empty_line=False
    ),
    "npy": _Format(),
    "svg": _Format(sniff=lambda line, one_based: line.startswith("<")),
}

# guessed for a text input whose first non-blank line no sniff matches, or that has none
_SNIFF_DEFAULT = "perm"

# FORMATS, TEXT_FORMATS and EXTENSIONS (from parqueens.names) are public
# here too; ``.txt`` is not an extension of a format: it is sniffed.

#: Size in bytes of the ``.npy`` header written by :class:`SolutionWriter`:
#: version 1.0, padded with spaces to hold any count (a multiple of 64, as
#: numpy aligns the data).
NPY_HEADER_SIZE = 128

# Perm inputs of this many lines or more are parsed in bulk (numba).
_BULK_FROM = 2048

# rows handled per numpy block in write_many: bounds the temporary memory
_BLOCK_BYTES = 1 << 23


def check_output_path(path, force):
    """Check that ``path`` can receive an output file; returns it absolute.

    A symbolic link is followed (its target is replaced).  Raises
    ``OSError`` subclasses: the path names a folder, the folder does not
    exist or is not writable (tried by creating a temporary file), the file
    exists and ``force`` is false, or it exists but is not a regular file
    (a device or FIFO cannot be replaced atomically: redirect stdout instead).
    """
    text = os.fspath(path)
    if not text:
        raise ValueError("the output path is empty")
    if text.endswith(os.sep) or os.path.isdir(text):
        raise IsADirectoryError(errno.EISDIR, "output path is a folder", text)
    target = os.path.realpath(text)
    folder, name = os.path.split(target)
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "output folder does not exist", folder)
    if os.path.lexists(target):
        if not os.path.isfile(target):
            raise OSError(
                errno.EINVAL,
                "output path exists and is not a regular file (a "
                "device or FIFO); write to stdout and redirect instead",
                text,
            )
        if not force:
            raise FileExistsError(
                errno.EEXIST, "output file exists (use --force to overwrite)", text
            )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "output folder is not writable", folder)
    remove_stale(folder, name)
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=temp_prefix(name), suffix=".part")
    except OSError as exc:  # name the output, not our temporary file
        raise OSError(exc.errno, f"cannot write in its folder ({exc.strerror})", text) from None
    os.close(fd)
    os.unlink(probe)
    return target


class NotEnoughSpace(OSError):
    """The output would not fit in the free space of its file system."""


# ---------------------------------------------------------------- checking


def _check_int(value, name, minimum=0):
    value = check_int(value, name)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def npy_dtype(n):
    """Smallest unsigned dtype holding the columns of an n-board.

    Returns ``numpy.dtype`` ``uint8`` for n <= 255, ``uint16`` for
    n <= 65535, ``uint32`` for n <= 2**32 - 1, else ``uint64``; always
    little-endian.  Raises TypeError/ValueError for a non-int or negative n.
    """
    import numpy as np

    n = _check_int(n, "n")
    for dt in ("<u1", "<u2", "<u4"):
        if n <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype("<u8")


def _npy_header(dtype, count, n):
    """Version 1.0 header of exactly NPY_HEADER_SIZE bytes: magic, length, dict, padding."""
    from numpy.lib import format as npformat

    descr = npformat.dtype_to_descr(dtype)
    d = f"{{'descr': {descr!r}, 'fortran_order': False, 'shape': ({count}, {n}), }}"
    body = d.encode("latin1")
    magic = npformat.magic(1, 0)
    dict_size = NPY_HEADER_SIZE - len(magic) - 2
    if len(body) + 1 > dict_size:
        raise ValueError(f"shape ({count}, {n}) does not fit in the .npy header")
    return magic + struct.pack("<H", dict_size) + body.ljust(dict_size - 1) + b"\n"


# ---------------------------------------------------------------- rendering


def render(queens, fmt, one_based=False):
    """The text of one solution in a text format.

    Parameters
    ----------
    queens : sequence of int or 1-D numpy.ndarray of an integer dtype
        ``queens[row] = col``, 0-based, entries in ``range(n)`` where n is
        the length (it need not be a solution).
    fmt : str
        One of :data:`TEXT_FORMATS`.
    one_based : bool
        Write columns counted from 1 (``perm`` and ``jsonl``; nothing
        changes in the formats without numbers).

    Returns
    -------
    str
        The solution including its final newline; for ``board`` and
        ``matrix`` without the blank line that separates solutions in a file;
        for ``leetcode`` the board's array of rows (``[".Q..",...]``), as
        one element of the file's array; for ``svg`` a whole SVG document
        of the board (:func:`parqueens.pictures.svg`, labels numbered from 1
        with ``one_based``).  The empty solution (n = 0) is ``"[]\n"`` in
        ``jsonl`` and ``leetcode``, else ``"\n"``.

    Raises
    ------
    TypeError
        If ``queens`` has non-integer entries or ``fmt`` is not a str.
    ValueError
        If ``fmt`` is unknown or ``npy``, or ``queens`` is not 1-D with
        entries in ``range(n)``.
    """
    check_format(fmt, TEXT_FORMATS)
    check_one_based(fmt, one_based)
    q = check_row(queens)
    if fmt == "svg":
        from .svg import svg

        return svg([q], labels=True, one_based=one_based)
    return _render_text(q, fmt, one_based)


def _render_text(q, fmt, one_based):
    """:func:`render` for a checked list of int."""
    n = len(q)
    if fmt == "perm" or (n == 0 and fmt not in ("jsonl", "leetcode")):  # n = 0: an empty line
        off = 1 if one_based else 0
        return " ".join([str(c + off) for c in q]) + "\n"
    if fmt == "jsonl":
        off = 1 if one_based else 0
        return "[" + ",".join([str(c + off) for c in q]) + "]\n"
    if fmt == "board":
        return "".join(["." * c + "Q" + "." * (n - 1 - c) + "\n" for c in q])
    if fmt == "leetcode":
        return "[" + ",".join(['"' + "." * c + "Q" + "." * (n - 1 - c) + '"' for c in q]) + "]\n"
    return "".join(["0 " * c + "1" + " 0" * (n - 1 - c) + "\n" for c in q])


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


def _render_grid(cols, n, first_line, fmt):
    """Bytes of the board/matrix lines for the flat integer column array ``cols``.

    Line ``i`` starts a solution when ``(first_line + i) % n == 0``; such a
    line gets a blank line before it unless it is the very first line.
    """
    import numpy as np

    cols = cols.astype(np.intp, copy=False)  # 1 + 2 * cols must not wrap
    m = cols.shape[0]
    width = n + 1 if fmt == "board" else 2 * n
    g = np.empty((m, width + 1), dtype=np.uint8)
    g[:, 0] = 0
    idx = np.arange(first_line, first_line + m)
    g[(idx % n == 0) & (idx > 0), 0] = ord("\n")
    if fmt == "board":
        g[:, 1:-1] = ord(".")
        g[np.arange(m), 1 + cols] = ord("Q")
    else:
        g[:, 1:-1:2] = ord("0")
        g[:, 2:-1:2] = ord(" ")
        g[np.arange(m), 1 + 2 * cols] = ord("1")
    g[:, -1] = ord("\n")
    out = g.ravel()
    return out[out != 0].tobytes()


# ---------------------------------------------------------------- writing


def _digit_total(lo, hi):
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


def estimate_size(fmt, n, count, *, one_based=False):
    """Size of the file that :class:`SolutionWriter` writes, in bytes.

    Exact when every solution written is a permutation of ``range(n)``
    (every n-queens solution is): the text of a permutation does not
    depend on its order.  For ``svg``, an upper bound (labels included,
    and the digits of a board's place in the grid vary).  File-system block rounding is not
    included.

    Parameters
    ----------
    fmt : str
        One of :data:`FORMATS`.
    n : int
        Board size, >= 0.
    count : int
        Number of solutions, >= 0.
    one_based : bool
        Columns counted from 1 (changes the digit count of perm and jsonl).

    Returns
    -------
    int
        Bytes.

    Raises
    ------
    TypeError, ValueError
        For a non-int or negative ``n`` or ``count``, or an unknown format.
    """
    check_format(fmt)
    check_one_based(fmt, one_based)
    n = _check_int(n, "n")
    count = _check_int(count, "count")
    off = 1 if one_based else 0
    if fmt == "perm":
        return count * (_digit_total(off, n + off) + max(n, 1))
    if fmt == "jsonl":
        return count * (_digit_total(off, n + off) + max(n - 1, 0) + 3)
    if fmt == "leetcode":  # "[" + boards joined by ",\n" + "]\n" ("[\n]\n" for none)
        return 3 + count * (2 + n * (n + 2) + max(n - 1, 0)) + 2 * max(count - 1, 0) + (not count)
    if fmt == "svg":
        return _svg_size_bound(n, count)
    if n == 0 and fmt != "npy":
        return count  # one empty line per solution
    if fmt == "board":
        return count * n * (n + 1) + max(count - 1, 0)
    if fmt == "matrix":
        return count * n * 2 * n + max(count - 1, 0)
    return NPY_HEADER_SIZE + count * n * npy_dtype(n).itemsize


def _svg_size_bound(n, count):
    """Bytes of an svg file of ``count`` boards of size n, at most (with labels)."""
    from .svg import SVG_FOOTER, SvgLayout, svg_header

    layout = SvgLayout(n, labels=True)
    width, height = layout.size(count)
    corner = max(width, height)  # a board's place has no more digits than this
    board = len(layout.board(0, [])) + 2 * len(str(corner)) - 2
    queens = n * len('<use href="#pq-queen" x="" y=""/>') + 2 * _digit_total(0, n)
    head = len(svg_header(width, height, pad=True))
    return head + len(SVG_FOOTER) + count * (board + queens)


def format_bytes(count):
    """A size in bytes for people: ``512 B``, ``3.2 GiB``, ``1.3e+06 PiB``."""
    if count < 1024:
        return f"{int(count)} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        count /= 1024
        if count < 1024:
            return f"{count:.3g} {unit}"
    count /= 1024
    return f"{count:.3g} PiB"


def _sizes_text(need, free, estimated=False):
    """``need [about] X, Y free``, for people; in bytes when they round alike."""
    a, b = format_bytes(need), format_bytes(free)
    if a == b:
        a, b = f"{need} bytes", free
    return f"need {'about ' * bool(estimated)}{a}, {b} free"


def _umask():
    # Linux exposes the umask without changing it (os.umask would, briefly)
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _space(path, fmt, n, count, one_based, reserve=0):
    """(bytes needed, bytes free) for ``count`` solutions written to ``path``
    and ``reserve`` bytes more in its folder."""
    folder = os.path.dirname(os.path.realpath(os.fspath(path)))
    need = estimate_size(fmt, n, count, one_based=one_based) + reserve
    return need, shutil.disk_usage(folder).free


def fits(path, fmt, n, count, *, one_based=False, reserve=0):
    """Whether ``count`` solutions in format ``fmt``, and ``reserve`` bytes
    more (say a listing's temporary file), fit in the free space of the
    folder of ``path`` (:func:`estimate_size` against
    ``shutil.disk_usage(folder).free``): bool.  The folder must exist."""
    need, free = _space(path, fmt, n, count, one_based, reserve)
    return need <= free


#: Bytes written between background syncs of an output file, so that the
#: disk writes a large output while it is still being produced and the final
#: fsync has little left to do (solutions 16 to npy: 0.09 s -> 0.015 s).
_SYNC_BYTES = 64 << 20


class SolutionWriter:
    """Write solutions to a file atomically, or to standard output.

    A context manager: the rows go to a temporary file
    ``.NAME.XXXXXXXX.part`` in the folder of ``path``, which is renamed to
    ``path`` (``os.replace``) when the ``with`` block ends normally or
    :meth:`close` is called.  If the block raises, :meth:`abort` is called,
    or any ``OSError`` (e.g. ``ENOSPC``) happens while writing, the
    temporary file is removed and nothing appears under ``path``.

    Parameters
    ----------
    path : str, os.PathLike or None
        Output file; None or ``"-"`` writes the text formats to
        ``sys.stdout`` (not atomic: lines go out as they are written).
    fmt : str
        One of :data:`FORMATS`.
    n : int
        Board size, >= 0; every solution has length n.
    one_based : bool
        Columns counted from 1 in ``perm`` and ``jsonl``, labels in ``svg``
        (refused, with ``ValueError``, for ``npy``; no effect elsewhere).
    force : bool
        Overwrite an existing ``path`` and skip the free-space check.
    expected_count : int or None
        Number of solutions that will be written, if known.  Then the free
        space of the folder (``shutil.disk_usage(folder).free``) is checked
        against :func:`estimate_size` before anything is created.
    estimated : bool
        ``expected_count`` is an estimate (the refusal says "about").
    reserve : int
        Bytes needed in the same folder besides the output (a listing's
        temporary file), added to the free-space check.
    labels : bool
        ``svg``: number the rows and columns (``ValueError`` for another format).

    ``board`` to standard output that is a terminal able to show it
    (:func:`parqueens.pictures.terminal_can_show`) is drawn as a picture
    (:attr:`picture`); ``svg`` to standard output is held until
    :meth:`close`, which writes its size first.

    Attributes
    ----------
    count : int
        Solutions written so far.
    path : str or None
        The final path (None for standard output).

    Raises
    ------
    TypeError, ValueError
        For invalid arguments, ``npy`` to standard output, or
        ``one_based`` with ``npy``.
    FileExistsError
        If ``path`` exists and ``force`` is False.
    IsADirectoryError
        If ``path`` is a folder.
    FileNotFoundError
        If the folder of ``path`` does not exist.
    PermissionError
        If the folder of ``path`` is not writable.
    NotEnoughSpace
        If ``expected_count`` is given, ``force`` is False and the estimated
        size exceeds the free space.

    Notes
    -----
    The ``.npy`` header has a fixed size of :data:`NPY_HEADER_SIZE` bytes
    and first says 0 rows; :meth:`close` rewrites it with the real count.
    The final file gets the usual permissions (``0o666`` less the umask).
    """

    def __init__(
        self,
        path,
        fmt,
        n,
        *,
        one_based=False,
        force=False,
        expected_count=None,
        estimated=False,
        reserve=0,
        labels=False,
    ):
        self.fmt = check_format(fmt)
        labels = check_labels(fmt, labels)
        self.n = _check_int(n, "n")
        self.one_based = check_one_based(fmt, one_based)
        self.force = bool(force)
        if expected_count is not None:
            expected_count = _check_int(expected_count, "expected_count")
        to_stdout = path is None or (isinstance(path, str) and path == "-")
        check_destination(fmt, not to_stdout)
        self.count = 0
        self._file = None
        self._tmp = None
        self._closed = False
        self._unsynced = 0
        self._syncing = None  # the helper thread of the last background sync
        self._sync_error = None
        self._dtype = npy_dtype(self.n) if fmt == "npy" else None
        self._layout = None
        self._held = []  # svg to standard output: the boards' text, sent at close
        if fmt == "svg":
            from .svg import SvgLayout

            self._layout = SvgLayout(self.n, labels=labels, one_based=self.one_based)
        #: board to a terminal that can show it: drawn (pictures.terminal_board)
        self.picture = False
        self.path = None
        if to_stdout:
            if fmt == "board" and self.n:
                from .svg import terminal_can_show

                self.picture = terminal_can_show(sys.stdout)
        else:
            self._open_file(path, expected_count, estimated, reserve)
        if fmt == "leetcode":  # the array of boards, to a file or stdout alike
            self._emit(b"[")

    def _open_file(self, path, expected_count, estimated, reserve):
        """Check ``path`` and the free space, open the temporary file and
        start it with the fixed-size header of npy or svg."""
        fmt = self.fmt
        self.path = check_output_path(path, self.force)
        if expected_count is not None and not self.force:
            need, free = _space(self.path, fmt, self.n, expected_count, self.one_based, reserve)
            if need > free:
                raise NotEnoughSpace(
                    errno.ENOSPC,
                    f"not enough space for the output"
                    f"{' and its temporary file' * bool(reserve)}: "
                    f"{_sizes_text(need, free, estimated)} "
                    f"(use --force to write anyway)",
                    os.path.dirname(self.path),
                )
        self._file = _open_temp(self.path)
        self._tmp = self._file.name
        if fmt == "npy":
            self._emit(_npy_header(self._dtype, 0, self.n))
        elif fmt == "svg":
            from .svg import svg_header

            self._emit(svg_header(1, 1, pad=True).encode("ascii"))

    # context manager
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False

    def __del__(self):
        # an unclosed writer never publishes its file
        try:
            if not self._closed:
                self.abort()
        except Exception:
            pass

    @property
    def closed(self):
        """True after :meth:`close` or :meth:`abort`."""
        return self._closed

    def _emit(self, data):
        """Write bytes; on an OSError discard the temporary file and re-raise."""
        if self.path is None:
            sys.stdout.write(data.decode("utf-8"))
            return
        try:
            self._write(data)
            if self._unsynced >= _SYNC_BYTES and self._sync_done():
                self._file.flush()
                self._unsynced = 0
                self._syncing = threading.Thread(target=self._sync, daemon=True)
                self._syncing.start()
        except OSError:
            self.abort()
            raise

    def _write(self, data):
        try:
            self._file.write(data)
        except OSError as exc:
            if exc.filename is None:  # say which file (ENOSPC names none)
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise
        self._unsynced += len(data)

    def _sync(self):
        try:
            os.fdatasync(self._file.fileno())
        except OSError as exc:  # raised by the next write or close
            self._sync_error = exc

    def _sync_done(self, wait=False):
        """Whether no background sync is running (after it, if ``wait``);
        raises the error of a finished one."""
        if self._syncing is not None:
            if wait:
                self._syncing.join()
            if self._syncing.is_alive():
                return False
            self._syncing = None
        if self._sync_error is not None:
            raise self._sync_error
        return True

    def _check_open(self):
        if self._closed:
            raise ValueError("write to a closed SolutionWriter")

    def write(self, queens):
        """Write one solution.

        Parameters
        ----------
        queens : sequence of int or 1-D numpy.ndarray of an integer dtype
            ``queens[row] = col``, 0-based, length n, entries in ``range(n)``.

        Raises
        ------
        TypeError, ValueError
            For input of the wrong type or shape, or after close.
        OSError
            From the file system; the temporary file is removed first.
        """
        self._check_open()
        self._write_rows([check_row(queens, self.n)])

    def _write_rows(self, rows):
        """Write checked rows given as lists of int (without numpy for text)."""
        if self.fmt == "npy":
            import numpy as np

            data = np.array(rows, self._dtype).reshape(len(rows), self.n).tobytes()
        elif self.fmt == "svg":
            text = "".join(self._layout.board(self.count + i, q) for i, q in enumerate(rows))
            if self.path is None:  # its size is written first: held until close
                self._held.append(text)
                self.count += len(rows)
                return
            data = text.encode("ascii")
        else:
            if self.picture:
                from .svg import terminal_board

                texts = [terminal_board(q) for q in rows]
            else:
                texts = [_render_text(q, self.fmt, self.one_based) for q in rows]
            if self.n and self.fmt in ("board", "matrix"):  # a blank line between boards
                texts = ["\n" * bool(self.count + i) + t for i, t in enumerate(texts)]
            elif self.fmt == "leetcode":  # one board a line, the lines joined by commas
                texts = [",\n" * bool(self.count + i) + t[:-1] for i, t in enumerate(texts)]
            data = "".join(texts).encode("utf-8")  # ASCII but for a terminal picture
        self._emit(data)
        self.count += len(rows)

    def _affixes(self):
        return ("[", ",", "]\n") if self.fmt == "jsonl" else ("", " ", "\n")

    def write_many(self, array):
        """Write the rows of a 2-D array, vectorised.

        Parameters
        ----------
        array : numpy.ndarray of an integer dtype, shape ``(k, n)``, or list of lists of int
            One solution per row, entries in ``range(n)``.  A list is
            written without numpy (text formats).

        Raises
        ------
        TypeError, ValueError
            For input of the wrong dtype or shape, or after close.
        OSError
            From the file system; the temporary file is removed first.
        """
        self._check_open()
        a = check_rows(array, self.n)
        if isinstance(a, list):
            if a:
                self._write_rows(a)
            return
        k, n = a.shape
        if k == 0:
            return
        fmt = self.fmt
        if fmt in ("leetcode", "svg") or self.picture:  # documents, pictures: not millions
            for i in range(0, k, 1 << 14):
                self._write_rows(a[i : i + (1 << 14)].tolist())
            return
        if fmt in ("board", "matrix") and n == 0:
            # no separator: an n = 0 board is one empty line, as in perm
            self._emit(b"\n" * k)
            self.count += k
            return
        if fmt in ("board", "matrix"):
            lines = max(1, _BLOCK_BYTES // (2 * n + 2))
            flat = a.ravel()
            first = self.count * n
            for i in range(0, flat.shape[0], lines):
                self._emit(_render_grid(flat[i : i + lines], n, first + i, fmt))
        elif fmt == "npy" and a.dtype == self._dtype and a.flags.c_contiguous and a.size:
            self._emit(memoryview(a).cast("B"))  # the rows as they are: no copy
        else:
            per_row = max(1, n) * (self._dtype.itemsize if fmt == "npy" else 8)
            rows = max(1, _BLOCK_BYTES // per_row)
            for i in range(0, k, rows):
                block = a[i : i + rows]
                if fmt == "npy":
                    self._emit(block.astype(self._dtype).tobytes())
                else:
                    self._emit(_render_numbers(block, self.one_based, *self._affixes()))
        self.count += k

    def close(self):
        """Finish the file and rename it into place (a no-op when closed).

        Raises
        ------
        FileExistsError
            If ``path`` appeared meanwhile and ``force`` is False (the
            temporary file is removed).
        OSError
            From the file system; the temporary file is removed first.
        """
        if self._closed:
            return
        if self.path is None:
            if self.fmt == "svg":
                from .svg import SVG_FOOTER, svg_header

                head = svg_header(*self._layout.size(self.count))
                sys.stdout.write(head + "".join(self._held) + SVG_FOOTER)
                self._held = []
            elif self.fmt == "leetcode":
                sys.stdout.write(_LEETCODE_END[not self.count])
            self._closed = True
            sys.stdout.flush()
            return
        try:
            self._sync_done(wait=True)
            if self.fmt == "npy":
                self._file.seek(0)
                self._file.write(_npy_header(self._dtype, self.count, self.n))
                self._file.seek(0, os.SEEK_END)
            elif self.fmt == "svg":
                from .svg import SVG_FOOTER, svg_header

                self._write(SVG_FOOTER.encode("ascii"))
                self._file.seek(0)
                self._file.write(svg_header(*self._layout.size(self.count), pad=True).encode())
                self._file.seek(0, os.SEEK_END)
            elif self.fmt == "leetcode":
                self._write(_LEETCODE_END[not self.count].encode())
            _publish(self._file, self.path, self.force)
        except OSError as exc:
            self.abort()
            if exc.filename is None:  # say which file (ENOSPC while flushing names none)
                raise OSError(exc.errno, exc.strerror, self.path) from None
            raise
        except BaseException:
            self.abort()
            raise
        self._closed = True

    def abort(self):
        """Discard the output: remove the temporary file (a no-op when closed)."""
        if self._closed:
            return
        self._closed = True
        if self._syncing is not None:
            self._syncing.join()  # before the file descriptor is closed
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass  # e.g. ENOSPC again while flushing the buffer
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except FileNotFoundError:
                pass


def _open_temp(path):
    """The temporary file ``.NAME.XXXXXXXX.part`` beside ``path`` (binary,
    buffered) that :func:`_publish` renames to it."""
    folder, name = os.path.split(path)
    return tempfile.NamedTemporaryFile(
        mode="wb",
        dir=folder,
        prefix=temp_prefix(name),
        suffix=".part",
        delete=False,
        buffering=1 << 20,
    )


def _publish(f, path, force):
    """Close the temporary file ``f`` and rename it to ``path``, with the
    usual permissions of a new file (``0o666`` less the umask).  Raises
    ``FileExistsError`` if ``path`` appeared meanwhile and not ``force``;
    the caller removes the temporary file on any error."""
    f.flush()
    os.fsync(f.fileno())
    f.close()
    os.chmod(f.name, 0o666 & ~_umask())
    if not force and os.path.lexists(path):
        raise FileExistsError(
            errno.EEXIST, "output file appeared while writing (use --force to overwrite)", path
        )
    os.replace(f.name, path)


def write_text_atomically(path, text, force=False):
    """Write ``text`` (str) to ``path`` in UTF-8, atomically as
    :class:`SolutionWriter` writes: complete or not at all, with the usual
    permissions.  Raises as :func:`check_output_path` and the file system
    do; the temporary file is removed first."""
    target = check_output_path(path, force)
    f = _open_temp(target)
    try:
        f.write(text.encode("utf-8"))
        _publish(f, target, force)
    except BaseException:
        f.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f.name)
        raise


# ---------------------------------------------------------------- reading

#: The first bytes of every ``.npy`` file.
NPY_MAGIC = b"\x93NUMPY"


class SolutionReader:
    """The iterator that :func:`read_solutions` returns.

    Attributes
    ----------
    fmt : str
        The format read (given or guessed).
    n : int or None
        The board size: as given, else from the ``.npy`` shape (at once) or
        from the first solution read.  None while it is unknown, and after
        the end of a text input without any solution (e.g. an empty file).
    """

    def __init__(self, fmt, n, rows=(), array=None, name=None):
        self.fmt = fmt
        self.n = n
        self._rows = iter(rows)
        #: npy: the whole (memory-mapped) array; None for text
        self.array = array
        self._name = name

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._rows)

    def blocks(self, size=1 << 16):
        """The solutions not read yet, as integer arrays of shape ``(k, n)``
        (``k <= size``), in order: ``.npy`` data a block at a time (memory
        mapped), text parsed line by line and gathered.  Raises as iterating
        does."""
        if self.array is not None:
            yield from _npy_blocks(self.array, self._name, size)
            return
        yield from _gather(self, size)


def _gather(solutions, size):
    """Tuples of equal length gathered into int64 arrays of at most ``size`` rows."""
    import numpy as np

    solutions = iter(solutions)
    while chunk := list(itertools.islice(solutions, size)):
        yield np.array(chunk, dtype=np.int64).reshape(len(chunk), len(chunk[0]))


class _TextReader(SolutionReader):
    """The :class:`SolutionReader` of a text format; reads lines as solutions are asked for.

    ``open_input()`` returns a context manager of the raw lines (bytes); it
    is called when iteration starts, and left when the lines run out or the
    reading fails.  ``n`` is the board size: as given, else set by the first
    content line, or set to 0 at the end of an input of blank lines only.
    """

    def __init__(self, fmt, n, name, open_input, one_based):
        super().__init__(fmt, n)
        self._spec = _FORMATS[fmt]
        self._name = name  # for the error messages
        self._open_input = open_input
        self._offset = 1 if one_based and isinstance(self._spec, _LineFormat) else 0
        self._zero_given = n == 0  # then each blank line is an empty solution, as it comes
        self._lineno = 0  # of the line being read, from 1
        self._grid = []  # queen columns of the board/matrix solution being read
        self._grid_start = None  # line number of its first line
        self._blanks = 0  # blank lines before any content: empty solutions if none follows
        #: Lines skipped as empty among solutions of n > 0 columns (perm, jsonl).
        self.empty_lines = []
        self._blank_lines = []  # those before any content
        self.empty_lines_more = 0  # beyond the first 100
        #: Solutions read so far.
        self.solutions_read = 0
        #: Solution index (from 0) -> ``(row, columns)`` of its first board
        #: line without exactly one queen, or ``(row, column)`` of its first
        #: column off the board (perm, jsonl; 0-based); such a row reads as
        #: column n.  The first 100 such solutions.
        self.bad_rows = {}
        self._rows = self._solutions()

    def _solutions(self):
        """Generator of the solutions, in input order."""
        with self._open_input() as lines:
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
        """As :meth:`SolutionReader.blocks`; perm lines as parqueens writes
        them are parsed in bulk (:mod:`parqueens.parse`), from the first
        other line on one by one as iterating does (with the same messages)."""
        import numpy as np

        if self.fmt != "perm":
            yield from super().blocks(size)
            return
        self._rows = iter(())  # the lines are read here
        with self._open_input() as lines:
            lines = iter(lines)
            chunk = list(itertools.islice(lines, _BULK_FROM))
            if len(chunk) < _BULK_FROM:  # a short input: not worth loading numba
                yield from _gather(self._solutions_of(chunk), size)
                return
            from .perm_parse import _perm_lines

            lines = itertools.chain(chunk, lines)
            while chunk := list(itertools.islice(lines, size)):
                # n as given or read, else guessed from the first line (the
                # kernel parses a line only if it has exactly n columns)
                n = self.n if self.n is not None else chunk[0].count(b" ") + 1
                rows = 0
                if n and (self.n is not None or self._lineno == 0):
                    out = np.empty((len(chunk), n), np.int64)
                    data = np.frombuffer(b"".join(chunk), np.uint8)
                    rows, _ = _perm_lines(data, n, self._offset, out)
                    self._lineno += rows
                    self.solutions_read += rows
                    if rows:
                        self.n = n
                        yield out[:rows]
                if rows < len(chunk):
                    rest = itertools.chain(chunk[rows:], lines)
                    yield from _gather(self._solutions_of(rest), size)
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
        if isinstance(self._spec, _GridFormat):
            return self._grid_line(line)
        return self._numbers_line(line)

    def _blank(self):
        """The solution a blank line completes: the board/matrix being read, or an
        empty one (n = 0 given); else None (counted while n is unknown)."""
        if self._grid:
            return self._end_grid()
        if self._spec.empty_line:
            if self._zero_given:
                self.solutions_read += 1
                return ()
            if self.n is None:
                self._blanks += 1
                self._blank_lines.append(self._lineno)
                return None
        if not isinstance(self._spec, _GridFormat):
            if len(self.empty_lines) < 100:  # skipped; verify reports them
                self.empty_lines.append(self._lineno)
            else:
                self.empty_lines_more += 1
        return None

    def _check_length(self, length):
        """The first solution sets n; the others must have length n."""
        if self.n is None:
            self.n = length
            if length and not isinstance(self._spec, _GridFormat):
                self.empty_lines.extend(self._blank_lines[:100])
        if length != self.n:
            raise ValueError(f"{self._where()}: expected {self.n} columns, got {length}")

    def _numbers_line(self, line):
        """The solution on a perm/jsonl line, 0-based; a column off the
        board reads as column n (an invalid solution, which verify reports)."""
        where, off = self._where(), self._offset
        cols = self._spec.parse(line, where)
        self._check_length(len(cols))
        n = self.n
        queens = tuple(c - off for c in cols) if off else tuple(cols)
        if not all(0 <= c < n for c in queens):  # kept as column n (any size fits in int64)
            r = next(r for r, c in enumerate(queens) if not 0 <= c < n)
            _bad_row(self, r, queens[r])
            queens = tuple(c if 0 <= c < n else n for c in queens)
        self.solutions_read += 1
        return queens

    def _grid_line(self, line):
        """Add the queen of a board/matrix line to the solution being read; None."""
        where, queen = self._where(), self._spec.queen
        cells = self._spec.cells(line, where)
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
        self._grid.append(_queen_column(self, len(self._grid), cells, queen))
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


#: The end of a leetcode file: after its boards, and for none: ``[`` and
#: ``]`` on two lines, since ``[]`` alone is the jsonl of the n = 0 solution.
_LEETCODE_END = ("]\n", "\n]\n")

#: Bytes of a leetcode input decoded at a time.
_LEETCODE_CHUNK = 1 << 20


class _LineFile:
    """``read(size)`` over an iterator of byte lines (stdin after sniffing)."""

    def __init__(self, lines):
        self._lines = lines

    def read(self, size):
        return b"".join(itertools.islice(self._lines, 1 << 10))


class _LeetCodeReader(SolutionReader):
    """The :class:`SolutionReader` of the leetcode format: one JSON array of
    boards, read a board at a time (any layout: one line, a board a line,
    pretty-printed).  Each board is an array of n row strings, read as
    board lines are (``q``, spaces); a row without exactly one queen reads
    as column n and is recorded in ``bad_rows``, as for board files."""

    def __init__(self, n, name, open_input):
        super().__init__("leetcode", n)
        self._name = name
        self._open_input = open_input
        self.solutions_read = 0
        self.bad_rows = {}
        self._rows = self._solutions()

    def _solutions(self):
        import codecs

        decoder = json.JSONDecoder()
        utf8 = codecs.getincrementaldecoder("utf-8")()
        with self._open_input() as f:
            chunks = iter(lambda: f.read(_LEETCODE_CHUNK), b"")
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
            cells = _board_cells(row, f"{where}, row {r}") if self.n else ""
            if len(cells) != self.n:
                raise ValueError(f"{where}, row {r}: {len(cells)} squares, expected {self.n}")
            queens.append(_queen_column(self, r, cells, "Q"))
        self.solutions_read += 1
        return tuple(queens)


def _bad_row(reader, row, what):
    """Record in ``reader.bad_rows`` why the solution being read is not a
    placement on the board: ``what`` is the columns of a board line without
    exactly one queen, or a column off the board (first 100 solutions)."""
    if len(reader.bad_rows) < 100:
        reader.bad_rows.setdefault(reader.solutions_read, (row, what))


def _queen_column(reader, row, cells, queen):
    """The column of a board line's queen; with no queen or several, an
    invalid solution (as two queens of one column are): column n, and
    :func:`_bad_row` says why."""
    if cells.count(queen) == 1:
        return cells.index(queen)
    _bad_row(reader, row, [c for c, cell in enumerate(cells) if cell == queen])
    return reader.n


def _head(f):
    """The lines of binary file ``f`` up to the first non-blank one (all if none is)."""
    head = []
    for raw in f:
        head.append(raw)
        if raw.strip():
            break
    return head


def _sniff(head, one_based):
    """Guess the format from :func:`_head` of the input."""
    if head and head[0].startswith(NPY_MAGIC):
        return "npy"
    if not head or not head[-1].strip():
        return _SNIFF_DEFAULT
    line = head[-1].strip().decode("utf-8", "replace").lstrip("\ufeff").strip()
    for name, spec in _FORMATS.items():
        if spec.sniff is not None and spec.sniff(line, one_based):
            return name
    return _SNIFF_DEFAULT


def read_solutions(path, fmt=None, n=None, *, one_based=False):
    """Read solutions written in any of :data:`FORMATS`.

    Only the structure is checked (every solution has n rows), not whether
    the rows are n-queens solutions: a column off the board of a text
    format and a board line without exactly one queen read as column n
    (``bad_rows`` of the reader says what was there), and an npy file's as
    they are (:func:`parqueens.verify.check_blocks` reports them all as
    invalid).

    Parameters
    ----------
    path : str or os.PathLike
        Input file, or ``"-"`` for ``sys.stdin`` (its binary buffer).  The
        format of stdin is guessed as for a file without extension; npy
        from stdin is read into memory whole.
    fmt : str or None
        One of :data:`FORMATS`; None guesses it from the extension
        (:data:`EXTENSIONS`) and otherwise from the content: the ``.npy``
        magic bytes, a first non-blank line starting with ``[`` (jsonl), of
        ``Q`` and ``.`` (board), of ``0``/``1`` with a single ``1`` (matrix,
        for n != 2), else perm.
    n : int or None
        Expected board size; None takes it from the ``.npy`` shape or the
        first solution.  In perm, board and matrix an empty line is the
        empty solution (n = 0) when ``n=0`` is given, or when n is None and
        no line has any content (what ``solutions 0`` writes); otherwise
        blank lines are skipped.  An empty input has no solution.
    one_based : bool
        Columns counted from 1 in ``perm`` and ``jsonl`` (never guessed;
        refused, with ``ValueError``, for the formats without numbers).

    Returns
    -------
    SolutionReader
        An iterator of 0-based ``queens`` tuples, one per solution in input
        order, with the attributes ``fmt`` and ``n`` (None for an input
        without solutions whose n is not given).  A text file is opened when
        iteration starts and closed when it ends.

    Raises
    ------
    FileNotFoundError, OSError
        If the input cannot be read (raised at once).
    TypeError, ValueError
        For invalid arguments (at once); ``ValueError`` naming the input
        for malformed content: for npy at once ("FILE is not a valid .npy
        file of solutions: ...", or a row out of range while iterating),
        for text while iterating, naming the line.
    """
    if n is not None:
        n = _check_int(n, "n")
    if fmt is not None:
        check_format(fmt)
    stdin = isinstance(path, str) and path == "-"
    head = []  # stdin: the lines that sniffing consumed, read again first
    if stdin:
        name = "<stdin>"
        if fmt is None:
            head = _head(sys.stdin.buffer)
            fmt = _sniff(head, one_based)
    else:
        path = name = os.fspath(path)
        os.stat(path)  # FileNotFoundError now rather than at the first next()
        ext = os.path.splitext(path)[1].lower()
        # .json is jsonl's, and a leetcode file may carry it: its content decides
        fmt = fmt or (None if ext in SHARED_EXTENSIONS else EXTENSIONS.get(ext))
        if fmt is None:
            with open(path, "rb") as f:
                fmt = _sniff(_head(f), one_based)
    check_one_based(fmt, one_based)
    if fmt not in READABLE_FORMATS:
        raise ValueError(f"{name}: {fmt} is a picture, which parqueens does not read back")
    if fmt == "npy":
        return _npy_reader(None if stdin else path, name, head, n)
    if stdin:
        open_input = functools.partial(
            contextlib.nullcontext, itertools.chain(head, sys.stdin.buffer)
        )
    else:
        open_input = functools.partial(open, path, "rb")
    if fmt == "leetcode":
        if stdin:
            lines = itertools.chain(head, sys.stdin.buffer)
            open_input = functools.partial(contextlib.nullcontext, _LineFile(lines))
        return _LeetCodeReader(n, name, open_input)
    return _TextReader(fmt, n, name, open_input, bool(one_based))


def _npy_reader(path, name, head, n):
    """The :class:`SolutionReader` of npy file ``path``, or of stdin if None
    (after ``head``, its lines read by sniffing); the data is checked now."""
    if path is None:
        data = b"".join(head) + sys.stdin.buffer.read()
        arr = _load_npy(io.BytesIO(data), name, len(data), None)
    else:
        with open(path, "rb") as f:
            arr = _load_npy(f, name, os.fstat(f.fileno()).st_size, path)
    if n is not None and arr.shape[1] != n:
        raise ValueError(f"{name}: rows have length {arr.shape[1]}, expected n = {n}")
    return SolutionReader("npy", arr.shape[1], _npy_rows(arr, name), arr, name)


def _load_npy(f, name, size, path):
    """The array of ``.npy`` data in binary file ``f`` of ``size`` bytes.

    Memory-mapped from ``path`` if given, else read from ``f``.  The header
    is checked here first, because numpy's own errors for a bad file talk of
    pickles, mmap or zip archives, and do not name it.

    Raises
    ------
    ValueError
        "NAME is not a valid .npy file of solutions: WHY" unless ``f`` holds
        an integer array of shape ``(count, n)`` and all of its data.
    """
    import numpy as np
    from numpy.lib import format as npformat

    def bad(why):
        return ValueError(f"{name} is not a valid .npy file of solutions: {why}")

    if f.read(len(NPY_MAGIC)) != NPY_MAGIC:
        raise bad("it does not start with the .npy magic bytes")
    f.seek(0)
    try:
        version = npformat.read_magic(f)
        if version not in ((1, 0), (2, 0), (3, 0)):
            raise ValueError(f"unknown .npy version {version[0]}.{version[1]}")
        # 3.0 differs from 2.0 only in a UTF-8 header, ASCII for integer arrays
        read_header = (
            npformat.read_array_header_1_0 if version == (1, 0) else npformat.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(f)
    except (ValueError, TypeError, SyntaxError) as e:
        raise bad(e) from None
    if len(shape) != 2:
        raise bad(f"expected an array of shape (count, n), got shape {shape}")
    if shape[0] and dtype.kind not in "iu":
        raise bad(f"expected an integer dtype, got {dtype}")
    need = shape[0] * shape[1] * dtype.itemsize
    have = size - f.tell()
    if have < need:
        raise bad(f"truncated: the header announces {need} bytes of data, it holds {have}")
    order = "F" if fortran else "C"
    if need == 0:  # nothing to map (mmap refuses length 0)
        return np.zeros(shape, dtype=np.uint8)
    if path is not None:
        return np.memmap(path, dtype, "r", f.tell(), shape, order)
    return np.frombuffer(f.read(need), dtype).reshape(shape, order=order)


def _npy_rows(arr, name):
    """The rows of a checked 2-D integer array as tuples."""
    step = max(1, _BLOCK_BYTES // max(1, arr.shape[1] * arr.dtype.itemsize))
    for block in _npy_blocks(arr, name, step):
        yield from map(tuple, block.tolist())


def _npy_blocks(arr, name, step):
    """The rows of a checked 2-D integer array, ``step`` at a time (columns
    off the board kept: invalid solutions, which verify reports)."""
    import numpy as np

    for i in range(0, arr.shape[0], step):
        yield np.asarray(arr[i : i + step])
