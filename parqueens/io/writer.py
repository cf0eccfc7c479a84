"""Writing solutions in any format, to a file atomically or to standard output."""

import sys

from ..checks import (
    check_color,
    check_destination,
    check_format,
    check_labels,
    check_n,
    check_one_based,
    check_row,
    check_rows,
)
from .atomic import AtomicFile, CloseOrAbort, check_output_path
from .base import Output
from .paths import is_stdio
from .registry import REGISTRY
from .space import check_space

__all__ = ["SolutionWriter"]


class SolutionWriter(CloseOrAbort):
    """Write solutions to a file atomically, or to standard output.

    A context manager: the rows go to a temporary file beside ``path``
    (:class:`parqueens.io.atomic.AtomicFile`), which is renamed to ``path``
    when the ``with`` block ends normally or :meth:`close` is called.  If
    the block raises, :meth:`abort` is called, or any ``OSError`` (e.g.
    ``ENOSPC``) happens while writing, the temporary file is removed and
    nothing appears under ``path``.  What is written is the format object's
    (:mod:`parqueens.io.base`): its header, the solutions, its footer.

    Parameters
    ----------
    path : str, os.PathLike or None
        Output file; None or ``"-"`` writes the text formats to
        ``sys.stdout`` (not atomic: lines go out as they are written).
    fmt : str
        One of :data:`parqueens.names.FORMATS`.
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
        against :func:`parqueens.io.estimate_size` before anything is created.
    estimated : bool
        ``expected_count`` is an estimate (the refusal says "about").
    reserve : int
        Bytes needed in the same folder besides the output (a listing's
        temporary file), added to the free-space check.
    labels : bool
        ``svg``: number the rows and columns (``ValueError`` for another format).
    color : str
        ``board`` to standard output in colours: ``"auto"`` on a terminal
        that shows them, ``"always"`` or ``"never"``
        (:func:`parqueens.io.terminal_board.terminal_can_show`).

    ``board`` to standard output that is a terminal able to show it
    (:func:`parqueens.io.terminal_board.terminal_can_show`) is drawn as a picture
    (:attr:`picture`); a format whose header states the count (``svg``) is
    held until :meth:`close` on standard output.

    Attributes
    ----------
    count : int
        Solutions written so far.
    path : str or None
        The final path (None for standard output).
    picture : bool
        Drawn for the terminal.

    Raises
    ------
    TypeError, ValueError
        For invalid arguments, ``npy`` to standard output, or
        ``one_based`` with ``npy``.
    FileExistsError, IsADirectoryError, FileNotFoundError, PermissionError
        As :func:`parqueens.io.atomic.check_output_path`: ``path`` exists
        and ``force`` is False, is a folder, its folder does not exist or
        is not writable.
    parqueens.io.space.NotEnoughSpace
        If ``expected_count`` is given, ``force`` is False and the estimated
        size exceeds the free space.
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
        color="auto",
    ):
        self.fmt = check_format(fmt)
        color = check_color(color)
        labels = check_labels(fmt, labels)
        self.n = check_n(n, high=None)
        self.one_based = check_one_based(fmt, one_based)
        self.force = bool(force)
        if expected_count is not None:
            expected_count = check_n(expected_count, name="expected_count", high=None)
        to_stdout = is_stdio(path)
        check_destination(fmt, not to_stdout)
        self.count = 0
        self.path = None
        self._closed = False
        self._file = None  # the AtomicFile; None for standard output
        self._held = None  # standard output of a counted header: the bytes, sent at close
        self._out = Output(self.n, self.one_based, labels)
        self._format = REGISTRY[fmt]
        if to_stdout:
            self._format = self._format.for_stream(sys.stdout, self.n, color)
            if self._format.counted_header:
                self._held = []
        else:
            self.path = check_output_path(path, self.force)
            if expected_count is not None and not self.force:
                need = self._format.size(self.n, expected_count, self.one_based) + reserve
                check_space(self.path, need, reserved=bool(reserve), estimated=estimated)
            self._file = AtomicFile(self.path, self.force)
        self.picture = self._format.picture
        if self._held is None:
            self._emit(self._format.header(self._out, 0, fixed=self._file is not None))

    @property
    def closed(self):
        """True after :meth:`close` or :meth:`abort`."""
        return self._closed

    def _emit(self, data):
        """Send bytes on (held, to standard output, or to the file); an error
        of the file closes the writer, the AtomicFile having removed its
        temporary file."""
        if self._held is not None:
            self._held.append(data)
        elif self._file is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            try:
                self._file.write(data)
            except BaseException:  # the AtomicFile has removed the temporary file
                self._closed = True
                raise

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

    def write_many(self, array):
        """Write the rows of a 2-D array, vectorised.

        Parameters
        ----------
        array : numpy.ndarray of an integer dtype, shape ``(k, n)``, or list of lists of int
            One solution per row, entries in ``range(n)``.  A list is
            written without numpy (text formats).

        Raises as :meth:`write` does.
        """
        self._check_open()
        self._write_rows(check_rows(array, self.n))

    def _check_open(self):
        if self._closed:
            raise ValueError("write to a closed SolutionWriter")

    def _write_rows(self, rows):
        """Write checked rows: a list of lists of int, or an integer array."""
        if not len(rows):
            return
        if isinstance(rows, list):
            self._emit(self._format.encode_rows(self._out, rows, self.count))
        else:
            for data in self._format.encode_block(self._out, rows, self.count):
                self._emit(data)
        self.count += len(rows)

    def close(self):
        """Finish the output: the footer, then on standard output the held
        text, in a file the header rewritten with the count, and the file
        renamed into place (a no-op when closed).

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
        fmt, out = self._format, self._out
        footer = fmt.footer(out, self.count)
        if self._file is None:
            if self._held is not None:
                head = fmt.header(out, self.count, fixed=False)
                footer = head + b"".join(self._held) + footer
                self._held = None
            self._emit(footer)
            self._closed = True
            sys.stdout.flush()
            return
        try:  # an error of the AtomicFile has removed the temporary file
            self._file.write(footer)
            if fmt.counted_header:
                self._file.write_at_start(fmt.header(out, self.count, fixed=True))
            self._file.publish()
        finally:
            self._closed = True

    def abort(self):
        """Discard the output: remove the temporary file (a no-op when closed)."""
        if self._closed:
            return
        self._closed = True
        if self._file is not None:
            self._file.abort()
